"""Extension points where apps beside `matches` may refuse an action (design §1: they depend on
matches, never the reverse). An app appends a check here from its AppConfig.ready(); a check
raises `matches.errors.ServiceError` to refuse, and returns None to let the action go on.

- `challenge_checks`: `check(challenger, invitee)` before a challenge (also a ladder challenge or
  a rematch) names `invitee`, and before `challenger` takes an open seat created by `invitee`.
- `username_checks`: `check(username)` before an account is registered with that name.

And where they add to what leaving an account does (docs/moderation.md, Leaving):

- `account_exports`: `export(user) -> dict`, whose keys join the account's data download.
- `account_erasers`: `erase(user)`, inside the account deletion's transaction: the app deletes
  the personal data it holds about `user` (whose row stays, as a placeholder player).
"""
from __future__ import annotations

from collections.abc import Callable

challenge_checks: list[Callable[[object, object], None]] = []
username_checks: list[Callable[[str], None]] = []
account_exports: list[Callable[[object], dict]] = []
account_erasers: list[Callable[[object], None]] = []


def check_challenge(challenger, invitee) -> None:
    for check in challenge_checks:
        check(challenger, invitee)


def check_username(username: str) -> None:
    for check in username_checks:
        check(username)


def export_account(user) -> dict:
    parts: dict = {}
    for export in account_exports:
        parts.update(export(user))
    return parts


def erase_account(user) -> None:
    for erase in account_erasers:
        erase(user)
