// The JSON API under /api/v1 (docs/api.md), and the write tokens kept in localStorage.
// A page without the token of a game's campaign shows it read-only.

import { lang, message } from "./i18n.js";

const BASE = "api/v1";
const TOKENS = "survive-us.tokens";

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    // a message with its code is said in the page's language, whatever the server chose
    super(err.words ? message(err.words) : err.message || `HTTP ${status}`);
    this.words = err.words || null;
    this.status = status;
    this.code = err.code || "http_error";
    this.where = err.where || "";
  }
}

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}");
  } catch (_) {
    return {};
  }
}

/** Remember the write token of a campaign or a game ("campaign:ID" / "game:ID"). */
export function saveToken(key, token) {
  const all = tokens();
  all[key] = token;
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

export function tokenFor(key) {
  return tokens()[key] || null;
}

const GAMES = "survive-us.games";

/** What this browser knows of a game it started and the service does not say: when it was
 * started, and the band's name (null: the scenario card's example band). */
export function rememberGame(id, band) {
  const all = gameNotes();
  all[id] = { at: new Date().toISOString(), band: band || null };
  localStorage.setItem(GAMES, JSON.stringify(all));
}

export function gameNotes() {
  try {
    return JSON.parse(localStorage.getItem(GAMES) || "{}");
  } catch (_) {
    return {};
  }
}

/** A JSON request; `token` goes in the Authorization header. Errors raise ApiError. */
export async function request(method, path, body = undefined, token = null) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (_) {
      data = { error: { message: text.slice(0, 200) } };
    }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, token = null) => request("GET", path, undefined, token);
export const post = (path, body = {}, token = null) => request("POST", path, body, token);
export const put = (path, body = {}, token = null) => request("PUT", path, body, token);
export const del = (path, token = null) => request("DELETE", path, undefined, token);

/** The URL of a server-sent event stream (for EventSource). */
export function streamUrl(path) {
  return `${BASE}${path}${path.includes("?") ? "&" : "?"}lang=${lang()}`;
}
