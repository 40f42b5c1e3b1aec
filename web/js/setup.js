// The printable set-up sheet: #/setup/ID?seed=N (a card's set-up for a seed, with the card's
// example band, or &band=NAME) or #/setup/ID?game=GAME (the set-up a stored game started
// from). The map large, then where each figure and marker goes as a player measures it at
// the table (from the two nearest edges to the centre of the base), side by side: the
// survivors and their deployment zone, each zombie, civilians, crates (never what they
// hold), items on the ground, objective zones, exits; the rules in short; the terrain. Every
// place comes from the server (GET scenarios/ID/setup), never worked out here.

import { get } from "./api.js";
import { h } from "./dom.js";
import { message, num, pick, t } from "./i18n.js";
import { mapUrl, seedOf, turnsText } from "./scenario.js";

const inches = (value) => t("unit.inches", { n: num(value, 1) });

/** "8.0 in from the left edge, 3.0 in from the survivors' edge". */
function where(at) {
  return at.map((e) => t(`setup.from.${e.edge}`, { d: inches(e.inches) })).join(", ");
}

/** "2.4 to 7.9 in from the left edge, 0.0 to 6.0 in from the survivors' edge". */
function stretch(extent) {
  return extent.map((s) => t(`setup.span.${s.edge}`, { a: num(s.from, 1), b: inches(s.to) })).join(", ");
}

/** An exit: the whole of an edge, or a stretch of it measured along the edge. */
function exitWhere(e) {
  if (e.whole) return t(`setup.exit_whole.${e.edge}`);
  const along = e.edge === "near" || e.edge === "far" ? "left" : "near";
  return t(`setup.exit_on.${e.edge}`, { span: t(`setup.span.${along}`, { a: num(e.from, 1), b: inches(e.to) }) });
}

function placeTable(rows, withZone) {
  return h("table", { class: "grid setup-table" },
    h("thead", {}, h("tr", {},
      h("th", { class: "num" }, t("setup.col.number")), h("th", {}, t("setup.col.name")),
      h("th", {}, t("setup.col.where")), withZone ? h("th", {}, t("setup.col.zone")) : null)),
    h("tbody", {}, rows.map((r) => h("tr", { "data-place": r.id },
      h("td", { class: "num" }, r.number === null || r.number === undefined ? "" : String(r.number)),
      h("td", { class: "name" }, r.label), h("td", { class: "where" }, where(r.at)),
      withZone ? h("td", {}, r.zone ? pick(r.zone) : "") : null))));
}

function section(id, title, ...children) {
  return h("section", { class: "setup-section", id }, h("h2", {}, title), ...children);
}

function zoneLines(zones, code) {
  return zones.map((z) => h("p", { class: "zone-line", "data-zone": z.id }, t(code, { name: pick(z.name), where: stretch(z.extent) })));
}

function terrainBlock(group) {
  const rows = group.pieces.map((p) => h("tr", {},
    h("td", {}, pick(p.name)), h("td", {}, t(`setup.what.${p.what}`)), h("td", { class: "where" }, stretch(p.extent))));
  const table = h("table", { class: "grid setup-table terrain-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("setup.col.name")), h("th", {}, t("setup.col.what")), h("th", {}, t("setup.col.where")))),
    h("tbody", {}, rows));
  if (!group.tile) return h("div", { class: "terrain-group" }, table);
  return h("div", { class: "terrain-group" },
    h("h3", {}, group.name ? t("setup.tile", { column: group.tile.column, row: group.tile.row, name: pick(group.name) })
      : t("setup.tile_plain", { column: group.tile.column, row: group.tile.row })),
    h("p", { class: "muted zone-line" }, stretch(group.extent)), group.pieces.length ? table : null);
}

export async function showSetup(id, query) {
  const params = new URLSearchParams(query || "");
  const game = params.get("game");
  const band = params.get("band");
  const seed = seedOf(query);
  const ask = game ? `&game=${encodeURIComponent(game)}` : band ? `&band=${encodeURIComponent(band)}` : "";
  const s = await get(`/scenarios/${encodeURIComponent(id)}/setup?seed=${seed}${ask}`);
  const name = pick(s.scenario.name);
  const zones = (kinds) => s.zones.filter((z) => kinds.includes(z.kind));
  const others = s.zones.filter((z) => z.kind !== "deployment" && z.kind !== "zombies");
  const figures = (side) => s.figures[side].map((f) => ({ ...f, label: pick(f.name) }));
  const weather = s.weather ? (s.weather.sight_limit
    ? t("setup.weather_sight", { name: pick(s.weather.name), d: inches(s.weather.sight_limit) })
    : t("setup.weather", { name: pick(s.weather.name) })) : null;
  const back = game ? `#/game/${encodeURIComponent(game)}` : `#/scenario/${encodeURIComponent(id)}?seed=${s.seed}`;
  const sheet = h("div", { class: "page setup-sheet", id: "setup-sheet", "data-scenario": id },
    h("div", { class: "row no-print" },
      h("button", { type: "button", class: "primary", id: "print", onclick: () => window.print() }, t("sheet.print")),
      h("a", { class: "button", href: back, id: "setup-back" }, t(game ? "setup.back_game" : "setup.back_card"))),
    h("h1", {}, t("setup.title", { name })),
    h("p", { id: "setup-about" }, t("setup.about", { seed: s.seed, band: s.band ? pick(s.band) : "—", table: pick(s.table.name) })),
    h("p", {}, [weather, turnsText(s.turns.limit, s.turns.end_roll)].filter(Boolean).join(" · ")),
    h("figure", { class: "setup-map-box" },
      h("img", { class: "setup-map", id: "setup-map", src: mapUrl(id, s.seed, ask), alt: t("scenario.map_alt", { name, seed: s.seed }) }),
      h("figcaption", { class: "muted hint" }, t("scenario.legend"), " ", t("setup.measure_hint"))),
    h("div", { class: "setup-lists" },
      section("setup-survivors", t("side.survivors"), zoneLines(zones(["deployment"]), "setup.deployment_zone"),
        placeTable(figures("survivors"), false)),
      section("setup-zombies", t("side.zombies"), zoneLines(zones(["zombies"]), "setup.zone"),
        placeTable(figures("zombies"), true)),
      s.figures.civilians.length ? section("setup-civilians", t("side.civilians"), placeTable(figures("civilians"), false)) : null,
      section("setup-crates", t("setup.crates"),
        s.crates.length ? placeTable(s.crates.map((c) => ({ ...c, label: t("marker.crate_n", { n: c.number }) })), false)
          : h("p", { class: "muted" }, t("setup.none")),
        h("p", { class: "muted hint" }, t("setup.crates_hidden"))),
      s.items.length ? section("setup-items", t("setup.items"),
        placeTable(s.items.map((m) => ({ ...m, label: m.names.map(pick).join(", ") })), false)) : null,
      others.length ? section("setup-objectives", t("setup.objectives"), zoneLines(others, "setup.zone")) : null,
      s.exits.length ? section("setup-exits", t("setup.exits"),
        h("ul", {}, s.exits.map((e) => h("li", { "data-exit": e.id }, h("b", {}, pick(e.name)), " — ", exitWhere(e))))) : null,
      section("setup-rules", t("setup.rules"),
        h("ul", {},
          h("li", {}, h("b", {}, t("side.survivors")), " — ", pick(s.objectives.survivors)),
          h("li", {}, h("b", {}, t("side.zombies")), " — ", pick(s.objectives.zombies)),
          s.turns.end_roll ? h("li", {}, t("scenario.end_roll", { from: s.turns.end_roll.from_turn, on: s.turns.end_roll.ends_on, max: s.turns.limit })) : null,
          s.rules_words.map((r) => h("li", {}, message(r))))),
      section("setup-terrain", t("setup.terrain"),
        s.terrain.some((g) => g.tile) ? h("p", { class: "muted hint" }, t("setup.tile_hint")) : null,
        s.terrain.map(terrainBlock))));
  document.getElementById("view").replaceChildren(sheet);
}
