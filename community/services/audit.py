"""The staff audit log: one row per staff action, written in the action's transaction. Rows are
only ever added (no service updates or deletes one; the admin shows them read-only)."""
from __future__ import annotations

from ..models import AuditEntry


def audit(*, actor, action: str, target: str, reason: str = "", detail: dict | None = None) -> AuditEntry:
    """`actor` None is the server itself (a suspension running out)."""
    name = actor.username if actor is not None else "(server)"
    return AuditEntry.objects.create(actor=actor, actor_name=name, action=action, target=target,
                                     reason=reason, detail=detail or {})
