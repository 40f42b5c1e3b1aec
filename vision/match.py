"""Keep figure identities across frames: match what the camera sees to the game's positions.

Colour mode sees *that* a red base stands somewhere, not *which* zombie it is. The game knows
where every figure stood before; each side's detections are matched to that side's figures by
an optimal assignment (least total distance moved, `scipy.optimize.linear_sum_assignment`)
under a gate: a figure cannot have moved farther than its move allowance plus a margin plus the
detection's own uncertainty. The matcher is honest about what it cannot tell:

- a detection is *unknown* when a different assignment explains the frame almost as well
  (the best alternative costs less than `ambiguity` inches more), e.g. two zombies that moved
  past each other; every detection whose figure differs between the two answers is unknown,
  with the figures it could be;
- a detection that no figure of its side could have reached has *appeared* (a new figure, or
  one put back by hand), and a figure with no detection has *vanished* (removed, or hidden).

Base sizes help: a figure whose `base_mm` the game knows is never the detection of a base of
another size (a 40 mm base is not the 25 mm figure), within what the camera can tell apart
(`sizes_agree`: a size measured on a whole rim within `MEASURED_SLACK_MM`, a size taken from a
partial arc within `INFERRED_SLACK_MM`), and among sizes that agree the closer one costs a
little less (`SIZE_COST_IN_PER_MM`), so two figures of different sizes that swapped places are
told apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from i18n import Message
from vision.errors import VisionError
from vision.words import shown
from vision.words import side as side_word

__all__ = [
    "KnownFigure",
    "Located",
    "Assignment",
    "Unknown",
    "MatchResult",
    "match_figures",
    "GATE_MARGIN_INCHES",
    "AMBIGUITY_INCHES",
    "sizes_agree",
    "size_of",
]

FloatArray = npt.NDArray[np.float64]

GATE_MARGIN_INCHES = 1.0  # slack on top of a figure's move: nudged bases, measuring slop
AMBIGUITY_INCHES = 0.5  # an alternative this close to the best total is as believable
MEASURED_SLACK_MM = 4.5  # a whole rim's size: 25 and 28 mm may be one, 25 and 30 not
INFERRED_SLACK_MM = 8.5  # a partial arc's size: 32 and 40 may be one, 25 and 40 not
SIZE_COST_IN_PER_MM = 0.02  # inches of movement a millimetre of size mismatch is worth
_FORBIDDEN = 1e9  # cost of a pairing the gate rules out (far above any real total)
_UNMATCHED = 1e4  # cost of leaving a figure or a detection unpaired: match as many as the
# gate allows first, then least movement (else "z1 vanished, a zombie appeared 5 in away"
# could undercut two honest 4 in moves)


class Located(Protocol):
    """Anything the camera found: a side and a table position with its uncertainty."""

    @property
    def side(self) -> str: ...

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...

    @property
    def uncertainty(self) -> float: ...


@dataclass(frozen=True)
class KnownFigure:
    """A figure where the game last knew it, how far it may have gone since (inches), and its
    base size (mm across) when the game knows it."""

    id: str
    side: str
    x: float
    y: float
    max_move: float
    base_mm: float | None = None

    def __post_init__(self) -> None:
        for name in ("x", "y", "max_move", "base_mm"):
            value = getattr(self, name)
            if value is None and name == "base_mm":
                continue
            if not math.isfinite(value) or (name in ("max_move", "base_mm") and value < 0):
                raise VisionError(Message("camera.match.bad_figure", {
                    "figure": self.id, "field": name, "got": shown(value)}), f"{self.id}.{name}")


@dataclass(frozen=True)
class Assignment:
    """Detection `detection` (an index into the detections given) is figure `figure`.

    `moved` is the distance from the figure's known position; `margin` how much worse (inches of
    total movement) the best assignment without this pairing is: the larger, the surer.
    """

    figure: str
    detection: int
    moved: float
    margin: float


@dataclass(frozen=True)
class Unknown:
    """A detection whose identity cannot be told apart: any of `candidates` could be there.

    A candidate ``None`` means "a figure that just appeared" is one of the explanations.
    `reason` is a message.
    """

    detection: int
    candidates: tuple[str | None, ...]
    reason: Message


@dataclass(frozen=True)
class MatchResult:
    """Identities for a frame: sure matches, unknown detections, newcomers and missing ones."""

    matched: tuple[Assignment, ...]
    unknown: tuple[Unknown, ...]
    appeared: tuple[int, ...]
    vanished: tuple[str, ...]
    notes: tuple[Message, ...] = field(default=())

    def identity(self, detection: int) -> str | None:
        """The figure id of a detection, or None when it is unknown or new."""
        for a in self.matched:
            if a.detection == detection:
                return a.figure
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "matched": [{"figure": a.figure, "detection": a.detection, "moved": a.moved,
                         "margin": None if math.isinf(a.margin) else a.margin}
                        for a in self.matched],
            "unknown": [{"detection": u.detection, "candidates": list(u.candidates),
                         "reason": u.reason.text("en"), "reason_words": u.reason.to_json()}
                        for u in self.unknown],
            "appeared": list(self.appeared),
            "vanished": list(self.vanished),
            "notes": [n.text("en") for n in self.notes],
            "notes_words": [n.to_json() for n in self.notes],
        }


def match_figures(
    known: Sequence[KnownFigure],
    detections: Sequence[Located],
    *,
    gate_margin: float = GATE_MARGIN_INCHES,
    ambiguity: float = AMBIGUITY_INCHES,
) -> MatchResult:
    """Match detections to known figures, side by side; see the module docstring."""
    if gate_margin < 0 or ambiguity < 0:
        raise VisionError(Message("camera.match.negative", {
            "gate": shown(gate_margin), "ambiguity": shown(ambiguity)}), "match")
    ids = [k.id for k in known]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise VisionError(Message("camera.match.twice", {"figure": twice[0]}), "known")
    matched: list[Assignment] = []
    unknown: list[Unknown] = []
    appeared: list[int] = []
    vanished: list[str] = []
    notes: list[Message] = []
    sides = sorted({k.side for k in known} | {d.side for d in detections})
    for side in sides:
        figs = [k for k in known if k.side == side]
        dets = [i for i, d in enumerate(detections) if d.side == side]
        part = _match_side(figs, [detections[i] for i in dets], gate_margin, ambiguity)
        matched += [Assignment(a.figure, dets[a.detection], a.moved, a.margin)
                    for a in part.matched]
        unknown += [Unknown(dets[u.detection], u.candidates, u.reason) for u in part.unknown]
        appeared += [dets[j] for j in part.appeared]
        vanished += part.vanished
        notes += part.notes
    matched.sort(key=lambda a: a.detection)
    unknown.sort(key=lambda u: u.detection)
    return MatchResult(tuple(matched), tuple(unknown), tuple(sorted(appeared)),
                       tuple(vanished), tuple(notes))


def size_of(detection: Any) -> tuple[float | None, bool]:
    """(base size in mm, measured on a whole rim?) of a detection, an object or its JSON;
    (None, False) when it carries none (tags mode, an older answer)."""
    if isinstance(detection, Mapping):
        mm, measured = detection.get("base_mm"), detection.get("size_measured", False)
    else:
        mm, measured = getattr(detection, "base_mm", None), getattr(detection,
                                                                   "size_measured", False)
    if isinstance(mm, bool) or not isinstance(mm, int | float) or not math.isfinite(mm):
        return None, False
    return float(mm), bool(measured)


def sizes_agree(expected_mm: float | None, seen_mm: float | None, measured: bool) -> bool:
    """Whether a base seen as `seen_mm` (measured on a whole rim, or taken from an arc) can be
    a figure of `expected_mm`; an unknown size agrees with any."""
    if expected_mm is None or seen_mm is None:
        return True
    slack = MEASURED_SLACK_MM if measured else INFERRED_SLACK_MM
    return abs(expected_mm - seen_mm) <= slack


def _match_side(figs: Sequence[KnownFigure], dets: Sequence[Located], gate_margin: float,
                ambiguity: float) -> MatchResult:
    n, m = len(figs), len(dets)
    if n == 0 or m == 0:
        return MatchResult((), (), tuple(range(m)), tuple(f.id for f in figs))
    fxy = np.array([(f.x, f.y) for f in figs], dtype=np.float64)
    dxy = np.array([(d.x, d.y) for d in dets], dtype=np.float64)
    dist = np.hypot(fxy[:, None, 0] - dxy[None, :, 0], fxy[:, None, 1] - dxy[None, :, 1])
    reach = np.array([f.max_move + gate_margin for f in figs], dtype=np.float64)
    slack = np.array([max(d.uncertainty, 0.0) for d in dets], dtype=np.float64)
    gate = reach[:, None] + slack[None, :]
    sizes = [size_of(d) for d in dets]
    agree = np.array([[sizes_agree(f.base_mm, mm, measured) for mm, measured in sizes]
                      for f in figs], dtype=bool)
    mismatch = np.array([[abs(f.base_mm - mm) if f.base_mm is not None and mm is not None
                          else 0.0 for mm, _ in sizes] for f in figs], dtype=np.float64)
    allowed = (dist <= gate) & agree
    cost = _augmented(np.where(allowed, dist + SIZE_COST_IN_PER_MM * mismatch, _FORBIDDEN),
                      np.full(n, _UNMATCHED), np.full(m, _UNMATCHED))
    best, total = _solve(cost)

    pairs = [(i, j) for i, j in best.items() if i < n and j < m]
    alternatives: dict[tuple[int, int], tuple[dict[int, int], float]] = {}
    for i, j in pairs:
        trial = cost.copy()
        trial[i, j] = _FORBIDDEN
        alt, alt_total = _solve(trial)
        alternatives[(i, j)] = (alt, alt_total - total)

    doubtful: dict[int, set[str | None]] = {}
    reasons: dict[int, Message] = {}
    for alt, extra in alternatives.values():
        if extra > ambiguity:
            continue
        # Every detection assigned differently in the near-best alternative is in doubt.
        alt_of_det = {c: r for r, c in alt.items() if c < m}
        for col in range(m):
            was = _figure_at(best, col, n)
            now = alt_of_det.get(col)
            now_fig = now if now is not None and now < n else None
            if was != now_fig:
                bucket = doubtful.setdefault(col, set())
                bucket.update({None if was is None else figs[was].id,
                               None if now_fig is None else figs[now_fig].id})
                reasons.setdefault(col, Message("camera.match.ambiguous", {
                    "extra": max(extra, 0.0), "within": ambiguity}))

    matched = []
    for i, j in pairs:
        if j in doubtful:
            continue
        margin = alternatives[(i, j)][1]
        matched.append(Assignment(figs[i].id, j, float(dist[i, j]), float(margin)))
    unknown = [Unknown(j, tuple(sorted(doubtful[j], key=lambda c: (c is None, c or ""))),
                       reasons[j]) for j in sorted(doubtful)]
    taken = {j for _, j in pairs}
    appeared = tuple(j for j in range(m) if j not in taken and j not in doubtful)
    placed = {figs[i].id for i, _ in pairs} | {c for u in unknown for c in u.candidates
                                               if c is not None}
    vanished = tuple(f.id for f in figs if f.id not in placed)
    notes = tuple(Message("camera.match.too_far", {
        "side": side_word(dets[j].side), "x": float(dets[j].x), "y": float(dets[j].y)})
        if bool(np.all(dist[:, j] > gate[:, j])) else Message("camera.match.other_size", {
            "side": side_word(dets[j].side), "x": float(dets[j].x), "y": float(dets[j].y),
            "mm": float(sizes[j][0] or 0.0)})
        for j in appeared if not bool(np.any(allowed[:, j])))
    return MatchResult(tuple(matched), tuple(unknown), appeared, vanished, notes)


def _figure_at(solution: Mapping[int, int], col: int, n: int) -> int | None:
    for r, c in solution.items():
        if c == col:
            return r if r < n else None
    return None


def _augmented(dist: FloatArray, miss: FloatArray, new: FloatArray) -> FloatArray:
    """Square cost matrix letting any figure go unmatched (vanished, cost `miss`) and any
    detection go unmatched (appeared, cost `new`); the dummy-dummy corner is free."""
    n, m = dist.shape
    cost = np.full((n + m, m + n), _FORBIDDEN)
    cost[:n, :m] = dist
    cost[:n, m:][np.arange(n), np.arange(n)] = miss
    cost[n:, :m][np.arange(m), np.arange(m)] = new
    cost[n:, m:] = 0.0
    return cost


def _solve(cost: FloatArray) -> tuple[dict[int, int], float]:
    rows, cols = linear_sum_assignment(cost)
    return dict(zip(rows.tolist(), cols.tolist(), strict=True)), float(cost[rows, cols].sum())


def known_from_scene(figures: Iterable[Mapping[str, Any]], moves: Mapping[str, float],
                     default_move: float) -> list[KnownFigure]:
    """KnownFigure list from scene-JSON figures, with per-id move allowances (inches)."""
    out = []
    for n, f in enumerate(figures):
        try:
            size = f.get("base_mm")
            out.append(KnownFigure(str(f["id"]), str(f["side"]), float(f["x"]), float(f["y"]),
                                   float(moves.get(str(f["id"]), default_move)),
                                   None if size is None else float(size)))
        except (KeyError, TypeError, ValueError):
            where = f"figures[{n}]"
            raise VisionError(Message("camera.match.scene_figure", {"where": where}),
                              where) from None
    return out
