"""Extension points where apps beside `matches` may refuse an action (design §1: they depend on
matches, never the reverse). An app appends a check here from its AppConfig.ready(); a check
raises `matches.errors.ServiceError` to refuse, and returns None to let the action go on.

- `challenge_checks`: `check(challenger, invitee)` before a challenge (also a ladder challenge or
  a rematch) names `invitee`, and before `challenger` takes an open seat created by `invitee`.
- `username_checks`: `check(username)` before an account is registered with that name.
"""
from __future__ import annotations

from collections.abc import Callable

challenge_checks: list[Callable[[object, object], None]] = []
username_checks: list[Callable[[str], None]] = []


def check_challenge(challenger, invitee) -> None:
    for check in challenge_checks:
        check(challenger, invitee)


def check_username(username: str) -> None:
    for check in username_checks:
        check(username)
