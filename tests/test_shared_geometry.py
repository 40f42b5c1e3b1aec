"""Geometry shared by every game on one terrain is queried by one server thread at a time
(GEOS prepared geometries are not thread-safe: concurrent actions crashed a waitress server).

Each test holds the shared object's lock in this thread and checks that a query from another
thread waits for it, then answers as it would have alone."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from shapely.geometry import box

from geometry import space as space_module
from geometry.paths import PathFinder
from geometry.scene import load_scene
from geometry.space import Space

W = 800.0 / 25.4
R = 25.0 / 25.4 / 2.0


def _waits_for(lock: Any, query: Callable[[], Any]) -> Any:
    got: list[Any] = []
    worker = threading.Thread(target=lambda: got.append(query()))
    with lock:
        worker.start()
        worker.join(0.3)
        assert worker.is_alive() and not got  # blocked while the lock is held
    worker.join(10)
    assert not worker.is_alive()
    return got[0]


def test_a_path_finder_answers_one_thread_at_a_time() -> None:
    finder = PathFinder([("box", box(10, 10, 12, 12))], (W, W), R)
    alone = finder.shortest((5.0, 11.0), (17.0, 11.0))
    shared = _waits_for(finder._lock, lambda: finder.shortest((5.0, 11.0), (17.0, 11.0)))
    assert shared == alone and shared.reachable and shared.length > 12.0
    region = _waits_for(finder._lock, lambda: finder.reach((5.0, 11.0), 3.0))
    assert region.equals(finder.reach((5.0, 11.0), 3.0))


def test_free_regions_answer_one_thread_at_a_time() -> None:
    scene = load_scene({"terrain": [{"id": "b", "kind": "polygon",
                                     "polygon": [[10, 10], [12, 10], [12, 12], [10, 12]]}],
                        "figures": [{"id": "s1", "side": "survivors", "x": 5.0, "y": 5.0}]})
    space = Space(scene)
    assert _waits_for(space_module._REGIONS_LOCK,
                      lambda: space.same_region(R, (5.0, 5.0), [(20.0, 20.0)])) is True
