// The home screen: start a game of a scenario card (example band or a stored roster), and the
// games this browser holds a token for.

import { get } from "./api.js";
import { h, select } from "./dom.js";
import { pick, t } from "./i18n.js";
import { knownIds } from "./campaign.js";
import { startGame } from "./roster.js";
import { EXAMPLE_BANDS } from "./examples.js";

export async function showHome() {
  const cards = await get("/scenarios");
  const scenario = select(cards.map((c) => [c.id, `${c.number}. ${pick({ fr: c.name, en: c.name_en })}`]), cards[0] && cards[0].id, { id: "scenario", "aria-label": t("home.scenario") });
  const band = select([["", t("home.band_default")], ...EXAMPLE_BANDS], "", { id: "band", "aria-label": t("home.band") });
  const rosterIds = knownIds("roster");
  const rosters = (await Promise.all(rosterIds.map((id) => get(`/rosters/${encodeURIComponent(id)}`).catch(() => null)))).filter(Boolean);
  const roster = select([["", "—"], ...rosters.map((r) => [r.id, r.roster.name])], "", { id: "roster-id", "aria-label": t("home.roster") });
  const seed = h("input", { id: "seed", type: "number", min: 0, value: 1, "aria-label": t("home.seed") });
  const games = knownIds("game");
  const rows = await Promise.all(games.slice(-12).map((id) => get(`/games/${encodeURIComponent(id)}`).catch(() => null)));
  const cardOf = (id) => cards.find((c) => c.id === id);
  const openId = h("input", { id: "open-id", placeholder: t("home.open_id"), "aria-label": t("home.open_id") });
  document.getElementById("view").replaceChildren(h("div", { class: "page" },
    h("h1", {}, t("home.title")),
    h("form", { class: "card", id: "new-game", onsubmit: (e) => {
      e.preventDefault();
      const body = { scenario: scenario.value, seed: Number(seed.value) || 0 };
      if (roster.value) body.roster_id = roster.value;
      else if (band.value) body.band = band.value;
      startGame(body);
    } },
    h("h2", { style: "margin-top:0" }, t("home.new_game")),
    h("div", { class: "row" },
      h("label", { class: "row" }, t("home.scenario"), scenario),
      h("label", { class: "row" }, t("home.band"), band),
      rosters.length ? h("label", { class: "row" }, t("home.roster"), roster) : null,
      h("label", { class: "row" }, t("home.seed"), seed),
      h("button", { type: "submit", class: "primary", id: "start" }, t("home.start")))),
    h("h2", {}, t("home.scenarios")),
    h("div", { class: "cards" }, cards.map((c) => h("div", { class: "card" },
      h("h3", {}, `${c.number}. ${pick({ fr: c.name, en: c.name_en })}`),
      h("p", { class: "muted", style: "margin:0" }, pick({ fr: c.summary, en: c.summary_en })),
      h("p", { style: "margin:4px 0 0" }, h("span", { class: "badge" }, t(`home.kind.${c.kind}`, {}, "")), " ", t("home.turns", { n: c.turns }))))),
    h("h2", {}, t("home.my_games")),
    rows.filter(Boolean).length ? h("div", { class: "cards", id: "my-games" }, rows.filter(Boolean).reverse().map((g) => h("a", { class: "card", href: `#/game/${g.id}` },
      h("h3", {}, cardOf(g.scenario) ? pick({ fr: cardOf(g.scenario).name, en: cardOf(g.scenario).name_en }) : t("game.title")),
      h("div", { class: "muted" }, g.terminal ? t("home.over") : t("game.turn", { turn: g.state.turn, max: g.state.max_turns }))))) : h("p", { class: "muted" }, t("home.no_games")),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); if (openId.value.trim()) window.location.hash = `#/game/${openId.value.trim()}`; } },
      openId, h("button", { type: "submit" }, t("home.open")))));
}
