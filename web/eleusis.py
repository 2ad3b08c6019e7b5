"""New Eleusis laid out as its table is, from `state.view(seat)` only (so nothing hidden reaches
the page): the mainline in order with each rejected card (a sideline) below the card it failed
after, No Play displays, the viewer's hand as cards to pick, and the moves that are not card
plays (judging, reviewing, No Play) as buttons."""
from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

SUITS = {"S": ("♠", "black", gettext_noop("spades")), "H": ("♥", "red", gettext_noop("hearts")),
         "D": ("♦", "red", gettext_noop("diamonds")), "C": ("♣", "black", gettext_noop("clubs"))}
RANKS = {"A": gettext_noop("ace"), "J": gettext_noop("jack"), "Q": gettext_noop("queen"), "K": gettext_noop("king")}


def card(text: str) -> dict:
    """'10H' → its rank, suit symbol, colour and a spoken name (in the page's language)."""
    rank, suit = text[:-1], text[-1]
    symbol, colour, suit_name = SUITS[suit]
    return {"text": text, "rank": rank, "symbol": symbol, "colour": colour,
            "name": gettext("%(rank)s of %(suit)s") % {"rank": gettext(RANKS[rank]) if rank in RANKS else rank,
                                                        "suit": gettext(suit_name)}}


def _seat_name(seat, names: dict[int, str]) -> str:
    return names.get(seat, "") if seat is not None else ""


def table(view: dict, names: dict[int, str]) -> dict:
    below: dict[int, list[dict]] = {}
    for group in view["sidelines"]:
        below.setdefault(group["after"], []).append(
            {"by": _seat_name(group["seat"], names), "cards": [card(c) for c in group["cards"]]})
    noplays: dict[int, list[dict]] = {}
    for group in view["noplays"]:
        noplays.setdefault(group["after"], []).append(
            {"by": _seat_name(group["seat"], names), "cards": [card(c) for c in group["cards"]]})
    marker = view.get("marker")
    columns = [{"index": i, "card": card(entry["card"]), "starter": entry["starter"],
                "god_placed": entry["god_placed"], "by": _seat_name(entry["seat"], names),
                "marker": marker == {"line": "mainline", "index": i},
                "sidelines": below.get(i, []), "noplays": noplays.get(i, [])}
               for i, entry in enumerate(view["mainline"])]
    legal = view.get("legal_moves") or []
    hand = view.get("hand")
    return {
        "columns": columns,
        "hand": [card(c) for c in hand] if hand is not None else None,
        "hand_set_aside": view.get("hand_set_aside", False),
        "hand_sizes": [{"name": names.get(s, str(s)), "cards": n, "god": view["god"] == s,
                        "prophet": view["prophet"] == s} for s, n in enumerate(view["hand_sizes"])],
        "round": view["round"], "rounds": view["rounds"], "phase": view["phase"],
        "played": view["played"], "stock": view["stock_size"],
        "sudden_death": view["sudden_death"],
        "rule": view.get("rule"), "god_machine": view["god"] == "machine",
        "can_play": any(m.startswith("play ") for m in legal),
        "can_declare": any("; prophet" in m for m in legal),
        "can_declare_if_right": any(m.endswith("; prophet if right") for m in legal),
        "actions": [m for m in legal if not m.startswith("play ")],
        "pending": view.get("pending"),
    }


def compose_play(cards: list[str], declare: str) -> str:
    """The notation of playing `cards` (one, or a string of 2-4) with an optional declaration."""
    move = "play " + " ".join(cards)
    return f"{move}; {declare}" if declare in ("prophet", "prophet if right") else move
