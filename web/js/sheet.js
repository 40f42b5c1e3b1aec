// A printable roster sheet: each member's profile, skills and equipment with their rules
// text, the cost, and boxes to tick wounds at the table. #/sheet/ID (a stored roster) or
// #/sheet/campaign-ID (the band as it stands in a campaign).

import { get } from "./api.js";
import { h } from "./dom.js";
import { named, pick, t } from "./i18n.js";
import { archetypeName } from "./names.js";
import { memberLabel, rulesData } from "./roster.js";

export async function showSheet(ref) {
  const rules = await rulesData();
  const archetypes = new Map(rules.archetypes.map((a) => [a.id, a]));
  const skills = new Map(rules.skills.map((s) => [s.id, s]));
  const equipment = new Map(rules.equipment.map((e) => [e.id, e]));
  let title;
  let members;
  let total;
  if (ref.startsWith("campaign-")) {
    const c = await get(`/campaigns/${encodeURIComponent(ref.slice(9))}`);
    title = c.summary.name;
    members = c.summary.band.filter((m) => m.status !== "dead").map((m) => ({
      id: m.id, name: m.name, archetype: m.archetype, skill: m.skill, second_skill: m.second_skill,
      equipment: m.equipment, cost: m.cost, pv: m.pv,
    }));
    total = members.reduce((n, m) => n + (m.cost || 0), 0);
  } else {
    const r = await get(`/rosters/${encodeURIComponent(ref)}`);
    title = r.roster.name;
    const costs = new Map((r.validation.cost.members || []).map((c) => [c.id, c.total]));
    members = r.roster.members.map((m) => ({ ...m, cost: costs.get(m.id) }));
    total = r.validation.cost.band;
  }
  const skillLine = (id) => {
    const s = skills.get(id);
    return s ? h("li", {}, h("b", {}, named(s)), " — ", pick({ fr: s.text_fr, en: s.text_en || s.text_fr })) : null;
  };
  const sheet = h("div", { class: "page sheet", id: "sheet" },
    h("div", { class: "row no-print" },
      h("button", { type: "button", class: "primary", id: "print", onclick: () => window.print() }, t("sheet.print")),
      h("a", { class: "button", href: ref.startsWith("campaign-") ? `#/campaign/${ref.slice(9)}` : `#/roster/${ref}` }, t("sheet.back"))),
    h("h1", {}, t("sheet.title", { name: title })),
    h("p", {}, t("roster.total", { n: total })),
    h("div", { class: "sheet-members" }, members.map((m, index) => {
      const a = archetypes.get(m.archetype) || {};
      const pv = m.pv !== undefined ? m.pv : a.wounds;
      return h("article", { class: "card sheet-member" },
        h("h2", {}, `${memberLabel(m, index)} — ${archetypeName(a)}`, m.cost !== undefined ? h("span", { class: "muted" }, ` · ${m.cost} ${t("roster.points")}`) : null),
        h("table", { class: "grid profile" },
          h("thead", {}, h("tr", {}, ["move", "pv", "attack", "defense", "intelligence", "panic", "encumbrance"].map((k) => h("th", {}, t(`stat.${k}`))))),
          h("tbody", {}, h("tr", {}, [a.move, `${pv}/${a.wounds}`, a.attack, `${a.defense}+`, `${a.intelligence}+`, `${a.panic}+`, a.encumbrance].map((v) => h("td", {}, String(v)))))),
        h("div", { class: "wound-boxes", "aria-label": t("sheet.wounds") }, Array.from({ length: a.wounds || 0 }, (_, i) => h("span", { class: `box${i >= pv ? " lost" : ""}` }))),
        h("ul", { class: "sheet-skills" }, [m.skill, m.second_skill].filter(Boolean).map(skillLine)),
        h("ul", { class: "sheet-items" }, Object.entries(m.equipment || {}).map(([id, n]) => {
          const e = equipment.get(id) || {};
          return h("li", {}, h("b", {}, `${named(e, t("names.unknown"))}${n > 1 ? ` ×${n}` : ""}`), e.text_fr ? ` — ${pick({ fr: e.text_fr, en: e.text_en || e.text_fr })}` : "");
        })));
    })));
  document.getElementById("view").replaceChildren(sheet);
}
