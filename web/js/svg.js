// Small helpers to build SVG elements: the table is drawn in inches, y up.

export const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (null/undefined values are skipped) and children. */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

/** "x,y x,y ..." for a polygon's points attribute. */
export function points(coords) {
  return coords.map(([x, y]) => `${round(x)},${round(y)}`).join(" ");
}

export function round(v) {
  return Math.round(v * 1000) / 1000;
}

/** Text drawn upright although the table group flips y: it is flipped back around (x, y). */
export function label(x, y, text, attrs = {}) {
  const t = el("text", {
    x: 0, y: 0, transform: `translate(${round(x)} ${round(y)}) scale(1 -1)`,
    "text-anchor": "middle", "dominant-baseline": "central", ...attrs,
  });
  t.textContent = text;
  return t;
}

/** The outline of a wall or door: its centre line buffered by half its thickness, flat ends
 * and mitred joins (as the geometry module does), as polygon points. */
export function thickLine(line, thickness) {
  const h = thickness / 2;
  const left = [];
  const right = [];
  const n = line.length;
  const normal = (a, b) => {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    return [-dy / len, dx / len];
  };
  for (let i = 0; i < n; i += 1) {
    let nx;
    let ny;
    if (i === 0) [nx, ny] = normal(line[0], line[1]);
    else if (i === n - 1) [nx, ny] = normal(line[n - 2], line[n - 1]);
    else {
      const [ax, ay] = normal(line[i - 1], line[i]);
      const [bx, by] = normal(line[i], line[i + 1]);
      const mx = ax + bx;
      const my = ay + by;
      // the mitre offset is (a + b) / (1 + a.b) for unit normals a and b (capped when sharp)
      const scale = Math.min(1 / ((mx * ax + my * ay) || 1), 4);
      nx = mx * scale;
      ny = my * scale;
    }
    left.push([line[i][0] + nx * h, line[i][1] + ny * h]);
    right.push([line[i][0] - nx * h, line[i][1] - ny * h]);
  }
  return left.concat(right.reverse());
}

/** Edge-to-edge distance between two circles (negative when they overlap). */
export function edgeDistance(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r;
}

/** Base radius in inches from a base diameter in millimetres. */
export function radiusOf(baseMm) {
  return (baseMm || 25) / 25.4 / 2;
}
