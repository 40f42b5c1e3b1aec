"""How much one arbitration request may ask: the bounds `survive-us arbitrate` and
`POST /api/v1/arbitrate` both apply before any geometry is built (docs/api.md, "Limits").

The bounds come from what a real 80 x 80 cm table needs, with room to spare. The densest
set-ups the service deals (the random town under any card) hold up to 103 terrain pieces,
431 corners of terrain, at most 12 corners to a piece and 49 figures. The path-finder's cost
grows with the square of the terrain's corners (its visibility graph), so corners are what
is counted: a wall or a door counts two corners per point of its line (both sides of it).
Within these bounds the worst scene found (small squares scattered so every corner sees
every other) builds its graph in about 2 s and 150 MB; the densest real table in 0.4 s.

A request over a bound is refused before any work, with a `LimitError` naming the field and
the bound (HTTP 413, exit status 2 on the command line).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message

__all__ = ["LimitError", "Limits", "LIMITS", "check_arbitration", "REGION_ASKS",
           "Workload", "workload"]

#: Questions that build a region from the terrain (reach: a whole region of routes).
REGION_ASKS = frozenset({"reach", "visibility"})


class LimitError(SurviveUsError, ValueError):
    """A request asking more work than one request may (HTTP 413)."""

    code = "over_limit"


@dataclass(frozen=True)
class Limits:
    """The bounds of one request; `LIMITS` are the service's."""

    table_inches: float = 96.0  # a side: an 8 ft table (80 cm is 31.5 in)
    figures: int = 300  # 49 on the most crowded card
    pieces: int = 250  # 103 in the densest random town
    piece_corners: int = 200  # 12 at most on the cards; a round tower drawn with 200
    corners: int = 640  # 431 in the densest random town
    questions: int = 2000  # a 20 x 100 sight matrix
    paths: int = 100  # path questions: two for each of the 49 figures
    regions: int = 20  # reach and visibility questions (a region each: the costliest asks)
    sight_pairs: int = 10_000  # lines of sight: one a question, one a zombie a shooter


LIMITS = Limits()


@dataclass(frozen=True)
class Workload:
    """What a request asks, counted from its JSON without loading it."""

    figures: int = 0
    zombies: int = 0
    pieces: int = 0
    corners: int = 0
    questions: int = 0
    paths: int = 0
    regions: int = 0
    sight_pairs: int = 0

    @property
    def heavy(self) -> bool:
        """Whether the request builds paths or regions, or asks many lines of sight over much
        terrain: work worth keeping off a server's request threads. What is left (at most
        200 lines of sight over 64 corners and 100 figures) takes a few milliseconds."""
        return (self.paths + self.regions > 0 or self.sight_pairs > 200
                or self.figures > 100 or self.corners > 64)


def _corners(piece: Any) -> int:
    if not isinstance(piece, Mapping):
        return 0
    polygon = piece.get("polygon")
    if isinstance(polygon, list):
        return len(polygon)
    line = piece.get("line")
    return 2 * len(line) if isinstance(line, list) else 0


def workload(request: Any) -> Workload:
    """Count what `request` (`{"scene", "questions"}`, parsed JSON) asks; malformed parts
    count as nothing (loading the scene names them)."""
    if not isinstance(request, Mapping):
        return Workload()
    scene = request.get("scene")
    scene = scene if isinstance(scene, Mapping) else {}
    figures = scene.get("figures")
    figures = figures if isinstance(figures, list) else []
    terrain = scene.get("terrain")
    terrain = terrain if isinstance(terrain, list) else []
    questions = request.get("questions")
    questions = questions if isinstance(questions, list) else []
    zombies = sum(1 for f in figures if isinstance(f, Mapping) and f.get("side") == "zombies")
    paths = regions = sight = 0
    for q in questions:
        ask = q.get("ask") if isinstance(q, Mapping) else None
        if ask == "path":
            paths += 1
        elif ask in REGION_ASKS:
            regions += 1
        elif ask == "line_of_sight":
            sight += 1
        elif ask == "shooting_targets":
            sight += zombies
    return Workload(figures=len(figures), zombies=zombies, pieces=len(terrain),
                    corners=sum(_corners(p) for p in terrain), questions=len(questions),
                    paths=paths, regions=regions, sight_pairs=sight)


def check_arbitration(request: Any, limits: Limits = LIMITS) -> Workload:
    """The request's workload, or a LimitError naming the first bound it passes."""
    work = workload(request)
    scene = request.get("scene") if isinstance(request, Mapping) else None
    table = scene.get("table") if isinstance(scene, Mapping) else None
    if isinstance(table, Mapping):
        for side in ("width", "depth"):
            value = table.get(side)
            if isinstance(value, int | float) and not isinstance(value, bool) \
                    and value > limits.table_inches:
                raise LimitError(Message("limits.table", {
                    "side": side, "got": float(value), "max": limits.table_inches}),
                    f"scene.table.{side}")
    _check_counts(work, limits, (("figures", "scene.figures"), ("pieces", "scene.terrain")))
    terrain = scene.get("terrain") if isinstance(scene, Mapping) else None
    for i, piece in enumerate(terrain if isinstance(terrain, list) else []):
        n = _corners(piece)
        if n > limits.piece_corners:
            raise LimitError(Message("limits.piece_corners", {
                "n": n, "max": limits.piece_corners}), f"scene.terrain[{i}]")
    _check_counts(work, limits, (("corners", "scene.terrain"), ("questions", "questions"),
                                 ("paths", "questions"), ("regions", "questions"),
                                 ("sight_pairs", "questions")))
    return work


def _check_counts(work: Workload, limits: Limits, counts: tuple[tuple[str, str], ...]) -> None:
    """Each count of `work` against its bound of the same name, in order: the first one passed
    is refused (`limits.NAME`, named at `where`)."""
    for name, where in counts:
        n, bound = getattr(work, name), getattr(limits, name)
        if n > bound:
            raise LimitError(Message(f"limits.{name}", {"n": n, "max": bound}), where)
