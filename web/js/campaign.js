// Campaigns: the ones this page holds a token for, a form to start one, and a campaign's
// page (scenario sequence, results, each survivor's state, consequence rolls, next game).

import { get, post, rememberGame, saveToken, tokenFor } from "./api.js";
import { h, select } from "./dom.js";
import { named, pick, said, t } from "./i18n.js";
import { notify } from "./notice.js";
import { sideName } from "./game.js";
import { archetypeName, numberOf } from "./names.js";
import { rulesData, startCampaign } from "./roster.js";
import { exampleBands } from "./examples.js";
import { importForm, shareControl, tokenForm, whenText } from "./share.js";

/** Ids of campaigns (or games) with a token in this browser. */
export function knownIds(kind) {
  try {
    const all = JSON.parse(localStorage.getItem("survive-us.tokens") || "{}");
    return Object.keys(all).filter((k) => k.startsWith(`${kind}:`)).map((k) => k.slice(kind.length + 1));
  } catch (_) {
    return [];
  }
}

/** The campaign's band by its name in the page's language (the example bands have two). */
function bandName(summary) {
  return summary.names ? pick(summary.names) : summary.name;
}

/** A campaign of "My campaigns": its band, how far it is, and each of its games (which
 * scenario of the campaign, when it was started, its result once recorded), linked. */
function campaignCard(c) {
  const s = c.summary;
  const played = s.scenarios.filter((sc) => sc.state === "played").length;
  return h("div", { class: "card campaign-card", "data-campaign": c.id },
    h("a", { class: "card-link", href: `#/campaign/${c.id}` },
      h("h3", {}, bandName(s)),
      h("div", { class: "muted" }, t("campaign.progress", { n: played, total: s.scenarios.length }))),
    c.games.length ? h("ul", { class: "campaign-games" }, c.games.map((g) => {
      const sc = s.scenarios.find((x) => x.id === g.scenario);
      const card = sc ? pick(sc.names) : t("names.unknown");
      const result = !g.recorded ? t("campaign.game_unrecorded")
        : sc && sc.state === "played" ? t("campaign.won_by", { winner: sideName(sc.winner) }) : null;
      return h("li", {},
        h("a", { href: `#/game/${g.id}`, "data-game": g.id }, sc ? t("campaign.game_n", { n: sc.number, total: s.scenarios.length, card }) : card),
        h("span", { class: "muted" }, [whenText(g.created), result].filter(Boolean).map((x) => ` · ${x}`).join("")));
    })) : null);
}

export async function showCampaigns() {
  const ids = knownIds("campaign");
  const rows = await Promise.all(ids.map((id) => get(`/campaigns/${encodeURIComponent(id)}`).catch(() => null)));
  const example = select(await exampleBands(), "cops_and_kids", { id: "campaign-example", "aria-label": t("campaign.example") });
  const length = h("input", { id: "campaign-length", type: "number", min: 3, max: 7, value: 3, "aria-label": t("campaign.length") });
  const seed = h("input", { id: "campaign-seed", type: "number", min: 0, value: 1, "aria-label": t("home.seed") });
  document.getElementById("view").replaceChildren(h("div", { class: "page" },
    h("h1", {}, t("campaign.list_title")),
    rows.filter(Boolean).length ? h("div", { class: "cards", id: "my-campaigns" }, rows.filter(Boolean).map(campaignCard))
      : h("p", { class: "muted" }, t("campaign.none")),
    importForm("campaign"),
    h("h2", {}, t("campaign.new")),
    h("p", { class: "muted" }, t("campaign.new_hint")),
    h("form", { class: "row", id: "campaigns-form", onsubmit: (e) => {
      e.preventDefault();
      startCampaign({ example: example.value, length: Number(length.value), seed: Number(seed.value) });
    } },
    h("label", { class: "row" }, t("campaign.example"), example),
    h("label", { class: "row" }, t("campaign.length"), length),
    h("label", { class: "row" }, t("home.seed"), seed),
    h("button", { type: "submit", class: "primary" }, t("campaign.start")))));
}

export async function showCampaign(id) {
  const data = await get(`/campaigns/${encodeURIComponent(id)}`);
  const token = tokenFor(`campaign:${id}`);
  const [cards, rules] = await Promise.all([get("/scenarios"), rulesData()]);
  const things = new Map();
  for (const kind of ["archetypes", "equipment", "skills"]) for (const x of rules[kind]) things.set(x.id, x);
  const name = (k) => named(things.get(k), t("names.unknown"));
  const cardName = (sid) => {
    const c = cards.find((x) => x.id === sid);
    return c ? pick({ fr: c.name, en: c.name_en }) : t("names.unknown");
  };
  const s = data.summary;
  const memberName = (mid) => {
    const m = s.band.find((x) => x.id === mid);
    return m && m.name ? m.name : t("names.figure_number", { n: numberOf(mid) || "?" });
  };
  const history = data.record.history || [];
  const openGame = data.games.find((g) => !g.recorded && g.scenario === s.next_scenario);
  const finishedGames = data.games.filter((g) => !g.recorded);
  const actions = [];
  const pending = s.scenarios.find((sc) => sc.choice_pending);
  if (token && !s.finished) {
    if (openGame) {
      actions.push(h("a", { class: "button primary", href: `#/game/${openGame.id}`, id: "open-game" }, t("campaign.open_game")));
      // the result is recorded once the game is over; until then the page says so
      const over = await get(`/games/${encodeURIComponent(openGame.id)}`).then((g) => g.terminal, () => false);
      if (over) {
        const dice = h("input", { id: "result-dice", inputmode: "numeric", placeholder: "4", "aria-label": t("campaign.result_dice") });
        actions.push(h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); record(id, openGame.id, token, dice.value); } },
          h("label", { class: "row" }, t("campaign.result_dice"), dice),
          h("button", { type: "submit", id: "record-result" }, t("campaign.record"))));
      } else actions.push(h("p", { class: "muted", id: "record-later" }, t("campaign.record_later")));
    } else if (pending && pending.state === "next") {
      const choice = select(pending.choice_pending.options.map((o) => [o, cardName(o)]), pending.choice_pending.options[0], { id: "final-choice", "aria-label": t("campaign.choose") });
      actions.push(h("form", { class: "row", onsubmit: async (e) => {
        e.preventDefault();
        await change(id, "choose", { scenario: choice.value }, token);
      } }, h("label", { class: "row" }, t("campaign.choose", { by: sideName(pending.choice_pending.by) }), choice),
      h("button", { type: "submit", class: "primary" }, t("campaign.choose_button"))));
    } else {
      actions.push(h("button", { type: "button", class: "primary", id: "next-game", onclick: () => nextGame(id, token, s.name) }, t("campaign.next_game", { name: cardName(s.next_scenario) })));
    }
  }
  const outcome = s.outcome || {};
  document.getElementById("view").replaceChildren(h("div", { class: "page", id: "campaign" },
    h("h1", {}, t("campaign.title", { name: bandName(s) })),
    token ? shareControl("campaign", id, token)
      : tokenForm("campaign", id, t("campaign.read_only"), () => showCampaign(id)),
    outcome.finished ? h("p", { class: "outcome" }, t("campaign.won", { winner: sideName(outcome.winner) })) : null,
    h("div", { class: "row" }, actions,
      h("a", { class: "button", href: `#/sheet/campaign-${id}` }, t("roster.sheet"))),
    h("h2", {}, t("campaign.sequence")),
    h("ol", { class: "sequence", id: "sequence" }, s.scenarios.map((sc) => h("li", { "data-state": sc.state },
      h("b", {}, cardName(sc.id)), " ",
      h("span", { class: `badge ${sc.state === "played" ? (sc.winner === "survivors" ? "good" : "bad") : ""}` },
        sc.state === "played" ? t("campaign.won_by", { winner: sideName(sc.winner) }) : t(`campaign.state.${sc.state.replace(" ", "_")}`, {}, "")),
      sc.kind === "conclusive" ? h("span", { class: "muted" }, ` · ${t("campaign.conclusive")}`) : null))),
    s.zombie_points && s.next_scenario ? h("p", { class: "muted" }, t("campaign.zombie_points", {
      n: s.zombie_points.points, formula: said(s.zombie_points.formula, s.zombie_points.formula_words) })) : null,
    h("h2", {}, t("campaign.band")),
    h("table", { class: "grid", id: "band" },
      h("thead", {}, h("tr", {}, [t("roster.member_name"), t("roster.archetype"), t("stat.status"), t("stat.pv"), t("roster.skill"), t("stat.equipment"), t("roster.cost")].map((x) => h("th", {}, x)))),
      h("tbody", {}, s.band.map((m) => h("tr", { "data-member": m.id },
        h("td", {}, memberName(m.id)), h("td", {}, archetypeName(things.get(m.archetype))),
        h("td", {}, t(`member.${m.status}`, {}, ""), m.cause ? h("div", { class: "muted" }, said(m.cause, m.cause_words)) : null),
        h("td", {}, `${m.pv}/${m.wounds}`),
        h("td", {}, [m.skill, m.second_skill].filter(Boolean).map(name).join(", ")),
        h("td", {}, Object.entries(m.equipment).map(([k, n]) => `${name(k)}${n > 1 ? ` ×${n}` : ""}`).join(", ")),
        h("td", {}, String(m.cost),
          token && !openGame && !s.finished && m.status === "alive" && m.pv < m.wounds
            ? h("button", { type: "button", class: "heal", "data-heal": m.id, onclick: () => change(id, "heal", { target: m.id }, token) }, t("campaign.heal")) : null))))),
    h("h2", {}, t("campaign.results")),
    history.length ? h("div", { class: "cards", id: "history" }, history.map((p) => h("div", { class: "card" },
      h("h3", {}, `${p.number}. ${cardName(p.scenario)}`),
      h("p", {}, t("campaign.won_by", { winner: sideName(p.winner) }), p.reason ? h("span", { class: "muted" }, ` (${said(p.reason, p.reason_words)})`) : null),
      h("ul", {}, p.fates.map((f) => h("li", {}, t("campaign.fate", {
        who: memberName(f.member), end: t(`status.${f.end_status}`, {}, ""), now: t(`member.${f.status}`, {}, ""),
      }), f.roll ? ` (${t("game.dice_rolled", { dice: f.roll })})` : ""))),
      p.consequence ? h("p", { class: "consequence" }, h("b", {}, t("campaign.consequence", { face: p.consequence.face })), " ",
        said(p.consequence.effect.text, p.consequence.effect.text_words || p.consequence.effect.words)) : null,
      p.rewards && p.rewards.length ? h("p", { class: "muted" }, p.rewards.map((r) => said(r.text, r.text_words || r.words)).join(" · ")) : null))) : h("p", { class: "muted" }, t("campaign.no_results")),
    finishedGames.length > 1 ? h("p", { class: "muted" }, t("campaign.unrecorded", { n: finishedGames.length })) : null));
}

async function nextGame(id, token, band) {
  try {
    const game = await post(`/campaigns/${id}/games`, { seed: Math.floor(Math.random() * 1e6) }, token);
    saveToken(`game:${game.id}`, game.token);
    rememberGame(game.id, band);
    window.location.hash = `#/game/${game.id}`;
  } catch (error) {
    notify(error.message, "error");
  }
}

/** A campaign change (choose, heal) with its token; the page is drawn again. */
async function change(id, what, body, token) {
  try {
    await post(`/campaigns/${id}/${what}`, body, token);
    showCampaign(id);
  } catch (error) {
    notify(error.message, "error");
  }
}

async function record(id, gameId, token, typed) {
  const dice = String(typed || "").trim().split(/[\s,;]+/).filter(Boolean).map(Number);
  if (dice.some((d) => !Number.isInteger(d) || d < 1 || d > 6)) {
    notify(t("game.bad_dice", { text: typed }), "error");
    return;
  }
  try {
    await post(`/campaigns/${id}/results`, { game_id: gameId, seed: Math.floor(Math.random() * 1e6), dice }, token);
    notify(t("campaign.recorded"));
    showCampaign(id);
  } catch (error) {
    notify(error.message, "error");
  }
}

