"""The evaluation chart of an analysis: an SVG line over the plies (no plotting library)."""
from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 14, 30
SEAT_COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b7950b")


def _series(results: list[dict], seats: int) -> dict[int, list[tuple[int, float, dict]]]:
    """Points per seat. Two seats: one line, every value turned to seat 0's side (the usual
    chart, up is good for seat 0); otherwise each seat's own values (a zero-sum flip would
    be wrong with three or more players)."""
    series: dict[int, list[tuple[int, float, dict]]] = {}
    for row in sorted(results, key=lambda r: r["ply"]):
        value = max(-1.0, min(1.0, float(row["value"])))
        if seats == 2:
            series.setdefault(0, []).append((row["ply"], value if row["seat"] == 0 else -value, row))
        else:
            series.setdefault(row["seat"], []).append((row["ply"], value, row))
    return series


def evaluation_chart(results: list[dict], names: dict[int, str]) -> str:
    """`results` are an analysis's rows ({ply, seat, played, best, value}); `names` seat → name."""
    if not results:
        return ""
    last = max(r["ply"] for r in results)
    first = min(r["ply"] for r in results)
    span = max(1, last - first)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(ply: int) -> float:
        return LEFT + (ply - first) / span * plot_w

    def y(value: float) -> float:
        return TOP + (1 - value) / 2 * plot_h

    series = _series(results, len(names))
    if len(names) == 2:
        title = f"Evaluation by ply: up is good for {names[0]}, down for {names[1]}"
    else:
        title = "Evaluation by ply: each player's own chances, from -1 (loss) to +1 (win)"
    body = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fbf8f0" stroke="#bbb"/>']
    for value, label in ((1, "+1"), (0, "0"), (-1, "−1")):
        body.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                    f'stroke="{"#888" if value == 0 else "#ddd"}"/>')
        body.append(f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11">{label}</text>')
    for ply in sorted({first, last, *range(first, last + 1, max(1, span // 8))}):
        body.append(f'<text x="{x(ply):.1f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="11">{ply}</text>')
    for seat, points in sorted(series.items()):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        path = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v, _ in points)
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for ply, value, row in points:
            tip = f"ply {ply} ({names.get(row['seat'], row['seat'])}): {row['played']}, engine: {row['best']}, {value:+.2f}"
            body.append(f'<circle cx="{x(ply):.1f}" cy="{y(value):.1f}" r="3" fill="{colour}">'
                        f'<title>{escape(tip)}</title></circle>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-labelledby="chart-title" class="chart"><title id="chart-title">{escape(title)}</title>'
            + "".join(body) + "</svg>")
