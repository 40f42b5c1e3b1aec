// French and English: the browser's language picks one, a switch changes it (kept in
// localStorage). The words come from the service's catalogs (i18n/locale/LANG/*.po, served
// as GET i18n/LANG.json: code -> text), the same ones the server renders its messages with.
// Placeholders: {name}, {d:in} inches with the unit, {p:pct} a percentage, {x:num} one
// decimal, {n:int} a whole number (docs/translation.md).
// Counts: a text that counts names its count {n}; when `n` is a number, `KEY.zero` (none) or
// `KEY.one` (a number the language says in the singular: 0 and 1 in French, 1 in English)
// is used instead of KEY where the catalog has it.

export const LANGS = ["fr", "en"];
const STORE = "survive-us.lang";
let current = "en";
let strings = {};
let fallback = {};

/** The language to start with: the stored choice, else the browser's, else English. */
export function preferredLang() {
  const stored = localStorage.getItem(STORE);
  if (LANGS.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function fetchStrings(lang) {
  const response = await fetch(`i18n/${lang}.json`);
  if (!response.ok) throw new Error(`i18n/${lang}.json: HTTP ${response.status}`);
  return response.json();
}

export async function setLang(lang, remember = false) {
  if (!LANGS.includes(lang)) lang = "en";
  strings = await fetchStrings(lang);
  if (lang !== "en" && Object.keys(fallback).length === 0) fallback = await fetchStrings("en");
  if (lang === "en") fallback = strings;
  current = lang;
  if (remember) localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
}

export function lang() {
  return current;
}

function lookup(table, key) {
  const text = table[key];
  return typeof text === "string" ? text : undefined;
}

/** A message's parameter in words: a nested message, a {fr, en} name, a list, a number
 * formatted as its placeholder's spec asks. */
function value(v, spec) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) {
    const items = v.map((x) => value(x, spec));
    return typeof Intl.ListFormat === "function"
      ? new Intl.ListFormat(current, { type: "conjunction" }).format(items) : items.join(", ");
  }
  if (typeof v === "object") return typeof v.code === "string" ? message(v) : pick(v);
  if (typeof v === "boolean") return t(v ? "word.yes" : "word.no");
  if (typeof v === "number") {
    if (spec === "pct") return v.toLocaleString(current, { style: "percent", maximumFractionDigits: 0 });
    if (spec === "int" || (spec === undefined && Number.isInteger(v))) return Math.round(v).toLocaleString(current);
    const text = num(v, 1);
    return spec === "in" ? t("unit.inches", { n: text }) : text;
  }
  return String(v);
}

/** The code to say `key` with the count `n`: `key.zero` for none, `key.one` for a number the
 * language puts in the singular (Intl.PluralRules: French 0 and 1, English 1), when the
 * catalog has that variant; else `key`. */
function counted(key, n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return key;
  if (n === 0 && lookup(strings, `${key}.zero`) !== undefined) return `${key}.zero`;
  if (new Intl.PluralRules(current).select(n) === "one" && lookup(strings, `${key}.one`) !== undefined) return `${key}.one`;
  return key;
}

/** The text for `key`, with {placeholders} filled; `otherwise` when no language has it.
 * A number `params.n` picks the key's `.zero` or `.one` variant where there is one. */
export function t(key, params = {}, otherwise = undefined) {
  key = counted(key, params.n);
  let text = lookup(strings, key);
  if (text === undefined) text = lookup(fallback, key);
  if (text === undefined) text = otherwise !== undefined ? String(otherwise) : key;
  let out = "";
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)(?::(\w+))?\}/g)) {
    const [whole, name, spec] = m;
    out += text.slice(last, m.index);
    last = m.index + whole.length;
    if (!(name in params)) {
      out += whole;
      continue;
    }
    let said = value(params[name], spec);
    if (isName(params[name]) && insideSentence(text.slice(0, m.index))) {
      said = lowerArticle(said);
      if (current === "fr") [out, said] = contract(out, said);
    }
    out += said;
  }
  return out + text.slice(last);
}

// The same rules as the server's (i18n/message.py): a place's name inside a sentence takes a
// lowercase article ("va garder la place du cratère"), and French contracts "de le" into "du",
// "à les" into "aux", "de Inès" into "d'Inès"; first, after a colon or a full stop, or quoted
// as a title, a name stays as written.
const ARTICLE = /^(Le|La|Les|L'|L’|The) |^(L'|L’)/;
const CONTRACTIONS = { "de le": "du", "de les": "des", "à le": "au", "à les": "aux" };

function isName(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.code !== "string";
}

function insideSentence(before) {
  const b = before.replace(/ +$/, "");
  return b !== "" && !/[.!?:«“"‘']$/.test(b);
}

function lowerArticle(text) {
  return ARTICLE.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

function contract(before, name) {
  const prep = /(^|\s)(de|à) $/.exec(before);
  if (!prep) return [before, name];
  const start = before.slice(0, prep.index + prep[1].length);
  const [article, ...rest] = name.split(" ");
  const joined = CONTRACTIONS[`${prep[2]} ${article}`];
  if (joined && rest.length) return [`${start}${joined} `, rest.join(" ")];
  if (prep[2] === "de" && /^[aeiouyàâéèêëîïôûüœAEIOUYÀÂÉÈÊËÎÏÔÛÜŒ]/.test(name)) return [`${start}d'`, name];
  return [before, name];
}

/** A message from the server ({code, params}) in the current language. */
export function message(msg) {
  if (!msg || typeof msg.code !== "string") return msg === undefined || msg === null ? "" : String(msg);
  return t(msg.code, msg.params || {});
}

/** A {fr, en} pair or a plain string, in the current language. */
export function pick(value) {
  if (value && typeof value === "object") return value[current] || value.en || value.fr || "";
  return value === undefined || value === null ? "" : String(value);
}

/** A thing's name in the current language: `name` as {fr, en}, or `name` (French) beside
 * `name_en` (English), as the service gives both (docs/names.md). */
export function named(thing, otherwise = "") {
  if (!thing) return otherwise;
  if (thing.name && typeof thing.name === "object") return pick(thing.name) || otherwise;
  if (current === "en" && thing.name_en) return thing.name_en;
  return thing.name || thing.name_en || otherwise;
}

/** A server's text said in the page's language: its message (`K_words` beside the text `K`,
 * one message or a list) when the server gives one, else the text as it came. */
export function said(text, words) {
  if (Array.isArray(words) && words.some((w) => w && typeof w.code === "string")) {
    const texts = Array.isArray(text) ? text : [];
    return words.map((w, i) => (w && typeof w.code === "string" ? message(w) : String(texts[i] ?? "")));
  }
  if (words && typeof words.code === "string") return message(words);
  return text === undefined || text === null ? "" : text;
}

/** Numbers with the language's decimal mark. */
export function num(value, digits = 1) {
  return Number(value).toLocaleString(current, {
    minimumFractionDigits: digits, maximumFractionDigits: digits,
  });
}

/** Fill every [data-i18n] (text) and [data-i18n-label] (aria-label, title) under root. */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    const text = t(node.dataset.i18nLabel);
    node.setAttribute("aria-label", text);
    node.setAttribute("title", text);
  }
}
