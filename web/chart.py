"""Charts drawn on the server as SVG (no plotting library): the evaluation of an analysis over
the plies, and a rating's history over the rated games."""
from __future__ import annotations

import math
from html import escape

from django.utils.translation import gettext

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
        title = gettext("Evaluation by ply: up is good for %(first)s, down for %(second)s") % {
            "first": names[0], "second": names[1]}
    else:
        title = gettext("Evaluation by ply: each player's own chances, from -1 (loss) to +1 (win)")
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
            body.append(f'<circle cx="{x(ply):.1f}" cy="{y(value):.1f}" r="3" fill="{colour}" data-ply="{ply}">'
                        f'<title>{escape(tip)}</title></circle>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-labelledby="chart-title" class="chart"><title id="chart-title">{escape(title)}</title>'
            + "".join(body) + "</svg>")


def _nice_step(rough: float) -> float:
    """1, 2 or 5 times a power of ten, at least `rough`."""
    power = 10 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough)


def rating_chart(points: list[dict], *, chart_id: str, title: str, first_number: int = 1,
                 most_circles: int = 120, band_below: float | None = None) -> str:
    """A rating's history (`matches.selectors.players.rating_point`s, oldest first): the rating
    after each rated game, from where it stood before the first, in a band of ± one deviation.
    `first_number` is the number of the first game shown (earlier ones may be left out). With
    `band_below`, the band starts where the deviation first falls under it (a provisional
    rating's band would cover the whole plot)."""
    if not points:
        return ""
    start = first_number - 1
    series = [(start, points[0]["rating_before"], points[0]["deviation_before"], None)]
    series += [(start + i, p["rating_after"], p["deviation_after"], p) for i, p in enumerate(points, start=1)]
    ratings = [r for _, r, _, _ in series]
    pad = max(25.0, (max(ratings) - min(ratings)) * 0.15)
    step = _nice_step((max(ratings) - min(ratings) + 2 * pad) / 4)
    low, high = math.floor((min(ratings) - pad) / step) * step, math.ceil((max(ratings) + pad) / step) * step
    last, plot_w, plot_h = series[-1][0], WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(number: int) -> float:
        return LEFT + (number - start) / max(1, last - start) * plot_w

    def y(rating: float) -> float:           # the deviation band is cut off at the frame
        return TOP + (1 - (min(high, max(low, rating)) - low) / (high - low)) * plot_h

    body = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fbf8f0" stroke="#bbb"/>']
    for tick in range(int(low), int(high) + 1, int(step)):
        body.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        body.append(f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11">{tick}</text>')
    for number in sorted({start, last, *range(start, last + 1, max(1, (last - start) // 8))}):
        body.append(f'<text x="{x(number):.1f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="11">{number}</text>')
    banded = series
    if band_below is not None:
        first = next((i for i, (_, _, d, _) in enumerate(series) if d < band_below), len(series))
        banded = series[first:]
    if banded:
        band = [f"{x(n):.1f},{y(r + d):.1f}" for n, r, d, _ in banded]
        band += [f"{x(n):.1f},{y(r - d):.1f}" for n, r, d, _ in reversed(banded)]
        body.append(f'<polygon points="{" ".join(band)}" class="deviation-band" fill="{SEAT_COLOURS[0]}" '
                    f'fill-opacity="0.12" stroke="none"/>')
    line = " ".join(f"{x(n):.1f},{y(r):.1f}" for n, r, _, _ in series)
    body.append(f'<polyline points="{line}" fill="none" stroke="{SEAT_COLOURS[0]}" stroke-width="2"/>')
    if len(points) <= most_circles:
        for number, rating, deviation, point in series[1:]:
            change = point["rating_after"] - point["rating_before"]
            tip = (f"game {number} (match {point['match']}, {point['date']:%Y-%m-%d}): "
                   f"{rating:.0f} ({change:+.0f}), ± {deviation:.0f}")
            body.append(f'<circle cx="{x(number):.1f}" cy="{y(rating):.1f}" r="3" fill="{SEAT_COLOURS[0]}">'
                        f'<title>{escape(tip)}</title></circle>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-labelledby="{chart_id}" class="chart rating-chart"><title id="{chart_id}">{escape(title)}</title>'
            + "".join(body) + "</svg>")
