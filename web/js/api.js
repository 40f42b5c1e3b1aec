// The JSON API under /api/v1 (docs/api.md), and the write tokens kept in localStorage.
// A page without the token of a game's campaign shows it read-only.

import { lang, message } from "./i18n.js";
import { changeNotApplied, gatewayDown, lost, reached, whenBack } from "./connection.js";

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

/** POSTs that only ask (nothing is stored). The AI's suggestion waits for the server like a
 * GET (the page has no other moment to ask for it); the others belong to a gesture (a drag's
 * route, a preview, a roster's check) and fail at once: a drop that waited for its route
 * would send its move once the server is back, a change made silently after the outage. */
const QUESTION = /^(?:\/games\/[^/]+\/(?:path|preview|ai\/suggest)|\/rosters\/validate|\/odds|\/arbitrate|\/draws)$/;
const WAITS = /^\/games\/[^/]+\/ai\/suggest$/;

/** The answer to one try of a request, or null when the server did not answer (the network
 * refused it, or a proxy said the server behind it is down). */
async function attempt(method, path, headers, body) {
  let response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error instanceof TypeError) return null; // "Failed to fetch": no server
    throw error;
  }
  return gatewayDown(response.status) ? null : response;
}

/** The error of a change the server did not get: "Connection lost: this change was not
 * applied" (status 0); the page reloads from the server once it answers. For a change sent
 * without request() (a photo): `catch (e) { if (e instanceof TypeError) throw notApplied(); }`. */
export function notApplied() {
  lost();
  changeNotApplied();
  return new ApiError(0, { error: { code: "connection_lost", words: { code: "connection.not_applied", params: {} } } });
}

/** The error of a question asked while the server does not answer (status 0). */
function noAnswer() {
  lost();
  return new ApiError(0, { error: { code: "connection_lost", words: { code: "connection.lost_short", params: {} } } });
}

/** A JSON request; `token` goes in the Authorization header. Errors raise ApiError.
 * Without the server (connection.js): a GET (and the AI's suggestion) waits for it and is
 * asked again, so a view loads once the server is back; another question fails at once,
 * saying the server does not answer; a change (POST, PUT, DELETE) is neither kept nor sent
 * again: it fails at once, saying it was not applied, and the page reloads from the server
 * once back. */
export async function request(method, path, body = undefined, token = null) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const route = path.split("?")[0];
  const waits = method === "GET" || (method === "POST" && WAITS.test(route));
  let response = await attempt(method, path, headers, body);
  while (response === null) {
    if (!waits) throw method === "POST" && QUESTION.test(route) ? noAnswer() : notApplied();
    lost();
    await whenBack();
    response = await attempt(method, path, headers, body);
  }
  reached();
  // this browser used its share of the server's processor (a long solo game against the hard
  // AI): a read waits as long as the server asks, a few times, then says so
  for (let tries = 0; response.status === 429 && waits && tries < 5; tries += 1) {
    const seconds = Math.min(30, Number(response.headers.get("Retry-After")) || 1);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    response = (await attempt(method, path, headers, body)) || response;
  }
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

/** Whether `token` opens the game or campaign (`kind` "game" or "campaign") for changes:
 * the page checks a pasted token before keeping it. */
export async function opens(kind, id, token) {
  try {
    await get(`/${kind}s/${encodeURIComponent(id)}/access`, token);
    return true;
  } catch (error) {
    if (error.status === 401 || error.status === 403 || error.status === 404) return false;
    throw error;
  }
}

/** A link that opens a game or a campaign with write access on another device (the token
 * rides in the address's fragment, which browsers never send to the server). */
export function handOffLink(kind, id, token) {
  const { origin, pathname } = window.location;
  return `${origin}${pathname}#/${kind}/${id}?token=${encodeURIComponent(token)}`;
}

/** A hand-off link's token (#/game/ID?token=T): checked, kept in this browser, and taken
 * out of the address bar. Answers false when the link's token does not open the thing. */
export async function takeLinkToken() {
  const m = /^#\/(game|campaign)\/([\w-]+)\?token=([^&]+)$/.exec(window.location.hash);
  if (!m) return true;
  const [, kind, id, raw] = m;
  window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}#/${kind}/${id}`);
  const token = decodeURIComponent(raw);
  if (!(await opens(kind, id, token))) return false;
  saveToken(`${kind}:${id}`, token);
  return true;
}
