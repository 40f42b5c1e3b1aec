"""`survive-us demo [TABLE]`: arbitrate a bundled demo table and show it in the terminal, in
the command's language (`--lang`), the figures as the table names them."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import shapely

from geometry.errors import SceneError, SurviveUsError
from geometry.scene import Scene
from geometry.space import Space
from i18n import Message, render_text
from rules.arbitration import activatable_zombies, enemies, shooting_targets
from scenarios.tables import load_table, table_data
from service import lookup
from service.cli.helptext import HelpText
from service.jsonio import language, print_error
from service.words import say

GLYPH = {"survivors": "S", "zombies": "Z", "civilians": "C"}
PISTOL_RANGE = 20.0
NOBODY = Message("service.explain.nobody")


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("demo", help=t("help.demo"))
    parser.add_argument("table", nargs="?", default="street",
                        metavar="TABLE",
                        help=t("help.demo.table", names=lookup.known(lookup.tables())))
    parser.set_defaults(func=run)


def text_map(scene: Scene, columns: int = 64) -> list[str]:
    """The table seen from above as characters: '#' blocks sight, '+' blocks movement only."""
    rows = columns // 2
    sx, sy = scene.table.width / columns, scene.table.depth / rows
    xs = (np.arange(columns) + 0.5) * sx
    grid = [[" "] * columns for _ in range(rows)]
    for r in range(rows):
        y = scene.table.depth - (r + 0.5) * sy  # row 0 is the far edge
        for piece in scene.terrain:
            if not (piece.sight_blocking or piece.movement_blocking):
                continue
            hit = shapely.intersects_xy(piece.footprint.buffer(min(sx, sy) / 3), xs, y)
            mark = "#" if piece.sight_blocking else "+"
            for c in np.flatnonzero(hit):
                if grid[r][c] != "#":
                    grid[r][c] = mark
    for f in scene.figures:
        col = min(int(f.x / sx), columns - 1)
        row = min(int((scene.table.depth - f.y) / sy), rows - 1)
        grid[row][col] = GLYPH[f.side]
    border = "+" + "-" * columns + "+"
    return [border, *("|" + "".join(line) + "|" for line in grid), border]


def run(args: argparse.Namespace) -> int:
    try:
        table = lookup.resolve(args.table, lookup.tables(), lambda known: SceneError(
            Message("cli.demo.unknown", {"name": args.table, "known": known}), "table"))
        scene = load_table(table)
    except SurviveUsError as error:
        return print_error(error, as_json=False)
    lang = language()
    space = Space(scene)
    data = table_data(table)
    name = {"fr": str(data.get("name", table)),
            "en": str(data.get("name_en", data.get("name", table)))}

    def called(figure_id: str) -> str:
        return say(scene.figure(figure_id).words, lang)

    print(render_text("cli.demo.title", {"name": name, "pieces": len(scene.terrain),
                                         "figures": len(scene.figures)}, lang))
    print("\n".join(text_map(scene)))
    active, nearest = activatable_zombies(space)
    print()
    print(render_text("cli.demo.active", {"zombies": [called(z) for z in active] or NOBODY},
                      lang))
    idle = [z for z in nearest if z not in active]
    if idle:
        print(render_text("cli.demo.idle", {"zombies": [called(z) for z in idle]}, lang))
    for f in scene.figures:
        if f.side != "survivors":
            continue
        zombies = [g.id for g in scene.figures if g.side == "zombies"]
        seen = [(z, s) for z, s in zip(zombies, space.sights(f.id, zombies), strict=True)
                if s.visible]
        shots = shooting_targets(space, f.id, PISTOL_RANGE)
        foes = [g.id for g in scene.figures if enemies(f, g)]
        touching = space.in_contact(f.id, foes)
        print()
        print(render_text("cli.demo.figure", {"figure": called(f.id), "x": f.x, "y": f.y},
                          lang))
        sights = [Message("cli.demo.sight", {"zombie": called(z), "p": s.fraction,
                                             "d": space.distance(f.id, z)}) for z, s in seen]
        print("  " + render_text("cli.demo.sees", {"n": len(seen), "zombies": sights or NOBODY},
                                 lang))
        targets = [called(z) for z in shots["legal"]]
        print("  " + (render_text("cli.demo.pistol", {"d": PISTOL_RANGE, "zombies": targets},
                                  lang) if targets else
                      render_text("cli.demo.pistol_none", {"d": PISTOL_RANGE}, lang)))
        if touching:
            print("  " + render_text("cli.demo.contact", {
                "enemies": [called(z) for z in touching]}, lang))
    first = next((f for f in scene.figures if f.side == "survivors"), None)
    if first is not None:
        goal = (first.x, scene.table.depth - 2.0)
        path = space.path(first.id, goal)
        print()
        if path.reachable:
            print(render_text("cli.demo.route", {"figure": called(first.id), "d": path.length},
                              lang))
        else:
            why = getattr(path, "words", None) or Message("service.explain.blocked")
            print(render_text("cli.demo.no_route", {"figure": called(first.id), "why": why},
                              lang))
    return 0
