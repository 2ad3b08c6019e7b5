"""Small protocol-conforming games for engine tests. Never registered in `games.GAMES`
(tests that go through `get_engine` put them there with monkeypatch for one test only)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games import Game, InvalidMoveError, InvalidStateError, Outcome, State, Termination

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@dataclass(frozen=True)
class TicTacToeState(State):
    """Squares 0..8 row by row from the top left; a move is the square's number as text."""

    board: tuple = (None,) * 9
    ply: int = 0
    players: int = 2
    game: ClassVar[Game]

    @property
    def outcome(self) -> Outcome | None:
        for a, b, c in LINES:
            if self.board[a] is not None and self.board[a] == self.board[b] == self.board[c]:
                return Outcome.win(self.board[a], 2, Termination.LINE)
        if None not in self.board:
            return Outcome.draw(2, Termination.NO_MOVES)
        return None

    @property
    def current_player(self) -> int | None:
        return None if self.outcome else self.ply % 2

    def legal_moves(self) -> list:
        return [] if self.outcome else [i for i, v in enumerate(self.board) if v is None]

    def _parse(self, text: str):
        if text.strip() not in {str(i) for i in range(9)}:
            raise InvalidMoveError(f"{text!r} is not a square 0..8")
        return int(text)

    def apply(self, move) -> "TicTacToeState":
        board = list(self.board)
        board[move] = self.ply % 2
        return TicTacToeState(tuple(board), self.ply + 1)

    def view(self, seat):
        return {"board": list(self.board), "ply": self.ply}

    def to_dict(self):
        return self.view(None)

    def render_text(self, seat=None) -> str:
        marks = {None: ".", 0: "X", 1: "O"}
        return "\n".join("".join(marks[v] for v in self.board[r:r + 3]) for r in (0, 3, 6))

    def render_svg(self, seat=None) -> str:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"


class TicTacToe(Game):
    slug = "toy-tictactoe"
    title = "Tic-tac-toe"
    summary = "Three in a row."
    rules_page = "tests/ai_workers/toygames.py"

    def _new_state(self, players, seed, options):
        return TicTacToeState()

    def state_from_dict(self, d):
        try:
            return TicTacToeState(tuple(d["board"]), int(d["ply"]))
        except (KeyError, TypeError) as exc:
            raise InvalidStateError(str(exc)) from exc


TicTacToeState.game = TicTacToe()


def tictactoe(*marks: str) -> TicTacToeState:
    """A position from three rows of `X`, `O` and `.`; X is seat 0 and moves first."""
    cells = "".join(marks)
    board = tuple({"X": 0, "O": 1, ".": None}[c] for c in cells)
    return TicTacToeState(board, sum(v is not None for v in board))


@dataclass(frozen=True)
class NimState(State):
    """n-seat Nim: take 1..3 stones; whoever takes the last stone wins. Seats move in turn."""

    stones: int = 10
    ply: int = 0
    players: int = 3
    game: ClassVar[Game]

    @property
    def outcome(self) -> Outcome | None:
        if self.stones > 0:
            return None
        return Outcome.win((self.ply - 1) % self.players, self.players, Termination.LAST_SURVIVOR)

    @property
    def current_player(self) -> int | None:
        return None if self.stones <= 0 else self.ply % self.players

    def legal_moves(self) -> list:
        return list(range(1, min(3, self.stones) + 1)) if self.stones > 0 else []

    def _parse(self, text: str):
        if text.strip() not in {"1", "2", "3"}:
            raise InvalidMoveError(f"{text!r} is not 1, 2 or 3")
        return int(text)

    def apply(self, move) -> "NimState":
        return NimState(self.stones - move, self.ply + 1, self.players)

    def view(self, seat):
        return {"stones": self.stones, "ply": self.ply, "players": self.players}

    def to_dict(self):
        return self.view(None)

    def render_text(self, seat=None) -> str:
        return "o" * self.stones

    def render_svg(self, seat=None) -> str:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"


class Nim(Game):
    slug = "toy-nim"
    title = "Nim"
    min_players, max_players = 2, 4
    summary = "Take the last stone."
    rules_page = "tests/ai_workers/toygames.py"

    def _new_state(self, players, seed, options):
        return NimState(10, 0, players)

    def state_from_dict(self, d):
        return NimState(int(d["stones"]), int(d["ply"]), int(d["players"]))


NimState.game = Nim()


@dataclass(frozen=True)
class LongWalkState(State):
    """Two seats add 1 or 2 to a counter; whoever reaches `goal` wins. Random games are thousands
    of plies long, so a search that overran its clock inside one rollout would show it."""

    count: int = 0
    goal: int = 20000
    ply: int = 0
    players: int = 2
    game: ClassVar[Game]

    @property
    def outcome(self) -> Outcome | None:
        if self.count < self.goal:
            return None
        return Outcome.win((self.ply - 1) % 2, 2, Termination.GOAL)

    @property
    def current_player(self) -> int | None:
        return None if self.count >= self.goal else self.ply % 2

    def legal_moves(self) -> list:
        return [] if self.count >= self.goal else [1, 2]

    def _parse(self, text: str):
        if text.strip() not in {"1", "2"}:
            raise InvalidMoveError(f"{text!r} is not 1 or 2")
        return int(text)

    def apply(self, move) -> "LongWalkState":
        return LongWalkState(self.count + move, self.goal, self.ply + 1)

    def view(self, seat):
        return {"count": self.count, "goal": self.goal, "ply": self.ply}

    def to_dict(self):
        return self.view(None)

    def render_text(self, seat=None) -> str:
        return f"{self.count}/{self.goal}"

    def render_svg(self, seat=None) -> str:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"


class LongWalk(Game):
    slug = "toy-longwalk"
    title = "Long walk"
    summary = "Reach the goal."
    rules_page = "tests/ai_workers/toygames.py"

    def _new_state(self, players, seed, options):
        return LongWalkState()

    def state_from_dict(self, d):
        return LongWalkState(int(d["count"]), int(d["goal"]), int(d["ply"]))


LongWalkState.game = LongWalk()
