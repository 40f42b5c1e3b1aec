// The table as SVG: one user unit is one inch, y flipped so +y points away from the
// survivors' edge. Terrain, zones, markers, figures, and named overlay layers the tools fill.
// Zoom and pan by mouse wheel and drag, or by touch (pinch, one-finger pan).

import { el, label, points, radiusOf, round, thickLine } from "./svg.js";
import { named, t } from "./i18n.js";
import { numberOf } from "./names.js";

const TAP_SLOP = 6; // pixels a pointer may wander and still be a tap
const TOUCH_PX = 44; // the smallest target a finger can hit (WCAG 2.5.5): a base near a tap counts

/** What is written on a figure's base: its number, as a player paints it (names.js); the
 * figure's name is in its tooltip and the panel. */
export function baseLabel(fig) {
  return numberOf(fig.id) || "•";
}

/** Statuses worth a mark on the base, in words (translated keys). */
export function statusMarks(fig) {
  const marks = [];
  if (fig.status && fig.status !== "standing") marks.push(`status.${fig.status}`);
  if (fig.panicked) marks.push("status.panicked");
  if (fig.resting) marks.push("status.resting");
  if (fig.panic_malus) marks.push("status.shaken");
  return marks;
}

export class TableView {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {object} hooks onFigureTap(id), onPointTap([x, y]), dragFigure(id) -> bool,
   *   onDrag(id, [x, y]), onDrop(id, [x, y]), onDragCancel(id), figureTitle(fig) -> string,
   *   markerTitle(marker) -> string (names in the page's language; ids are never shown)
   */
  constructor(host, hooks = {}) {
    this.host = host;
    this.hooks = hooks;
    this.state = null;
    this.width = 31.4961;
    this.depth = 31.4961;
    this.svg = el("svg", {
      class: "table-svg", role: "group", "aria-label": t("table.aria"),
      preserveAspectRatio: "xMidYMid meet",
    });
    this.world = el("g", { class: "world" });
    this.layers = {};
    for (const name of ["board", "areas", "zones", "terrain", "labels", "markers", "under", "figures", "over"]) {
      this.layers[name] = el("g", { class: `layer layer-${name}` });
      this.world.appendChild(this.layers[name]);
    }
    this.overlays = {};
    this.svg.appendChild(this.world);
    host.appendChild(this.svg);
    this.pointers = new Map();
    this.gesture = null;
    this._bindPointers();
  }

  // --- drawing -----------------------------------------------------------------------------

  /** Draw a game state (Game.to_json: scene, figures, markers). */
  setState(state) {
    const first = this.state === null;
    this.state = state;
    const table = (state.scene && state.scene.table) || {};
    this.width = table.width || 31.4961;
    this.depth = table.depth || 31.4961;
    this.world.setAttribute("transform", `matrix(1 0 0 -1 0 ${round(this.depth)})`);
    if (first) this.resetView();
    this._drawBoard();
    this._drawTerrain(state.scene.terrain || []);
    this._drawMarkers(state.markers || []);
    this.drawFigures();
  }

  /** The scenario's exits: stretches of table edge (from/to inches along it), each with its
   * `label` (its name in the page's language). */
  setExits(exits) {
    const nodes = [];
    for (const e of exits || []) {
      const along = e.edge === "near" || e.edge === "far" ? this.width : this.depth;
      const a = e.from || 0;
      const b = e.to === null || e.to === undefined ? along : e.to;
      const at = { near: 0, far: this.depth, left: 0, right: this.width }[e.edge];
      const horizontal = e.edge === "near" || e.edge === "far";
      const [x1, y1, x2, y2] = horizontal ? [a, at, b, at] : [at, a, at, b];
      const outward = { near: -0.45, far: 0.45, left: -0.45, right: 0.45 }[e.edge]; // in the margin
      const [lx, ly] = horizontal ? [(a + b) / 2, at + outward] : [at + outward, (a + b) / 2];
      const title = el("title");
      title.textContent = e.label || "";
      const text = label(lx, ly, e.label ? `${e.label} ↦` : "↦", { class: "exit-label" });
      if (!horizontal) text.setAttribute("transform", `${text.getAttribute("transform")} rotate(${e.edge === "left" ? 90 : -90})`);
      nodes.push(el("g", { class: "exit", "data-exit-id": e.id }, [title,
        el("line", { x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2) }), text]));
    }
    this.setOverlay("exits", nodes, "labels");
  }

  _drawBoard() {
    const g = this.layers.board;
    g.replaceChildren(el("rect", {
      class: "board", x: 0, y: 0, width: round(this.width), height: round(this.depth),
    }));
    for (let i = 6; i < Math.max(this.width, this.depth); i += 6) {
      if (i < this.width) g.appendChild(el("line", { class: "grid", x1: i, y1: 0, x2: i, y2: this.depth }));
      if (i < this.depth) g.appendChild(el("line", { class: "grid", x1: 0, y1: i, x2: this.width, y2: i }));
    }
    g.appendChild(label(this.width / 2, -0.45, t("table.survivors_edge"), { class: "edge-label" }));
  }

  _drawTerrain(terrain) {
    const zones = this.layers.zones;
    const pieces = this.layers.terrain;
    zones.replaceChildren();
    pieces.replaceChildren();
    // only the zones' names are redrawn here: the exits' marks share the layer and stay
    for (const old of this.layers.labels.querySelectorAll(".zone-label")) old.remove();
    const placed = []; // zone labels drawn so far, so that nested zones' names do not overlap
    for (const piece of terrain) {
      const name = named(piece);
      const title = name ? el("title") : null;
      if (title) title.textContent = name;
      if (piece.role === "zone") {
        const kind = piece.zone_kind || "zone";
        const g = el("g", { class: `zone zone-${kind}`, "data-terrain-id": piece.id }, [title]);
        g.appendChild(el("polygon", { points: points(piece.polygon) }));
        if (name) {
          const [cx, cy] = clearOf(placed, centroid(piece.polygon), name);
          this.layers.labels.appendChild(label(cx, cy, name, { class: "zone-label" }));
        }
        zones.appendChild(g);
        continue;
      }
      if (piece.role === "marker") continue; // drawn from the game's markers
      const sight = piece.blocks_sight !== false;
      const move = piece.blocks_movement !== false;
      const classes = ["terrain", `terrain-${piece.kind}`];
      if (!sight) classes.push("see-through");
      if (!move) classes.push("walk-through");
      let shape;
      if (piece.kind === "polygon") shape = el("polygon", { points: points(piece.polygon) });
      else {
        const open = piece.kind === "door" && piece.open;
        if (open) classes.push("door-open");
        shape = el("polygon", { points: points(thickLine(piece.line, piece.thickness || 0.25)) });
      }
      const g = el("g", { class: classes.join(" "), "data-terrain-id": piece.id }, [title, shape]);
      pieces.appendChild(g);
    }
  }

  _drawMarkers(markers) {
    const g = this.layers.markers;
    g.replaceChildren();
    for (const m of markers) {
      const title = el("title");
      title.textContent = this.hooks.markerTitle ? this.hooks.markerTitle(m) : t(`marker.${m.kind}`, {}, "");
      const node = el("g", {
        class: `marker marker-${m.kind}${m.opened ? " opened" : ""}`, "data-marker-id": m.id,
        transform: `translate(${round(m.x)} ${round(m.y)})`,
      }, [title, el("rect", { x: -0.45, y: -0.45, width: 0.9, height: 0.9, rx: 0.08 })]);
      node.appendChild(label(0, 0, m.kind === "crate" ? "▣" : "◆", { class: "marker-glyph" }));
      g.appendChild(node);
    }
  }

  /** (Re)draw the figures, keeping the classes the page set (selected, active...). */
  drawFigures(extra = {}) {
    const g = this.layers.figures;
    const focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest("[data-figure-id]") : null;
    const refocus = focused && g.contains(focused) ? focused.getAttribute("data-figure-id") : null;
    g.replaceChildren();
    if (!this.state) return;
    for (const fig of this.state.figures) {
      if (fig.status !== "standing" && fig.status !== "down") continue;
      const r = radiusOf(fig.base_mm);
      const classes = ["figure", `side-${fig.side}`, `status-${fig.status}`];
      if (fig.band && fig.side === "survivors") classes.push(`band-${fig.band}`);
      if (fig.panicked) classes.push("panicked");
      for (const [cls, ids] of Object.entries(extra)) if (ids.has(fig.id)) classes.push(cls);
      const title = el("title");
      title.textContent = this.hooks.figureTitle ? this.hooks.figureTitle(fig) : named(fig);
      const node = el("g", {
        class: classes.join(" "), "data-figure-id": fig.id, tabindex: 0, role: "button",
        "aria-label": title.textContent.split("\n")[0],
        transform: `translate(${round(fig.x)} ${round(fig.y)})`,
      }, [title, el("circle", { class: "hit", r: round(r + 0.3) }), el("circle", { class: "base", r: round(r) })]);
      node.appendChild(label(0, 0.04, baseLabel(fig), { class: "fig-type" }));
      if (fig.side !== "zombies") {
        const pv = el("g", { class: "fig-pv", transform: `translate(${round(r * 0.78)} ${round(r * 0.78)})` },
          [el("circle", { r: 0.24 })]);
        pv.appendChild(label(0, 0, String(fig.pv), { class: "fig-pv-text" }));
        node.appendChild(pv);
      }
      if (fig.status === "down") {
        node.appendChild(el("path", { class: "fig-down", d: `M${-r * 0.7},${-r * 0.7}L${r * 0.7},${r * 0.7}M${-r * 0.7},${r * 0.7}L${r * 0.7},${-r * 0.7}` }));
      }
      if (fig.panicked) node.appendChild(label(-r * 0.8, r * 0.8, "!", { class: "fig-flag panic-flag" }));
      if (fig.origin) node.appendChild(label(-r * 0.8, -r * 0.8, "☣", { class: "fig-flag contaminated-flag" }));
      g.appendChild(node);
    }
    if (refocus) {
      const node = this.figureNode(refocus);
      if (node) node.focus();
    }
  }

  /** Replace one named overlay ("sight", "zone20", "path", "measure", "ghost"...). */
  setOverlay(name, nodes, where = "over") {
    let g = this.overlays[name];
    if (!g) {
      g = el("g", { class: `overlay overlay-${name}` });
      this.overlays[name] = g;
      this.layers[where].appendChild(g);
    }
    g.replaceChildren(...(nodes || []));
  }

  clearOverlay(name) {
    if (this.overlays[name]) this.overlays[name].replaceChildren();
  }

  figure(id) {
    return this.state && this.state.figures.find((f) => f.id === id);
  }

  figureNode(id) {
    return this.layers.figures.querySelector(`[data-figure-id="${CSS.escape(id)}"]`);
  }

  /** The figure a finger meant: the nearest whose base, grown to TOUCH_PX across on the
   * screen, holds the point (small bases at the default zoom of a tablet are about 20 px). */
  figureNear(px, py) {
    const ctm = this.world.getScreenCTM();
    if (!ctm || !this.state) return null;
    const scale = Math.hypot(ctm.a, ctm.b); // screen px per inch
    const [x, y] = this.toTable(px, py);
    let best = null;
    for (const fig of this.state.figures) {
      if (fig.status !== "standing" && fig.status !== "down") continue;
      const reach = Math.max(radiusOf(fig.base_mm), TOUCH_PX / 2 / scale);
      const d = Math.hypot(fig.x - x, fig.y - y);
      if (d <= reach && (!best || d < best.d)) best = { id: fig.id, d };
    }
    return best ? best.id : null;
  }

  // --- zoom and pan ------------------------------------------------------------------------

  resetView() {
    const m = 0.9; // room in the margin for the edges' labels
    this.view = { x: -m, y: -m, w: this.width + 2 * m, h: this.depth + 2 * m };
    this._applyView();
  }

  _applyView() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${round(v.x)} ${round(v.y)} ${round(v.w)} ${round(v.h)}`);
  }

  /** Zoom by `factor` keeping the screen point (px, py) where it is. */
  zoomAt(factor, px, py) {
    const v = this.view;
    const [ux, uy] = this._screenToView(px, py);
    const full = Math.max(this.width, this.depth) + 1;
    const w = Math.min(Math.max(v.w / factor, 3), full * 2);
    const f = v.w / w;
    this.view = { x: ux - (ux - v.x) / f, y: uy - (uy - v.y) / f, w, h: v.h / f };
    this._applyView();
  }

  zoomBy(factor) {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
  }

  /** Screen pixels to viewBox units (not flipped: the world group flips). */
  _screenToView(px, py) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return [0, 0];
    const p = new DOMPoint(px, py).matrixTransform(ctm.inverse());
    return [p.x, p.y];
  }

  /** Screen pixels to table inches (y up). */
  toTable(px, py) {
    const ctm = this.world.getScreenCTM();
    if (!ctm) return [0, 0];
    const p = new DOMPoint(px, py).matrixTransform(ctm.inverse());
    return [p.x, p.y];
  }

  _panBy(dxPx, dyPx) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return;
    this.view.x -= dxPx / ctm.a;
    this.view.y -= dyPx / ctm.d;
    this._applyView();
  }

  _bindPointers() {
    const svg = this.svg;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    }, { passive: false });
    svg.addEventListener("pointerdown", (e) => this._down(e));
    svg.addEventListener("pointermove", (e) => this._move(e));
    svg.addEventListener("pointerup", (e) => this._up(e, false));
    svg.addEventListener("pointercancel", (e) => this._up(e, true));
    // keyboard: Enter or Space on a focused figure taps it; + and - zoom; 0 resets
    svg.addEventListener("keydown", (e) => {
      const node = e.target.closest ? e.target.closest("[data-figure-id]") : null;
      if (node && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        if (this.hooks.onFigureTap) this.hooks.onFigureTap(node.getAttribute("data-figure-id"));
      } else if (e.key === "+" || e.key === "=") this.zoomBy(1.4);
      else if (e.key === "-") this.zoomBy(1 / 1.4);
      else if (e.key === "0") this.resetView();
    });
  }

  _down(e) {
    if (e.button !== undefined && e.button > 0) return;
    svg_capture(this.svg, e.pointerId);
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 2) {
      if (this.gesture && this.gesture.kind === "drag") this._cancelDrag();
      const [a, b] = [...this.pointers.values()];
      this.gesture = { kind: "pinch", dist: Math.hypot(a.x - b.x, a.y - b.y), mid: mid(a, b) };
      return;
    }
    if (this.pointers.size > 2) return;
    const node = e.target.closest ? e.target.closest("[data-figure-id]") : null;
    const id = node ? node.getAttribute("data-figure-id") : this.figureNear(e.clientX, e.clientY);
    const draggable = id && this.hooks.dragFigure && this.hooks.dragFigure(id);
    this.gesture = {
      kind: draggable ? "drag" : "pan", id, startX: e.clientX, startY: e.clientY,
      lastX: e.clientX, lastY: e.clientY, moved: false,
    };
  }

  _move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    p.x = e.clientX;
    p.y = e.clientY;
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "pinch" && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      const m = mid(a, b);
      this._panBy(m.x - g.mid.x, m.y - g.mid.y);
      if (g.dist > 0) this.zoomAt(dist / g.dist, m.x, m.y);
      g.dist = dist;
      g.mid = m;
      return;
    }
    if (!g.moved && Math.hypot(e.clientX - g.startX, e.clientY - g.startY) > TAP_SLOP) g.moved = true;
    if (!g.moved) return;
    if (g.kind === "pan") this._panBy(e.clientX - g.lastX, e.clientY - g.lastY);
    else if (g.kind === "drag" && this.hooks.onDrag) this.hooks.onDrag(g.id, this.toTable(e.clientX, e.clientY));
    g.lastX = e.clientX;
    g.lastY = e.clientY;
  }

  _up(e, cancelled) {
    this.pointers.delete(e.pointerId);
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "pinch") {
      if (this.pointers.size === 0) this.gesture = null;
      return;
    }
    this.gesture = null;
    if (cancelled) {
      if (g.kind === "drag") this._cancelDrag(g);
      return;
    }
    const at = this.toTable(e.clientX, e.clientY);
    if (!g.moved) {
      if (g.kind === "drag" && this.hooks.onDragCancel) this.hooks.onDragCancel(g.id);
      if (g.id && this.hooks.onFigureTap) this.hooks.onFigureTap(g.id);
      else if (this.hooks.onPointTap) this.hooks.onPointTap(at);
      return;
    }
    if (g.kind === "drag" && this.hooks.onDrop) this.hooks.onDrop(g.id, at);
  }

  _cancelDrag(g = this.gesture) {
    if (g && g.id && this.hooks.onDragCancel) this.hooks.onDragCancel(g.id);
    this.gesture = null;
  }
}

function svg_capture(svg, id) {
  try {
    svg.setPointerCapture(id);
  } catch (_) {
    /* a synthetic pointer may not be capturable */
  }
}

function mid(a, b) {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** Where a zone's name goes: at `at`, moved down a line at a time while it would overlap a
 * name already in `placed` (a zone inside another, such as a helipad on a square, shares its
 * centre). Widths are estimated from the label's font size (0.5 in, about 0.3 in a letter). */
function clearOf(placed, at, text) {
  const half = text.length * 0.15;
  let [x, y] = at;
  while (placed.some((p) => Math.abs(p.y - y) < 0.6 && Math.abs(p.x - x) < p.half + half)) y += 0.6;
  placed.push({ x, y, half });
  return [x, y];
}

/** The centroid of a polygon (area-weighted), for zone labels. */
export function centroid(poly) {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < poly.length; i += 1) {
    const [x0, y0] = poly[i];
    const [x1, y1] = poly[(i + 1) % poly.length];
    const c = x0 * y1 - x1 * y0;
    a += c;
    cx += (x0 + x1) * c;
    cy += (y0 + y1) * c;
  }
  if (Math.abs(a) < 1e-9) return poly[0];
  return [cx / (3 * a), cy / (3 * a)];
}
