// A game through the API (docs/api.md): its state, legal actions and log in one object, the
// changes (actions, undo, the AI), the page's previews, and the live event stream.

import { get, post, streamUrl, tokenFor } from "./api.js";
import { said } from "./i18n.js";
import { check, isDown, onBack, reached } from "./connection.js";

const g = (id) => `/games/${encodeURIComponent(id)}`;

/** The write token for a game: its own, else its campaign's. */
export function tokenOf(id, data) {
  return tokenFor(`game:${id}`) || (data && data.campaign_id ? tokenFor(`campaign:${data.campaign_id}`) : null);
}

/** {id, version, state, names, legal: [action], costs: {json: ap}, odds: {json: an attack's
 *  dice and chances}, log: [entry], start (the state the log starts from), ...}. */
export async function load(id) {
  const [game, actions, exported] = await Promise.all([
    get(g(id)), get(`${g(id)}/actions`), get(`${g(id)}/export`),
  ]);
  if (actions.version !== game.version || exported.version !== game.version) return load(id);
  const costs = {};
  const odds = {};
  for (const a of actions.actions) {
    costs[JSON.stringify(a.action)] = a.cost;
    if (a.odds) odds[JSON.stringify(a.action)] = a.odds;
  }
  return {
    ...game,
    legal: actions.actions.map((a) => a.action),
    costs,
    odds,
    log: exported.export.log,
    start: exported.export.start,
    can_undo: exported.export.log.length > 1,
  };
}

export async function act(id, version, action, dice, token) {
  const body = { version, action };
  if (dice) body.dice = dice;
  await post(`${g(id)}/actions`, body, token);
  return load(id);
}

/** Take back the last action, or with `until` (a side) every action back to that side's
 * last one (the player's action and the AI's replies after it). {data, undone}: `undone`,
 * oldest first, to redo them as they were. */
export async function undo(id, version, token, until = null) {
  const body = until ? { version, until } : { version };
  const answer = await post(`${g(id)}/undo`, body, token);
  return { data: await load(id), undone: (answer.undone || []).filter((u) => u.action) };
}

/** The AI's proposal at `level` (easy, normal, hard), explained in `lang`: {action,
 *  explanation, text, messages, chances} and, for a move, its route. */
export async function propose(id, version, level = "normal", lang = "en") {
  const s = await post(`${g(id)}/ai/suggest`, { version, level, lang });
  let waypoints = null;
  let length = null;
  if (s.action.type === "move" || s.action.type === "carry") {
    const p = await preview(id, s.action, version);
    waypoints = p.waypoints;
    length = p.length; // how far to move the model along the route
  }
  return { ...s, waypoints, length };
}

/** Each side's chance to win now; with `curve`, the survivors' chance after every action
 *  and the turning point in `lang` (the service replays the whole game for them). */
export function chances(id, lang = "en", curve = false) {
  return get(`${g(id)}/chances?lang=${encodeURIComponent(lang)}&curve=${curve}`);
}

/** How the game went (GET .../summary): each human's fate, wounds and kills, AP spent. */
export function summary(id) {
  return get(`${g(id)}/summary`);
}

/** A dragged figure's route to a point: {legal, reason, cost, length, waypoints}. */
export async function path(id, figure, to) {
  const p = await post(`${g(id)}/path`, { figure, to });
  let reason = said(p.refused, p.refused_words); // the engine's reason, in words when it has them
  if (!p.reachable && p.reason) reason = said(p.reason, p.reason_words);
  return {
    legal: p.legal_now, reason, cost: p.ap_cost, moves: p.moves, length: p.length,
    waypoints: p.reachable ? p.waypoints : [],
  };
}

/** The verdict on an action without applying it, and a move's end and route. */
export function preview(id, action, version = undefined) {
  const body = { action };
  if (version !== undefined) body.version = version;
  return post(`${g(id)}/preview`, body);
}

/** Line of sight from a figure, as the engine judges a shot: {polygon: [rings], targets:
 * [{id, visible, fraction, limited}], limit}. `limited` (an enemy in a line of sight the
 * weather hides) and `limit` (the weather's longest sight) are said in the page's language. */
export async function sight(id, figure) {
  const s = await get(`${g(id)}/sight?figure=${encodeURIComponent(figure)}`);
  return {
    polygon: s.polygons,
    targets: s.enemies.map((e) => ({
      id: e.id || e.figure, visible: e.visible, fraction: e.fraction,
      limited: e.limited_by ? said(e.limited_by, e.limited_by_words) : null,
    })),
    limit: s.limit ? said(s.limit.text, s.limit.words) : null,
  };
}

/** The 20 in rule as the engine applies it: {version, in_zone: [zombie ids], ...}. */
export function zone(id) {
  return get(`${g(id)}/zone`);
}

/** Enemies in base contact, by the engine's test: {version, pairs: [[id, id], ...]}. */
export function engaged(id) {
  return get(`${g(id)}/engaged`);
}

/** Follow the game's live events; `onVersion(version)` on each, and `onVersion(null)` when
 * the server answers again after the connection was lost (the page reloads the game: what
 * changed meanwhile, and whatever change of its own failed). The stream resumes after the
 * last event it had (`Last-Event-ID` or `?after=`): the browser reconnects by itself after a
 * dropped stream (the server also ends each stream after a while); a stream the browser gave
 * up on (an error answer) is opened again here, each time later (1 s up to 30 s), and at once
 * when connection.js hears the server again. A drop makes connection.js check the server, so
 * its banner shows while the server is down. Returns {close()}. */
export function follow(id, version, onVersion) {
  if (typeof EventSource === "undefined") return { close() {} };
  let last = version;
  let source = null;
  let closed = false;
  let retry = null;
  let wait = 1000;
  const handle = (e) => {
    let seen = null;
    try {
      const data = JSON.parse(e.data);
      seen = data.version !== undefined ? data.version : data.seq;
    } catch (_) {
      seen = null;
    }
    if (Number.isInteger(seen)) last = Math.max(last, seen);
    onVersion(seen);
  };
  const open = () => {
    clearTimeout(retry);
    retry = null;
    if (closed) return;
    if (source) source.close();
    source = new EventSource(streamUrl(`${g(id)}/events?after=${last}`));
    source.onmessage = handle;
    for (const kind of ["action", "undo"]) source.addEventListener(kind, handle);
    source.onopen = () => {
      wait = 1000;
      reached(); // the server answers: after a loss, connection.js calls onBack below
    };
    source.onerror = () => {
      if (closed) return;
      // the server gone, or a stream it ended (the browser reconnects)? connection.js asks
      // the server, and its banner shows only when it does not answer
      if (!isDown()) check();
      if (source.readyState === EventSource.CLOSED && retry === null) {
        retry = setTimeout(open, wait);
        wait = Math.min(wait * 2, 30000);
      }
    };
  };
  const stopBack = onBack(() => {
    if (closed) return;
    if (!source || source.readyState === EventSource.CLOSED) open();
    onVersion(null); // reload: the server's version, whatever happened while it was away
  });
  open();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      stopBack();
      if (source) source.close();
    },
  };
}
