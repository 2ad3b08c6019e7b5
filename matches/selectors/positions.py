"""Analysis-board reads: a requested line replayed and validated by the rules, the keys that
name its positions, the live-game rule, and the payload of a position's lines.

Two keys name a position. `state_key` hashes the game and the full state (`to_dict()`): equal
keys are the same position for the engine (history and counters included), so it keys the
cache. `position_key` hashes the game and the state without its bookkeeping (`BOOKKEEPING`: the
move count, the history kept for repetition rules, the last move, the quiet-move counter): two
positions with the same men on the same points, the same seat to move and the same options have
the same `position_key` however they were reached, so it is what the live-game rule compares."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

import games
from matches.errors import ServiceError, first_or_error
from matches.models import Match, MatchSeat, PositionAnalysis

from .engine_jobs import reply_budget

BOOKKEEPING = frozenset({"ply", "history", "last", "last_move", "last_captured", "quiet", "log"})


def _digest(game: str, data: dict) -> str:
    text = json.dumps([game, data], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def state_key(game: str, state: games.State) -> str:
    return _digest(game, state.to_dict())


def position_key(game: str, state: games.State) -> str:
    return _digest(game, {k: v for k, v in state.to_dict().items() if k not in BOOKKEEPING})


@dataclass(frozen=True)
class Line:
    """A requested line, replayed: the game, its options and seats, every position on it (the
    line's start, then one per move) and the position the engine is asked about (the last)."""

    game: str
    options: dict
    players: int
    states: list

    @property
    def final(self) -> games.State:
        return self.states[-1]


def replay_line(*, moves: list[str], match: Match | None = None, ply: int | None = None,
                game: str | None = None, options: dict | None = None, variant: str | None = None,
                players: int | None = None) -> Line:
    """The line from the match at `ply` (default: its end) or from the game's start with
    `options`, then `moves`, each checked by the rules (a GameError names the first bad one)."""
    limit = settings.BOARD_MAX_MOVES
    if len(moves) > limit:
        raise ServiceError("too_many_board_moves", f"a line takes at most {limit} moves",
                           detail={"limit": limit})
    if match is not None:
        rules = games.get_game(match.game)
        _open_game(rules)
        if match.status == Match.Status.ACTIVE:
            raise ServiceError("match_in_progress", "the board opens a match once it is over "
                                                    "(no engine help mid-game)")
        ply = match.ply if ply is None else ply
        if not 0 <= ply <= match.ply:
            raise ServiceError("invalid_ply", format_lazy(gettext_lazy("the ply is between 0 and {last}"),
                                                          last=match.ply),
                               detail={"max_ply": match.ply})
        state = rules.new_state(players=match.players, seed=match.seed, options=match.options)
        recorded = match.moves.filter(ply__lte=ply).order_by("ply").values_list("notation", flat=True)
        for notation in recorded:
            state = state.apply(state.parse_notation(notation))
        slug, options, players = match.game, match.options, match.players
    else:
        rules = games.get_game(game)
        _open_game(rules)
        state = rules.new_state(players=players, seed=0, options=options, variant=variant)
        slug, options, players = rules.slug, rules.normalize_options(options, variant), state.players
    states = [state]
    for i, move in enumerate(moves, start=1):
        try:
            state = state.play(move)
        except games.GameError as exc:
            raise type(exc)(f"move {i} of the line ({move}): {exc}") from exc
        states.append(state)
    return Line(slug, options, players, states)


def check_searchable(line: Line) -> None:
    """A finished game has no move to search for."""
    if line.final.is_terminal:
        raise games.GameOverError("the game is over at the end of the line; there is nothing to search")


def _open_game(rules: games.Game) -> None:
    if rules.has_hidden_information:
        raise ServiceError("board_unavailable", f"{rules.slug} has hidden information: a position "
                                                "would show what its seats hold")


def level_budget(game: str, level: str) -> float:
    """The most a board search at `level` may think, in seconds: the level's reply budget (as
    served), or the analysis time per ply for levels limited by nodes only."""
    return reply_budget(game, level) or settings.ANALYSIS_SECONDS_PER_PLY


def live_match_on_line(user, line: Line) -> int | None:
    """The id of an unfinished match `user` sits in whose current position is one of the line's
    positions (by `position_key`), else None. Nobody sits in a match anonymously."""
    if user is None or not user.is_authenticated:
        return None
    keys = {position_key(line.game, s) for s in line.states}
    return _live_match_with(user, line.game, keys)


def live_match_at(user, position: PositionAnalysis) -> int | None:
    """As `live_match_on_line`, for a stored position's lines (read by id)."""
    if user is None or not user.is_authenticated:
        return None
    return _live_match_with(user, position.game, {position.position_key})


def _live_match_with(user, game: str, keys: set[str]) -> int | None:
    rules = games.get_game(game)
    live = (Match.objects.filter(status=Match.Status.ACTIVE, game=game,
                                 seats__in=MatchSeat.objects.filter(user=user))
            .order_by("id").values_list("id", "state"))
    for match_id, snapshot in live:
        try:
            state = rules.state_from_dict(snapshot)
        except games.GameError:
            continue
        if position_key(game, state) in keys:
            return match_id
    return None


def refuse_live(match_id: int | None) -> None:
    if match_id is not None:
        raise ServiceError("live_game_position", "this line reaches the position of a match you are "
                                                 "playing: no engine help in a live game",
                           detail={"match": match_id})


def cached(key: str, level: str, lines: int, seconds: float) -> PositionAnalysis | None:
    """A position's lines already done, or under way, at this level and line count with at least
    this much thinking time (done ones first)."""
    rows = (PositionAnalysis.objects.filter(state_key=key, level=level, lines=lines, seconds__gte=seconds)
            .exclude(status=PositionAnalysis.Status.FAILED))
    return (rows.filter(status=PositionAnalysis.Status.DONE).order_by("-id").first()
            or rows.order_by("-id").first())


def pending_for(user) -> int:
    return PositionAnalysis.objects.filter(
        askers=user, status__in=(PositionAnalysis.Status.QUEUED, PositionAnalysis.Status.RUNNING)).count()


def position_for(position_id: int, user) -> PositionAnalysis:
    """The stored lines, unless the position is that of a match `user` is playing."""
    position = first_or_error(PositionAnalysis.objects.filter(pk=position_id), "position_not_found",
                              f"no position analysis {position_id}")
    refuse_live(live_match_at(user, position))
    return position


def position_payload(position: PositionAnalysis) -> dict:
    result = position.result or {}
    rules = games.get_game(position.game)
    return {"id": position.pk, "game": position.game, "options": rules.public_options(position.options),
            "players": position.players, "ply": position.ply, "seat": position.to_move,
            "level": position.level, "lines_asked": position.lines, "seconds": position.seconds,
            "status": position.status, "value": result.get("value"), "lines": result.get("lines", []),
            "nodes": result.get("nodes"), "depth": result.get("depth"),
            "error": position.error or None, "created_at": position.created_at,
            "finished_at": position.finished_at}
