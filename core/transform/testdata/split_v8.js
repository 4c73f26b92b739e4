// V8's answers for splits by regular expressions (text outside ASCII,
// line ends, case folding), the oracle of core/transform's
// TestSplitAgainstV8: node split_v8.js > split_v8.json
const texts = ["é,ü", "日本,語;x", "a😀,b😀", "ä ö\u00a0ü\u2003x", "x\u2028y\u2029z", "ſs,S", "é", "éé", "😀", "a\u00e9b,c\u00e9", "\ud83d,x\ude00", "é,".repeat(50), "a\rb\nc", "sk,SK", "aab,é", "xaabyé", "aab,e"];
const pats = ["/,/", "/(,)/", "/,/g", "/,/y", "/,/u", "/x*/", "/x*/u", "new RegExp('')", "new RegExp('', 'u')", "/\\b/", "/\\s+/", "/[,;]?/", "/./", "/./u", "/./s", "/(?<n>,)|(;)/", "/[^a-z]/", "/\\W/u", "/s/i", "/^/m", "/$/m", "/\\u00e9/", "/[\\ud83d]/", "/\\ud83d/", "/(?:)/", "/(é)(,)?/", "/\\u017f/i", "/\\u212a/i", "/[^a-z]/i", "/K/iu", "/ß/i", "/(a*)*b/", "/(a*)+b/", "/(a|ab)(c|bcd)(d*)/"];
const prelude = "function enc(a) { return a.map(function (x) { return x === undefined ? '-' : Array.from({length: x.length}, function (_, i) { return x.charCodeAt(i).toString(16) }).join(' ') }).join('|') }";
const enc = eval("(" + prelude + ")");
const out = {prelude, cases: []};
for (const p of pats) for (const t of texts) {
  const q = JSON.stringify(t);
  const e = `enc(${q}.split(${p})) + ' / ' + enc(${q}.split(${p}, 2))`;
  out.cases.push({expr: e, v8: eval(e)});
}
console.log(JSON.stringify(out, null, 1));
