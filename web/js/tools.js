// The table tools drawn as overlays: the measuring tape, line of sight, the 20 in zone with
// the zombies that may be activated, engaged pairs, paths and the AI's ghost move. Which
// zombies are in the zone, which figures are in contact and what a figure sees are the
// server's answers (its engine judges the game); the page only draws them.
// Distances between figures are edge to edge (the closest points of the two bases).

import { el, edgeDistance, label, points, radiusOf, round } from "./svg.js";
import { lang, num, t } from "./i18n.js";

export const ACTIVATION_RANGE = 20; // inches, edge to edge (DESIGN: zombie activation)

export function circleOf(fig) {
  return { x: fig.x, y: fig.y, r: radiusOf(fig.base_mm) };
}

export function onTable(fig) {
  return fig.status === "standing" || fig.status === "down";
}

/** A tape end: a figure (edge to edge) or a point on the table. */
export function tapeEnd(state, value) {
  if (typeof value === "string") {
    const f = state.figures.find((g) => g.id === value);
    return f ? { ...circleOf(f), id: f.id } : null;
  }
  return { x: value[0], y: value[1], r: 0 };
}

/** Tape length in inches between two ends (0 when the bases touch or overlap). */
export function tapeLength(a, b) {
  return Math.max(0, edgeDistance(a, b));
}

/** The tape drawn from closest point to closest point, with its length in a tag. */
export function tapeNodes(a, b) {
  const d = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / d;
  const uy = (b.y - a.y) / d;
  const p = [a.x + ux * a.r, a.y + uy * a.r];
  const q = [b.x - ux * b.r, b.y - uy * b.r];
  const length = tapeLength(a, b);
  const text = t("tools.inches", { n: num(length, 2) });
  return [
    el("line", { class: "measure-line", x1: round(p[0]), y1: round(p[1]), x2: round(q[0]), y2: round(q[1]) }),
    el("circle", { class: "measure-end", cx: round(p[0]), cy: round(p[1]), r: 0.09 }),
    el("circle", { class: "measure-end", cx: round(q[0]), cy: round(q[1]), r: 0.09 }),
    tag((p[0] + q[0]) / 2, (p[1] + q[1]) / 2 + 0.45, text, "measure-tag"),
  ];
}

/** A dark label box with white text, sized to the text. */
export function tag(x, y, text, cls) {
  const w = 0.26 * text.length + 0.3;
  return el("g", { class: cls, transform: `translate(${round(x)} ${round(y)})` }, [
    el("rect", { x: round(-w / 2), y: -0.3, width: round(w), height: 0.6, rx: 0.12 }),
    label(0, 0, text),
  ]);
}

/** Humans that wake zombies: survivors and civilians, standing or down. */
export function humans(state) {
  return state.figures.filter((f) => onTable(f) && f.side !== "zombies");
}

/** The 20 in zone: around each human, the circle where a zombie's base centre may stand
 * and still be activated (20 in plus both radii, for a 25 mm zombie base). */
export function zone20Nodes(state) {
  const zr = radiusOf(25);
  return humans(state).map((h) => el("circle", {
    cx: round(h.x), cy: round(h.y), r: round(ACTIVATION_RANGE + radiusOf(h.base_mm) + zr),
  }));
}

export function engagedNodes(pairs) {
  return pairs.map(([a, b]) => el("line", {
    class: "engaged-link", x1: round(a.x), y1: round(a.y), x2: round(b.x), y2: round(b.y),
  }));
}

/** The visibility polygon (with holes as extra rings). */
export function sightNodes(state, answer) {
  return (answer.polygon || []).map((ring) => el("polygon", { points: points(ring) }));
}

/** A tag over each enemy the figure sees: the visible fraction of its base's circumference.
 * A hidden enemy gets no tag (its base is drawn dimmed). A tag that would cover another tag
 * or a base moves up a line at a time, with a leader to its figure (drawn under the bases),
 * so that grouped figures and their numbers stay readable. `{tags, leaders}`. */
export function sightTagNodes(state, answer) {
  const tags = [];
  const leaders = [];
  const box = (x, y, hw, hh) => ({ x, y, hw, hh });
  const taken = state.figures.filter(onTable).map((f) => box(f.x, f.y, radiusOf(f.base_mm), radiusOf(f.base_mm)));
  const clear = (b) => !taken.some((o) => Math.abs(o.x - b.x) < o.hw + b.hw && Math.abs(o.y - b.y) < o.hh + b.hh);
  const visible = (answer.targets || []).filter((x) => x.visible)
    .map((x) => ({ x, f: state.figures.find((g) => g.id === x.id) })).filter((v) => v.f)
    .sort((a, b) => a.f.y - b.f.y || a.f.x - b.f.x);
  for (const { x: target, f } of visible) {
    const r = radiusOf(f.base_mm);
    const text = target.fraction.toLocaleString(lang(), { style: "percent", maximumFractionDigits: 0 });
    const start = f.y + r + 0.35;
    let b = box(f.x, start, (0.26 * text.length + 0.3) / 2, 0.3);
    for (let i = 0; i < 12 && !clear(b); i += 1) b = box(f.x, b.y + 0.62, b.hw, b.hh);
    taken.push(b);
    if (b.y > start) leaders.push(el("line", { class: "sight-leader", x1: round(f.x), y1: round(f.y + r), x2: round(f.x), y2: round(b.y - 0.3) }));
    const g = tag(f.x, b.y, text, "sight-tag visible");
    g.querySelector("rect").setAttribute("class", "");
    tags.push(g);
  }
  return { tags, leaders };
}

/** A route: the polyline, a ghost base at its end, and its length and cost in a tag. */
export function pathNodes(fig, waypoints, text, refused) {
  const r = radiusOf(fig.base_mm);
  const end = waypoints[waypoints.length - 1];
  const cls = refused ? " refused" : "";
  const nodes = [
    el("polyline", { class: `path-line${cls}`, points: points(waypoints) }),
    el("circle", { class: `ghost${cls}`, cx: round(end[0]), cy: round(end[1]), r: round(r) }),
  ];
  if (text) nodes.push(tag(end[0], end[1] + r + 0.4, text, "path-tag"));
  return nodes;
}

/** The AI's move: a ghost base where the zombie would end, an arrow along its route, and a
 * ring on its target. */
export function aiGhostNodes(fig, waypoints, target) {
  const r = radiusOf(fig.base_mm);
  const mover = el("circle", { class: "ai-mover", cx: round(fig.x), cy: round(fig.y), r: round(r + 0.25) });
  const nodes = [mover, el("defs", {}, [el("marker", {
    id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
    orient: "auto-start-reverse",
  }, [el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#b3261e" })])])];
  if (waypoints && waypoints.length > 1) {
    const end = waypoints[waypoints.length - 1];
    nodes.push(el("polyline", { class: "ai-arrow", points: points(waypoints) }));
    nodes.push(el("g", { class: "ai-ghost" }, [el("circle", { cx: round(end[0]), cy: round(end[1]), r: round(r) })]));
  }
  if (target && !(waypoints && waypoints.length > 1)) { // an attack: an arrow to its target
    const d = Math.hypot(target.x - fig.x, target.y - fig.y) || 1;
    const tr = radiusOf(target.base_mm) + 0.25;
    nodes.push(el("line", {
      class: "ai-arrow", x1: round(fig.x), y1: round(fig.y),
      x2: round(target.x - (target.x - fig.x) / d * tr), y2: round(target.y - (target.y - fig.y) / d * tr),
    }));
  }
  if (target) {
    nodes.push(el("circle", { class: "ai-target", cx: round(target.x), cy: round(target.y), r: round(radiusOf(target.base_mm) + 0.2) }));
  }
  return nodes;
}
