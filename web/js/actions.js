// Actions in words, in the page's language: for the action buttons, the AI's proposal and the
// log. Figures, items, doors, exits and markers by their names (names.js), never their ids; a
// move as a distance and a direction ("se déplace de 4,5 ps vers le nord-est"), never as
// coordinates.

import { t } from "./i18n.js";
import { direction, distance } from "./names.js";

/** Where a figure stood when it acted: in `at` (the log's positions, figure id -> [x, y]),
 * else where it stands now. */
function startOf(names, id, at) {
  if (at) return at.get(id) || null;
  const fig = names.figures.get(id);
  return fig ? [fig.x, fig.y] : null;
}

/** A move or a carry: by how much and which way, toward whom, or standing still. */
function movePhrase(action, names, from, p) {
  const carry = action.type === "carry";
  if (Array.isArray(action.to)) {
    if (from && distance(from, action.to) < 0.01) return carry ? t("act.carry", p) : t("act.hold");
    if (!from) return carry ? t("act.carry", p) : t("act.move");
    const way = { ...p, d: distance(from, action.to), dir: direction(from, action.to) };
    return carry ? t("act.carry_by", way) : t("act.move_by", way);
  }
  if (Array.isArray(action.toward)) {
    if (!from) return carry ? t("act.carry", p) : t("act.move");
    const way = { ...p, dir: direction(from, action.toward) };
    return carry ? t("act.carry_dir", way) : t("act.move_dir", way);
  }
  if (action.toward !== undefined && action.toward !== null) {
    const toward = { ...p, toward: names.place(action.toward) };
    return carry ? t("act.carry_toward", toward) : t("act.move_toward", toward);
  }
  return carry ? t("act.carry", p) : t("act.move");
}

/** A scenario card's own action (`rule` names it). */
function specialPhrase(action, p) {
  const what = p.target || p.marker || "";
  switch (action.rule) {
    case "treat": return t("act.special.treat", p);
    case "deliver": return t("act.special.deliver", p);
    case "escort": return t("act.special.escort", p);
    case "exit_with": return t("act.special.exit_with", p);
    case "cross": return t("act.special.cross", p);
    case "barricade": return t("act.special.barricade", p);
    case "sewer": return t("act.special.sewer", p);
    case "collect": return t("act.special.collect", p);
    case "lead": return t("act.special.lead", p);
    case "ally": return t("act.special.ally", p);
    default: return what ? t("act.special", { what }) : t("act.other");
  }
}

/** The action as a short phrase without its actor ("se déplace vers Rôdeur 3"), for buttons.
 * `names`: a names.Names of the game; `at`: the positions it was played from (the log),
 * else it is played from where the figures stand now (a listed action, the AI's proposal);
 * `ap`: false where the AP it costs is shown beside it (a button), so a melee's is not said twice. */
export function actionPhrase(action, names, { at = null, ap = true } = {}) {
  const p = { ap: action.ap || 1 };
  for (const key of ["weapon", "item", "skill", "drop"]) if (action[key]) p[key] = names.thing(action[key]);
  for (const key of ["target", "marker", "door", "exit"]) {
    if (action[key] !== undefined && action[key] !== null) p[key] = names.place(action[key]);
  }
  const from = action.figure ? startOf(names, action.figure, at) : null;
  switch (action.type) {
    case "move": case "carry": return movePhrase(action, names, from, p);
    case "shoot": return t("act.shoot", p);
    case "melee":
      if (!ap) return action.weapon ? t("act.melee_weapon_plain", p) : t("act.melee_plain", p);
      return action.weapon ? t("act.melee_weapon", p) : t("act.melee", p);
    case "skill": return t("act.skill", p);
    case "special": return specialPhrase(action, p);
    case "door": return t("act.door", p);
    case "interact": return t("act.interact", p);
    case "take": return t("act.take", p);
    case "give": return t("act.give", p);
    case "exit": return t("act.exit", p);
    case "heal": return t("act.heal", p);
    case "revive": return t("act.revive", p);
    case "contaminate": return t("act.contaminate", p);
    case "decline": return t("act.decline");
    case "pass": return t("act.pass");
    case "end_activations": return t("act.end_activations");
    default: return t("act.other");
  }
}

/** The whole action in words, with its actor ("Lucas : se déplace vers Rôdeur 3"). */
export function describe(action, names, options = {}) {
  if (!action) return "";
  if (action.type === "start") return t("act.start");
  if (action.type === "undo") return t("act.undo");
  const phrase = actionPhrase(action, names, options);
  return action.figure ? t("act.by", { who: names.figure(action.figure), what: phrase }) : phrase;
}

/** The positions each action of a log was played from: a list beside `log`, each a Map of
 * figure id -> [x, y] before that entry, known from the start and the moves to a point (a
 * figure that moved toward something, or was carried, is where the engine put it: unknown
 * here until the game is read again). */
export function logPositions(start, log) {
  const at = new Map(((start && start.figures) || []).map((f) => [f.id, [f.x, f.y]]));
  const out = [];
  for (const entry of log || []) {
    out.push(new Map(at));
    const a = entry.action || {};
    if (a.type === "undo") at.clear();
    else if ((a.type === "move" || a.type === "carry") && a.figure) {
      if (Array.isArray(a.to)) at.set(a.figure, a.to);
      else at.delete(a.figure);
      if (a.type === "carry" && a.target) at.delete(a.target);
    } else if (a.type === "skill" && a.figure && a.to) at.delete(a.figure);
  }
  return out;
}

/** Group legal actions by the figure doing them ('' for side-level ones). */
export function byFigure(actions) {
  const out = new Map();
  for (const a of actions) {
    const key = a.figure || "";
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(a);
  }
  return out;
}

/** Same action? (JSON forms compared field by field.) */
export function sameAction(a, b) {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(obj) {
  return Object.keys(obj).sort().map((k) => [k, obj[k]]);
}
