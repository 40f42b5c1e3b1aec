// The home screen: start a game of a scenario card (example band or a stored roster), and the
// games this browser holds a token for.

import { gameNotes, get } from "./api.js";
import { h, select } from "./dom.js";
import { lang, pick, t } from "./i18n.js";
import { knownIds } from "./campaign.js";
import { KINDS, scenarioSelect, startGame } from "./roster.js";
import { exampleBands } from "./examples.js";
import { turnsText } from "./scenario.js";
import { importForm, whenText } from "./share.js";


/** A scenario card's tile, a link to the card (#/scenario/ID: objectives, rules, map): its
 * number in its table, name, summary and length ("5 to 8 turns" when a die ends it). */
function scenarioCard(c) {
  const name = pick({ fr: c.name, en: c.name_en });
  return h("a", { class: "card scenario-card", href: `#/scenario/${c.id}`, "data-scenario": c.id, title: t("home.card_open", { name }) },
    h("h3", {}, `${c.number}. ${name}`),
    h("p", { class: "muted", style: "margin:0" }, pick({ fr: c.summary, en: c.summary_en })),
    h("p", { style: "margin:4px 0 0" }, turnsText(c.turns, c.end_roll)));
}

/** An entry of "My games": the scenario, when it was started and with which band (as the
 * server says, else as this browser noted it), the campaign it belongs to (a link to it,
 * which of its games), and where it stands. */
function gameCard(g, card, note) {
  const when = whenText(g.created || (note && note.at));
  const c = g.campaign;
  // a campaign's game is named by its campaign, which is its band's
  const band = c ? null : g.band ? pick(g.band) : note ? note.band || t("home.band_example") : null;
  return h("div", { class: "card game-card", "data-game": g.id },
    h("a", { class: "card-link", href: `#/game/${g.id}` },
      h("h3", {}, card ? pick({ fr: card.name, en: card.name_en }) : t("game.title")),
      h("div", { class: "game-note" }, [when, band].filter(Boolean).join(" · ") || t("home.seed_n", { n: g.seed })),
      h("div", { class: "muted" }, g.terminal ? t("home.over") : t("game.turn", { turn: g.state.turn, max: g.state.max_turns }))),
    c ? h("a", { class: "game-campaign", href: `#/campaign/${c.id}`, "data-campaign": c.id },
      c.number ? t("home.in_campaign", { name: pick(c.band), n: c.number, total: c.of }) : t("home.in_campaign_only", { name: pick(c.band) })) : null);
}

export async function showHome() {
  const cards = await get("/scenarios");
  const scenario = scenarioSelect(cards, { id: "scenario", "aria-label": t("home.scenario") });
  const examples = await exampleBands();
  const band = select([["", t("home.band_default")], ...examples], "", { id: "band", "aria-label": t("home.band") });
  const rosterIds = knownIds("roster");
  const rosters = (await Promise.all(rosterIds.map((id) => get(`/rosters/${encodeURIComponent(id)}`).catch(() => null)))).filter(Boolean);
  const roster = select([["", "—"], ...rosters.map((r) => [r.id, r.roster.name])], "", { id: "roster-id", "aria-label": t("home.roster") });
  const seed = h("input", { id: "seed", type: "number", min: 0, value: 1, "aria-label": t("home.seed"), title: t("home.seed_hint") });
  const games = knownIds("game");
  const rows = await Promise.all(games.slice(-12).map((id) => get(`/games/${encodeURIComponent(id)}`).catch(() => null)));
  const cardOf = (id) => cards.find((c) => c.id === id);
  const notes = gameNotes();
  const openId = h("input", { id: "open-id", placeholder: t("home.open_id"), "aria-label": t("home.open_id") });
  document.getElementById("view").replaceChildren(h("div", { class: "page" },
    h("h1", {}, t("home.title")),
    h("form", { class: "card", id: "new-game", onsubmit: (e) => {
      e.preventDefault();
      const body = { scenario: scenario.value, seed: Number(seed.value) || 0 };
      let name = null; // the card's example band
      if (roster.value) {
        body.roster_id = roster.value;
        name = rosters.find((r) => r.id === roster.value).roster.name;
      } else if (band.value) {
        body.band = band.value;
        name = examples.find(([id]) => id === band.value)[1];
      }
      startGame(body, name);
    } },
    h("h2", { style: "margin-top:0" }, t("home.new_game")),
    h("div", { class: "row" },
      h("label", { class: "row" }, t("home.scenario"), scenario),
      h("label", { class: "row" }, t("home.band"), band),
      rosters.length ? h("label", { class: "row" }, t("home.roster"), roster) : null,
      h("label", { class: "row" }, t("home.seed"), seed),
      h("button", { type: "submit", class: "primary", id: "start" }, t("home.start"))),
    h("p", { class: "muted hint", id: "seed-hint" }, t("home.seed_hint"))),
    h("h2", {}, t("home.scenarios")),
    KINDS.map((kind) => {
      const mine = cards.filter((c) => c.kind === kind);
      return mine.length ? h("section", { class: "scenario-kind", id: `scenarios-${kind}` },
        h("h3", {}, t(`home.kind.${kind}`)),
        h("p", { class: "muted hint" }, t(`home.kind_hint.${kind}`)),
        h("div", { class: "cards" }, mine.map(scenarioCard))) : null;
    }),
    h("h2", {}, t("home.my_games")),
    rows.filter(Boolean).length ? h("div", { class: "cards", id: "my-games" }, rows.filter(Boolean).reverse().map((g) => gameCard(g, cardOf(g.scenario), notes[g.id])))
      : h("p", { class: "muted" }, t("home.no_games")),
    importForm("game"),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); if (openId.value.trim()) window.location.hash = `#/game/${openId.value.trim()}`; } },
      openId, h("button", { type: "submit" }, t("home.open")))));
}
