// dom.js builds DOM nodes. Everything the user or the core supplies goes in
// as text nodes: this module has no way to parse HTML, which is how the
// page keeps a pasted "<img onerror=...>" inert.

/**
 * h creates an element. attrs: "class", "text", event handlers as "onX"
 * functions, booleans as present/absent attributes, anything else as an
 * attribute. Children are nodes, strings (as text), arrays, or null.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") el.textContent = String(v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** replace swaps the children of el for the given ones. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** $ finds one element or throws, so a missing id fails loudly. */
export function $(sel, root = document) {
  const el = root.querySelector(sel);
  if (!el) throw new Error(`no element ${sel}`);
  return el;
}

let uid = 0;
/** id returns a fresh element id with a readable prefix. */
export function id(prefix) {
  return `${prefix}-${++uid}`;
}

/** field builds a labelled input. */
export function field(label, input, help) {
  const inputId = input.id || (input.id = id("f"));
  const helpEl = help ? h("small", { class: "help", id: inputId + "-help" }, help) : null;
  if (helpEl) input.setAttribute("aria-describedby", helpEl.id);
  return h("div", { class: "field" }, h("label", { for: inputId }, label), input, helpEl);
}

/**
 * patch makes build(item) for each of items the children of parent,
 * keeping a child in place when key(item) is what it was drawn from: an
 * edit that changes one row of a table redraws that row, and the browser
 * restyles only that.
 */
export function patch(parent, items, key, build) {
  const before = parent.subplayKeys || [];
  const keys = items.map(key);
  const kids = parent.children;
  for (let i = 0; i < keys.length; i++) {
    if (i < kids.length && before[i] === keys[i]) continue;
    const el = build(items[i]);
    if (i < kids.length) parent.replaceChild(el, kids[i]);
    else parent.append(el);
  }
  while (kids.length > keys.length) parent.lastElementChild.remove();
  parent.subplayKeys = keys;
}
