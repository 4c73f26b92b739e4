// V8's answers for global replaces by regular expressions in text outside
// ASCII (replacement templates with every $ pattern, and a function
// given each match's groups and position), the oracle of core/transform's
// TestReplaceAgainstV8: node replace_v8.js > replace_v8.json
const texts = ["é,ü", "日本,語;x", "a😀,b😀", "ä ö\u00a0ü\u2003x", "x\u2028y\u2029z", "ſs,S", "é", "a\u00e9b,c\u00e9", "é,".repeat(5), "aab,é", "xaabyé", "ab,é,ba", "😀😀,😀"];
const pats = ["/,/g", "/(,)/g", "/é/g", "/(é)(,)?/g", "/[^a-z]/g", "/\\W/gu", "/./gu", "/./g", "/./gs", "/\\s+/g", "/(a)|(b)/g", "/😀/gu", "/[😀,]/gu", "/\\u00e9/g", "/(a*)*b/g", "/(a|ab)(c|bcd)?(d*)/g", "/x*/g", "/(?<n>,)/g", "/,/gy", "/\\b\\w/g", "/é$/g", "/^./gm"];
const repls = ["'[$&]'", "'$1-$2'", "'$`|$\\''", "'$$'", "'$0$00$01$10$99'", "'$<n>'", "'$'", "'é$1😀$'", "function () { var a = Array.prototype.slice.call(arguments, 0, -1); return '<' + a.map(String).join(',') + '>' }"];
const prelude = "function enc(x) { return Array.from({length: x.length}, function (_, i) { return x.charCodeAt(i).toString(16) }).join(' ') }";
const enc = eval("(" + prelude + ")");
const out = {prelude, cases: []};
for (const p of pats) for (const t of texts) {
  const q = JSON.stringify(t);
  const e = `(function () { var r = ${p}, s = ${q}; return [${repls.join(", ")}].map(function (x) { return enc(s.replace(r, x)) }).join(' / ') })()`;
  out.cases.push({expr: e, v8: eval(e)});
}
console.log(JSON.stringify(out, null, 1));
