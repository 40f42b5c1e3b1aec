"""Draw the page's icons in web/icons/: `python tools/make_icons.py` (run from anywhere).

The drawing is the SVG below (a survivor's base and a zombie's, a tape measured edge to edge
between them, in the page's colours from css/style.css). It is written as icon.svg (purpose
"any": rounded corners) and icon-maskable.svg (full-bleed, the drawing inside the 80 % safe
circle a launcher may crop to), then rendered to PNG by Debian's chromium through Playwright,
so the PNGs are the SVG as a browser draws it: icon-192.png, icon-512.png and
icon-maskable-512.png (the sizes an installable page needs).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "web" / "icons"
CHROMIUM = "/usr/bin/chromium"

INK = "#23262e"  # the top bar
PAPER = "#f3f1ec"  # --bg
SURVIVORS = "#1f5fbf"
ZOMBIES = "#b3261e"
TAPE = "#e2b33c"


def tape() -> str:
    """A yellow tape along the diagonal, ticked every 16 units, a long tick every 4."""
    ticks = []
    for i, x in enumerate(range(176, 337, 16)):
        length = 18 if i % 4 == 0 else 10
        ticks.append(f'<line x1="{x}" y1="{239}" x2="{x}" y2="{239 + length}"/>')
    return (f'<g transform="rotate(-45 256 256)">'
            f'<rect x="166" y="237" width="180" height="38" rx="4" fill="{TAPE}"/>'
            f'<g stroke="{INK}" stroke-width="4">{"".join(ticks)}</g></g>')


def base(cx: int, cy: int, colour: str) -> str:
    """A round base seen from above, the miniature's shape on it."""
    return (f'<circle cx="{cx}" cy="{cy}" r="70" fill="{colour}" stroke="{PAPER}" '
            f'stroke-width="14"/>'
            f'<circle cx="{cx}" cy="{cy - 14}" r="20" fill="{PAPER}" opacity="0.9"/>'
            f'<path d="M{cx - 32} {cy + 34} Q{cx} {cy - 4} {cx + 32} {cy + 34} Z" '
            f'fill="{PAPER}" opacity="0.9"/>')


def drawing() -> str:
    return tape() + base(150, 362, SURVIVORS) + base(362, 150, ZOMBIES)


def svg(maskable: bool) -> str:
    if maskable:  # full bleed; the drawing scaled into the safe zone (a circle of 80 %)
        body = (f'<rect width="512" height="512" fill="{INK}"/>'
                f'<g transform="translate(256 256) scale(0.78) translate(-256 -256)">'
                f"{drawing()}</g>")
    else:
        body = f'<rect width="512" height="512" rx="96" fill="{INK}"/>{drawing()}'
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" '
            f'width="512" height="512">{body}</svg>\n')


def main() -> None:
    from playwright.sync_api import sync_playwright

    sources = {"icon": svg(False), "icon-maskable": svg(True)}
    for name, text in sources.items():
        (HERE / f"{name}.svg").write_text(text, encoding="utf-8")
    wanted = [("icon", 192), ("icon", 512), ("icon-maskable", 512)]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, size in wanted:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = sources[name].replace('width="512" height="512"',
                                          f'width="{size}" height="{size}"', 1)
            page.set_content(f'<html><body style="margin:0;background:transparent">{sized}'
                             "</body></html>")
            page.locator("svg").screenshot(path=str(HERE / f"{name}-{size}.png"),
                                           omit_background=True)
            page.close()
        browser.close()
    print("wrote", ", ".join(sorted(p.name for p in HERE.glob("icon*"))))


if __name__ == "__main__":
    main()
