// The roster builder: members, skills and equipment with the band's cost and every problem
// the service finds, checked as you type; saved bands get a link, a printable sheet, and can
// start a game or a campaign.

import { get, post, put, rememberGame, saveToken, tokenFor } from "./api.js";
import { h, select } from "./dom.js";
import { named, pick, said, t } from "./i18n.js";
import { archetypeName } from "./names.js";
import { notify } from "./notice.js";

let rulesCache = null;

export async function rulesData() {
  if (!rulesCache) rulesCache = await get("/rules");
  return rulesCache;
}

export async function showRoster(id) {
  const rules = await rulesData();
  let stored = null;
  if (id) stored = await get(`/rosters/${encodeURIComponent(id)}`);
  const view = new RosterView(rules, stored);
  view.render();
  view.check();
  return () => view.close();
}

function emptyRoster() {
  return { name: "", members: [] };
}

/** A member as the page names it: the name it was given, else its place in the band. */
export function memberLabel(member, index) {
  return (member && member.name) || t("roster.member_n", { n: index + 1 });
}

/** Where a problem lies, in words: a member, the band's name, the members ("" when the
 * service names a place the page has no word for; its message says what is wrong). */
function whereWords(where, members) {
  const path = String(where || "").replace(/^roster\./, "");
  const m = /^members\[(\d+)\]/.exec(path);
  if (m) return memberLabel(members[Number(m[1])], Number(m[1]));
  if (path === "name") return t("roster.name");
  if (path === "members") return t("roster.members");
  return "";
}

/** A problem's words: where it lies in bold ("Membres : "), unless its message names that
 * place already ("Rambo porte 14 points…"), then what is wrong and how to fix it. */
function problemItem(p, members, fixClass = "muted") {
  const where = whereWords(p.where, members);
  const text = said(p.message, p.words);
  const named = where && String(text).toLocaleLowerCase().startsWith(where.toLocaleLowerCase());
  return h("li", { class: p.severity },
    where && !named ? h("b", {}, t("roster.problem_where", { where })) : null,
    text, p.fix ? h("div", { class: fixClass }, said(p.fix, p.fix_words)) : null);
}

/** The problems that make a band illegal (errors), and those only worth a look (warnings:
 * a weapon without its ammunition...), apart. */
function splitProblems(problems) {
  const list = problems || [];
  return { errors: list.filter((p) => p.severity !== "warning"), warnings: list.filter((p) => p.severity === "warning") };
}

class RosterView {
  constructor(rules, stored) {
    this.rules = rules;
    this.stored = stored;
    this.roster = stored ? structuredClone(stored.roster) : emptyRoster();
    this.validation = stored ? stored.validation : null;
    this.archetypes = new Map(rules.archetypes.map((a) => [a.id, a]));
    this.skills = new Map(rules.skills.map((s) => [s.id, s]));
    this.equipment = new Map(rules.equipment.map((e) => [e.id, e]));
    this.seq = 0;
  }

  get token() {
    return this.stored ? tokenFor(`roster:${this.stored.id}`) : null;
  }

  close() {
    clearTimeout(this.timer);
  }

  render() {
    const root = document.getElementById("view");
    this.membersBox = h("div", { class: "members", id: "members" });
    this.summary = h("aside", { class: "card summary", id: "roster-summary", "aria-live": "polite" });
    const name = h("input", {
      id: "roster-name", value: this.roster.name, placeholder: t("roster.name_placeholder"),
      oninput: (e) => { this.roster.name = e.target.value; this.changed(); },
    });
    const archetypeOptions = [["", t("roster.pick_archetype")], ...this.rules.archetypes.map((a) =>
      [a.id, `${archetypeName(a)} · ${a.cost} ${t("roster.points")} · ${t(`class.${a.class}`, {}, "")}`])];
    const adder = select(archetypeOptions, "", { id: "add-archetype", "aria-label": t("roster.add") });
    const readOnly = this.stored && !this.token;
    root.replaceChildren(h("div", { class: "page" },
      h("h1", {}, this.stored ? t("roster.title_stored", { name: this.roster.name }) : t("roster.title")),
      readOnly ? h("p", { class: "readonly-banner" }, t("roster.read_only")) : null,
      h("div", { class: "roster-layout" },
        h("div", {},
          h("label", { class: "row" }, h("span", {}, t("roster.name")), name),
          h("h2", {}, t("roster.members")),
          this.membersBox,
          h("div", { class: "row", style: "margin-top:10px" }, adder,
            h("button", { type: "button", id: "add-member", class: "primary", onclick: () => {
              if (!adder.value) { notify(t("roster.pick_archetype"), "error"); return; }
              this.addMember(adder.value);
            } }, t("roster.add")))),
        this.summary)));
    this.renderMembers();
    this.renderSummary();
  }

  addMember(archetype) {
    const a = this.archetypes.get(archetype);
    const ids = new Set(this.roster.members.map((m) => m.id));
    let n = this.roster.members.length + 1;
    while (ids.has(`m${n}`)) n += 1;
    const member = { id: `m${n}`, archetype, skill: (a.skills || [])[0] || null, second_skill: null, equipment: {} };
    if (a.sex === "H/F") member.sex = "H";
    this.roster.members.push(member);
    this.renderMembers();
    this.changed();
  }

  renderMembers() {
    this.membersBox.replaceChildren(...this.roster.members.map((m, i) => this.memberCard(m, i)));
  }

  memberCard(m, index) {
    const a = this.archetypes.get(m.archetype) || { skills: [], sex: "" };
    const changed = () => { this.changed(); };
    const nameInput = h("input", { value: m.name || "", "aria-label": t("roster.member_name"), oninput: (e) => { m.name = e.target.value || undefined; changed(); } });
    const archetype = select(this.rules.archetypes.map((x) => [x.id, `${archetypeName(x)} · ${x.cost}`]), m.archetype, {
      "aria-label": t("roster.archetype"), onchange: (e) => {
        m.archetype = e.target.value;
        const nx = this.archetypes.get(m.archetype);
        if (!(nx.skills || []).includes(m.skill)) m.skill = (nx.skills || [])[0] || null;
        if (nx.sex === "H/F") m.sex = m.sex || "H";
        else delete m.sex;
        this.renderMembers();
        changed();
      },
    });
    const skillName = (id) => {
      const s = this.skills.get(id);
      return s ? `${named(s)} (${s.cost})` : t("names.unknown");
    };
    const skill = select([["", "—"], ...(a.skills || []).map((s) => [s, skillName(s)])], m.skill || "", {
      "aria-label": t("roster.skill"), onchange: (e) => { m.skill = e.target.value || null; changed(); },
    });
    const second = select([["", "—"], ...this.rules.skills.map((s) => [s.id, skillName(s.id)])], m.second_skill || "", {
      "aria-label": t("roster.second_skill"), onchange: (e) => { m.second_skill = e.target.value || null; changed(); },
    });
    const sex = a.sex === "H/F" ? select([["H", t("roster.sex_h")], ["F", t("roster.sex_f")]], m.sex || "H", {
      "aria-label": t("roster.sex"), onchange: (e) => { m.sex = e.target.value; changed(); },
    }) : null;
    const itemAdder = select([["", t("roster.add_item")], ...this.rules.equipment.map((e) => [e.id, `${named(e)} · ${t("roster.enc")} ${e.encumbrance}`])], "", {
      "aria-label": t("roster.add_item"), onchange: (e) => {
        if (!e.target.value) return;
        m.equipment[e.target.value] = (m.equipment[e.target.value] || 0) + 1;
        this.renderMembers();
        changed();
      },
    });
    const chips = Object.entries(m.equipment).map(([item, count]) => h("span", { class: "chip" },
      `${named(this.equipment.get(item), t("names.unknown"))}${count > 1 ? ` ×${count}` : ""}`,
      h("button", { type: "button", "aria-label": t("roster.remove_item", { item: named(this.equipment.get(item), t("names.unknown")) }), onclick: () => {
        if (m.equipment[item] > 1) m.equipment[item] -= 1;
        else delete m.equipment[item];
        this.renderMembers();
        changed();
      } }, "×")));
    const cost = this.validation && (this.validation.cost.members || []).find((c) => c.id === m.id);
    const mine = this.validation ? this.validation.problems.filter((p) => p.where.startsWith(`members[${index}]`)) : [];
    const skillText = this.skills.get(m.skill);
    return h("div", { class: "card member", "data-member": m.id },
      h("div", {},
        h("div", { class: "fields" },
          h("label", {}, t("roster.member_name"), nameInput),
          h("label", {}, t("roster.archetype"), archetype),
          sex ? h("label", {}, t("roster.sex"), sex) : null,
          h("label", {}, t("roster.skill"), skill),
          h("label", {}, t("roster.second_skill"), second),
          h("label", {}, t("roster.equipment"), itemAdder)),
        skillText ? h("p", { class: "muted", style: "margin:4px 0" }, pick({ fr: skillText.text_fr, en: skillText.text_en })) : null,
        h("div", { class: "equipment-list" }, chips),
        mine.length ? h("ul", { class: "problems" }, mine.map((p) => h("li", { class: p.severity },
          said(p.message, p.words), p.fix ? ` → ${said(p.fix, p.fix_words)}` : ""))) : null),
      h("div", { style: "text-align:right" },
        h("div", { class: "member-cost" }, cost ? t("roster.member_cost", { n: cost.total, carried: cost.carried, capacity: cost.capacity }) : ""),
        h("button", { type: "button", class: "danger", "aria-label": t("roster.remove", { who: memberLabel(m, index) }), onclick: () => {
          this.roster.members.splice(index, 1);
          this.renderMembers();
          changed();
        } }, t("roster.remove_short"))));
  }

  renderSummary() {
    const v = this.validation;
    const save = h("button", { type: "button", class: "primary", id: "save-roster", onclick: () => this.save() },
      this.stored ? t("roster.save") : t("roster.create"));
    const links = this.stored ? h("div", { class: "row" },
      h("a", { class: "button", href: `#/sheet/${this.stored.id}`, id: "sheet-link" }, t("roster.sheet")),
      h("a", { class: "button", href: `#/roster/${this.stored.id}` }, t("roster.link"))) : null;
    const starter = this.stored ? this.starter() : null;
    const { errors, warnings } = splitProblems(v && v.problems);
    const members = this.roster.members;
    this.summary.replaceChildren(...[
      h("h2", {}, t("roster.summary")),
      h("div", { class: "total", id: "roster-total" }, v ? t("roster.total", { n: v.cost.band }) : "…"),
      v && v.cost.limit ? h("div", { class: "muted" }, t("roster.limit", { n: v.cost.limit })) : null,
      h("p", { id: "roster-legal", class: "row" }, v ? [errors.length
        ? h("span", { class: "badge bad" }, t("roster.illegal", { n: errors.length }))
        : h("span", { class: "badge good" }, t("roster.legal")),
      warnings.length ? h("span", { class: "badge warn", id: "roster-warning-count" }, t("roster.warnings", { n: warnings.length })) : null] : ""),
      h("ul", { class: "problems", id: "roster-problems" }, errors.map((p) => problemItem(p, members))),
      warnings.length ? h("h3", { class: "warnings-title" }, t("roster.to_check")) : null,
      warnings.length ? h("ul", { class: "problems warnings", id: "roster-warnings" }, warnings.map((p) => problemItem(p, members))) : null,
      this.stored && !this.token ? null : save, links, starter].filter(Boolean));
  }

  starter() {
    const scenarios = this.scenarios || [];
    const choose = scenarioSelect(scenarios, { id: "start-scenario", "aria-label": t("home.scenario") });
    if (!this.scenarios) get("/scenarios").then((list) => { this.scenarios = list; this.renderSummary(); }).catch(() => {});
    return h("div", {},
      h("h2", {}, t("roster.play")),
      h("div", { class: "row" }, choose,
        h("button", { type: "button", id: "start-game", onclick: () => startGame({ scenario: choose.value, roster_id: this.stored.id }, this.roster.name) }, t("home.start")),
        h("button", { type: "button", id: "start-campaign", onclick: () => startCampaign({ roster_id: this.stored.id }) }, t("campaign.start"))));
  }

  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), 250);
  }

  /** The roster as the service reads it: empty names left out. */
  payload(forCheck = false) {
    const members = this.roster.members.map((m) => {
      const out = { ...m };
      if (!out.name) delete out.name;
      return out;
    });
    const name = this.roster.name.trim() || (forCheck ? t("roster.unnamed") : "");
    return { name, members };
  }

  async check() {
    const seq = (this.seq += 1);
    try {
      const v = await post("/rosters/validate", { roster: this.payload(true) });
      if (seq !== this.seq) return;
      if (!this.roster.name.trim()) {
        v.problems = [{ severity: "error", where: "name", message: t("roster.needs_name"), fix: t("roster.needs_name_fix") }, ...v.problems];
        v.legal = false;
        v.errors += 1;
      }
      this.validation = v;
    } catch (error) {
      if (seq !== this.seq) return;
      this.validation = { legal: false, errors: 1, warnings: 0, cost: { band: "?", members: [] }, problems: [{ severity: "error", where: "", message: error.message, fix: "" }] };
    }
    this.renderSummary();
    for (const [i, m] of this.roster.members.entries()) {
      const card = this.membersBox.querySelector(`[data-member="${CSS.escape(m.id)}"]`);
      if (card) card.replaceWith(this.memberCard(m, i));
    }
  }

  /** Say it is saved, and with how many problems when the band is not legal yet. */
  saved(validation) {
    const { errors } = splitProblems(validation && validation.problems);
    if (errors.length) notify(t("roster.saved_problems", { n: errors.length }));
    else notify(t("roster.saved"));
  }

  async save() {
    try {
      if (this.stored) {
        this.stored = await put(`/rosters/${this.stored.id}`, { roster: this.payload() }, this.token);
        this.saved(this.stored.validation);
        this.renderSummary();
      } else {
        const created = await post("/rosters", { roster: this.payload() });
        saveToken(`roster:${created.id}`, created.token);
        window.location.hash = `#/roster/${created.id}`;
        this.saved(created.validation || this.validation);
      }
    } catch (error) {
      notify(error.message, "error");
    }
  }
}

export const KINDS = ["regular", "conclusive"]; // the rulebook's "ordinaires" and "conclusifs"

/** A list of the scenario cards (GET /scenarios), each numbered in its own table, under the
 * name of its kind; the first is chosen. */
export function scenarioSelect(cards, attrs) {
  return h("select", attrs, KINDS.map((kind) => {
    const mine = cards.filter((c) => c.kind === kind);
    return mine.length ? h("optgroup", { label: t(`home.kind.${kind}`) },
      mine.map((c) => h("option", { value: c.id }, `${c.number}. ${pick({ fr: c.name, en: c.name_en })}`))) : null;
  }));
}

/** Start a game (POST /games) and open it; `band`: its band's name, for "My games". */
export async function startGame(body, band = null) {
  try {
    const created = await post("/games", body);
    saveToken(`game:${created.id}`, created.token);
    rememberGame(created.id, band);
    window.location.hash = `#/game/${created.id}`;
  } catch (error) {
    notify(error.message, "error");
  }
}

export async function startCampaign(body) {
  try {
    const created = await post("/campaigns", body);
    saveToken(`campaign:${created.id}`, created.token);
    window.location.hash = `#/campaign/${created.id}`;
  } catch (error) {
    notify(error.message, "error");
  }
}
