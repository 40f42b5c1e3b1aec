"""Which arbitration answers a position uncertainty could flip: "check with the tape".

The camera places each figure within some inches (its `uncertainty`: the true base centre is
taken to lie within that distance of the reported one). An arbitration answer measured from
such positions is only as good as its margin to the rule's threshold: a zombie 19.9 in from a
survivor is activatable, but with 0.2 in of doubt on each figure it may really stand at 20.3 in.
This module answers the questions as `rules.arbitration` does, then marks each answer that
some placement of the figures within their uncertainties would change with
``"check_with_tape": true`` and the reasons, so the players measure that one by hand.

Distances move by at most the sum of the two figures' uncertainties (both bases shifting
straight toward or away from each other), so distance thresholds (the 20 in activation, base
contact, a weapon's range, the 2 in threat, the nearest-target tie) are checked with that
bound. Line of sight is not monotone in position, so it is re-evaluated exactly with the
observer and the target moved to a ring of placements around their reported centres (placements
that would put a base inside movement-blocking terrain are impossible and skipped).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
import shapely.ops

from geometry.errors import QuestionError, SceneError, shown
from geometry.scene import load_scene
from geometry.space import Space, enemies
from geometry.units import CONTACT_INCHES, base_radius
from i18n import Message
from rules.arbitration import (
    ACTIVATION_INCHES,
    THREAT_INCHES,
    TIE_INCHES,
    answer,
    read_request,
)

__all__ = ["review", "flag_answers", "settle_scene", "sight_samples", "NEAR_ZERO_FRACTION"]

FloatArray = npt.NDArray[np.float64]
Answer = dict[str, Any]

NEAR_ZERO_FRACTION = 0.01  # a target seen by under 1% of its rim is a grazing sight line
_EPS = 1e-9


def _ring() -> FloatArray:
    """Unit offsets of the placements tried: the centre, 12 on the rim, 6 half way out."""
    outer = np.linspace(0.0, 2.0 * math.pi, 12, endpoint=False)
    inner = np.linspace(0.0, 2.0 * math.pi, 6, endpoint=False) + math.pi / 6.0
    ring = [(0.0, 0.0)]
    ring += [(math.cos(a), math.sin(a)) for a in outer]
    ring += [(0.5 * math.cos(a), 0.5 * math.sin(a)) for a in inner]
    return np.array(ring, dtype=np.float64)


_RING = _ring()


def review(request: Any) -> dict[str, Any]:
    """`{"scene", "questions", "uncertainty": {id: inches}}` -> `{"answers", "settled"}`.

    Each answer is the arbitration answer plus `check_with_tape` (bool), `tape_reasons` (in
    English, naming figures by their ids) and `tape_reasons_words` (the same as messages,
    naming figures as a person does: `scene.tape.*`).
    A figure missing from `uncertainty` uses its scene field `"uncertainty"`, else 0. Measured
    positions may make touching bases overlap a little; see `settle_scene` (`settled` lists the
    figures it moved).
    """
    given = request.get("uncertainty", {}) if isinstance(request, Mapping) else {}
    if not isinstance(given, Mapping):
        raise QuestionError(Message("scene.uncertainty.not_object", {"value": shown(given)}),
                            "uncertainty")
    settled: list[dict[str, Any]] = []

    def settle(data: Any) -> Any:
        moved, found = settle_scene(data, given)
        settled.extend(found)
        return moved

    scene, questions = read_request(request, ("scene", "questions", "uncertainty"), settle)
    space = Space(scene)
    return {"answers": flag_answers(space, given, questions), "settled": settled}


def settle_scene(data: Any, given: Mapping[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """The scene JSON with bases that overlap each other, movement-blocking terrain or the
    table edge by no more than their uncertainties pushed apart (a camera puts touching bases
    a hair into each other), and what was moved. Larger overlaps are left for `load_scene` to
    refuse, naming the figure; malformed figures are left alone for the same reason."""
    if not isinstance(data, Mapping) or not isinstance(data.get("figures"), list):
        return data, []
    try:
        ground = load_scene({**data, "figures": []})
    except SceneError:
        return data, []
    figures = [dict(f) if isinstance(f, Mapping) else f for f in data["figures"]]
    movable = []
    for f in figures:
        if not isinstance(f, dict):
            continue
        u = given.get(str(f.get("id")), f.get("uncertainty", 0.0))
        values = (f.get("x"), f.get("y"), f.get("base_mm", 25.0), u)
        if all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
               for v in values) and float(u) > 0 and float(f.get("base_mm", 25.0)) > 0:
            movable.append(f)
    if not movable:
        return data, []
    xy = np.array([(float(f["x"]), float(f["y"])) for f in movable])
    start = xy.copy()
    r = np.array([base_radius(float(f.get("base_mm", 25.0))) for f in movable])
    u = np.array([float(given.get(f["id"], f.get("uncertainty", 0.0))) for f in movable])
    blockers = [t.footprint for t in ground.movement_blockers]
    union = shapely.union_all(blockers) if blockers else None
    w, d = ground.table.width, ground.table.depth
    for _ in range(20):
        moved = False
        for i in range(len(movable)):
            for j in range(i + 1, len(movable)):
                gap = float(np.hypot(*(xy[j] - xy[i]))) - r[i] - r[j]
                if -(u[i] + u[j]) <= gap < -1e-9:
                    axis = (xy[j] - xy[i]) / max(float(np.hypot(*(xy[j] - xy[i]))), 1e-12)
                    share = u[i] / (u[i] + u[j])
                    xy[i] += axis * gap * share * (1 + 1e-6)
                    xy[j] -= axis * gap * (1 - share) * (1 + 1e-6)
                    moved = True
            if union is not None:
                here = shapely.Point(*xy[i])
                if not shapely.contains(union, here):
                    depth = r[i] - float(shapely.distance(union, here))
                    if 1e-9 < depth <= u[i]:
                        near = shapely.ops.nearest_points(union, here)[0]
                        away = xy[i] - np.array([near.x, near.y])
                        xy[i] += away / max(float(np.hypot(*away)), 1e-12) * depth * (1 + 1e-6)
                        moved = True
            clamped = np.clip(xy[i], r[i], (w - r[i], d - r[i]))
            if 1e-12 < float(np.abs(clamped - xy[i]).max()) <= u[i]:
                xy[i] = clamped
                moved = True
        if not moved:
            break
    shift = np.hypot(*(xy - start).T)
    settled = []
    for f, (x, y), moved_by, limit in zip(movable, xy, shift, u, strict=True):
        if 0 < moved_by <= limit + 1e-9:
            f["x"], f["y"] = float(x), float(y)
            settled.append({"id": f["id"], "moved": float(moved_by),
                            "to": [float(x), float(y)]})
    return {**data, "figures": figures}, settled


def _uncertainties(space: Space, given: Any) -> dict[str, float]:
    if not isinstance(given, Mapping):
        raise QuestionError(Message("scene.uncertainty.not_object", {"value": shown(given)}),
                            "uncertainty")
    out: dict[str, float] = {}
    for f in space.scene.figures:
        value = given.get(f.id, f.extra.get("uncertainty", 0.0))
        where = f"uncertainty.{f.id}" if f.id in given else f"scene.figures.{f.id}.uncertainty"
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or value < 0):
            raise QuestionError(Message("scene.uncertainty.bad_inches", {
                "where": where, "value": shown(value)}), where)
        out[f.id] = float(value)
    unknown = sorted(set(given) - set(out))
    if unknown:
        raise QuestionError(Message("scene.uncertainty.unknown_figure", {
            "value": shown(unknown[0])}),
                            f"uncertainty.{unknown[0]}")
    return out


def flag_answers(space: Space, uncertainty: Any, questions: Sequence[Any],
                 answers: Sequence[Answer] | None = None) -> list[Answer]:
    """Answer (unless `answers` are given, in order) and flag each question; see the module."""
    u = _uncertainties(space, uncertainty)
    if answers is not None and len(answers) != len(questions):
        raise QuestionError(Message("scene.uncertainty.answer_count", {
            "answers": len(answers), "questions": len(questions)}), "answers")
    out = []
    for n, q in enumerate(questions):
        where = f"questions[{n}]"
        got = dict(answers[n]) if answers is not None else answer(space, q, where)
        try:
            reasons = _check(space, u, q, got)
        except (KeyError, TypeError, ValueError) as error:
            raise QuestionError(Message("scene.uncertainty.cannot_weigh", {
                "where": where, "why": str(error)}), where) from None
        got["check_with_tape"] = bool(reasons)
        got["tape_reasons"] = [text for text, _ in reasons]
        got["tape_reasons_words"] = [said.to_json() for _, said in reasons]
        out.append(got)
    return out


# a reason to check with the tape: in English with ids (for programs), and in words
Reason = tuple[str, Message]


def _who(space: Space, figure: str) -> Any:
    """A figure of the scene as a person calls it (its name, else its side and number)."""
    return space.scene.figure(figure).words


def _mm(spread: float) -> int:
    """An uncertainty in whole millimetres (inches with one decimal would say 0.0)."""
    return max(round(spread * 25.4), 1)


def _check(space: Space, u: Mapping[str, float], q: Mapping[str, Any],
           got: Answer) -> list[Reason]:
    ask = q["ask"]
    if ask == "distance":
        return _check_distance(space, u, q["a"], q["b"], got)
    if ask == "line_of_sight":
        return _check_sight(space, u, q["from"], q["to"])
    if ask == "activatable_zombies":
        return _check_activation(space, u, got)
    if ask == "engaged":
        return _check_engaged(space, u, q["figure"], got)
    if ask == "shooting_targets":
        return _check_shooting(space, u, q["shooter"], float(q["range"]), got)
    return []  # paths, views and reach areas: not assessed (no single threshold to flip)


def _straddles(d: float, spread: float, threshold: float) -> bool:
    """Whether an inclusive 'within threshold' test on d could go either way with d +- spread."""
    could_be_within = d - spread <= threshold + _EPS
    could_be_beyond = d + spread > threshold + _EPS
    return spread > 0 and could_be_within and could_be_beyond


def _pm(d: float, spread: float) -> str:
    return f"{d:.2f} in ± {spread:.2f} in"


# --- distances -------------------------------------------------------------------------------


def _check_distance(space: Space, u: Mapping[str, float], a: str, b: str,
                    got: Answer) -> list[Reason]:
    fa, fb = space.scene.figure(a), space.scene.figure(b)
    d, spread = space.distance(a, b), u[a] + u[b]
    got["plus_minus"] = spread
    reasons: list[Reason] = []
    params = {"a": fa.words, "b": fb.words, "d": d, "mm": _mm(spread)}
    if enemies(fa, fb):
        if _straddles(d, spread, ACTIVATION_INCHES):
            reasons.append((f"{a} to {b}: {_pm(d, spread)} against the "
                            f"{ACTIVATION_INCHES:g} in zombie activation range",
                            Message("scene.tape.activation", {
                                **params, "range": ACTIVATION_INCHES})))
        if _straddles(d, spread, CONTACT_INCHES):
            reasons.append((f"{a} to {b}: {_pm(d, spread)}: base contact "
                            f"(≤ {CONTACT_INCHES:g} in) is uncertain",
                            Message("scene.tape.contact", params)))
        survivor = "survivors" in (fa.side, fb.side)
        if survivor and _straddles(d, spread, THREAT_INCHES):
            reasons.append((f"{a} to {b}: {_pm(d, spread)} against the {THREAT_INCHES:g} in "
                            "threat that lets a farther zombie be shot first",
                            Message("scene.tape.threat", {**params, "range": THREAT_INCHES})))
    return reasons


def _check_activation(space: Space, u: Mapping[str, float], got: Answer) -> list[Reason]:
    figures = space.scene.figures
    humans = [i for i, f in enumerate(figures) if f.is_human]
    reasons: list[Reason] = []
    doubtful = []
    if not humans:
        return []
    for i, z in enumerate(figures):
        if z.is_human:
            continue
        row = space.distances[i, humans]
        spread = np.array([u[z.id] + u[figures[h].id] for h in humans])
        low = float(np.min(np.maximum(row - spread, 0.0)))
        high = float(np.min(row + spread))
        if low <= ACTIVATION_INCHES + _EPS < high:
            k = int(np.argmin(row))
            doubtful.append(z.id)
            reasons.append((f"{z.id}: nearest human {figures[humans[k]].id} at "
                            f"{_pm(float(row[k]), float(spread[k]))} against the "
                            f"{ACTIVATION_INCHES:g} in activation range",
                            Message("scene.tape.nearest_human", {
                                "zombie": z.words, "human": figures[humans[k]].words,
                                "d": float(row[k]), "mm": _mm(float(spread[k])),
                                "range": ACTIVATION_INCHES})))
    got["uncertain_zombies"] = doubtful
    return reasons


def _check_engaged(space: Space, u: Mapping[str, float], figure: str,
                   got: Answer) -> list[Reason]:
    me = space.scene.figure(figure)
    reasons: list[Reason] = []
    doubtful = []
    for f in space.scene.figures:
        if not enemies(me, f):
            continue
        d, spread = space.distance(me.id, f.id), u[me.id] + u[f.id]
        if _straddles(d, spread, CONTACT_INCHES):
            doubtful.append(f.id)
            reasons.append((f"{me.id} to {f.id}: {_pm(d, spread)}: base contact "
                            f"(≤ {CONTACT_INCHES:g} in) could go either way",
                            Message("scene.tape.contact", {
                                "a": me.words, "b": f.words, "d": d, "mm": _mm(spread)})))
    got["uncertain_with"] = doubtful
    return reasons


# --- sight -------------------------------------------------------------------------------------


def _placements(space: Space, figure: str, spread: float) -> FloatArray:
    """Where the figure's centre may be: its ring of placements, those inside movement-blocking
    terrain left out (the reported centre itself is always kept)."""
    f = space.scene.figure(figure)
    if spread <= 0:
        return np.array([f.centre], dtype=np.float64)
    points = np.asarray(f.centre, dtype=np.float64) + spread * _RING
    blockers = [t.footprint for t in space.scene.movement_blockers]
    if blockers:
        union = shapely.union_all(blockers)
        gaps = shapely.distance(union, shapely.points(points)) - f.radius
        keep = gaps >= -1e-6
        keep[0] = True
        points = points[keep]
    return points


def sight_samples(space: Space, observer: str, targets: Sequence[str],
                  u: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """For each target: in how many (observer, target) placements it is visible, out of how many.

    Every observer placement is paired with every placement of each target, so a sight line
    that grazes a corner shows up as a split count.
    """
    field = space.sight_field
    spots = _placements(space, observer, u[observer])
    views = [space.view(observer)] + [field.view((float(x), float(y))) for x, y in spots[1:]]
    views = [v for k, v in enumerate(views) if k == 0 or not v.blind]
    obs_idx, centres, radii, owner = [], [], [], []
    for t_n, t in enumerate(targets):
        tf = space.scene.figure(t)
        places = _placements(space, t, u[t])
        for o in range(len(views)):
            obs_idx.append(np.full(len(places), o, dtype=np.intp))
            centres.append(places)
            radii.append(np.full(len(places), tf.radius))
            owner.append(np.full(len(places), t_n, dtype=np.intp))
    if not targets:
        return {}
    got = field.answers(views, np.concatenate(obs_idx), np.concatenate(centres),
                        np.concatenate(radii))
    who = np.concatenate(owner)
    seen = np.bincount(who, weights=got.visible.astype(np.float64), minlength=len(targets))
    total = np.bincount(who, minlength=len(targets))
    return {t: (int(seen[k]), int(total[k])) for k, t in enumerate(targets)}


def _sight_reason(space: Space, u: Mapping[str, float], observer: str, target: str,
                  counts: tuple[int, int]) -> Reason | None:
    if observer == target or u[observer] + u[target] <= 0:
        return None
    seen, total = counts
    params = {"a": _who(space, observer), "b": _who(space, target)}
    if 0 < seen < total:
        return (f"{observer} to {target}: a sight line grazes terrain: {target} is visible in "
                f"{seen} of {total} placements within the uncertainty "
                f"({u[observer]:.2f} in and {u[target]:.2f} in)",
                Message("scene.tape.sight_grazes", {**params, "seen": seen, "total": total}))
    nominal = space.sight(observer, target)
    if nominal.visible and nominal.fraction < NEAR_ZERO_FRACTION:
        return (f"{observer} to {target}: only {nominal.fraction:.1%} of {target}'s base is in "
                "sight: the sight line grazes terrain",
                Message("scene.tape.sight_sliver", params))
    return None


def _check_sight(space: Space, u: Mapping[str, float], observer: str,
                 target: str) -> list[Reason]:
    if observer == target or u[observer] + u[target] <= 0:
        return []
    counts = sight_samples(space, observer, [target], u)[target]
    reason = _sight_reason(space, u, observer, target, counts)
    return [reason] if reason else []


# --- shooting ----------------------------------------------------------------------------------


def _check_shooting(space: Space, u: Mapping[str, float], shooter: str, reach: float,
                    got: Answer) -> list[Reason]:
    scene = space.scene
    zombies = [f.id for f in scene.figures if f.side == "zombies"]
    survivors = [f.id for f in scene.figures if f.side == "survivors"]
    dist = {z: space.distance(shooter, z) for z in zombies}
    spread = {z: u[shooter] + u[z] for z in zombies}
    near = [z for z in zombies if dist[z] - spread[z] <= reach + _EPS]
    sights = dict(zip(near, space.sights(shooter, near), strict=True))
    counts = sight_samples(space, shooter, near, u) if near else {}
    reasons: list[Reason] = []
    doubtful: set[str] = set()
    possible: list[str] = []
    for z in near:
        sight_reason = _sight_reason(space, u, shooter, z, counts[z])
        may_see = sights[z].visible or sight_reason is not None
        if not may_see:
            continue
        possible.append(z)
        if _straddles(dist[z], spread[z], reach):
            doubtful.add(z)
            reasons.append((f"{shooter} to {z}: {_pm(dist[z], spread[z])} against the "
                            f"{reach:g} in range", Message("scene.tape.range", {
                                "a": _who(space, shooter), "b": _who(space, z),
                                "d": dist[z], "mm": _mm(spread[z]), "range": reach})))
        elif sight_reason is not None and dist[z] <= reach + _EPS:
            doubtful.add(z)
            reasons.append(sight_reason)
    candidates = list(got.get("candidates", []))
    if candidates:
        nearest_d = min(dist[c] for c in candidates)
        nearest = [c for c in candidates if dist[c] <= nearest_d + TIE_INCHES]
        for c in possible:
            if c in nearest:
                continue
            for n in nearest:
                gap = dist[c] - dist[n]
                slack = u[c] + u[n] + 2.0 * u[shooter]
                if gap <= slack + _EPS and slack > 0:
                    doubtful.update((c, n))
                    reasons.append((
                        f"{c} ({dist[c]:.2f} in) could be as near to {shooter} as "
                        f"{n} ({dist[n]:.2f} in): the nearest target is a tie within "
                        f"± {slack:.2f} in", Message("scene.tape.nearest_tie", {
                            "c": _who(space, c), "dc": dist[c], "shooter": _who(space, shooter),
                            "n": _who(space, n), "dn": dist[n], "mm": _mm(slack)})))
                    break
            else:
                for s in survivors:
                    d, sp = space.distance(c, s), u[c] + u[s]
                    if _straddles(d, sp, THREAT_INCHES):
                        doubtful.add(c)
                        reasons.append((
                            f"{c} to {s}: {_pm(d, sp)} against the {THREAT_INCHES:g} in "
                            f"threat that makes {c} a legal target",
                            Message("scene.tape.threat_target", {
                                "c": _who(space, c), "s": _who(space, s), "d": d,
                                "mm": _mm(sp), "range": THREAT_INCHES})))
                        break
    got["uncertain_targets"] = sorted(doubtful)
    return reasons
