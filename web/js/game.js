// The game screen: the table with its tools beside a panel for playing (whose activation,
// the AP pools, the selected figure's legal actions, dice, the AI's proposal, undo, the log).
// It follows the server's live event stream, so every open page shows the same game.

import * as games from "./gameapi.js";
import { get } from "./api.js";
import { rulesData } from "./roster.js";
import { actionPhrase, describe, logPositions } from "./actions.js";
import { h } from "./dom.js";
import { lang, message, named, num, pick, said, t, translate } from "./i18n.js";
import { Names } from "./names.js";
import { el, points as svgPoints } from "./svg.js";
import { notify } from "./notice.js";
import { oddsLine } from "./odds.js";
import { askDie } from "./diceask.js";
import { CameraPanel } from "./camera.js";
import { shareControl, tokenForm } from "./share.js";
import { TableView, statusMarks } from "./table.js";
import {
  aiGhostNodes, engagedNodes, pathNodes,
  sightNodes, sightTagNodes, tapeEnd, tapeLength, tapeNodes, zone20Nodes,
} from "./tools.js";

export async function showGame(id) {
  const view = new GameView(id);
  await view.load();
  return () => view.close();
}

const TOOLS = ["measure", "sight"];

class GameView {
  constructor(id) {
    this.id = id;
    this.data = null; // {state, legal, log, version, ...} from the server
    this.selected = null;
    this.tool = null;
    this.tape = [];
    this.toggles = { zone20: false, engaged: false };
    this.sightOf = null;
    this.proposal = null;
    this.chances = null; // {survivors, zombies, curve, turning_text} from the AI's evaluation
    this.level = localStorage.getItem(LEVEL_STORE) || "normal";
    this.tableDice = localStorage.getItem(DICE_STORE) === "table"; // dice rolled at the table
    this.pendingMove = null; // a move previewed by a tap, waiting for "move here"
    this.previewSeq = 0;
    this.busy = false;
    this.camera = new CameraPanel(this);
    this._build();
  }

  get token() {
    return games.tokenOf(this.id, this.data);
  }

  get readOnly() {
    return !this.token;
  }

  get state() {
    return this.data.state;
  }

  // --- layout ------------------------------------------------------------------------------

  _build() {
    const root = document.getElementById("view");
    this.tableHost = h("div", { class: "table-host" });
    this.readout = h("span", { id: "readout", role: "status", "aria-live": "polite" });
    const toolButton = (name, icon) => h("button", {
      type: "button", "data-tool": name, "aria-pressed": "false", dataset: { i18nLabel: `tools.${name}` },
      onclick: () => this.setTool(name),
    }, icon);
    const toggle = (name, icon) => h("button", {
      type: "button", "data-toggle": name, "aria-pressed": "false", dataset: { i18nLabel: `tools.${name}` },
      onclick: () => this.toggle(name),
    }, icon);
    const tools = h("div", { class: "table-tools", role: "toolbar", "aria-label": t("tools.aria") },
      h("div", { class: "group" },
        h("button", { type: "button", dataset: { i18nLabel: "tools.zoom_in" }, onclick: () => this.table.zoomBy(1.4) }, "+"),
        h("button", { type: "button", dataset: { i18nLabel: "tools.zoom_out" }, onclick: () => this.table.zoomBy(1 / 1.4) }, "−"),
        h("button", { type: "button", "data-action": "reset-view", dataset: { i18nLabel: "tools.reset" }, onclick: () => this.table.resetView() }, "⟲")),
      h("div", { class: "group" },
        toolButton("measure", t("tools.measure_short")), toolButton("sight", t("tools.sight_short")),
        toggle("zone20", t("tools.zone20_short")), toggle("engaged", t("tools.engaged_short"))));
    this.panel = h("aside", { class: "panel", "aria-label": t("game.panel") });
    this.root = h("section", { class: "game" },
      h("div", { class: "table-wrap" }, tools, h("div", { class: "table-area" }, this.tableHost), h("div", { class: "readout" }, this.readout)),
      this.panel);
    root.replaceChildren(this.root);
    translate(this.root);
    this.table = new TableView(this.tableHost, {
      onFigureTap: (id) => this.tapFigure(id),
      onPointTap: (p) => this.tapPoint(p),
      dragFigure: (id) => this.canMove(id),
      onDrag: (id, p) => this.dragTo(id, p),
      onDrop: (id, p) => this.dropAt(id, p),
      onDragCancel: () => this.clearMovePreview(),
      figureTitle: (fig) => figureTitle(fig, this.names),
      markerTitle: (m) => markerTitle(m, this.names),
    });
  }

  /** Escape leaves the current tool, then the selection. */
  onKey(e) {
    if (e.key !== "Escape") return;
    if (this.tool) this.setTool(this.tool);
    else if (this.selected) this.select(null);
  }

  async load() {
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    import("./wakelock.js").then((w) => w.keepAwake(this)); // the screen stays on while the game is open
    const [data, rules, cards] = await Promise.all([games.load(this.id), rulesData(), get("/scenarios")]);
    this.cards = new Map(cards.map((c) => [c.id, { fr: c.name, en: c.name_en }]));
    const card = data.scenario && this.cards.has(data.scenario)
      ? await get(`/scenarios/${encodeURIComponent(data.scenario)}`) : null;
    this.names = new Names(rules, card, data); // what the page calls every figure and thing
    this.setData(data);
    await this.camera.loadLast();
    if (card) this.table.setExits((card.exits || []).map((e) => ({ ...e, label: named(e) })));
    this.stream = games.follow(this.id, this.data.version, (version) => {
      if (!this.data || version !== this.data.version) this.refresh();
    });
  }

  close() {
    if (this.stream) this.stream.close();
    document.removeEventListener("keydown", this.keys);
    import("./wakelock.js").then((w) => w.letSleep(this));
    this.closed = true;
  }

  async refresh() {
    // the page's own change in flight (an action, a redo of several) brings its own state
    if (this.closed || this.busy) return;
    try {
      const data = await games.load(this.id);
      // a late answer (an older version than the page shows) never takes the page back
      if (this.closed || (this.data && data.version < this.data.version)) return;
      const same = this.data && data.version === this.data.version;
      this.setData(data);
      // the same version (the connection came back): a proposal lost on the way is asked again
      if (same && !this.proposal) this.maybePropose();
    } catch (error) {
      notify(error.message, "error");
    }
  }

  setData(data) {
    const versionChanged = !this.data || this.data.version !== data.version;
    const newTurn = this.data && data.state.turn > this.data.state.turn && !data.state.outcome;
    this.data = data;
    // a new turn is announced with the action points each side rolled
    if (newTurn) notify(this.turnBanner(), "info");
    this.names.setGame(data);
    if (versionChanged) {
      this.proposal = null;
      this.pendingMove = null;
      this.clearSight();
      this.table.clearOverlay("path");
      this.table.clearOverlay("ai");
      this.camera.stale();
      this.said = { text: "", refused: false };
    }
    if (this.selected && !this.state.figures.some((f) => f.id === this.selected)) this.selected = null;
    this.table.setState(this.state);
    this.redraw();
    if (versionChanged && this.passIfNoChoice()) return;
    if (versionChanged) {
      this.maybePropose();
      this.loadChances();
      if (data.state.outcome) this.loadSummary();
    }
  }

  /** A survivors' window that offers nothing but letting it pass is let pass at once, and
   * said (there is nothing to decide); the zombies' windows are the AI's. */
  passIfNoChoice() {
    const s = this.state;
    const w = s.pending && s.pending[0];
    if (!w || this.readOnly || s.outcome || w.side === "zombies" && s.mode === "solo") return false;
    const only = this.data.legal.length === 1 && this.data.legal[0].type === "decline" ? this.data.legal[0] : null;
    if (!only || this.busy) return false;
    this.apply(only).then((ok) => { if (ok) notify(t("game.passed_alone", { what: t(`window.${w.kind}`, this.windowParams(w), t("window.other")) })); });
    return true;
  }

  /** The end of the game in figures (who got out, wounds, kills, AP spent), once over. */
  async loadSummary() {
    try {
      const summary = await games.summary(this.id);
      if (this.closed || !this.data || summary.version !== this.data.version) return;
      this.summary = summary;
      this.renderPanel();
    } catch (error) {
      notify(error.message, "error");
    }
  }

  /** The AI's reading of the position: the gauge, and at the end the curve. */
  async loadChances() {
    const s = this.state;
    if (s.mode === "zombie_war") return;
    const version = this.data.version;
    try {
      const chances = await games.chances(this.id, lang(), Boolean(s.outcome));
      if (this.closed || !this.data || this.data.version !== version) return;
      this.chances = chances;
      this.renderPanel();
    } catch (error) {
      this.chances = null; // the gauge is a help, not the game: no notice for it
    }
  }

  // --- drawing -----------------------------------------------------------------------------

  redraw() {
    const active = this.actors();
    const marks = { selected: new Set(this.selected ? [this.selected] : []), activatable: active };
    if (this.sightOf) {
      marks["visible-target"] = new Set(this.sightOf.targets.filter((x) => x.visible).map((x) => x.id));
      marks["hidden-target"] = new Set(this.sightOf.targets.filter((x) => !x.visible).map((x) => x.id));
    }
    if (this.toggles.zone20) marks.activatable = this.inZone();
    this.table.drawFigures(marks);
    this.table.setOverlay("zone20", this.toggles.zone20 ? zone20Nodes(this.state) : [], "areas");
    this.table.setOverlay("engaged", this.toggles.engaged ? engagedNodes(this.contactPairs()) : [], "under");
    this.refreshTools();
    this.drawTape();
    this.showReadout();
    this.renderPanel();
  }

  /** Say `text` under the table (a tool's answer, a route, a refusal, the last action). */
  say(text, refused = false) {
    this.said = { text, refused };
    this.showReadout();
  }

  /** The readout: what was said last, then the summary of each toggle that is on (the 20 in
   * zone, the contacts), so that no tool hides another's. */
  showReadout() {
    const said = this.said || { text: "", refused: false };
    const parts = [said.text];
    if (this.data && this.toggles.zone20 && this.fresh(this.zone)) parts.push(t("tools.zone20_count", { n: this.inZone().size }));
    if (this.data && this.toggles.engaged && this.fresh(this.contacts)) parts.push(t("tools.engaged_count", { n: this.contactPairs().length }));
    this.readout.textContent = parts.filter(Boolean).join(" · ");
    this.readout.className = said.refused ? "refused" : "";
  }

  /** "Turn 2: Survivors 5 AP · Zombies 7 AP". */
  turnBanner() {
    const s = this.state;
    const pools = Object.entries(s.pools).map(([side, n]) => t("game.turn_pool", { side: sideName(side), n }));
    return t("game.turn_banner", { turn: s.turn, pools: pools.join(" · ") });
  }

  /** Whether a tool's answer is for the game as it stands. */
  fresh(answer) {
    return Boolean(answer && this.data && answer.version === this.data.version);
  }

  /** The 20 in and contact tools ask the server, whose engine judges the game, once per
   * version of the game while they are on (the page draws, it does not judge). */
  async refreshTools() {
    const asks = [];
    if (this.toggles.zone20 && !this.fresh(this.zone)) asks.push(games.zone(this.id).then((z) => { this.zone = z; }));
    if (this.toggles.engaged && !this.fresh(this.contacts)) asks.push(games.engaged(this.id).then((e) => { this.contacts = e; }));
    if (!asks.length) return;
    try {
      await Promise.all(asks);
    } catch (error) {
      notify(error.message, "error");
      return;
    }
    if (this.fresh(this.zone) || this.fresh(this.contacts)) this.redraw();
  }

  /** The zombies with a human within 20 in (the server's last answer for this version). */
  inZone() {
    return new Set(this.fresh(this.zone) ? this.zone.in_zone : []);
  }

  /** The enemy pairs in base contact, as figures (the server's answer for this version). */
  contactPairs() {
    if (!this.fresh(this.contacts)) return [];
    const byId = new Map(this.state.figures.map((f) => [f.id, f]));
    return this.contacts.pairs.map(([a, b]) => [byId.get(a), byId.get(b)]).filter(([a, b]) => a && b);
  }

  /** Figures with a legal action now. */
  actors() {
    return new Set(this.data.legal.filter((a) => a.figure).map((a) => a.figure));
  }

  drawTape() {
    if (this.tape.length === 2) {
      const a = tapeEnd(this.state, this.tape[0]);
      const b = tapeEnd(this.state, this.tape[1]);
      if (a && b) {
        this.table.setOverlay("measure", tapeNodes(a, b));
        return;
      }
    }
    this.table.setOverlay("measure", []);
  }

  renderPanel() {
    const s = this.state;
    const sections = [this.statusSection()];
    if (s.outcome && this.fresh(this.summary)) sections.push(this.summarySection());
    if (this.proposal) sections.push(this.aiSection()); // first, and held in view (CSS)
    else if (this.autoPace && !s.outcome) sections.push(this.autoWaitSection()); // Stop stays in reach
    if (this.data.objectives) sections.push(this.objectiveSection());
    if (this.chances && this.chances.version === this.data.version) sections.push(this.chancesSection());
    if (this.readOnly) sections.push(this.tokenSection());
    if (s.pending && s.pending.length) sections.push(this.windowSection());
    if (this.camera.answer) sections.push(this.camera.section()); // beside the AI's proposal
    sections.push(this.figureSection());
    if (!this.readOnly && !s.outcome) sections.push(this.playSection());
    if (!this.camera.answer) sections.push(this.camera.section());
    sections.push(this.logSection());
    this.panel.replaceChildren(...sections);
  }

  statusSection() {
    const s = this.state;
    const scenario = this.cards.has(this.data.scenario) ? pick(this.cards.get(this.data.scenario)) : named(s.scene);
    // nobody acts once the game is over: the status line says so, the result follows
    const deciding = s.outcome ? null : s.pending && s.pending.length ? s.pending[0].side : s.to_act;
    const sides = s.mode === "zombie_war" ? ["A", "B", "zombies"] : ["survivors", "zombies"];
    const pools = h("div", { class: "pools" }, sides.filter((side) => side in s.pools).map((side) =>
      h("div", { class: `pool ${side === "A" || side === "B" ? `survivors band-${side}` : side}${side === deciding ? " acting" : ""}`, "data-pool": side },
        h("div", {}, sideName(side)), h("b", {}, String(s.pools[side])), " ", t("game.ap"))));
    const end = this.data.outcome || s.outcome; // the game answer's outcome may carry its words
    const outcome = s.outcome ? h("p", { class: "outcome", "data-outcome": s.outcome.winner },
      t("game.outcome", { winner: sideName(s.outcome.winner), reason: said(end.reason, end.words) })) : null;
    const campaign = this.data.campaign_id ? h("a", { class: "button", id: "to-campaign", href: `#/campaign/${this.data.campaign_id}` },
      s.outcome ? t("game.record_in_campaign") : t("game.campaign")) : null;
    const weather = s.referee && s.referee.weather;
    return h("section", { "aria-label": t("game.status") },
      h("h2", {}, scenario || t("game.title")),
      weather ? h("p", { class: "muted weather", style: "margin:0 0 4px" }, t("game.weather", { name: pick(weather.name) }),
        weather.effects && weather.effects.sight_limit ? ` · ${t("game.sight_limit", { n: weather.effects.sight_limit })}` : "",
        weather.effects && weather.effects.range_factor !== undefined && weather.effects.range_factor !== 1 ? ` · ${t("game.range_factor", { f: weather.effects.range_factor })}` : "") : null,
      h("div", { class: "status-line" },
        h("span", { id: "turn" }, t("game.turn", { turn: s.turn, max: s.max_turns })),
        s.outcome ? h("span", { id: "game-over" }, t("game.over"))
          : h("span", { id: "to-act" }, t("game.to_act", { side: sideName(deciding) }))),
      pools, outcome, campaign, this.moreSection());
  }

  /** Printing the set-up, handing the game to another device, saving its record: folded
   * under one line, so the objective comes right after the turn (kept open once opened). */
  moreSection() {
    const setup = this.data.scenario ? h("a", { class: "button", id: "setup-link", href: `#/setup/${this.data.scenario}?game=${this.id}` }, t("scenario.print")) : null;
    const share = this.token ? shareControl("game", this.id, this.token) : null;
    if (!setup && !share) return null;
    return h("details", { class: "game-more", id: "game-more", open: Boolean(this.moreOpen), ontoggle: (e) => { this.moreOpen = e.target.open; } },
      h("summary", {}, t("game.more")), setup, share);
  }

  /** How the game went: each survivor's and civilian's fate, wounds taken and zombies put
   * down, the AP each side spent and, in a campaign, what recording the result brings. */
  summarySection() {
    const m = this.summary;
    const fate = (f) => {
      if (f.status === "evacuated") {
        return f.exit && this.names.exits.has(f.exit) ? t("summary.fate.evacuated", { exit: this.names.place(f.exit) })
          : t("summary.fate.evacuated_any");
      }
      return t(`summary.fate.${f.status}`, {}, t(`status.${f.status}`));
    };
    const pools = Object.entries(m.ap_spent).map(([side, n]) => t("summary.ap_side", { side: sideName(side), n }));
    const face = (c) => t(c.low === c.high ? "summary.face_one" : "summary.face", { low: c.low, high: c.high, what: message(c.words) });
    return h("section", { id: "game-summary", "aria-label": t("summary.title") },
      h("h3", {}, t("summary.title")),
      h("p", { class: "muted" }, t("summary.turns", { turn: m.turn, max: m.max_turns })),
      h("ul", { class: "summary" }, m.figures.map((f) => h("li", { "data-summary": f.id, class: f.status },
        h("b", {}, this.names.figure(f.id)), " ", h("span", { class: "fate" }, fate(f)),
        h("span", { class: "muted" }, ` · ${t("summary.wounds_n", { n: f.wounds_taken })} · ${t("summary.kills_n", { n: f.kills })}`)))),
      h("p", { id: "summary-zombies" }, t("summary.zombies_down", { n: m.zombies_down })),
      pools.length ? h("p", { id: "summary-ap" }, t("summary.ap", { pools: pools.join(" · ") })) : null,
      m.consequences.length ? [h("p", {}, t("summary.campaign")),
        h("ul", { id: "summary-consequences" }, m.consequences.map((c) => h("li", {}, face(c))))] : null);
  }

  tokenSection() {
    this.tokenDraft = this.tokenDraft || {};
    return tokenForm("game", this.id, t("game.read_only"), () => this.redraw(), this.tokenDraft);
  }

  windowSection() {
    const w = this.state.pending[0];
    const buttons = this.readOnly ? [] : this.data.legal.map((a) => this.actionButton(a, true));
    // the AI proposes the zombies' choice: their every possible reply folds away
    const list = this.proposal && buttons.length > 1
      ? h("details", { id: "window-list" }, h("summary", {}, t("game.choices_folded", { n: buttons.length })), h("div", { class: "actions" }, buttons))
      : h("div", { class: "actions" }, buttons);
    return h("section", { class: "window-box", id: "window" },
      h("h2", {}, t("game.window", { side: sideName(w.side) })),
      h("p", {}, t(`window.${w.kind}`, this.windowParams(w), t("window.other"))),
      list);
  }

  windowParams(w) {
    return {
      figure: w.figure ? this.names.figure(w.figure) : "",
      target: w.target ? this.names.figure(w.target) : "",
      skill: this.names.thing(w.kind), // the skill windows are named after their skill
    };
  }

  figureSection() {
    const fig = this.selected && this.table.figure(this.selected);
    if (!fig) {
      const actors = [...this.actors()].map((id) => this.table.figure(id)).filter(Boolean);
      if (!actors.length) return h("section", { id: "figure", class: "muted" }, t("game.tap_to_see"));
      const buttons = h("div", { class: "row" }, actors.map((f) => h("button", {
        type: "button", "data-select": f.id, onclick: () => this.select(f.id),
      }, f.side === "survivors" ? `${this.names.figure(f.id)} · ${this.kindName(f)}` : this.names.figure(f.id))));
      // while the AI proposes the zombies' move, their long list folds away (a player who
      // moves a zombie by hand opens it)
      if (this.proposal) {
        return h("section", { id: "figure" }, h("details", { id: "figure-list" },
          h("summary", {}, t("game.figures_folded", { n: actors.length })), buttons));
      }
      return h("section", { id: "figure" },
        h("h2", {}, t("game.figures")),
        h("p", { class: "muted" }, t("game.tap_hint")), buttons);
    }
    const items = Object.entries(fig.items || {}).map(([k, n]) => `${this.names.thing(k)}${n > 1 ? ` ×${n}` : ""}`);
    const units = Object.entries(fig.units || {}).map(([k, n]) => t("game.labelled", { label: this.names.thing(k), value: n }));
    const marks = statusMarks(fig).map((k) => t(k));
    const mine = this.data.legal.filter((a) => a.figure === fig.id && !(this.state.pending || []).length);
    const name = this.names.figure(fig.id);
    const card = h("div", { class: "figure-card" },
      h("h2", {}, name, " ", h("span", { class: `badge ${fig.side}` }, sideName(fig.side))),
      h("div", { class: "stats" },
        stat("move", fig.move), stat("pv", `${fig.pv}/${fig.wounds}`), stat("attack", fig.attack),
        stat("defense", `${fig.defense}+`), fig.side !== "zombies" ? stat("panic", `${fig.panic}+`) : null),
      h("dl", {},
        h("dt", {}, t("stat.type")), h("dd", {}, this.kindName(fig)),
        h("dt", {}, t("stat.status")), h("dd", {}, marks.length ? marks.join(", ") : t("status.standing")),
        fig.skills && fig.skills.length ? [h("dt", {}, t("stat.skills")), h("dd", {}, fig.skills.map((k) => this.names.thing(k)).join(", "))] : null,
        items.length ? [h("dt", {}, t("stat.equipment")), h("dd", { id: "equipment" }, items.join(", "))] : null,
        units.length ? [h("dt", {}, t("stat.units")), h("dd", {}, units.join(", "))] : null));
    const actions = this.readOnly ? [] : mine.map((a) => this.actionButton(a, false));
    const moveHint = !this.readOnly && this.canMove(fig.id) ? h("p", { class: "muted" }, t("game.drag_hint", { name, m: fig.move })) : null;
    const moveHere = this.pendingMove && this.pendingMove.figure === fig.id && this.pendingMove.legal
      ? h("button", { type: "button", class: "primary", id: "move-here", onclick: () => this.applyMove(fig.id, this.pendingMove.to) }, t("game.move_here")) : null;
    return h("section", { id: "figure" }, card,
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => this.select(null) }, t("game.deselect")),
        h("button", { type: "button", id: "figure-sight", onclick: () => this.showSight(fig.id) }, t("game.sight_of", { name }))),
      moveHint, moveHere,
      actions.length ? h("h2", {}, t("game.legal_actions", { name })) : null,
      h("div", { class: "actions", id: "actions" }, actions));
  }

  /** An archetype (with its sex) or a zombie type; civilians are civilians. */
  kindName(fig) {
    if (fig.side === "civilians") return t("side.civilians");
    return fig.side === "survivors" ? this.names.archetype(fig.kind) : this.names.thing(fig.kind);
  }

  actionButton(action, withActor) {
    const cost = this.data.costs ? this.data.costs[JSON.stringify(action)] : undefined;
    const said = { ap: !cost }; // the cost beside the text, not in it too
    const text = withActor ? describe(action, this.names, said) : actionPhrase(action, this.names, said);
    const odds = this.oddsOf(action);
    return h("button", {
      type: "button", "data-action-type": action.type, disabled: this.busy,
      onclick: () => this.apply(action),
    }, h("span", { class: "what" }, h("span", {}, text), odds ? h("small", { class: "odds" }, odds) : null),
    cost ? h("span", { class: "cost" }, t("game.cost", { ap: cost })) : null);
  }

  /** What an attack rolls and its chances, said on its button (null: it rolls nothing). */
  oddsOf(action) {
    return oddsLine(this.data.odds ? this.data.odds[JSON.stringify(action)] : null);
  }

  playSection() {
    const side = this.data.legal.filter((a) => !a.figure);
    const dice = h("input", {
      id: "dice-input", inputmode: "numeric", placeholder: "3 5 1", value: this.diceText || "",
      "aria-label": t("game.dice_label"), oninput: (e) => { this.diceText = e.target.value; },
    });
    const tableDice = h("input", { type: "checkbox", id: "table-dice", checked: this.tableDice, onchange: (e) => {
      this.tableDice = e.target.checked;
      localStorage.setItem(DICE_STORE, this.tableDice ? "table" : "service");
      this.renderPanel();
    } });
    return h("section", { id: "play" },
      h("h2", {}, t("game.play")),
      h("label", { class: "row table-dice" }, tableDice, t("game.table_dice")),
      this.tableDice ? h("p", { class: "muted" }, t("game.table_dice_hint")) : null,
      h("div", { class: "row dice-row" },
        h("label", { for: "dice-input" }, t("game.dice")), dice),
      h("p", { class: "muted" }, t("game.dice_hint")),
      h("div", { class: "row" },
        (this.state.pending || []).length ? null : side.map((a) => this.actionButton(a, true)),
        h("button", { type: "button", id: "undo", disabled: this.busy || this.data.version === 0 || this.data.can_undo === false, onclick: () => this.undo() }, t("game.undo")),
        this.canRedo() ? h("button", { type: "button", id: "redo", disabled: this.busy, onclick: () => this.redo() }, t("game.redo", { n: this.redoList.length })) : null));
  }

  /** Whether what was last taken back can be played again as it was (nothing since). */
  canRedo() {
    return Boolean(this.redoList && this.redoList.length && this.data.version === this.redoAt);
  }

  /** What each side must do, as the card says it, and how it stands now (the scenario
   * referee's tally: "2 of 3", a check once a condition holds), the card's special rules
   * folded under it, and a warning on the last turn. */
  objectiveSection() {
    const o = this.data.objectives;
    const s = this.state;
    const side = (key) => h("div", { class: `objective ${key}`, "data-objective": key },
      h("p", {}, h("b", {}, sideName(key)), " ", pick(o.text[key])),
      h("ul", {}, o[key].conditions.filter((c) => c.type !== "survivors_fail").map((c) =>
        h("li", { class: c.holds ? "holds" : "", "data-condition": c.type },
          c.holds ? "✓ " : "", message(c.words),
          c.tally ? h("span", { class: "tally" }, " — ", t("objective.tally", { n: c.tally[0], need: c.tally[1], total: c.tally[2] })) : null))));
    const last = !s.outcome && s.turn === s.max_turns;
    return h("section", { id: "objectives", "aria-label": t("objective.title") },
      h("h3", {}, t("objective.title")),
      last ? h("p", { class: "last-turn", id: "last-turn" }, t("objective.last_turn")) : null,
      side("survivors"), side("zombies"),
      o.rules.length ? h("details", { id: "special-rules" },
        h("summary", {}, t("objective.rules", { n: o.rules.length })),
        h("ul", {}, o.rules.map((r) => h("li", {}, message(r))))) : null);
  }

  /** "Survivors: 38%" as a gauge that moves as the game goes; at the end, the curve over
   *  the game and the turning point named. */
  chancesSection() {
    const c = this.chances;
    const pct = (v) => `${Math.round(v * 100)}${lang() === "fr" ? "\u202f" : ""}%`;
    const gauge = h("div", { class: "gauge", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100",
      "aria-valuenow": String(Math.round(c.survivors * 100)), "aria-label": t("chances.label") },
      h("div", { class: "gauge-fill", style: `width:${(c.survivors * 100).toFixed(1)}%` }));
    const done = Boolean(this.state.outcome);
    const points = c.curve || [];
    let chart = null;
    if (done && points.length > 1) {
      const w = 100, hgt = 30, n = points.length - 1;
      const coords = points.map((p, i) => [w * i / n, hgt * (1 - p.survivors)]);
      const turn = points.findIndex((p) => c.turning_point && p.index === c.turning_point.params.index);
      chart = el("svg", { class: "chances-curve", viewBox: `0 0 ${w} ${hgt}`, preserveAspectRatio: "none", role: "img", "aria-label": t("chances.curve") }, [
        el("line", { x1: 0, y1: hgt / 2, x2: w, y2: hgt / 2, class: "half" }),
        el("polyline", { points: svgPoints(coords), class: "line" }),
        turn > 0 ? el("circle", { cx: coords[turn][0], cy: coords[turn][1], r: 1.6, class: "turning" }) : null,
      ]);
    }
    return h("section", { id: "chances", "aria-label": t("chances.title") },
      h("div", { class: "status-line chances-line" },
        h("span", { id: "chances-survivors" }, t("chances.survivors", { p: pct(c.survivors) })),
        h("span", { "aria-hidden": "true" }, "·"),
        h("span", { id: "chances-zombies" }, t("chances.zombies", { p: pct(c.zombies) }))),
      gauge,
      chart,
      done && (c.turning_point || c.turning_text) ? h("p", { id: "turning-point" },
        t("chances.turning", { what: c.turning_point ? message(c.turning_point) : c.turning_text })) : null);
  }

  levelSelect() {
    return h("label", { class: "row level" }, t("ai.level"),
      h("select", { id: "ai-level", disabled: this.busy, onchange: (e) => {
        this.level = e.target.value;
        localStorage.setItem(LEVEL_STORE, this.level);
        this.proposal = null;
        this.maybePropose();
      } }, ["easy", "normal", "hard"].map((v) => h("option", { value: v, selected: v === this.level }, t(`ai.level_${v}`)))));
  }

  aiSection() {
    const p = this.proposal;
    return h("section", { class: "ai-box", id: "ai" },
      h("h2", {}, t("ai.title")),
      this.readOnly ? null : this.levelSelect(),
      h("p", { class: "ai-action" }, describe(p.action, this.names),
        p.length ? h("span", { class: "ai-length" }, ` ${t("ai.move_length", { n: num(p.length, 1) })}`) : null),
      this.oddsOf(p.action) ? h("p", { class: "odds", id: "ai-odds" }, this.oddsOf(p.action)) : null,
      h("p", { class: "ai-why" }, p.messages && p.messages.length ? p.messages.map(message).join(t("word.separator")) : p.explanation),
      // "Play it": the service rolls; "I did it on the table": its dice are asked (with
      // the dice rolled at the table, the one button that means)
      this.readOnly ? null : h("div", { class: "row" },
        this.tableDice ? null : h("button", { type: "button", class: "primary", id: "ai-play", disabled: this.busy, title: t("ai.play_it_hint"), onclick: () => this.apply(p.action) }, t("ai.play_it")),
        h("button", { type: "button", id: "ai-done", class: this.tableDice ? "primary" : "", disabled: this.busy, title: t("ai.moved_it_hint"), onclick: () => this.apply(p.action, { table: true }) }, t("ai.moved_it"))),
      this.readOnly ? null : this.autoControls());
  }

  /** While auto-play waits for the AI's next proposal: its box with Stop, not a gap. */
  autoWaitSection() {
    return h("section", { class: "ai-box", id: "ai" }, h("h2", {}, t("ai.title")), this.autoControls());
  }

  /** Auto-play the zombies at a visible pace, or stop it. */
  autoControls() {
    if (this.autoPace) {
      return h("div", { class: "row auto" },
        h("span", { class: "muted", id: "auto-on" }, t("ai.auto_on")),
        h("button", { type: "button", id: "auto-stop", onclick: () => this.stopAuto() }, t("ai.auto_stop")));
    }
    // the pace last chosen stays chosen (this game and the next)
    const chosen = Number(localStorage.getItem(PACE_STORE)) || 1500;
    const pace = h("select", { id: "auto-pace", "aria-label": t("ai.auto_pace"), onchange: (e) => localStorage.setItem(PACE_STORE, e.target.value) },
      PACES.map(([key, ms]) => h("option", { value: String(ms), selected: ms === chosen }, t(`ai.pace_${key}`))));
    return h("div", { class: "row auto" },
      h("button", { type: "button", id: "auto-play", disabled: this.busy, onclick: () => this.startAuto(Number(pace.value)) }, t("ai.auto_play")), pace);
  }

  logSection() {
    const log = this.data.log || [];
    const at = logPositions(this.data.start, log); // where each action was played from
    const entries = log.map((e, i) => [e, at[i]]).reverse();
    return h("section", { id: "log-section" },
      h("h2", {}, t("game.log")),
      h("ol", { class: "log", id: "log", reversed: true }, entries.map(([e, from]) => h("li", {},
        h("span", { class: "who" }, describe(e.action, this.names, { at: from })),
        e.dice && e.dice.length ? h("span", { class: "dice" }, ` ${t("game.dice_rolled", { dice: e.dice.join(" ")})}`) : "",
        // a note is a message ({code, params}) since issue 14; older games hold English text
        e.notes && e.notes.length ? h("span", { class: "notes" }, e.notes.map(message).join(" · ")) : null))));
  }

  // --- tools -------------------------------------------------------------------------------

  setTool(name) {
    this.tool = this.tool === name ? null : name;
    this.tape = [];
    for (const b of this.root.querySelectorAll("[data-tool]")) {
      b.setAttribute("aria-pressed", String(b.dataset.tool === this.tool));
    }
    this.said = { text: this.tool ? t(`tools.${this.tool}_hint`) : "", refused: false };
    if (this.tool !== "sight") this.clearSight();
    this.redraw();
    // the sight tool with a figure chosen: that figure's sight at once
    if (this.tool === "sight" && this.selected) this.showSight(this.selected);
  }

  toggle(name) {
    this.toggles[name] = !this.toggles[name];
    const b = this.root.querySelector(`[data-toggle="${name}"]`);
    b.setAttribute("aria-pressed", String(this.toggles[name]));
    this.redraw(); // the readout adds the toggle's summary
  }

  tapFigure(id) {
    if (this.tool === "measure") return this.addTape(id);
    if (this.tool === "sight") return this.showSight(id);
    this.select(this.selected === id ? null : id);
  }

  tapPoint(p) {
    if (this.tool === "measure") return this.addTape(p);
    if (this.tool) return;
    if (this.selected && this.canMove(this.selected)) this.previewMove(this.selected, p, true);
  }

  addTape(end) {
    if (this.tape.length >= 2) this.tape = [];
    this.tape.push(end);
    if (this.tape.length === 2) {
      const a = tapeEnd(this.state, this.tape[0]);
      const b = tapeEnd(this.state, this.tape[1]);
      const bases = (a.r > 0) + (b.r > 0); // edge to edge between bases, else from a base's edge
      const n = num(tapeLength(a, b), 2);
      this.say(t(bases === 2 ? "tools.tape" : bases === 1 ? "tools.tape_edge" : "tools.tape_points", { n }));
    } else this.say(t("tools.measure_next"));
    this.drawTape();
  }

  async showSight(id) {
    try {
      const answer = await games.sight(this.id, id);
      this.sightOf = { id, ...answer };
      const { tags, leaders } = sightTagNodes(this.state, answer);
      this.table.setOverlay("sight", [...sightNodes(this.state, answer), ...leaders], "under");
      this.table.setOverlay("sight-tags", tags, "over");
      const seen = answer.targets.filter((x) => x.visible).length;
      const veiled = answer.targets.filter((x) => x.limited).length;
      let text = t("tools.sight_count", { who: this.names.figure(id), n: seen, total: answer.targets.length });
      // the weather's limit, and how many enemies in a line of sight it hides (as the engine)
      if (answer.limit) text += ` ${t("tools.sight_limit", { limit: answer.limit, n: veiled })}`;
      this.said = { text, refused: false };
      this.redraw();
    } catch (error) {
      notify(error.message, "error");
    }
  }

  clearSight() {
    this.sightOf = null;
    this.table.clearOverlay("sight");
    this.table.clearOverlay("sight-tags");
  }

  select(id) {
    if (this.sightOf && this.tool !== "sight" && this.sightOf.id !== id) { // the card's sight goes with it
      this.clearSight();
      this.said = { text: "", refused: false };
    }
    this.selected = id;
    this.pendingMove = null;
    this.table.clearOverlay("path");
    this.redraw();
    // the figure's card and its actions, wherever the panel was scrolled
    const card = id && this.panel.querySelector("#figure");
    if (card && card.scrollIntoView) card.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  // --- moving by dragging ------------------------------------------------------------------

  /** May this figure be dragged now? Only with a legal move and the token. */
  canMove(id) {
    if (this.readOnly || this.tool || this.busy || !this.data) return false;
    return this.data.legal.some((a) => a.figure === id && a.type === "move");
  }

  dragTo(id, p) {
    const node = this.table.figureNode(id);
    if (node) node.classList.add("dragging");
    this.previewMove(id, p, false);
  }

  /** Ask the service for the route and the verdict, one request at a time. */
  async previewMove(id, p, tapped) {
    const to = [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
    this.wanted = { id, to, tapped };
    if (this.previewing) return;
    this.previewing = true;
    try {
      while (this.wanted) {
        const want = this.wanted;
        this.wanted = null;
        const answer = await this.routeTo(want.id, want.to);
        if (this.closed) return;
        this.showPreview(want.id, want.to, answer, want.tapped);
      }
    } catch (error) {
      notify(error.message, "error");
    } finally {
      this.previewing = false;
    }
  }

  /** The route to `to` and its verdict. A spot beyond one move is clamped as the engine
   * moves toward a point: the farthest legal spot along the route, with its real cost. */
  async routeTo(id, to) {
    const answer = await games.path(this.id, id, to);
    if (!(answer.moves > 1) || answer.length === null) return answer;
    const p = await games.preview(this.id, { type: "move", figure: id, toward: to });
    if (!p.legal || !p.end || !(p.length > 0)) return answer;
    return { legal: true, cost: p.cost, length: p.length, waypoints: p.waypoints, end: p.end, asked: answer.length };
  }

  showPreview(id, to, answer, tapped) {
    const fig = this.table.figure(id);
    if (!fig) return;
    const end = answer.end || to; // a clamped move ends short of the spot asked
    const route = answer.waypoints && answer.waypoints.length ? answer.waypoints : [[fig.x, fig.y], end];
    const length = answer.length !== undefined && answer.length !== null ? answer.length : null;
    let text = length !== null ? t("game.route", { n: num(length, 1), ap: answer.cost }) : "";
    if (!answer.legal) text = length !== null ? `${text} ✗` : "✗";
    this.table.setOverlay("path", pathNodes(fig, route, text, !answer.legal));
    // a tapped spot is played with "Go here", a dragged one by letting go
    const ok = `game.${answer.asked ? "route_clamped" : "route"}_${tapped ? "tapped" : "ok"}`;
    const params = { n: num(length || 0, 1), ap: answer.cost, asked: num(answer.asked || 0, 1) };
    this.say(answer.legal ? t(ok, params) : refusal(answer.reason), !answer.legal);
    this.pendingMove = tapped ? { figure: id, to: end, legal: answer.legal } : this.pendingMove;
    if (tapped) this.renderPanel();
  }

  clearMovePreview() {
    this.table.clearOverlay("path");
    const node = this.table.layers.figures.querySelector(".dragging");
    if (node) node.classList.remove("dragging");
  }

  async dropAt(id, p) {
    let to = [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
    this.wanted = null;
    // dropped beyond one move: the figure goes as far as it can, as the preview showed
    try {
      const route = await this.routeTo(id, to);
      if (route.end) to = route.end;
    } catch (_) {
      // the move itself says what is wrong
    }
    const ok = await this.applyMove(id, to);
    if (!ok) {
      const node = this.table.figureNode(id);
      if (node) node.classList.remove("dragging");
    }
  }

  async applyMove(id, to) {
    return this.apply({ type: "move", figure: id, to });
  }

  // --- playing -----------------------------------------------------------------------------

  typedDice() {
    const text = (this.diceText || "").trim();
    if (!text) return null;
    const dice = text.split(/[\s,;]+/).map((x) => Number(x));
    if (dice.some((d) => !Number.isInteger(d) || d < 1 || d > 6)) {
      throw new Error(t("game.bad_dice", { text }));
    }
    return dice;
  }

  /** Play `action`. Dice come from the service, unless the player rolls at the table: the
   * faces typed in advance are used first, and with "I roll the dice at the table" on, each
   * further die is asked for by name (`askDie`) until the action can be played whole;
   * `table`: this action was done on the table ("I did it on the table"), its dice too. */
  async apply(action, { table = false } = {}) {
    if (this.busy) return false;
    let dice = null;
    try {
      dice = this.typedDice();
    } catch (error) {
      notify(error.message, "error");
      return false;
    }
    if (dice === null && (this.tableDice || table)) dice = [];
    this.busy = true;
    try {
      let data = null;
      while (data === null) {
        try {
          data = await games.act(this.id, this.data.version, action, dice, this.token);
        } catch (error) {
          if (error.code !== "need_dice" || dice === null) throw error;
          const face = await askDie(error.words, describe(action, this.names), dice);
          if (face === null) {
            this.busy = false;
            this.say(t("dice.cancelled"));
            this.renderPanel();
            return false;
          }
          dice = [...dice, face];
        }
      }
      this.diceText = "";
      this.busy = false;
      notify(""); // an error left from a refused try is over
      this.setData(data);
      const log = data.log || [];
      const at = logPositions(data.start, log);
      this.say(log.length ? describe(log[log.length - 1].action, this.names, { at: at[at.length - 1] }) : "");
      return true;
    } catch (error) {
      this.busy = false;
      this.say(refusal(error.message), true);
      notify(error.message, "error");
      if (error.status === 409) await this.refresh();
      else this.renderPanel();
      return false;
    }
  }

  /** Take back the player's last action and the AI's replies after it (in a game of two
   * bands, the last action), keeping them to redo. */
  async undo() {
    if (this.busy) return;
    this.busy = true;
    try {
      const until = this.state.mode === "zombie_war" ? null : "survivors";
      const { data, undone } = await games.undo(this.id, this.data.version, this.token, until);
      this.busy = false;
      this.redoList = undone;
      this.redoAt = data.version;
      this.setData(data);
      this.say(t("game.undone", { n: undone.length }));
    } catch (error) {
      this.busy = false;
      notify(error.message, "error");
      if (error.status === 409) await this.refresh();
    }
  }

  /** Play again what was taken back, each action with the dice it had. */
  async redo() {
    if (this.busy || !this.canRedo()) return;
    this.busy = true;
    const list = this.redoList;
    this.redoList = null;
    try {
      let data = this.data;
      for (const { action, dice } of list) {
        data = await games.act(this.id, data.version, action, dice && dice.length ? dice : null, this.token);
      }
      this.busy = false;
      this.setData(data);
      this.say(t("game.redone", { n: list.length }));
    } catch (error) {
      this.busy = false;
      notify(error.message, "error");
      await this.refresh();
    }
  }

  /** Solo play: when the zombies decide, ask the AI and draw its choice as a ghost. */
  async maybePropose() {
    const s = this.state;
    if (s.outcome || s.mode !== "solo") return;
    const deciding = s.pending && s.pending.length ? s.pending[0].side : s.to_act;
    if (deciding !== "zombies") {
      this.table.clearOverlay("ai");
      return;
    }
    const version = this.data.version;
    try {
      const proposal = await games.propose(this.id, version, this.level, lang());
      if (this.closed || !this.data || this.data.version !== version) return;
      this.proposal = proposal;
      const fig = proposal.action.figure && this.table.figure(proposal.action.figure);
      const target = proposal.action.target && this.table.figure(proposal.action.target);
      this.table.setOverlay("ai", fig ? aiGhostNodes(fig, proposal.waypoints, target) : [], "under");
      if (fig) this.selected = null;
      this.renderPanel();
      if (this.autoPace) this.autoStep(version);
    } catch (error) {
      this.stopAuto();
      notify(error.message, "error");
    }
  }

  /** Auto-play: the zombies' proposal stays drawn for the pace chosen, then is played (its
   * dice rolled by the service), and the next one comes; it stops on Stop, when the
   * survivors decide, when the game ends, or on an error. */
  autoStep(version) {
    clearTimeout(this.autoTimer);
    this.autoTimer = setTimeout(async () => {
      if (!this.autoPace || this.closed || this.busy || !this.proposal || this.data.version !== version) return;
      await this.apply(this.proposal.action);
      const s = this.state;
      const deciding = s.pending && s.pending.length ? s.pending[0].side : s.to_act;
      if (s.outcome || deciding !== "zombies") this.stopAuto(!s.outcome); // "your turn" only when there is one
    }, this.autoPace);
  }

  startAuto(pace) {
    this.autoPace = pace;
    this.renderPanel();
    if (this.proposal) this.autoStep(this.data.version);
  }

  stopAuto(done = false) {
    clearTimeout(this.autoTimer);
    if (!this.autoPace) return;
    this.autoPace = null;
    if (done) this.say(t("ai.auto_done"));
    this.renderPanel();
  }
}

/** Auto-play's paces: how long each zombie's move stays drawn before it is played (ms). */
const PACES = [["slow", 3000], ["normal", 1500], ["fast", 500]];

const LEVEL_STORE = "survive-us.ai-level";
const DICE_STORE = "survive-us.dice";
const PACE_STORE = "survive-us.auto-pace";

export function sideName(side) {
  return t(`side.${side}`, {}, t("names.unknown"));
}

/** "Refused. The base would overlap…": the reason as a sentence of its own. */
function refusal(reason) {
  const text = String(reason || "");
  return t("game.refused", { reason: text.charAt(0).toUpperCase() + text.slice(1) });
}

/** One characteristic on a figure's card, its short name spelt out in its tooltip. */
function stat(key, value) {
  return h("span", { title: t(`stat.${key}.long`) }, `${t(`stat.${key}`)} ${value}`);
}

/** A figure's tooltip: its name and side, then its profile, state and gear. */
function figureTitle(fig, names) {
  const lines = [`${names.figure(fig.id)} · ${sideName(fig.side)}`];
  lines.push(`${t("stat.pv")} ${fig.pv}/${fig.wounds} · ${t("stat.move")} ${fig.move}`);
  const marks = statusMarks(fig).map((k) => t(k));
  if (marks.length) lines.push(marks.join(", "));
  const items = Object.keys(fig.items || {}).map((k) => names.thing(k));
  if (items.length) lines.push(t("game.labelled", { label: t("stat.equipment"), value: items.join(", ") }));
  if (fig.skills && fig.skills.length) {
    lines.push(t("game.labelled", { label: t("stat.skills"), value: fig.skills.map((k) => names.thing(k)).join(", ") }));
  }
  return lines.join("\n");
}

/** A marker's tooltip: "Caisse 2" / "Crate 2" and, once open, what is left in it. */
function markerTitle(m, names) {
  const inside = m.kind === "crate" && !m.hidden ? Object.keys(m.items || {}).map((k) => names.thing(k)) : [];
  return `${names.marker(m.id)}${inside.length ? `: ${inside.join(", ")}` : ""}`;
}
