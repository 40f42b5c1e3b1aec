// A scenario card as a player needs it before a game: #/scenario/ID (?seed=N). Its name,
// kind and number of turns, the story, each side's objective, the deployment, the special
// rules, and its map for a seed (GET scenarios/ID/map.svg, drawn by the server in the page's
// language), with "Play this card" (a game of that seed) and "Print the set-up".

import { get } from "./api.js";
import { h } from "./dom.js";
import { lang, message, pick, t } from "./i18n.js";
import { startGame } from "./roster.js";

/** How long a card lasts: "8 turns", or "5 to 8 turns" when a die ends it (the night). */
export function turnsText(limit, endRoll) {
  return endRoll ? t("home.turns_dawn", { min: endRoll.from_turn, max: limit }) : t("home.turns", { n: limit });
}

/** The seed asked for in the hash's query (#/scenario/ID?seed=N), else 1. */
export function seedOf(query) {
  const given = new URLSearchParams(query || "").get("seed");
  const seed = given === null || given === "" ? NaN : Number(given);
  return Number.isInteger(seed) && seed >= 0 ? seed : 1;
}

/** The card's map for `seed`, as the server draws it in the page's language. */
export function mapUrl(id, seed, extra = "") {
  return `api/v1/scenarios/${encodeURIComponent(id)}/map.svg?seed=${seed}&lang=${lang()}${extra}`;
}

export async function showScenario(id, query) {
  let seed = seedOf(query);
  // the card, and its set-up for the seed asked (the special rules in words; the map's game)
  const [card, setup] = await Promise.all([get(`/scenarios/${encodeURIComponent(id)}`),
    get(`/scenarios/${encodeURIComponent(id)}/setup?seed=${seed}`)]);
  const name = pick(card.name);
  const img = h("img", { class: "scenario-map", id: "scenario-map", alt: "", src: "" });
  const printLink = h("a", { class: "button", id: "print-setup", href: "#" }, t("scenario.print"));
  const seedField = h("input", { id: "scenario-seed", type: "number", min: 0, value: seed, "aria-label": t("home.seed") });
  const show = () => {
    img.src = mapUrl(id, seed);
    img.alt = t("scenario.map_alt", { name, seed });
    printLink.href = `#/setup/${encodeURIComponent(id)}?seed=${seed}`;
    // the address keeps the seed, so a shared link shows the same map (no new view drawn)
    history.replaceState(null, "", `#/scenario/${encodeURIComponent(id)}?seed=${seed}`);
  };
  seedField.addEventListener("change", () => {
    const value = Number(seedField.value);
    seed = Number.isInteger(value) && value >= 0 ? value : 0;
    seedField.value = seed;
    show();
  });
  const side = (key) => h("div", { class: "objective", "data-objective": key },
    h("h3", {}, t(`side.${key}`)), h("p", {}, pick(card.objectives[key].text)));
  const rules = setup.rules_words;
  const town = card.layout && card.layout.table === "town";
  const page = h("div", { class: "page scenario-page", id: "scenario", "data-scenario": id },
    h("p", { class: "no-print" }, h("a", { class: "button", href: "#/", id: "scenario-back" }, t("scenario.back"))),
    h("h1", {}, name),
    h("p", { class: "muted", id: "scenario-kind" },
      t(`scenario.kind.${card.kind}`, { n: card.number }), " · ",
      h("span", { id: "scenario-turns" }, turnsText(card.turns.limit, card.turns.end_roll))),
    card.turns.end_roll ? h("p", { id: "scenario-end-roll" }, t("scenario.end_roll", {
      from: card.turns.end_roll.from_turn, on: card.turns.end_roll.ends_on, max: card.turns.limit })) : null,
    h("p", { class: "scenario-summary" }, pick(card.summary)),
    h("div", { class: "scenario-layout" },
      h("div", { class: "scenario-text" },
        h("section", { id: "scenario-objectives" }, h("h2", {}, t("objective.title")), side("survivors"), side("zombies")),
        h("section", { id: "scenario-deployment" }, h("h2", {}, t("scenario.deployment")),
          h("p", {}, h("b", {}, t("side.survivors")), " — ", pick(card.survivors.text)),
          h("p", {}, h("b", {}, t("side.zombies")), " — ", pick(card.zombies.text))),
        h("section", { id: "scenario-rules" }, h("h2", {}, t("scenario.rules")),
          rules.length ? h("ul", {}, rules.map((r) => h("li", {}, message(r)))) : h("p", { class: "muted" }, t("scenario.no_rules"))),
        h("section", { id: "scenario-story" }, h("h2", {}, t("scenario.story")), h("p", { class: "muted" }, pick(card.story)))),
      h("section", { class: "scenario-map-box", id: "scenario-map-box" },
        h("h2", {}, t("scenario.map")),
        img,
        h("p", { class: "muted hint" }, t("scenario.legend")),
        h("div", { class: "row" }, h("label", { class: "row" }, t("home.seed"), seedField)),
        h("p", { class: "muted hint" }, t(town ? "scenario.seed_hint_town" : "scenario.seed_hint")),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", id: "play-card", onclick: () => startGame({ scenario: id, seed }) }, t("scenario.play")),
          printLink),
        h("p", { class: "muted hint" }, t("scenario.band_default")))));
  document.getElementById("view").replaceChildren(page);
  show();
}
