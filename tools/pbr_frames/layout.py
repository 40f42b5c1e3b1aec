"""The table's contents as plain data, made from a seed: figures on round bases (with a tag
or a painted rim), terrain pieces, miniatures without tags, hands.

Coordinates are table inches: origin at the bottom-left corner (the survivors' edge), x to the
right, y toward the far edge, z up from the mat. Nothing here knows the renderer.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

TABLE = 31.4961  # 80 cm
MM = 1 / 25.4
CORNER_IDS = (0, 1, 2, 3)
CORNER_CENTRES = ((1.5, 1.5), (TABLE - 1.5, 1.5), (TABLE - 1.5, TABLE - 1.5), (1.5, TABLE - 1.5))
MARKER_SIZE = 2.0
PAPER_SIZE = 3.0  # the printed sheet around each corner marker (its white quiet zone)
CLEAR = 3.4  # nothing is put within this square at each corner (the sheet and a margin)
TAG_SIZE = 0.6
RIM_MM = 2.6  # painted band along the base top's edge (colour mode)
BASE_SIZES = (25, 28, 30, 32, 40, 50)


@dataclass
class Mini:
    """A miniature standing on a base: body and head along a leaning axis."""

    height_mm: float
    lean_deg: float
    lean_dir_deg: float
    body: int  # palette index
    head: int
    arm_deg: float  # where its arm points (a weapon or a reaching zombie)


@dataclass
class Figure:
    name: str
    side: str  # survivors, zombies, civilians; "prop" for a tagless miniature in tags frames
    base_mm: int
    base_height_mm: float
    x: float
    y: float
    tag: int | None = None
    tag_rotation_deg: float = 0.0
    mini: Mini | None = None
    group: str = ""  # "row", "cluster", "behind", "" (scattered)

    @property
    def radius(self) -> float:
        return self.base_mm * MM / 2


@dataclass
class Block:
    """A terrain box: centre, size along its own axes, height, rotation about z."""

    cx: float
    cy: float
    sx: float
    sy: float
    h: float
    angle_deg: float
    kind: str  # building, wall, ruin
    texture: int

    def corners(self) -> np.ndarray:
        a = math.radians(self.angle_deg)
        u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        c = np.array([self.cx, self.cy])
        return np.array([c + su * u * self.sx / 2 + sv * v * self.sy / 2
                         for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    def distance(self, x: float, y: float) -> float:
        """Distance from (x, y) to the footprint (0 inside)."""
        a = math.radians(self.angle_deg)
        dx, dy = x - self.cx, y - self.cy
        lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        qx, qy = abs(lx) - self.sx / 2, abs(ly) - self.sy / 2
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0)


@dataclass
class Layout:
    seed: int
    figures: list[Figure] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed, "blocks": [asdict(b) for b in self.blocks]}


def _in_corner(x: float, y: float, r: float) -> bool:
    for cx, cy in ((0, 0), (TABLE, 0), (TABLE, TABLE), (0, TABLE)):
        if abs(x - cx) < CLEAR + r and abs(y - cy) < CLEAR + r:
            return True
    return False


class _Placer:
    def __init__(self, layout: Layout, rng: np.random.Generator) -> None:
        self.layout, self.rng = layout, rng

    def free(self, x: float, y: float, r: float, gap: float = 0.004) -> bool:
        if not (r + 0.15 <= x <= TABLE - r - 0.15 and r + 0.15 <= y <= TABLE - r - 0.15):
            return False
        if _in_corner(x, y, r):
            return False
        if any(b.distance(x, y) < r + 0.03 for b in self.layout.blocks):
            return False
        return all(math.hypot(x - f.x, y - f.y) >= r + f.radius + gap
                   for f in self.layout.figures)

    def block_free(self, b: Block) -> bool:
        cs = b.corners()
        if cs.min() < 2.0 or cs.max() > TABLE - 2.0:
            return False
        for x, y in cs:
            if _in_corner(x, y, 0.5):
                return False
        if any(b.distance(f.x, f.y) < f.radius + 0.3 for f in self.layout.figures):
            return False
        for o in self.layout.blocks:  # keep a path between pieces
            if any(o.distance(x, y) < 1.2 for x, y in cs) or any(
                    b.distance(x, y) < 1.2 for x, y in o.corners()):
                return False
        return True


def _base_size(side: str, rng: np.random.Generator) -> int:
    weights = {"survivors": (4, 3, 2, 3, 0, 0), "zombies": (5, 3, 2, 3, 2, 1),
               "civilians": (3, 2, 2, 1, 0, 0), "prop": (3, 2, 1, 2, 1, 0)}[side]
    p = np.array(weights, float) / sum(weights)
    return int(rng.choice(BASE_SIZES, p=p))


def _mini(rng: np.random.Generator, base_mm: int) -> Mini:
    tall = rng.uniform(28, 40) * (1.25 if base_mm >= 40 else 1.0)
    return Mini(height_mm=float(tall), lean_deg=float(rng.uniform(2, 12)),
                lean_dir_deg=float(rng.uniform(0, 360)), body=int(rng.integers(0, 8)),
                head=int(rng.integers(0, 3)), arm_deg=float(rng.uniform(0, 360)))


def make_layout(seed: int, *, n_buildings: int, n_walls: int, n_ruins: int,
                n_survivors: int, n_zombies: int, n_civilians: int, n_props: int,
                row_edge: str, row_len: int) -> Layout:
    """A table: terrain first (clear of the corner sheets), then a row of zombies in contact
    along `row_edge`, clusters of touching figures, figures tucked behind terrain, the rest
    scattered. Every base lies on the table, clear of terrain, the corner sheets and others."""
    rng = np.random.default_rng(seed)
    lay = Layout(seed)
    place = _Placer(lay, rng)
    sides = (["survivors"] * n_survivors + ["zombies"] * n_zombies
             + ["civilians"] * n_civilians)
    tags = [int(t) for t in rng.permutation(np.arange(4, 50))[:len(sides)]]
    pending = [(s, _base_size(s, rng)) for s in sides]
    counters: dict[str, int] = {}

    def add(side: str, mm: int, x: float, y: float, group: str) -> Figure:
        counters[side] = counters.get(side, 0) + 1
        tag = tags.pop() if side != "prop" else None
        f = Figure(name=f"{side[0]}{counters[side]}", side=side, base_mm=mm,
                   base_height_mm=float(rng.choice([3.0, 3.5, 4.0, 4.5, 5.0])), x=x, y=y,
                   tag=tag, tag_rotation_deg=float(rng.uniform(0, 360)),
                   mini=_mini(rng, mm), group=group)
        lay.figures.append(f)
        return f

    # the zombie row along an edge, bases in contact (how a card deploys them)
    row = [mm for s, mm in pending if s == "zombies"][:row_len]
    for _ in range(row_len):
        idx = next(i for i, (s, _) in enumerate(pending) if s == "zombies")
        pending.pop(idx)
    pos = float(rng.uniform(CLEAR + 1.0, 8.0))
    for mm in row:
        r = mm * MM / 2
        along, across = pos + r, r + 0.25
        x, y = {"far": (along, TABLE - across), "near": (along, across),
                "left": (across, along), "right": (TABLE - across, along)}[row_edge]
        add("zombies", mm, x, y, "row")
        pos += 2 * r + 0.002
    # terrain
    kinds = ["building"] * n_buildings + ["wall"] * n_walls + ["ruin"] * n_ruins
    for kind in kinds:
        for _ in range(400):
            if kind == "building":
                b = Block(float(rng.uniform(4, TABLE - 4)), float(rng.uniform(4, TABLE - 4)),
                          float(rng.uniform(2.5, 5.0)), float(rng.uniform(2.5, 4.5)),
                          float(rng.uniform(2.0, 3.9)), float(rng.choice([0.0, 0.0, 15.0, 30.0])),
                          kind, int(rng.integers(0, 3)))
                parts = [b]
            elif kind == "wall":
                b = Block(float(rng.uniform(4, TABLE - 4)), float(rng.uniform(4, TABLE - 4)),
                          float(rng.uniform(4.0, 7.0)), float(rng.uniform(0.3, 0.5)),
                          float(rng.uniform(0.8, 2.0)), float(rng.uniform(0, 180)), kind,
                          int(rng.integers(0, 3)))
                parts = [b]
            else:  # ruin: an L of wall stubs of broken heights
                cx, cy = float(rng.uniform(5, TABLE - 5)), float(rng.uniform(5, TABLE - 5))
                a = float(rng.uniform(0, 90))
                ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
                parts = []
                t = 0.4
                for k in range(3):
                    lx = -2.0 + k * 1.4 + 0.7
                    parts.append(Block(cx + lx * ca, cy + lx * sa, 1.4, t,
                                       float(rng.uniform(1.0, 3.6)), a, kind, 2))
                for k in range(2):
                    ly = k * 1.3 + 0.65 + t / 2
                    parts.append(Block(cx - 2.0 * ca + t / 2 * ca - ly * sa,
                                       cy - 2.0 * sa + t / 2 * sa + ly * ca, t, 1.3,
                                       float(rng.uniform(0.8, 3.2)), a, kind, 2))
            saved = list(lay.blocks)
            ok = True
            for p in parts:
                if not place.block_free(p):
                    ok = False
                    break
                lay.blocks.append(p)
            if ok:
                break
            lay.blocks[:] = saved
    # figures tucked against terrain (hidden from some viewpoints)
    behind = [i for i, (s, _) in enumerate(pending)][: min(4, len(pending))]
    for i in sorted(behind, reverse=True):
        side, mm = pending.pop(i)
        r = mm * MM / 2
        for _ in range(200):
            b = lay.blocks[int(rng.integers(0, len(lay.blocks)))]
            if b.h < 2.0:
                continue
            a = math.radians(b.angle_deg)
            # mostly on the far side (+y): the cameras mostly stand at the survivors' edge
            faces = [(math.sin(a), 0), (-math.sin(a), 1), (math.cos(a), 2), (-math.cos(a), 3)]
            face = (max(faces)[1] if rng.random() < 0.75 else int(rng.integers(0, 4)))
            along = float(rng.uniform(-0.4, 0.4))
            u = np.array([math.cos(a), math.sin(a)])
            v = np.array([-math.sin(a), math.cos(a)])
            normal, tangent, half, span = [(u, v, b.sx / 2, b.sy), (-u, v, b.sx / 2, b.sy),
                                           (v, u, b.sy / 2, b.sx), (-v, u, b.sy / 2, b.sx)][face]
            p = np.array([b.cx, b.cy]) + normal * (half + r + 0.06) + tangent * along * span
            if place.free(float(p[0]), float(p[1]), r):
                add(side, mm, float(p[0]), float(p[1]), "behind")
                break
    # clusters of touching figures (pairs and triples; one blue against red)
    def touching(anchor: Figure, side: str, mm: int, group: str) -> bool:
        r = mm * MM / 2
        for _ in range(60):
            a = float(rng.uniform(0, 2 * math.pi))
            d = anchor.radius + r + 0.003
            x, y = anchor.x + d * math.cos(a), anchor.y + d * math.sin(a)
            if place.free(x, y, r, gap=0.002):
                add(side, mm, x, y, group)
                return True
        return False

    def scatter(side: str, mm: int, group: str = "") -> Figure | None:
        r = mm * MM / 2
        for _ in range(500):
            x, y = float(rng.uniform(r, TABLE - r)), float(rng.uniform(r, TABLE - r))
            if place.free(x, y, r, gap=0.25):
                return add(side, mm, x, y, group)
        return None

    clusters = 0
    while pending and clusters < 4:
        side, mm = pending.pop(0)
        anchor = scatter(side, mm, "cluster")
        clusters += 1
        if anchor is None:
            continue
        for _ in range(int(rng.integers(1, 3))):
            if not pending:
                break
            pick = 0 if clusters != 2 else next(
                (i for i, (s, _) in enumerate(pending) if s != side), 0)
            s2, mm2 = pending.pop(pick)
            if not touching(anchor, s2, mm2, "cluster"):
                scatter(s2, mm2)
    for side, mm in pending:
        scatter(side, mm)
    for _ in range(n_props):
        scatter("prop", _base_size("prop", rng), "prop")
    return lay
