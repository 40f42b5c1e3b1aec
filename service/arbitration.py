"""`POST /api/v1/arbitrate`: the rules' arbitration, with the sight questions batched.

Each question is answered by `rules.arbitration.answer`, as the CLI does, so answers and
errors are the same. The one difference is speed: a request of many line-of-sight questions
(a 10 x 100 sight table) would compute each pair on its own (about 0.3 ms each); here the
space answers all the request's sight questions in one vectorised batch first (the same
exact computation, `Space.sight_table`) and each question then reads its pair.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from geometry.errors import SceneError
from geometry.scene import Scene, load_scene
from geometry.space import Sight, Space
from rules import arbitration

__all__ = ["arbitrate", "BatchedSpace"]


class BatchedSpace(Space):
    """A `Space` that answers a known set of sight pairs in one batch, on first use."""

    def __init__(self, scene: Scene, pairs: Sequence[tuple[str, str]]) -> None:
        super().__init__(scene)
        self._pairs = pairs
        self._table: dict[str, dict[str, Sight]] | None = None

    def sight(self, observer: str, target: str) -> Sight:
        if self._table is None:
            known = self.scene.index
            pairs = [(a, b) for a, b in self._pairs if a in known and b in known]
            observers = list(dict.fromkeys(a for a, _ in pairs))
            targets = list(dict.fromkeys(b for _, b in pairs))
            self._table = self.sight_table(observers, targets)
        found = self._table.get(observer, {}).get(target)
        return found if found is not None else super().sight(observer, target)


def _sight_pairs(questions: Sequence[Any]) -> list[tuple[str, str]]:
    return [(q["from"], q["to"]) for q in questions
            if isinstance(q, Mapping) and q.get("ask") == "line_of_sight"
            and isinstance(q.get("from"), str) and isinstance(q.get("to"), str)]


def arbitrate(request: Any) -> dict[str, list[dict[str, Any]]]:
    """Same contract as `rules.arbitration.arbitrate`; a malformed request is handed to it,
    so the error raised is the rules' own."""
    if not (isinstance(request, Mapping) and set(request) <= {"scene", "questions"}
            and "scene" in request and isinstance(request.get("questions", []), list)):
        return arbitration.arbitrate(request)
    try:
        scene = load_scene(request["scene"])
    except SceneError:
        return arbitration.arbitrate(request)
    questions = request.get("questions", [])
    space = BatchedSpace(scene, _sight_pairs(questions))
    return {"answers": [arbitration.answer(space, q, f"questions[{i}]")
                        for i, q in enumerate(questions)]}
