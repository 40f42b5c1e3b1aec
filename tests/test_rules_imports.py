"""The rules room reads one way: no import circle among its modules (imports inside
functions counted; `if TYPE_CHECKING:` imports, never run, left out), and no other room
imports a private name of the engine (issue 24)."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("ai", "scenarios", "service", "bench", "vision", "geometry", "i18n")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs, at any depth, outside `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _rules_graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in (ROOT / "rules").rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                f"{node.module}.{a.name}" for a in node.names] + [node.module or ""]
            for target in targets:
                # `from rules import words` names the module rules.words
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and target != "rules":
                    graph[name].add(target)
    return graph


def test_no_import_circle_in_the_rules_room() -> None:
    graph = _rules_graph()
    assert len(graph) > 20 and "rules.rulebook" in graph["rules.legal"]
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"import circle in rules/: {' -> '.join(error.args[1])}")
    assert order.index("rules.state") < order.index("rules.rulebook") < order.index(
        "rules.legal") < order.index("rules.game")


def test_a_function_level_import_in_the_rules_room_is_none() -> None:
    """Imports are at the top of each module: a circle cannot hide in a function."""
    late = []
    for path in (ROOT / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                            "rules"):
                        late.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert late == []


def test_no_other_room_imports_a_private_name_of_the_engine() -> None:
    """Nor of another room: what a room needs of another has a public name there."""
    private = []
    for room in (*ROOMS, "rules"):
        for path in (ROOT / room).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[
                        0] in (*ROOMS, "rules") and not (node.module or "").startswith(room):
                    private += [f"{path.relative_to(ROOT)}:{node.lineno}: {a.name}"
                                for a in node.names if a.name.startswith("_")]
                elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                        not node.attr.startswith("__") and isinstance(node.value, ast.Name) \
                        and node.value.id in ("legal", "rulebook", "movement", "attacks",
                                              "activation", "activity", "window_rules"):
                    private.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.attr}")
    assert private == []
