"""The board picture as the match page shows it: a game's `render_svg` with the last move marked
on its cells (a direction drawn as an arrow), the men it captured crossed out, and turned half a
round for a viewer whose side starts at the top. Works on any renderer that names its cells
(`data-cell`), so every game gets the marks in its own notation's terms."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
CELL_TOKEN = re.compile(r"[A-Za-z]\d+")
# A trailing compass direction in a move ("k9N", "j9 W", "h5:2+1/NE @i5" has a cell after it).
DIRECTION = re.compile(r"(?<![A-Za-z])(NE|NW|SE|SW|N|E|S|W)$")
STEPS = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
MARK = "#e07b00"


def _tag(name: str) -> str:
    return f"{{{SVG_NS}}}{name}"


def _cells(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("data-cell"): el for el in root.iter() if el.get("data-cell")}


def _box(el: ET.Element) -> tuple[float, float, float]:
    """Centre and size of a cell target (a rect, or a polygon on hex boards)."""
    if el.tag == _tag("polygon"):
        xs, ys = zip(*((float(a), float(b)) for a, b in (p.split(",") for p in el.get("points").split())))
        return sum(xs) / len(xs), sum(ys) / len(ys), (max(xs) - min(xs)) * 0.8
    size = float(el.get("width", 0))
    return float(el.get("x", 0)) + size / 2, float(el.get("y", 0)) + float(el.get("height", size)) / 2, size


def move_cells(notation: str, names) -> list[str]:
    return [t for t in CELL_TOKEN.findall(notation or "") if t in names]


def _add_class(el: ET.Element, name: str) -> None:
    el.set("class", " ".join(filter(None, [el.get("class"), name])))


def _arrow(x: float, y: float, size: float, letters: str) -> ET.Element:
    dx = sum(STEPS[c][0] for c in letters)
    dy = sum(STEPS[c][1] for c in letters)
    norm = (dx * dx + dy * dy) ** 0.5 or 1
    ux, uy = dx / norm, dy / norm
    tip_x, tip_y = x + ux * size * 0.95, y + uy * size * 0.95
    head = size * 0.25
    left = (tip_x - ux * head - uy * head * 0.6, tip_y - uy * head + ux * head * 0.6)
    right = (tip_x - ux * head + uy * head * 0.6, tip_y - uy * head - ux * head * 0.6)
    d = (f"M{x + ux * size * 0.3:.1f},{y + uy * size * 0.3:.1f} L{tip_x:.1f},{tip_y:.1f} "
         f"M{left[0]:.1f},{left[1]:.1f} L{tip_x:.1f},{tip_y:.1f} L{right[0]:.1f},{right[1]:.1f}")
    return ET.Element(_tag("path"), {"d": d, "class": "last-arrow", "stroke": MARK, "stroke-width": f"{size * 0.1:.1f}",
                                     "fill": "none", "stroke-linecap": "round", "pointer-events": "none"})


def _cross(x: float, y: float, size: float) -> ET.Element:
    r = size * 0.22
    d = f"M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} L{x + r:.1f},{y - r:.1f}"
    return ET.Element(_tag("path"), {"d": d, "class": "captured-mark", "stroke": "#c0392b",
                                     "stroke-width": f"{size * 0.1:.1f}", "stroke-linecap": "round",
                                     "pointer-events": "none"})


def _turn(root: ET.Element) -> None:
    """Rotate the drawing half a turn about its centre, each text about its own middle so that
    labels stay upright."""
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    group = ET.Element(_tag("g"), {"transform": f"rotate(180 {width / 2:g} {height / 2:g})", "class": "turned"})
    for child in list(root):
        if child.tag == _tag("title"):
            continue
        root.remove(child)
        group.append(child)
    root.append(group)
    for text in group.iter(_tag("text")):
        size = float(text.get("font-size", 12))
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        if text.get("text-anchor") != "middle":
            x += len(text.text or "") * size * 0.3
        text.set("transform", f"rotate(180 {x:.1f} {y - size * 0.35:.1f})")


def marked_board(svg_text: str, *, last_move: str | None = None, captured=(), turned: bool = False,
                 moved_to: str | None = None) -> str:
    """`svg_text` with the last move and captures marked, turned if asked. `moved_to` names the
    cell a piece reached when the move itself names none (a bare direction)."""
    root = ET.fromstring(svg_text)
    cells = _cells(root)
    overlay = []
    path = move_cells(last_move, cells) or ([moved_to] if moved_to in cells else [])
    for name in path:
        _add_class(cells[name], "last-move")
    direction = DIRECTION.search((last_move or "").strip())
    tokens = CELL_TOKEN.findall(last_move or "")
    if path and direction and tokens and path[-1] == tokens[-1]:
        overlay.append(_arrow(*_box(cells[path[-1]]), direction.group(1)))
    for name in captured:
        if name in cells:
            overlay.append(_cross(*_box(cells[name])))
    # Marks go before the first cell target: drawn over the pieces, under the click targets.
    first_target = next((el for el in root if el.get("data-cell")), None)
    at = list(root).index(first_target) if first_target is not None else len(root)
    for offset, el in enumerate(overlay):
        root.insert(at + offset, el)
    if turned:
        _turn(root)
    return ET.tostring(root, encoding="unicode")
