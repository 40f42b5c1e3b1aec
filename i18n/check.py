"""The catalog check (`python -m i18n check`, and a test in `make test`).

It fails when a code is missing from a language, when a text is empty, when the French and
English texts of a code have different placeholders, when the code or the page uses a
code the catalogs lack, and when the source hands a person English it wrote itself (an
error of the project, `_fail` or `note` given a string: `plain_text`).

Codes are read off the source: Python's `Message("code", ...)` and `render_text("code",
...)` with Babel's extractor; the page's `t("code")` calls and its `data-i18n` /
`data-i18n-label` attributes with patterns; a key the page builds at run time
(`` t(`side.${side}`) ``) must at least have one code under its fixed prefix.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract_from_dir

from i18n.catalogs import LANGS, LOCALE, po_files, read_file

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("geometry", "rules", "ai", "scenarios", "vision", "service", "i18n")
KEYWORDS = {"Message": None, "render_text": None}
# the command line's help texts: `t("help.band.check")` (service/cli/helptext.py)
_HELP_KEYWORDS = {"t": None}
_JS_KEY = re.compile(r"""\bt\(\s*["']([\w.-]+)["']""")
_JS_PREFIX = re.compile(r"\bt\(\s*`([\w.-]*)\$\{")
_HTML_KEY = re.compile(r"""data-i18n(?:-label)?=["']([\w.-]+)["']""")
_FIELD = re.compile(r"\{(\w+)(?::\w+)?\}")


@dataclass(frozen=True)
class Use:
    code: str
    where: str  # file:line
    prefix: bool = False  # only the fixed start of a key built at run time


def python_uses(root: Path = ROOT) -> Iterator[Use]:
    for package in PACKAGES:
        folder = root / package
        if not folder.is_dir():
            continue
        # Babel tells stderr of every f-string among a call's arguments; here those are
        # parameters (`{"where": f"{path}.x"}`), never the code, which the check needs literal
        for keywords, start in ((KEYWORDS, ""), (_HELP_KEYWORDS, "help.")):
            with contextlib.redirect_stderr(io.StringIO()):
                found = list(extract_from_dir(str(folder), method_map=[("**.py", "python")],
                                              keywords=keywords))
            for name, line, message, _comments, _context in found:
                if isinstance(message, str) and message and message.startswith(start):
                    yield Use(message, f"{package}/{name}:{line}")


# calls whose first argument a person reads: the project's errors (every class named
# ...Error that derives from SurviveUsError: read off the source, see _error_classes), the
# modules' `_fail(...)` shorthands for them (the action rules' `refuse(...)`), and a game's
# `note(...)`
_SPOKEN = {"_fail", "refuse", "note"}
# errors in the shipped rules data files (rules/data/*.toml): read by whoever edits those
# files, with the file, the entry and the field, in English like the files' own comments
# and keys; a player never meets one (the service does not start with a bad file)
_FOR_DATA_EDITORS = {"DataError"}


def _is_text(node: ast.expr) -> bool:
    """Words written in the source: a string, an f-string, or a sum of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BinOp) and (_is_text(node.left) or _is_text(node.right))


def _error_classes(trees: list[ast.Module]) -> set[str]:
    """The names of the classes that derive, in the source, from SurviveUsError."""
    bases: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                    if isinstance(b, ast.Name | ast.Attribute))
    found = {"SurviveUsError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def plain_text(root: Path = ROOT) -> Iterator[str]:
    """Each place that gives a person words written in English in the source, not a
    message: `raise SomeError(f"...")`, `_fail("...")`, `game.note("...")`."""
    files = [p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))]
    trees = [ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in files]
    errors = _error_classes(trees)
    for path, tree in zip(files, trees, strict=True):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args or not _is_text(node.args[0]):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            if (name in errors and name not in _FOR_DATA_EDITORS) or name in _SPOKEN:
                yield f"{path.relative_to(root)}:{node.lineno}: {name}(...) is given " \
                    "English text, not a message"


def page_uses(root: Path = ROOT) -> Iterator[Use]:
    web = root / "web"
    for path in sorted(web.rglob("*.js")) + sorted(web.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root)
        patterns = ((_JS_KEY, False), (_JS_PREFIX, True)) if path.suffix == ".js" \
            else ((_HTML_KEY, False),)
        for pattern, prefix in patterns:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                yield Use(match.group(1), f"{where}:{line}", prefix)


def raw_catalog(lang: str, locale: Path = LOCALE) -> dict[str, str]:
    """Every entry of the language's files, translated or not."""
    texts: dict[str, str] = {}
    for path in po_files(lang, locale):
        texts.update(read_file(path, lang))
    return texts


def _file_problems(locale: Path) -> list[str]:
    """The same files in every language; a code in one file of a language only."""
    found = []
    names = {lang: [p.name for p in po_files(lang, locale)] for lang in LANGS}
    for lang in LANGS:
        for other in LANGS:
            for name in sorted(set(names[other]) - set(names[lang])):
                found.append(f"{lang}: no file {name} (there is one in {other})")
        seen: dict[str, str] = {}
        for path in po_files(lang, locale):
            for code in read_file(path, lang):
                if code in seen:
                    found.append(f"{code}: in both {seen[code]} and {path.name} ({lang})")
                seen[code] = path.name
    return found


def problems(root: Path = ROOT, locale: Path = LOCALE) -> list[str]:
    """What is wrong, one line each; empty when the catalogs are complete."""
    found = _file_problems(locale)
    texts = {lang: raw_catalog(lang, locale) for lang in LANGS}
    codes = set().union(*texts.values())
    for code in sorted(codes):
        for lang in LANGS:
            if not texts[lang].get(code, "").strip():
                found.append(f"{code}: no {lang} text")
        fields = {lang: sorted(set(_FIELD.findall(texts[lang].get(code, "")))) for lang in LANGS}
        if all(texts[lang].get(code) for lang in LANGS) and len(
                {tuple(f) for f in fields.values()}) > 1:
            found.append(f"{code}: the placeholders differ between languages: " + "; ".join(
                f"{lang} {fields[lang]}" for lang in LANGS))
    for use in [*python_uses(root), *page_uses(root)]:
        if use.prefix:
            if not any(code.startswith(use.code) for code in codes):
                found.append(f"{use.where}: no code starts with {use.code!r}")
        elif use.code not in codes:
            found.append(f"{use.where}: {use.code!r} is in no catalog")
    found.extend(plain_text(root))
    return found


def unused(root: Path = ROOT) -> list[str]:
    """Codes no literal use names (they may still be built at run time)."""
    uses = [*python_uses(root), *page_uses(root)]
    named = {u.code for u in uses if not u.prefix}
    prefixes = tuple(u.code for u in uses if u.prefix)
    return sorted(c for c in raw_catalog("en") if c not in named and not c.startswith(prefixes))
