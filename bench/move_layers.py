"""Where a move's CPU goes, layer by layer, without a profiler's distortion.

Each layer's entry points are wrapped with a CPU-time clock (`time.process_time`); a layer is
charged only its own time (time spent in a nested, wrapped layer goes to that layer), so the rows
add up to the whole request. Used by `python -m bench.move_profile --layers`.
"""
from __future__ import annotations

import functools
import time
from collections import defaultdict

# (label, owner, attribute): the order is the order of the printed rows.
LAYERS = (
    ("Django handler: middleware, URL resolving, response", "django.core.handlers.base:BaseHandler",
     "get_response"),
    ("DRF: request, authentication, throttles, negotiation", "rest_framework.views:APIView", "dispatch"),
    ("input validation (MoveIn)", "matches.apis.matches", "valid"),
    ("view: the answer (match detail, rendering)", "matches.apis.matches:MatchMovesApi", "post"),
    ("service: models, clocks, events, glue", "matches.services.play", "move_submit"),
    ("transactions: BEGIN/COMMIT, on-commit hooks (wake-ups)", "django.db.transaction:Atomic", "__enter__"),
    ("transactions: BEGIN/COMMIT, on-commit hooks (wake-ups)", "django.db.transaction:Atomic", "__exit__"),
    ("SQL: Django's cursor and psycopg (rows, conversions)", "django.db.backends.utils:CursorWrapper",
     "execute"),
    ("rules library: read, parse, apply, write the position", "matches.services.play", "match_state"),
)
RULE_METHODS = ("parse_move", "apply", "to_dict", "view")


class LayerClock:
    """Exclusive CPU time per label, for code wrapped by `wrap` (single-threaded)."""

    def __init__(self) -> None:
        self.own: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list] = []          # [label, nested time] of each open wrapped call

    def wrap(self, owner, attribute: str, label: str) -> None:
        function = getattr(owner, attribute)
        clock = self

        @functools.wraps(function)
        def timed(*args, **kwargs):
            frame = [label, 0.0]
            clock._stack.append(frame)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                clock._stack.pop()
                clock.own[label] += spent - frame[1]
                clock.calls[label] += 1
                if clock._stack:
                    clock._stack[-1][1] += spent

        setattr(owner, attribute, timed)

    def reset(self) -> None:
        self.own.clear()
        self.calls.clear()


def install(state_class: type) -> LayerClock:
    """Wrap every layer of LAYERS and the rules' methods of `state_class`."""
    import importlib
    clock = LayerClock()
    for label, where, attribute in LAYERS:
        module, _, name = where.partition(":")
        owner = importlib.import_module(module)
        clock.wrap(getattr(owner, name) if name else owner, attribute, label)
    for method in RULE_METHODS:
        clock.wrap(state_class, method, LAYERS[-1][0])
    return clock


def report(clock: LayerClock, total: float, count: int) -> list[str]:
    """Rows: each layer's CPU per request in ms and its share, then what is outside them all."""
    rows, labels = [], list(dict.fromkeys(label for label, _, _ in LAYERS))
    outside = total - sum(clock.own.values())
    for label, seconds in [*((label, clock.own.get(label, 0.0)) for label in labels),
                           ("outside the server: the test client", outside)]:
        rows.append(f"  {label:58s} {1000 * seconds / count:6.3f} ms  {100 * seconds / total:5.1f} %")
    rows.append(f"  {'the whole request':58s} {1000 * total / count:6.3f} ms")
    return rows
