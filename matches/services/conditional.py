"""Conditional moves: a player prepares replies ("if they play X I reply Y, then if Z, W ...") in a
two-seat perfect-information match, on the opponent's turn. The lines are checked by the rules
when stored. After the opponent's move a matching line's reply is played in the same transaction
(`play.record_move` asks `reply_to`) and the tree shrinks to what lies below it; a move off the
tree, a takeback or the end of the match clears it."""
from __future__ import annotations

from typing import Sequence

from django.db import transaction

import games
from matches.errors import ServiceError
from matches.models import ConditionalMoves, Match, MatchSeat, Move
from matches.selectors.matches import match_state

from .match_rows import locked_match, require_active, seat_of

MAX_LINES, MAX_LINE_PLIES = 256, 40


def _bad(message: str, line: int, step: int | None = None) -> ServiceError:
    return ServiceError("invalid_conditional", message, detail={"line": line, "step": step})


def _check_match(match: Match, seats: Sequence[MatchSeat], seat: MatchSeat) -> None:
    if games.get_game(match.game).has_hidden_information or len(seats) != 2:
        raise ServiceError("conditional_unavailable",
                           "conditional moves are for two-seat games without hidden information")
    require_active(match)
    if match.to_move == seat.seat:
        raise ServiceError("your_turn", "it is your turn: move, then prepare your replies")


def _add_line(tree: dict, state: games.State, line: list[str], owner: int, index: int) -> None:
    """Check one line move by move and merge it into `tree` (canonical notation)."""
    if not line or len(line) % 2 or len(line) > MAX_LINE_PLIES:
        raise _bad(f"a line pairs their moves with your replies: 2 to {MAX_LINE_PLIES} moves", index)
    node = tree
    for step, text in enumerate(line):
        theirs = step % 2 == 0
        if state.is_terminal:
            raise _bad(f"the game is over before {text!r}", index, step)
        if (state.current_player == owner) == theirs:
            raise _bad(f"{text!r} is not {'their' if theirs else 'your'} move: the turn order differs", index, step)
        try:
            move = state.parse_move(text)
        except games.GameError as exc:
            raise _bad(str(exc), index, step) from None
        state, text = state.apply(move), str(move)
        if theirs:
            node = node.setdefault(text, {"reply": None, "then": {}})
            pending = node
        elif pending["reply"] not in (None, text):
            raise _bad(f"two different replies to the same move ({pending['reply']!r} and {text!r})", index, step)
        else:
            pending["reply"] = text
            node = pending["then"]


@transaction.atomic
def conditional_set(*, match_id: int, user, lines: list[list[str]], ply: int | None = None) -> ConditionalMoves:
    """Replace the caller's tree with these lines (each from the current position)."""
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    _check_match(match, seats, seat)
    if ply is not None and ply != match.ply:
        raise ServiceError("stale_ply", f"the match is at ply {match.ply}, not {ply}", detail={"ply": match.ply})
    if len(lines) > MAX_LINES:
        raise _bad(f"at most {MAX_LINES} lines", MAX_LINES)
    tree: dict = {}
    state = match_state(match)
    for index, line in enumerate(lines):
        _add_line(tree, state, list(line), seat.seat, index)
    row, _ = ConditionalMoves.objects.update_or_create(match=match, seat=seat.seat,
                                                       defaults={"ply": match.ply, "tree": tree})
    return row


@transaction.atomic
def conditional_clear(*, match_id: int, user) -> None:
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    ConditionalMoves.objects.filter(match=match, seat=seat.seat).delete()


def reply_to(match: Match, record: Move, seats: Sequence[MatchSeat] = ()) -> str | None:
    """After `record` (the opponent's move, already applied to `match`), the prepared reply of the
    seat now to move, if one of its lines starts with that move; the tree is pruned to what lies
    below, or cleared when the game has left it. Seats read with the locked match know whether
    they have a tree (`has_conditional`): then a seat without one costs no query."""
    if match.status != Match.Status.ACTIVE or match.to_move is None:
        return None
    seat = seats[match.to_move] if seats else None
    if seat is not None and not getattr(seat, "has_conditional", True):
        return None
    row = ConditionalMoves.objects.select_for_update().filter(match=match, seat=match.to_move).first()
    if row is None:
        return None
    node = row.tree.get(record.notation) if row.ply == record.ply - 1 else None
    if node is None or not node["then"]:
        row.delete()
        if seat is not None:
            seat.has_conditional = False
    else:
        row.ply, row.tree = record.ply + 1, node["then"]
        row.save(update_fields=["ply", "tree", "updated_at"])
    return node["reply"] if node is not None else None


def conditional_drop(match: Match) -> None:
    """The position went back (a takeback) or the match ended: every tree is off the board."""
    ConditionalMoves.objects.filter(match=match).delete()
