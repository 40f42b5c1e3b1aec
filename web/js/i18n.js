// French and English: the browser's language picks one, a switch changes it (kept in
// localStorage). Keys are dotted paths in web/i18n/LANG.json; {name} placeholders.

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
  let node = table;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object" || !(part in node)) return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** The text for `key`, with {placeholders} filled; `otherwise` when no language has it. */
export function t(key, params = {}, otherwise = undefined) {
  let text = lookup(strings, key);
  if (text === undefined) text = lookup(fallback, key);
  if (text === undefined) text = otherwise !== undefined ? String(otherwise) : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A {fr, en} pair or a plain string, in the current language. */
export function pick(value) {
  if (value && typeof value === "object") return value[current] || value.en || value.fr || "";
  return value === undefined || value === null ? "" : String(value);
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
