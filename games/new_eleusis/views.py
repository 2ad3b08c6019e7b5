"""What each seat may see of New Eleusis (docs/rules/eleusis.md §2.2), and pictures of it.

Everyone sees the layout, hand sizes, the log, finished rounds and the commitment; a scientist
also sees their own hand, God their own rule and its report. A No Play shows the hand to all.
Nothing else of the state (other hands, the stock, a rule before its round ends) goes into a view,
and the diagrams are drawn from the view, so they cannot show more than it.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ..svg import document
from .cards import card_text
from .rounds import GOD_PLACED, SET_UP, STARTER, RoundRecord


def _card_list(kinds) -> list[str]:
    return [card_text(k) for k in kinds]


def _by_view(by: int) -> dict:
    if by == STARTER:
        return {"seat": None, "starter": True, "god_placed": False}
    if by == SET_UP:
        return {"seat": None, "starter": False, "god_placed": False}
    if by <= GOD_PLACED:
        return {"seat": GOD_PLACED - by, "starter": False, "god_placed": True}
    return {"seat": by, "starter": False, "god_placed": False}


def record_view(rec: RoundRecord) -> dict:
    return {"round": rec.round, "god": rec.god if rec.god >= 0 else "machine",
            "rule": rec.rule_move, "lookback": rec.lookback, "nonce": rec.nonce,
            "commitment": rec.commitment, "commitment_ok": rec.commitment_ok,
            "scores": list(rec.scores), "god_score": rec.god_score,
            "final_hands": [_card_list(hand) for hand in rec.final_hands],
            "termination": rec.termination, "prophet": rec.prophet if rec.prophet >= 0 else None}


def _groups(groups) -> list[dict]:
    """Sideline groups or No-Play displays: the mainline index they hang under, seat, cards."""
    return [{"after": i, "seat": s, "cards": _card_list(cards)} for i, s, cards in groups]


def _layout_view(state) -> dict:
    marker = None
    if state.marker:
        marker = {"line": ("mainline", "sideline")[state.marker[0]], "index": state.marker[1]}
    return {
        "mainline": [dict(card=card_text(k), **_by_view(by))
                     for k, by in zip(state.mainline, state.main_by)],
        "sidelines": _groups(state.sidelines),
        "noplays": _groups(state.noplays),
        "marker": marker,
    }


def build_view(state, seat: int | None) -> dict:
    """Public facts for everyone, the own hand, God's own rule, and the legal moves of the seat
    on turn (they depend only on that seat's hand and public facts)."""
    t1, t2 = state.thresholds
    pending = None
    if state.pending:
        p_seat, p_move, p_call = state.pending
        pending = {"seat": p_seat, "move": p_move, "call": p_call or None}
        if p_move == "noplay":
            pending["shown"] = _card_list(state.hands[p_seat])
    view: dict[str, Any] = {
        "round": state.round, "rounds": state.round_count,
        "phase": state.phase, "to_move": state.current_player,
        "turn": state.turn if state.phase != "over" else None,
        "god": state.god if state.god >= 0 else "machine",
        "prophet": state.prophet if state.prophet >= 0 else None,
        "former_prophets": sorted(state.former_prophets), "overthrown": sorted(state.overthrown),
        "expelled": sorted(state.expelled),
        "hand_sizes": [len(h) for h in state.hands],
        "lookback": state.lookback, "starters": state.lookback,
        **_layout_view(state),
        "played": state.played, "at_marker": state.at_marker if state.prophet >= 0 else None,
        "sudden_death": None if state.express else {
            "thresholds": [t1, t2], "active": state.in_sudden_death},
        "stock_size": len(state.stock), "decks": state.decks,
        "commitment": state.commitment or None, "pending": pending,
        "log": [{"round": r, "seat": s, "move": m, "result": res} for r, s, m, res in state.log],
        "rounds_done": [record_view(rec) for rec in state.records],
        "totals": list(state.totals),
        "options": {"god": state.god_mode, "sudden_death": state.sudden, "rounds": state.rounds,
                    "express": state.express},
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }
    if state.phase == "over" and state.records:
        last = record_view(state.records[-1])
        view.update(rule=last["rule"], nonce=last["nonce"], commitment_ok=last["commitment_ok"])
    if seat is not None and 0 <= seat < state.players:
        view["seat"] = seat
        if seat != state.god:
            view["hand"] = _card_list(state.hands[seat])
            view["hand_set_aside"] = seat == state.prophet
        elif state.rule_move and state.phase != "over":
            view["rule"] = state.rule_move
            view["report"] = state.rule.report if state.rule is not None else None
        if seat == state.current_player:
            view["legal_moves"] = state.legal_notations()
    return view


def text_diagram(state, seat: int | None) -> str:
    """The layout as text; each mainline card carries its position (`3:[AH]`, the `n` of the rule
    language), which the sideline lines refer to."""
    v = build_view(state, seat)
    main = []
    for i, card in enumerate(v["mainline"]):
        text = f"{i + 1}:" + (f"({card['card']})" if card["god_placed"] else f"[{card['card']}]")
        if v["marker"] == {"line": "mainline", "index": i}:
            text = "^" + text
        main.append(text)
        if i + 1 == state.lookback:
            main.append("|")
    lines = [f"New Eleusis round {v['round']}/{v['rounds']}, {v['phase']}, to move: "
             f"{v['to_move']}", "mainline " + " ".join(main)]
    for group in v["sidelines"]:
        lines.append(f"  under #{group['after'] + 1}: {' '.join(group['cards'])} "
                     f"(seat {group['seat']})")
    sizes = ", ".join(f"{s}:{n}" for s, n in enumerate(v["hand_sizes"]))
    lines.append(f"hands {sizes}; played {v['played']}; stock {v['stock_size']}")
    if "hand" in v:
        lines.append("your hand: " + " ".join(v["hand"]))
    return "\n".join(lines)


def svg_diagram(state, seat: int | None) -> str:
    v = build_view(state, seat)
    w, h, per_row = 34, 46, 16
    below: dict[int, list[str]] = {}
    for group in v["sidelines"]:
        below.setdefault(group["after"], []).extend(group["cards"])
    depth = max([len(c) for c in below.values()] + [0])
    rows = (len(v["mainline"]) + per_row - 1) // per_row or 1
    row_h = (depth + 1) * (h + 4) + 10
    body = [f'<rect width="{per_row * (w + 4) + 8}" height="{rows * row_h + 60}" fill="#1d5e3a"/>']

    def card(x: float, y: float, text: str, dim: bool = False) -> None:
        colour = "#c00" if text[-1] in "HD" else "#000"
        body.append(f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="4" '
                    f'fill="{"#ddd" if dim else "#fff"}" stroke="#333"/>')
        body.append(f'<text x="{x + w / 2:g}" y="{y + h / 2 + 5:g}" font-size="13" '
                    f'text-anchor="middle" font-family="sans-serif" fill="{colour}">'
                    f'{escape(text)}</text>')

    for i, entry in enumerate(v["mainline"]):
        x, y = 4 + (i % per_row) * (w + 4), 4 + (i // per_row) * row_h
        card(x, y, entry["card"], dim=entry["god_placed"])
        if v["marker"] == {"line": "mainline", "index": i}:
            body.append(f'<circle cx="{x + w - 5:g}" cy="{y + 5:g}" r="4" fill="#e6b800"/>')
        for j, text in enumerate(below.get(i, [])):
            card(x, y + (j + 1) * (h + 4), text, dim=True)
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(v["hand_sizes"]))
    lines = [f"round {v['round']} {v['phase']}, to move {v['to_move']}, played {v['played']}, "
             f"hands {sizes}"]
    if "hand" in v:
        lines.append("hand: " + " ".join(v["hand"]))
    for k, line in enumerate(lines):
        body.append(f'<text x="4" y="{rows * row_h + 20 + 18 * k}" font-size="13" fill="#fff" '
                    f'font-family="sans-serif">{escape(line)}</text>')
    return document(per_row * (w + 4) + 8, rows * row_h + 60, body, "New Eleusis")
