"""Helpers: a verified address, the beat's tick, links found in mails."""
from __future__ import annotations

import re

from notifications import links
from notifications.services import addresses, outbox, scan


def verified(user, address: str | None = None):
    """Give `user` a verified address (through the real link)."""
    row = addresses.address_set(user=user, address=address or f"{user.username}@example.org")
    return addresses.address_verify(token=links.verify_token(user.pk, row.address))


def tick(now=None) -> list[int]:
    """What the beat does: scan events, deadlines and digests, then hand due rows to the (eager) workers."""
    scan.scan_events(now)
    scan.scan_reminders(now)
    scan.scan_digests(now)
    return outbox.release(now=now)


def link_in(text: str, path: str) -> str:
    found = re.search(r"http://testserver(" + re.escape(path) + r"[^\s\"<>]*)", text)
    assert found, f"no {path} link in:\n{text}"
    return found.group(1)

