// Tiny HTML builders: h("button", {class: "primary", onclick}, "text").

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A labelled form field: <label>text <input/select ...></label>. */
export function field(text, control) {
  return h("label", { class: "field" }, h("span", {}, text), control);
}

export function select(options, value, attrs = {}) {
  const s = h("select", attrs);
  for (const [v, text] of options) {
    const o = h("option", { value: v }, text);
    if (String(v) === String(value)) o.selected = true;
    s.appendChild(o);
  }
  return s;
}
