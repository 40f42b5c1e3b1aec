"""Run every benchmark and write docs/benchmarks.md."""

from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench import (
    ai_bench,
    attack_load,
    cli_bench,
    engine_bench,
    forward_model,
    geometry_bench,
    http_bench,
    undo_bench,
    vision_bench,
    vision_pbr,
)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--out", default="docs/benchmarks.md")
    args = parser.parse_args()
    rows = (geometry_bench.run() + engine_bench.run() + forward_model.run() + ai_bench.run()
            + http_bench.run()
            + attack_load.run() + undo_bench.run() + cli_bench.run() + vision_bench.run()
            + vision_pbr.run())
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench`. Each figure is the median of many runs, measured in the same",
        "process as its comparison, because these machines are shared and noisy.",
        "",
        f"- when: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- machine: {os.cpu_count()} cores, {platform.machine()}, "
        f"Python {platform.python_version()}",
        "- table: 80 x 80 cm, 25 terrain pieces (boxes and L-walls), 10 survivors, 100 zombies,"
        " 25 mm bases (`bench/tables.py`, seeded)",
        "",
        "| measure | target | ours | comparison | comparison time | notes |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r.what} | {r.target} | {r.ours} | {r.peer_name} | {r.peer} | {r.note} |")
    for name, profile in forward_model.PROFILES.items():
        lines += ["", f"## A greedy game's profile, {forward_model.WHO[name]}", "",
                  "One game of greedy zombies against the survivor bot (escorte, seed 1), "
                  "`cProfile`, by cumulative time (`python -m bench.forward_model`):", "",
                  "```", profile.strip(), "```"]
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
