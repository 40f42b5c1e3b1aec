// Actions in words, in the page's language: for the action buttons and the log.

import { num, t } from "./i18n.js";

/** "Lucas (m1)" for a figure id, or the id alone when the figure is unknown. */
export function who(figures, id) {
  const fig = figures.find((f) => f.id === id);
  return fig ? `${fig.name} (${fig.id})` : String(id);
}

function where(figures, value) {
  if (Array.isArray(value)) return `(${num(value[0])}, ${num(value[1])})`;
  return who(figures, value);
}

/** The action as a short phrase without its actor ("toward Rôdeur (z3)"), for buttons.
 * `now`: the action is one to play from the positions in `figures` (a listed action or the
 * AI's proposal), so a move to the figure's own spot is named as standing still. */
export function actionPhrase(action, figures, name = (id) => id, now = false) {
  const p = { ...action };
  for (const key of ["weapon", "item", "skill"]) if (action[key]) p[key] = name(action[key]);
  if (action.target !== undefined) p.target = who(figures, action.target);
  if (action.toward !== undefined) p.toward = where(figures, action.toward);
  if (action.to !== undefined) p.to = where(figures, action.to);
  p.ap = action.ap || 1;
  switch (action.type) {
    case "move":
      if (now && action.to && standsStill(action, figures)) return t("act.hold");
      return action.to ? t("act.move_to", p) : t("act.move_toward", p);
    case "carry":
      return t("act.carry", p);
    case "shoot":
      return t("act.shoot", p);
    case "melee":
      return action.weapon ? t("act.melee_weapon", p) : t("act.melee", p);
    case "skill":
      return t("act.skill", p);
    case "special":
      return t("act.special", { ...p, rule: action.rule, what: p.target || action.marker || "" });
    case "door": case "interact": case "take": case "give": case "exit": case "heal":
    case "revive": case "contaminate":
      return t(`act.${action.type}`, p);
    case "decline": case "pass": case "end_activations":
      return t(`act.${action.type}`);
    default:
      return action.type;
  }
}

/** A move to the figure's own spot: how a side that may not pass waits (rules R1). */
function standsStill(action, figures) {
  const fig = figures.find((f) => f.id === action.figure);
  return Boolean(fig) && fig.x === action.to[0] && fig.y === action.to[1];
}

/** The whole action in words, with its actor ("Lucas (m1): move toward ..."). */
export function describe(action, figures, name = (id) => id, now = false) {
  if (!action) return "";
  if (action.type === "start") return t("act.start");
  if (action.type === "undo") return t("act.undo");
  const phrase = actionPhrase(action, figures, name, now);
  return action.figure ? `${who(figures, action.figure)}: ${phrase}` : phrase;
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
