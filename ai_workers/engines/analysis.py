"""Reading an engine's per-ply values the way players read analysis: loss, class, accuracy.

Every engine value is the expected result for the seat to move on the scale [-1, 1] (1 a sure
win, 0 even, -1 a sure loss), i.e. *winning chances*; win% = 50 + 50·value. Per analysed ply:

- `value_before`: the engine's value of the position before the move (its best play), for the
  mover; `value_after`: the value of the position after the played move, for the same mover —
  the next analysed position's value (negated when the turn passed to the one opponent), the
  result itself when the move ended the game. Multi-seat games and hidden-information analyses
  give no `value_after` for a move that hands the turn to another seat (a value is only ever
  the seat to move's), so those moves are not classified.
- `loss`: how much the move gave away on the game family's scale (Scale below), never negative;
  0 for the engine's own choice.
- `classification`: `forced` (the only legal move), `best` (the engine's choice), `good`,
  `inaccuracy`, `mistake` or `blunder` by the family's thresholds; None if unclassified.
- `accuracy`: lichess's move accuracy, 103.1668·exp(−0.04354·Δ) − 3.1669 clamped to [0, 100],
  Δ being the loss in win-percentage points (Pearl Maze: in percent of the best walk).

A seat's game accuracy (`summarize`) is lichess's: the mean of the volatility-weighted mean
(weights: standard deviation of the win% over a window of plies around the move, clamped to
[0.5, 12]) and the harmonic mean of its move accuracies; forced moves do not count.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import pstdev

CLASSES = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")
MAZE_STEPS_SCALE = 40.0          # the maze engine's value: tanh(steps still to come / 40)


@dataclass(frozen=True)
class Scale:
    """How a game family's values turn into a loss, and the loss thresholds of each class."""

    name: str
    unit: str
    inaccuracy: float
    mistake: float
    blunder: float

    def loss(self, before: float, after: float) -> float:
        """The loss of a move valued `before` → `after` (mover's side), in `unit`."""
        return max(0.0, before - after)

    def accuracy_delta(self, loss: float) -> float:
        """The loss in win-percentage points (what lichess's accuracy formula takes)."""
        return 50.0 * loss

    def classify(self, loss: float) -> str:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        return "inaccuracy" if loss >= self.inaccuracy else "good"

    def describe(self) -> dict:
        return {"name": self.name, "unit": self.unit, "inaccuracy": self.inaccuracy,
                "mistake": self.mistake, "blunder": self.blunder}


class WalkScale(Scale):
    """Pearl Maze (one seat, score = steps): the value tanh(L/40) is turned back into L, the
    steps still to come, and a move's loss is the share of them it gave up, in percent."""

    @staticmethod
    def steps(value: float) -> float:
        return MAZE_STEPS_SCALE * math.atanh(min(max(value, 0.0), 0.999999))

    @staticmethod
    def steps_value(steps: float) -> float:
        return math.tanh(steps / MAZE_STEPS_SCALE)

    def loss(self, before: float, after: float) -> float:
        best = self.steps(before)
        if best <= 0:
            return 0.0
        # after a step the walk has one step fewer to go: that step is not a loss
        return max(0.0, 100.0 * (best - 1.0 - self.steps(after)) / best)

    def accuracy_delta(self, loss: float) -> float:
        return loss


#: Two-seat (and multi-seat) games: lichess's winning-chance thresholds (10, 20, 30 points of
#: winning chances = 5, 10, 15 points of win percentage).
WINNING_CHANCES = Scale("winning_chances", "winning chances (value points, -1..1)", 0.1, 0.2, 0.3)
WALK_LENGTH = WalkScale("walk_length", "percent of the longest walk still possible", 5.0, 10.0, 20.0)
SCALES = {"pearl-maze": WALK_LENGTH}


def scale_for(slug: str) -> Scale:
    return SCALES.get(slug, WINNING_CHANCES)


def move_accuracy(delta: float) -> float:
    """lichess: 103.1668·exp(−0.04354·Δ) − 3.1669, clamped to [0, 100]."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * delta) - 3.1669))


def judge(scale: Scale, before: float, after: float | None, played: str, best: str,
          choices: int) -> dict:
    """The per-ply judgement: loss, classification, accuracy (None where `after` is unknown)."""
    if choices == 1:
        return {"loss": 0.0, "classification": "forced", "accuracy": None}
    if after is None:
        return {"loss": None, "classification": None, "accuracy": None}
    loss = 0.0 if played == best else scale.loss(before, after)
    kind = "best" if played == best else scale.classify(loss)
    return {"loss": round(loss, 3), "classification": kind,
            "accuracy": round(move_accuracy(scale.accuracy_delta(loss)), 1)}


def summarize(rows: list[dict], players: int) -> list[dict]:
    """Per seat: moves analysed, counts per class, average loss and game accuracy."""
    window = max(2, min(8, len(rows) // 10))
    win = [50.0 + 50.0 * r["value_before"] if r.get("value_before") is not None else 50.0
           for r in rows]
    seats = []
    for seat in range(players):
        mine = [(i, r) for i, r in enumerate(rows) if r.get("seat") == seat]
        counts = {kind: sum(1 for _, r in mine if r.get("classification") == kind) for kind in CLASSES}
        rated = [(i, r) for i, r in mine if r.get("accuracy") is not None]
        losses = [r["loss"] for _, r in rated if r.get("loss") is not None]
        seats.append({
            "seat": seat, "moves": len(mine), **counts,
            "average_loss": round(sum(losses) / len(losses), 3) if losses else None,
            "accuracy": _game_accuracy(rated, win, window),
        })
    return seats


def _game_accuracy(rated: list[tuple[int, dict]], win: list[float], window: int) -> float | None:
    if not rated:
        return None
    accuracies = [r["accuracy"] for _, r in rated]
    weights = []
    for i, _ in rated:
        lo = max(0, min(i - window // 2, len(win) - window))
        weights.append(min(12.0, max(0.5, pstdev(win[lo:lo + window]) if window > 1 else 0.5)))
    weighted = sum(a * w for a, w in zip(accuracies, weights)) / sum(weights)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1.0) for a in accuracies)
    return round((weighted + harmonic) / 2.0, 1)


def series(rows: list[dict], players: int) -> list[dict]:
    """Graph-ready values: per ply, the value after the move for seat 0 (two seats: the other
    seat's is its negation; one seat: its own), None where it is unknown. A level position reads
    0.0 from either side, never -0.0."""
    points = []
    for r in rows:
        after = r.get("value_after")
        if after is not None:
            after = 0.0 - after if players == 2 and r.get("seat") == 1 else after + 0.0
        points.append({"ply": r["ply"], "value": after if players <= 2 else None})
    return points
