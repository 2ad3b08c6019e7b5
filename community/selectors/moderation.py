"""What staff read: the report queue with each report's context, and the audit log."""
from __future__ import annotations

from django.db.models import QuerySet

from ..models import AuditEntry, ChatMessage, Report, Suspension
from .chat import message_payload

CONTEXT_MESSAGES = 20


def report_queue(status: str | None = None) -> QuerySet[Report]:
    rows = Report.objects.select_related("reporter", "player", "message__author", "match")
    return rows.filter(status=status) if status else rows


def _context(report: Report) -> list[dict]:
    """The messages around what was reported: up to the reported message in its room, the
    match's last messages in both rooms, or the player's last messages."""
    if report.message_id:
        rows = ChatMessage.objects.filter(match_id=report.message.match_id, room=report.message.room,
                                          id__lte=report.message_id)
    elif report.match_id:
        rows = ChatMessage.objects.filter(match_id=report.match_id)
    else:
        rows = ChatMessage.objects.filter(author_id=report.player_id)
    recent = rows.select_related("author").order_by("-id")[:CONTEXT_MESSAGES]
    return [_staff_view(m) for m in reversed(list(recent))]


def _staff_view(message: ChatMessage) -> dict:
    """Staff see a hidden message's text too (they decide about it)."""
    return {**message_payload(message), "text": message.text}


def report_payload(report: Report) -> dict:
    match = report.match
    return {"id": report.pk, "status": report.status, "reason": report.reason, "created_at": report.created_at,
            "reporter": report.reporter.username if report.reporter else None,
            "player": report.player.username if report.player else None,
            "message": _staff_view(report.message) if report.message_id else None,
            "match": {"id": match.pk, "game": match.game, "status": match.status, "ply": match.ply}
            if match else None,
            "context": _context(report)}


def audit_log() -> QuerySet[AuditEntry]:
    return AuditEntry.objects.all()


def audit_payload(entry: AuditEntry) -> dict:
    return {"id": entry.pk, "actor": entry.actor_name, "action": entry.action, "target": entry.target,
            "reason": entry.reason, "detail": entry.detail, "created_at": entry.created_at}


def suspension_payload(suspension: Suspension) -> dict:
    return {"username": suspension.user.username, "reason": suspension.reason, "created_at": suspension.created_at,
            "ends_at": suspension.ends_at, "lifted_at": suspension.lifted_at}
