// What the page calls things, in its language (DESIGN.md: ids never reach a person): figures
// by the game's `names` ({fr, en} by id, "Rôdeur 12" / "Walker 12"), archetypes, zombie types,
// items and skills by GET rules, the card's items, exits and zones, the scene's terrain pieces
// and the markers on the table; and a way across the table in words (a distance and a
// compass direction, north being away from the survivors' edge).

import { named, pick, t } from "./i18n.js";

/** The number at the end of an id ("z12" -> "12"), as a player paints it on a base. */
export function numberOf(id) {
  const m = /(\d+)$/.exec(String(id || ""));
  return m ? String(Number(m[1])) : "";
}

const DIRECTIONS = ["east", "north_east", "north", "north_west", "west", "south_west", "south", "south_east"];

/** The compass direction from one point to another ("to the north-east"): north is away
 * from the survivors' edge (+y), east to the right seen from it (+x). */
export function direction(from, to) {
  const angle = Math.atan2(to[1] - from[1], to[0] - from[0]);
  const k = ((Math.round(angle / (Math.PI / 4)) % 8) + 8) % 8;
  return t(`dir.${DIRECTIONS[k]}`);
}

/** Centre to centre, in inches. */
export function distance(from, to) {
  return Math.hypot(to[0] - from[0], to[1] - from[1]);
}

/** An archetype with its sex where it has one ("Ex-flic (H)" / "Ex-cop (M)"). */
export function archetypeName(a) {
  const sex = a && a.sex && a.sex !== "H/F" ? ` (${t(`roster.sex_${a.sex.toLowerCase()}`)})` : "";
  return `${named(a, t("names.unknown"))}${sex}`;
}

export class Names {
  /** `rules`: GET rules; `card`: GET scenarios/ID or null; `game`: a game answer (state and
   * names), set again with `setGame` as the game moves on. */
  constructor(rules, card = null, game = null) {
    this.things = new Map();
    for (const kind of ["archetypes", "zombies", "equipment", "skills"]) {
      for (const x of (rules && rules[kind]) || []) this.things.set(x.id, x);
    }
    this.exits = new Map();
    this.zones = new Map();
    for (const item of (card && card.items) || []) if (!this.things.has(item.id)) this.things.set(item.id, item);
    for (const e of (card && card.exits) || []) this.exits.set(e.id, e);
    for (const z of (card && card.zones) || []) this.zones.set(z.id, z);
    this.setGame(game);
  }

  setGame(game) {
    this.game = game;
    const state = (game && game.state) || {};
    this.figures = new Map((state.figures || []).map((f) => [f.id, f]));
    this.terrain = new Map(((state.scene && state.scene.terrain) || []).map((p) => [p.id, p]));
    this.markers = new Map((state.markers || []).map((m) => [m.id, m]));
  }

  /** A figure as a person calls it: "Lucas", "Rôdeur 12" / "Walker 12". */
  figure(id) {
    const given = this.game && this.game.names && this.game.names[id];
    if (given) return pick(given);
    const fig = this.figures.get(id);
    const number = numberOf(id);
    if (fig && fig.side === "survivors") return named(fig, t("names.figure_number", { n: number || "?" }));
    if (fig) return named(fig) ? `${named(fig)}${number ? ` ${number}` : ""}` : t("names.figure_number", { n: number || "?" });
    return t("names.figure_number", { n: number || "?" });
  }

  /** An archetype, zombie type, item, skill or the card's item. */
  thing(id) {
    return named(this.things.get(id), t("names.unknown"));
  }

  /** An archetype by its id, with its sex. */
  archetype(id) {
    return archetypeName(this.things.get(id));
  }

  /** A marker on the table: "Caisse 2" / "Crate 2", or what it holds. */
  marker(id) {
    const m = this.markers.get(id);
    if (m && m.kind === "crate") return t("marker.crate_n", { n: numberOf(id) || "?" });
    if (m && m.items && Object.keys(m.items).length) return Object.keys(m.items).map((k) => this.thing(k)).join(", ");
    if (m) return t(`marker.${m.kind}`, {}, t("names.unknown"));
    return t("names.unknown");
  }

  /** Whatever an action names by id: a figure, a terrain piece, an exit, a zone, a marker. */
  place(id) {
    if (this.figures.has(id) || (this.game && this.game.names && this.game.names[id])) return this.figure(id);
    if (this.terrain.has(id)) return named(this.terrain.get(id), t("names.unknown"));
    if (this.exits.has(id)) return named(this.exits.get(id), t("names.unknown"));
    if (this.zones.has(id)) return named(this.zones.get(id), t("names.unknown"));
    if (this.markers.has(id)) return this.marker(id);
    return t("names.unknown");
  }
}
