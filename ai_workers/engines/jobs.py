"""Engine work as plain data: an `EngineJob` in, a reply or an analysis out.

A job carries everything a search needs (the game, its options, the position or the record, the
level and the budget), so a worker never reads the database to think and the function that runs
it is pure: it imports only `games` and the engines. The server builds jobs from its rows
(`matches.selectors.engine_jobs`) and writes results back through its services.

    job = EngineJob.from_dict(payload)      # what travels through the broker (JSON)
    reply = run_reply(job)                   # kind "reply": the move for the seat to move
    rows = run_analysis(job)                 # kind "analysis": one row per analysed ply
    lines = run_position(job)                # kind "position": the best `lines` moves, multi-PV
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from random import Random

import games

from .analysis import judge, scale_for
from .base import Limit, outcome_rewards, to_value
from .table import get_analyser, get_engine

log = logging.getLogger(__name__)

REPLY, ANALYSIS, POSITION = "reply", "analysis", "position"
KINDS = (REPLY, ANALYSIS, POSITION)
PV_LENGTH = 8
MAX_LINES = 5


@dataclass(frozen=True)
class EngineJob:
    """One unit of engine work.

    `state` is the position's `to_dict()` snapshot (replies, positions); `moves` is the notation
    record from the start (analyses, with `seed` to rebuild hidden deals). `rng_seed` makes the
    search reproducible without revealing the match seed; `seconds` is the budget per search. For
    an analysis of a hidden-information game `seat` limits it to that seat's own turns, searched
    from its own view. `lines` is how many best moves a position's search reports (multi-PV);
    an analysis reports that many alternatives where a move was an inaccuracy or worse."""

    kind: str
    game: str
    options: dict
    players: int
    level: str
    ply: int
    seconds: float
    rng_seed: int
    match_id: int | None = None
    job_id: int | None = None
    state: dict | None = None
    moves: tuple[str, ...] = ()
    seed: int | None = None
    seat: int | None = None
    lines: int = 1
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"an engine job is one of {KINDS}, not {self.kind!r}")
        if self.kind in (REPLY, POSITION) and self.state is None:
            raise ValueError(f"a {self.kind} job carries the position (state)")
        if isinstance(self.lines, bool) or not isinstance(self.lines, int) or not 1 <= self.lines <= MAX_LINES:
            raise ValueError(f"an engine job reports 1 to {MAX_LINES} lines, not {self.lines!r}")
        if self.kind == ANALYSIS and self.seed is None:
            raise ValueError("an analysis job carries the seed to replay its record")

    def to_dict(self) -> dict:
        data = asdict(self)
        data["moves"] = list(self.moves)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "EngineJob":
        return cls(**{**data, "moves": tuple(data.get("moves", ()))})


@dataclass(frozen=True)
class Reply:
    """An engine's move for the job's position (notation), its value for the mover, and the work."""

    move: str
    value: float
    nodes: int
    seconds: float
    fallback: bool = False


def _rng(job: EngineJob, ply: int) -> Random:
    return games.seeded_rng(job.rng_seed, "engine", ply)


def run_reply(job: EngineJob) -> Reply:
    """The level's move within the budget; should the engine fail, a random legal move keeps the
    match going (a stalled correspondence game is worse than a weak reply)."""
    rules = games.get_game(job.game)
    state = rules.state_from_dict(job.state)
    engine = get_engine(job.game, job.level)
    try:
        found = engine.search(state, limit=Limit(seconds=job.seconds), rng=_rng(job, job.ply))
        fallback = False
    except Exception:
        log.exception("engine %s failed on %s at ply %s; playing a random move", job.level, job.game, job.ply)
        found = get_engine(job.game, "random").search(state, rng=_rng(job, job.ply))
        fallback = True
    return Reply(str(found.move), _clean(found.value), found.nodes, found.seconds, fallback)


def run_position(job: EngineJob) -> dict:
    """The best `job.lines` moves of the position (multi-PV, analysis: the level's search without
    its deliberate errors): the position's value for the seat to move, and per line the move, its
    value for that seat and its principal line (at most PV_LENGTH moves), best first."""
    rules = games.get_game(job.game)
    state = rules.state_from_dict(job.state)
    if state.is_terminal:
        raise games.GameOverError("the game is over in this position; there is no move to search for")
    found = get_analyser(job.game, job.level).search_lines(
        state, job.lines, limit=Limit(seconds=job.seconds), rng=_rng(job, state.ply))
    return {"seat": state.current_player, "value": _clean(found.value),
            "lines": [line_payload(line) for line in found.lines],
            "nodes": found.nodes, "depth": found.depth, "seconds": round(found.seconds, 3)}


def line_payload(line) -> dict:
    """One engine line as stored and shown: the move, its value for the mover, the line."""
    return {"move": str(line.move), "value": _clean(line.value),
            "pv": [str(m) for m in line.pv[:PV_LENGTH]]}


def run_analysis(job: EngineJob) -> list[dict]:
    """Search every position of the record (or only `seat`'s turns): per ply the seat that moved,
    the played move, the engine's best move in the position before it, that position's value for
    the seat that moved (`value` = `value_before`, the seat to move there; docs/analysis.md), the
    principal line, and the judgement of analysis.py (value after the move, loss, class,
    accuracy); with `lines` > 1, the best alternatives at each inaccuracy or worse
    (`candidates`)."""
    rules = games.get_game(job.game)
    engine = get_analyser(job.game, job.level)
    state = rules.new_state(players=job.players, seed=job.seed, options=job.options)
    limit = Limit(seconds=job.seconds)
    searched = []                       # (ply, state before, played, state after, result)
    for ply, played in enumerate(job.moves, start=1):
        after = state.play(played)
        if job.seat is None or state.current_player == job.seat:
            searched.append((ply, state, played, after,
                             engine.search(state, limit=limit, rng=_rng(job, ply))))
        state = after
    if job.seat is None and searched and not state.is_terminal:
        # the game ended off the board (resignation, time): the last move needs a value after
        searched.append((None, state, None, None, engine.search(state, limit=limit,
                                                                rng=_rng(job, len(job.moves) + 1))))
    rows = _judged_rows(rules, job, searched)
    if job.seat is None and job.lines > 1:
        _add_candidates(job, engine, rows, {ply: before for ply, before, *_ in searched if ply is not None})
    return rows


FLAGGED = ("inaccuracy", "mistake", "blunder")


def _add_candidates(job: EngineJob, engine, rows: list[dict], positions: dict) -> None:
    """At every inaccuracy, mistake and blunder, the best `job.lines` moves of the position
    before it (multi-PV, one more search of the ply's time), each with its value for the mover
    and its line: what could have been played instead. Never in hidden-information analyses,
    where a line would guess at cards the record never shows."""
    limit = Limit(seconds=job.seconds)
    for row in rows:
        if row.get("classification") in FLAGGED:
            found = engine.search_lines(positions[row["ply"]], job.lines, limit=limit,
                                        rng=_rng(job, row["ply"]))
            row["candidates"] = [line_payload(line) for line in found.lines]


def _judged_rows(rules: games.Game, job: EngineJob, searched: list) -> list[dict]:
    scale = scale_for(job.game)
    rows = []
    for i, (ply, before, played, after, found) in enumerate(searched):
        if ply is None:
            continue
        seat = before.current_player
        value_after = _value_after(seat, after, searched[i + 1] if i + 1 < len(searched) else None)
        best = str(found.move)
        played_text = str(before.parse_move(played))
        rows.append({"ply": ply, "seat": seat, "played": public_notation(rules, played, after),
                     "best": best, "value": _clean(found.value),
                     "value_before": _clean(found.value),
                     "value_after": None if value_after is None else _clean(value_after),
                     **judge(scale, _bounded(found.value), value_after, played_text, best,
                             len(before.legal_moves())),
                     "pv": [str(m) for m in _shown_line(job, found.pv)], "nodes": found.nodes})
    return rows


def _shown_line(job: EngineJob, pv: list) -> list:
    """With hidden information a line past the seat's own move would be a guess at cards the
    record never shows: the line is that move alone."""
    return pv[:PV_LENGTH] if job.seat is None else pv[:1]


def _value_after(seat: int, after: games.State, following) -> float | None:
    """The value of `after` for `seat`: the result when the game is over, else the next
    searched position's value if it is that very position (negated for the one opponent)."""
    if after.is_terminal:
        return to_value(outcome_rewards(after)[seat])
    if following is None or following[1] is not after:
        return None
    mover = after.current_player
    if mover == seat:
        return _bounded(following[4].value)
    return -_bounded(following[4].value) if after.players == 2 else None


def public_notation(rules: games.Game, notation: str, state: games.State) -> str:
    """How a recorded move reads while `state` is shown (games with secrets hide them)."""
    if not rules.has_hidden_information:
        return notation
    return rules.public_notation(state.parse_notation(notation), state)


def _bounded(value: float) -> float:
    """Clamped to [-1, 1]; NaN (no opinion) reads 0.0."""
    return 0.0 if value != value else max(-1.0, min(1.0, float(value)))


def _clean(value: float) -> float:
    """A value as stored and shown (docs/analysis.md): clamped to [-1, 1], three decimals, never
    -0.0 (a level position reads 0.0 whichever side is asked), and 0.0 for an engine without an
    opinion (NaN)."""
    return round(_bounded(value), 3) + 0.0
