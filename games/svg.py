"""Small SVG drawing helpers shared by the board games' `render_svg`."""
from __future__ import annotations

from html import escape
from typing import Callable, Mapping, NamedTuple

from .glyphs import GLYPH_EM, GLYPH_PATHS


class Disc(NamedTuple):
    """A round piece: fill colour, outline colour, optional short label drawn on it."""

    fill: str
    stroke: str = "#222"
    label: str = ""
    label_fill: str = "#000"


def document(width: float, height: float, body: list[str], title: str = "") -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">')
    title_el = [f"<title>{escape(title)}</title>"] if title else []
    return "\n".join([head, *title_el, *body, "</svg>"])


def disc(cx: float, cy: float, r: float, piece: Disc) -> list[str]:
    out = [f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{piece.fill}" stroke="{piece.stroke}"/>']
    if piece.label in GLYPH_PATHS:
        # Drawn as an outline, so that the label needs no font on the viewer's machine.
        out.append(f'<path d="{GLYPH_PATHS[piece.label]}" fill="{piece.label_fill}" '
                   f'transform="translate({cx:g} {cy:g}) scale({r * 1.15 / GLYPH_EM:.5f})">'
                   f'<title>{escape(piece.label)}</title></path>')
    elif piece.label:
        out.append(f'<text x="{cx:g}" y="{cy + r * 0.35:g}" font-size="{r:g}" text-anchor="middle" '
                   f'font-family="sans-serif" fill="{piece.label_fill}">{escape(piece.label)}</text>')
    return out


def square_board(files: int, ranks: int, pieces: Mapping[tuple[int, int], Disc], *,
                 cell: int = 36, file_names: str = "abcdefghijklmnopqrstuvwxyz",
                 shade: Callable[[int, int], str | None] | None = None,
                 points: bool = False, title: str = "") -> str:
    """A files × ranks board, rank 1 at the bottom, with coordinates round the edge.

    `points=True` draws a lattice (pieces on intersections, as on a Go board) instead of squares.
    `shade(x, y)` may return a fill colour for a square. Each square or point ends up under a
    transparent `data-cell="a1"` target, drawn last, so a page can find and mark it.
    """
    margin = cell
    width, height = files * cell + 2 * margin, ranks * cell + 2 * margin
    body = [f'<rect width="{width}" height="{height}" fill="#f4e7c5"/>']

    def centre(x: int, y: int) -> tuple[float, float]:
        return margin + (x + 0.5) * cell, margin + (ranks - 1 - y + 0.5) * cell

    for x in range(files):
        for y in range(ranks):
            cx, cy = centre(x, y)
            if points:
                continue
            fill = (shade(x, y) if shade else None) or "#e9d6a6"
            body.append(f'<rect x="{cx - cell / 2:g}" y="{cy - cell / 2:g}" width="{cell}" '
                        f'height="{cell}" fill="{fill}" stroke="#7a6a48"/>')
    if points:
        for x in range(files):
            (x0, y0), (_, y1) = centre(x, ranks - 1), centre(x, 0)
            body.append(f'<line x1="{x0:g}" y1="{y0:g}" x2="{x0:g}" y2="{y1:g}" stroke="#7a6a48"/>')
        for y in range(ranks):
            (x0, y0), (x1, _) = centre(0, y), centre(files - 1, y)
            body.append(f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y0:g}" stroke="#7a6a48"/>')
    for x in range(files):
        cx, _ = centre(x, 0)
        body.append(f'<text x="{cx:g}" y="{height - margin / 3:g}" font-size="{cell / 2:g}" '
                    f'text-anchor="middle" font-family="sans-serif">{file_names[x]}</text>')
    for y in range(ranks):
        _, cy = centre(0, y)
        body.append(f'<text x="{margin / 2:g}" y="{cy + cell / 8:g}" font-size="{cell / 2:g}" '
                    f'text-anchor="middle" font-family="sans-serif">{y + 1}</text>')
    for (x, y), piece in sorted(pieces.items()):
        cx, cy = centre(x, y)
        body.extend(disc(cx, cy, cell * 0.4, piece))
    for x in range(files):
        for y in range(ranks):
            cx, cy = centre(x, y)
            body.append(cell_target(f"{file_names[x]}{y + 1}", cx - cell / 2, cy - cell / 2, cell))
    return document(width, height, body, title)


def cell_target(name: str, x: float, y: float, size: float) -> str:
    """An invisible square naming a cell (in the move notation's spelling) for pointing at it."""
    return (f'<rect data-cell="{escape(name)}" x="{x:g}" y="{y:g}" width="{size:g}" '
            f'height="{size:g}" fill="transparent"/>')
