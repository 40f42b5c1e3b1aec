// The camera panel of the game screen: send a photo of the real table (a file, or a tablet's
// camera through the file input's `capture`), then see what the camera saw against the game:
// a ring where it saw each figure, an arrow for a figure that moved, "?" for a base it cannot
// name, the "check with a tape" flags, and in solo play whether the zombie the AI activated
// stands where the AI asked (within 0.25 in) or where to put it. The table is in inches.
// Accepting what the camera saw is a legal action (a Move to the seen point), never an edit.

import { ApiError, notApplied } from "./api.js";
import { describe } from "./actions.js";
import { h } from "./dom.js";
import { lang, num, said, t } from "./i18n.js";
import { direction } from "./names.js";
import { el, label, radiusOf, round } from "./svg.js";

const BASE = "api/v1";
const MODES = ["colour", "tags"];
const MODE_KEY = "survive-us.camera-mode";

/** POST a photo as the raw body (image/jpeg, image/png or image/bmp); errors raise ApiError. */
export async function sendFrame(id, file, mode, token) {
  const headers = { Accept: "application/json", "Accept-Language": lang(), "Content-Type": file.type || "image/jpeg" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(`${BASE}/games/${encodeURIComponent(id)}/frames?mode=${mode}`, {
      method: "POST", headers, body: file,
    });
  } catch (error) {
    // the server does not answer: said as the page says it for every change, never "Failed to fetch"
    if (error instanceof TypeError) throw notApplied();
    throw error;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export class CameraPanel {
  /** `view` is the game screen (its state, token, table, apply and redraw). */
  constructor(view) {
    this.view = view;
    this.answer = null;
    this.busy = false;
    this.mode = localStorage.getItem(MODE_KEY) || "colour";
  }

  /** The last view stored by the service (a photo, or positions `vision watch` posted), if it
   * is of the version shown; `asked`: the player pressed the button, so say when there is none. */
  async loadLast(asked = false) {
    let body = null;
    try {
      const r = await fetch(`${BASE}/games/${encodeURIComponent(this.view.id)}/camera`, {
        headers: { Accept: "application/json", "Accept-Language": lang() },
      });
      body = r.ok ? await r.json() : null;
    } catch (_) {
      body = null; // offline: nothing to show
    }
    if (body && body.settings && MODES.includes(body.settings.mode) && !localStorage.getItem(MODE_KEY)) this.mode = body.settings.mode;
    if (body && body.last && this.view.data && body.last.version === this.view.data.version) {
      this.error = null;
      this.show(body.last);
    } else if (asked) {
      this.error = t("camera.no_last");
      this.view.renderPanel();
    }
  }

  /** The game moved on: the camera's view is of an older table. */
  stale() {
    if (!this.answer) return;
    this.answer = null;
    this.view.table.clearOverlay("camera");
  }

  show(answer) {
    this.answer = answer;
    this.view.table.setOverlay("camera", this.nodes(), "over");
    this.view.renderPanel();
  }

  async upload(file) {
    if (!file || this.busy) return;
    this.busy = true;
    this.error = null;
    this.view.renderPanel();
    try {
      const answer = await sendFrame(this.view.id, file, this.mode, this.view.token);
      this.busy = false;
      this.show(answer);
    } catch (error) {
      this.busy = false;
      this.error = error.message;
      this.view.renderPanel();
    }
  }

  figure(id) {
    return this.view.state.figures.find((f) => f.id === id);
  }

  /** A figure as a person calls it (the game's names), never its id. */
  name(id) {
    return this.view.names.figure(id);
  }

  // --- the panel ---------------------------------------------------------------------------

  section() {
    const file = h("input", {
      type: "file", id: "camera-file", accept: "image/png,image/jpeg,image/bmp", capture: "environment",
      disabled: this.view.readOnly || this.busy, onchange: (e) => this.upload(e.target.files[0]),
    });
    const mode = h("select", { id: "camera-mode", "aria-label": t("camera.mode"),
      onchange: (e) => { this.mode = e.target.value; localStorage.setItem(MODE_KEY, this.mode); this.view.renderPanel(); } },
    MODES.map((m) => h("option", { value: m, selected: m === this.mode }, t(`camera.mode_${m}`))));
    const last = h("button", { type: "button", id: "camera-last", onclick: () => this.loadLast(true) }, t("camera.last"));
    const parts = [
      h("h2", {}, t("camera.title")),
      this.view.readOnly ? h("p", { class: "muted" }, t("camera.needs_token")) : null,
      h("div", { class: "row camera-send" },
        this.view.readOnly ? null : h("label", { class: "button camera-pick" }, t("camera.photo"), file),
        this.view.readOnly ? null : mode, last),
      this.view.readOnly ? null : h("p", { class: "muted", id: "camera-mode-hint" }, t(`camera.mode_${this.mode}_hint`)),
    ];
    if (this.busy) parts.push(h("p", { class: "muted", id: "camera-busy" }, t("camera.reading")));
    if (this.error) parts.push(h("p", { class: "error-text", id: "camera-error" }, this.error));
    if (this.answer) parts.push(...this.summary());
    return h("section", { id: "camera", class: "camera-box" }, parts);
  }

  summary() {
    const a = this.answer;
    const out = [];
    if (!a.table.found) {
      out.push(h("p", { class: "error-text", id: "camera-table" }, t("camera.no_table", { reason: said(a.table.reason || "", a.table.reason_words) })));
      return out;
    }
    out.push(h("p", { class: "muted", id: "camera-table" }, t("camera.table", {
      markers: (a.table.markers || []).join(", "), error: num(a.table.reprojection_in || 0, 3),
    })));
    if (a.ai) out.push(this.aiBox(a.ai));
    // each count in its own words: "aucune déplacée", "1 inconnue", "3 moved"
    out.push(h("p", { id: "camera-counts" }, t("camera.counts", {
      seen: t("camera.count_seen", { n: a.figures.filter((f) => f.camera).length, total: a.figures.length }),
      moved: t("camera.count_moved", { n: a.moved.length }),
      unknown: t("camera.count_unknown", { n: a.unknown.length }),
    })));
    const moved = a.figures.filter((f) => f.moved && f.id !== (a.ai && a.ai.figure));
    if (moved.length) {
      out.push(h("ul", { class: "camera-list", id: "camera-moved" }, moved.map((f) => h("li", { "data-camera-moved": f.id },
        t("camera.moved", { who: this.name(f.id), n: num(f.distance, 2) }), " ",
        this.acceptButton(f)))));
    }
    const lost = [
      ...a.unknown.map((u) => t("camera.unknown", { side: t(`side.${u.side}`, {}, ""), who: (u.candidates || []).filter(Boolean).map((id) => this.name(id)) })),
      ...a.vanished.map((id) => t("camera.vanished", { who: this.name(id) })),
      ...a.appeared.map((x) => t("camera.appeared", {
        what: x.tag !== undefined ? t("camera.tag", { n: x.tag }) : t(`side.${x.side}`, {}, ""),
        reason: said(x.reason, x.reason_words),
      })),
    ];
    if (lost.length) out.push(h("ul", { class: "camera-list muted", id: "camera-lost" }, lost.map((x) => h("li", {}, x))));
    const tape = (a.checks && a.checks.tape) || [];
    if (tape.length) {
      out.push(h("div", { class: "tape-box", id: "camera-tape" },
        h("b", {}, t("camera.check_tape")),
        h("ul", {}, tape.flatMap((x) => {
          const words = x.reasons_words || (x.answer && x.answer.tape_reasons_words) || [];
          return x.reasons.map((reason, i) => h("li", {}, said(reason, words[i])));
        }))));
    }
    if (a.checks && a.checks.error) out.push(h("p", { class: "error-text", id: "camera-checks-error" }, said(a.checks.error, a.checks.error_words)));
    return out;
  }

  acceptButton(f) {
    if (this.view.readOnly || !f.apply) return null;
    if (!f.apply.legal) return h("span", { class: "muted" }, t("camera.not_legal", { reason: said(f.apply.reason, f.apply.reason_words) }));
    return h("button", {
      type: "button", "data-camera-accept": f.id, disabled: this.view.busy,
      onclick: () => this.view.apply(f.apply.action),
    }, t("camera.accept"));
  }

  aiBox(ai) {
    const who = this.name(ai.figure);
    const lines = [h("p", { class: "ai-action" }, t("camera.ai_asks", { text: describe(ai.action, this.view.names) }))];
    let state = "unseen";
    if (ai.in_place === true) state = "in_place";
    else if (ai.in_place === false) state = "move_it";
    if (state === "in_place") {
      lines.push(h("p", { class: "ok-text", id: "camera-confirm", "data-state": state },
        t("camera.in_place", { who, n: num(ai.distance, 2), tol: num(ai.tolerance, 2) })));
      if (!this.view.readOnly) {
        lines.push(h("button", {
          type: "button", class: "primary", id: "camera-ai-confirm", disabled: this.view.busy,
          onclick: () => this.view.apply(ai.action),
        }, t("camera.confirm_ai")));
      }
    } else if (state === "move_it") {
      lines.push(h("p", { class: "error-text", id: "camera-confirm", "data-state": state },
        t("camera.move_it", { who, n: num(ai.distance, 2), dir: ai.seen ? direction(ai.seen, ai.move_to) : "" })));
    } else {
      lines.push(h("p", { class: "muted", id: "camera-confirm", "data-state": state }, t("camera.ai_unseen", { who })));
    }
    if (ai.check_with_tape) lines.push(h("p", { class: "tape-box" }, t("camera.ai_tape", { tol: num(ai.tolerance, 2) })));
    return h("div", { class: "ai-box camera-ai" }, lines);
  }

  // --- the table ---------------------------------------------------------------------------

  nodes() {
    const a = this.answer;
    if (!a || !a.table.found) return [];
    const nodes = [el("defs", {}, [el("marker", {
      id: "cam-arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse",
    }, [el("path", { d: "M0,0 L10,5 L0,10 z", class: "cam-arrowhead" })])])];
    for (const f of a.figures) {
      if (!f.camera) continue;
      const r = radiusOf(this.figure(f.id) ? this.figure(f.id).base_mm : 25);
      const [x, y] = f.camera;
      if (f.moved) {
        const d = Math.hypot(x - f.game[0], y - f.game[1]) || 1;
        const stop = Math.max(0, d - r - 0.1);
        nodes.push(el("line", {
          class: "cam-arrow", x1: round(f.game[0]), y1: round(f.game[1]),
          x2: round(f.game[0] + (x - f.game[0]) / d * stop), y2: round(f.game[1] + (y - f.game[1]) / d * stop),
          "marker-end": "url(#cam-arrowhead)",
        }));
      }
      nodes.push(el("circle", {
        class: `cam-ring ${f.side}${f.moved ? " moved" : ""}`, cx: round(x), cy: round(y), r: round(r + 0.12),
        "data-camera-figure": f.id,
      }));
      if (f.uncertainty > 0.05) {
        nodes.push(el("circle", { class: "cam-doubt", cx: round(x), cy: round(y), r: round(f.uncertainty) }));
      }
    }
    for (const u of [...a.unknown, ...a.appeared]) {
      const [x, y] = u.camera;
      nodes.push(el("circle", { class: "cam-ring unknown", cx: round(x), cy: round(y), r: round(radiusOf(25) + 0.12), "data-camera-unknown": "" }));
      nodes.push(label(x, y, "?", { class: "cam-unknown-label" }));
    }
    const ai = a.ai;
    if (ai && ai.end) {
      const [x, y] = ai.end;
      nodes.push(el("circle", { class: `cam-target${ai.in_place ? " ok" : ""}`, cx: round(x), cy: round(y), r: round(ai.tolerance), "data-camera-target": ai.figure }));
      nodes.push(el("path", { class: "cam-cross", d: `M${round(x - 0.3)},${round(y)} H${round(x + 0.3)} M${round(x)},${round(y - 0.3)} V${round(y + 0.3)}` }));
    }
    const flagged = new Set();
    for (const x of (a.checks && a.checks.tape) || []) {
      const ans = x.answer || {};
      for (const id of [...(ans.uncertain_zombies || []), ...(ans.uncertain_with || [])]) flagged.add(id);
      if (x.question.figure && (ans.uncertain_with || []).length) flagged.add(x.question.figure);
    }
    for (const id of flagged) {
      const f = a.figures.find((g) => g.id === id);
      const at = f && (f.camera || f.game);
      if (at) nodes.push(label(at[0], at[1] + 0.75, "↔", { class: "cam-tape", "data-camera-tape": id }));
    }
    return nodes;
  }
}
