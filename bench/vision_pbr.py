"""The camera pipeline on the independent, physically rendered photos (tests/data/pbr/).

Those frames were path traced with Mitsuba 3 from a 3D scene (tools/pbr_frames/), not drawn by
the generator the pipeline was tuned on. Each frame's JSON says where every figure truly is and
whether the camera can see it (rays cast in the rendered scene). This module runs
`vision.locate.locate` on every frame, in its own mode and (as a check for false detections)
in the other one, and scores it against that truth.

    .venv/bin/python -m bench.vision_pbr [--frames NAME...] [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from bench.geometry_bench import Row
from vision.imageio import decode_image
from vision.locate import locate

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "pbr"
GATE_IN = 0.4  # a detection farther than this from the figure it is paired with is false
TAGS_DONE = {"found_share": 1.0, "mean_in": 0.05, "max_in": 0.15}
COLOUR_DONE = {"found_share": 0.98, "mean_in": 0.08}


@dataclass
class FrameScore:
    """One frame located in one mode, against its truth."""

    frame: str
    mode: str  # the mode it was located in
    own_mode: bool  # the frame was made for that mode
    width: int
    height: int
    table_found: bool
    markers_visible: list[int]
    markers_seen: list[int]
    figures: int = 0
    visible: int = 0
    found_visible: int = 0
    found_partly: int = 0  # found although not counted as visible (partly hidden)
    hidden: int = 0
    hidden_reported: int = 0
    false: int = 0
    errors: list[float] = field(default_factory=list)
    outside_uncertainty: int = 0
    missed: list[str] = field(default_factory=list)
    false_detail: list[str] = field(default_factory=list)
    by_size: dict[int, list[int]] = field(default_factory=dict)  # base_mm: [visible, found]
    rejected: int = 0
    time_ms: float = 0.0  # wall clock, median of the timed runs
    cpu_ms: float = 0.0  # process CPU time (all threads), median: steadier on a busy machine


def manifest(data: Path = DATA) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = json.loads((data / "manifest.json").read_text())["frames"]
    return frames


def load_truth(name: str, data: Path = DATA) -> dict[str, Any]:
    truth: dict[str, Any] = json.loads((data / Path(name).with_suffix(".json").name)
                                       .read_text())
    return truth


def _locate(blob: bytes, mode: str) -> tuple[dict[str, Any], float, float]:
    """The JPEG's bytes to the answer, as `vision locate` does it; wall and CPU ms."""
    start, cpu = time.perf_counter(), time.process_time()
    image = decode_image(blob, grey=(mode == "tags"))
    answer = locate(image, mode).answer
    return answer, (time.perf_counter() - start) * 1e3, (time.process_time() - cpu) * 1e3


def score_frame(name: str, mode: str, runs: int = 1, data: Path = DATA) -> FrameScore:
    """Locate `name` in `mode` and score it. With `runs` > 1, one untimed run first, then the
    median time of `runs` runs."""
    truth = load_truth(name, data)
    blob = (data / name).read_bytes()
    times, cpus = [], []
    answer: dict[str, Any] = {}
    if runs > 1:
        _locate(blob, mode)
    for _ in range(max(1, runs)):
        answer, ms, cpu = _locate(blob, mode)
        times.append(ms)
        cpus.append(cpu)
    table = answer["table"]
    score = FrameScore(
        frame=name, mode=mode, own_mode=truth["mode"] == mode,
        width=truth["image"]["width"], height=truth["image"]["height"],
        table_found=bool(table["found"]),
        markers_visible=[m["id"] for m in truth["markers"] if m["visible"]],
        markers_seen=list(table.get("markers", [])),
        rejected=len(answer.get("rejected", [])), time_ms=statistics.median(times),
        cpu_ms=statistics.median(cpus))
    figures = answer.get("figures", [])
    if truth["mode"] == "tags" and mode == "tags":
        _score_tags(score, truth, figures)
    elif truth["mode"] == "colour" and mode == "colour":
        _score_colour(score, truth, figures)
    else:  # nothing of this mode is on the table: every detection is false
        score.false = len(figures)
        score.false_detail = [f"{f.get('tag', f.get('side'))} at ({f['x']:.2f}, {f['y']:.2f})"
                              for f in figures]
    return score


def _count_truth(score: FrameScore, truth: dict[str, Any]) -> None:
    for t in truth["figures"]:
        score.figures += 1
        size = score.by_size.setdefault(int(t["base_mm"]), [0, 0])
        if t["visible"]:
            score.visible += 1
            size[0] += 1
        if t["hidden"]:
            score.hidden += 1


def _pair(score: FrameScore, t: dict[str, Any], f: dict[str, Any], err: float) -> None:
    if t["hidden"]:
        score.hidden_reported += 1
    if t["visible"]:
        score.found_visible += 1
        score.by_size[int(t["base_mm"])][1] += 1
    else:
        score.found_partly += 1
    score.errors.append(err)
    if "uncertainty" in f and err > float(f["uncertainty"]):
        score.outside_uncertainty += 1


def _score_tags(score: FrameScore, truth: dict[str, Any], figures: list[dict[str, Any]]
                ) -> None:
    _count_truth(score, truth)
    by_tag = {int(t["tag"]): t for t in truth["figures"]}
    paired: set[int] = set()
    for f in figures:
        t = by_tag.get(int(f["tag"]))
        err = math.inf if t is None else math.hypot(f["x"] - t["x"], f["y"] - t["y"])
        if t is None or err > GATE_IN or int(f["tag"]) in paired:
            score.false += 1
            score.false_detail.append(f"tag {f['tag']} at ({f['x']:.2f}, {f['y']:.2f})"
                                      + ("" if t is None else f", {err:.2f} in off"))
            continue
        paired.add(int(f["tag"]))
        _pair(score, t, f, err)
    score.missed = [f"tag {t['tag']} ({t['base_mm']} mm)" for t in truth["figures"]
                    if t["visible"] and int(t["tag"]) not in paired]


def _score_colour(score: FrameScore, truth: dict[str, Any], figures: list[dict[str, Any]]
                  ) -> None:
    """Each side's detections are paired with that side's figures by the least total
    distance (bases have no identity in colour mode); a pair farther than the gate is not a
    pair."""
    _count_truth(score, truth)
    for side in sorted({t["side"] for t in truth["figures"]} | {f["side"] for f in figures}):
        ts = [t for t in truth["figures"] if t["side"] == side]
        fs = [f for f in figures if f["side"] == side]
        paired_t: set[int] = set()
        paired_f: set[int] = set()
        if ts and fs:
            cost = np.array([[math.hypot(f["x"] - t["x"], f["y"] - t["y"]) for t in ts]
                             for f in fs])
            rows, cols = linear_sum_assignment(np.minimum(cost, 10.0))
            for i, j in zip(rows, cols, strict=True):
                if cost[i, j] <= GATE_IN:
                    paired_f.add(int(i))
                    paired_t.add(int(j))
                    _pair(score, ts[j], fs[i], float(cost[i, j]))
        for i, f in enumerate(fs):
            if i not in paired_f:
                score.false += 1
                score.false_detail.append(f"{side} at ({f['x']:.2f}, {f['y']:.2f})")
        score.missed += [f"{t['name']} ({side}, {t['base_mm']} mm, "
                         f"{t['visible_fraction']:.0%} of rim seen)"
                         for j, t in enumerate(ts) if t["visible"] and j not in paired_t]


def evaluate(frames: list[str] | None = None, runs: int = 1, cross: bool = True,
             data: Path = DATA) -> list[FrameScore]:
    """Every frame (or those named) in its own mode, and in the other mode when `cross`."""
    out = []
    for entry in manifest(data):
        name = entry["frame"]
        if frames and name not in frames and Path(name).stem not in frames:
            continue
        own = entry["mode"]
        out.append(score_frame(name, own, runs, data))
        if cross:
            out.append(score_frame(name, "colour" if own == "tags" else "tags", 1, data))
    return out


def summary(scores: list[FrameScore], mode: str) -> dict[str, Any]:
    """Totals over the frames made for `mode` and located in it."""
    own = [s for s in scores if s.mode == mode and s.own_mode]
    errors = [e for s in own for e in s.errors]
    visible = sum(s.visible for s in own)
    found = sum(s.found_visible for s in own)
    sizes: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for s in own:
        for mm, (v, f) in s.by_size.items():
            sizes[mm][0] += v
            sizes[mm][1] += f
    cross = [s for s in scores if s.mode == mode and not s.own_mode]
    times = [s.time_ms for s in own]
    cpus = [s.cpu_ms for s in own]
    return {
        "mode": mode, "frames": len(own),
        "tables_found": sum(s.table_found for s in own),
        "tables_with_3_markers_visible": sum(len(s.markers_visible) >= 3 for s in own),
        "visible": visible, "found_visible": found,
        "found_share": round(found / visible, 4) if visible else None,
        "found_partly_hidden": sum(s.found_partly for s in own),
        "hidden": sum(s.hidden for s in own),
        "hidden_reported": sum(s.hidden_reported for s in own),
        "false": sum(s.false for s in own),
        "false_in_other_mode_frames": sum(s.false for s in cross),
        "mean_in": round(float(np.mean(errors)), 4) if errors else None,
        "max_in": round(float(np.max(errors)), 4) if errors else None,
        "outside_uncertainty": sum(s.outside_uncertainty for s in own),
        "rejected": sum(s.rejected for s in own),
        "by_base_mm": {mm: {"visible": v, "found": f} for mm, (v, f) in sorted(sizes.items())},
        "time_ms_median": round(statistics.median(times), 1) if times else None,
        "time_ms_max": round(max(times), 1) if times else None,
        "cpu_ms_median": round(statistics.median(cpus), 1) if cpus else None,
    }


def report(scores: list[FrameScore]) -> str:
    lines = ["| frame | mode | size | table (markers seen / visible) | found / visible | "
             "partly hidden found | false | hidden reported | mean / max error (in) | "
             "outside uncertainty | ms (CPU ms) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in scores:
        err = (f"{np.mean(s.errors):.3f} / {max(s.errors):.3f}" if s.errors else "-")
        table = (f"{'found' if s.table_found else 'NOT found'} ({len(s.markers_seen)}/"
                 f"{len(s.markers_visible)})")
        what = f"{s.found_visible}/{s.visible}" if s.own_mode else "(other mode)"
        lines.append(f"| {s.frame} | {s.mode} | {s.width}x{s.height} | {table} | {what} | "
                     f"{s.found_partly} | {s.false} | {s.hidden_reported} | {err} | "
                     f"{s.outside_uncertainty} | {s.time_ms:.0f} ({s.cpu_ms:.0f}) |")
    for mode in ("tags", "colour"):
        lines += ["", f"**{mode}**: `{json.dumps(summary(scores, mode))}`"]
    return "\n".join(lines)


def _share(sm: dict[str, Any]) -> str:
    share = sm["found_share"]
    return "-" if share is None else f"{share:.0%}"


def run() -> list[Row]:
    """`make bench` rows: each mode's totals and frame time on the rendered set."""
    if not (DATA / "manifest.json").exists():
        return [Row("physically rendered set", "-", "missing", "-", "-", str(DATA))]
    scores = evaluate(runs=3)
    rows = []
    for mode, target, size in (("tags", "< 150 ms", "4K"), ("colour", "< 50 ms", "1080p")):
        sm = summary(scores, mode)
        sizes = ", ".join(f"{mm} mm {v['found']}/{v['visible']}"
                          for mm, v in sm["by_base_mm"].items())
        rows.append(Row(
            f"rendered {size} {mode} frames (tests/data/pbr, {sm['frames']} frames), "
            "end to end from the JPEG", target, f"{sm['time_ms_median']} ms median "
            f"({sm['cpu_ms_median']} ms CPU), {sm['time_ms_max']} ms max", "-", "-",
            f"{sm['found_visible']}/{sm['visible']} visible found ({_share(sm)}), "
            f"mean {sm['mean_in']} / max {sm['max_in']} in, {sm['false']} false, "
            f"{sm['hidden_reported']} hidden reported, tables {sm['tables_found']}/"
            f"{sm['frames']}; by base: {sizes}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vision_pbr")
    parser.add_argument("--frames", nargs="*", help="frame names (default: all)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per frame")
    parser.add_argument("--no-cross", action="store_true",
                        help="skip locating each frame in the other mode")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA,
                        help="another set made by tools/pbr_frames (e.g. a --variant to tune on)")
    args = parser.parse_args(argv)
    scores = evaluate(args.frames, args.runs, cross=not args.no_cross, data=args.data)
    if args.json:
        sys.stdout.write(json.dumps({"frames": [asdict(s) for s in scores],
                                     "tags": summary(scores, "tags"),
                                     "colour": summary(scores, "colour")}, indent=1) + "\n")
        return 0
    sys.stdout.write(report(scores) + "\n")
    for s in scores:
        if s.missed or s.false_detail:
            sys.stdout.write(f"\n{s.frame} ({s.mode}): missed {s.missed}; "
                             f"false {s.false_detail}")
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
