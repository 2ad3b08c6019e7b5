"""What staff read: the report queue with each report's context, and the audit log."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from matches.errors import first_or_error

from ..models import AuditEntry, ChatMessage, Report, Suspension
from .chat import message_payload

User = get_user_model()
REPORT_STATUSES = tuple(Report.Status.values)
CONTEXT_MESSAGES = 20
NEIGHBOURS = 10


def report_queue(status: str | None = None) -> QuerySet[Report]:
    rows = Report.objects.select_related("reporter", "player", "message__author", "match")
    return rows.filter(status=status) if status else rows


def _context(report: Report) -> list[dict]:
    """The messages around what was reported: the reported message with up to NEIGHBOURS
    of its neighbours either side in its room, the match's last messages in both rooms, or the
    player's last messages."""
    if report.message_id:
        room = ChatMessage.objects.filter(match_id=report.message.match_id, room=report.message.room)
        before = room.filter(id__lt=report.message_id).select_related("author").order_by("-id")[:NEIGHBOURS]
        after = room.filter(id__gt=report.message_id).select_related("author").order_by("id")[:NEIGHBOURS]
        return [_staff_view(m) for m in [*reversed(list(before)), report.message, *after]]
    if report.match_id:
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


def player_moderation(username: str) -> dict:
    """A player as staff see them: their suspensions (newest first), their last messages, and the
    reports about them."""
    user = first_or_error(User.objects.filter(username=username), "player_not_found",
                          f"no player named {username!r}")
    suspensions = list(Suspension.objects.filter(user=user).select_related("user"))
    messages = ChatMessage.objects.filter(author=user).select_related("author").order_by("-id")[:CONTEXT_MESSAGES]
    return {"username": user.username, "is_active": user.is_active, "is_staff": user.is_staff,
            "joined": user.date_joined,
            "suspended": next((s for s in suspensions if s.lifted_at is None), None),
            "suspensions": suspensions,
            "messages": [_staff_view(m) for m in messages],
            "reports": report_queue().filter(player=user)[:CONTEXT_MESSAGES]}


def audit_log() -> QuerySet[AuditEntry]:
    return AuditEntry.objects.all()


def audit_payload(entry: AuditEntry) -> dict:
    return {"id": entry.pk, "actor": entry.actor_name, "action": entry.action, "target": entry.target,
            "reason": entry.reason, "detail": entry.detail, "created_at": entry.created_at}


def suspension_payload(suspension: Suspension) -> dict:
    return {"username": suspension.user.username, "reason": suspension.reason, "created_at": suspension.created_at,
            "ends_at": suspension.ends_at, "lifted_at": suspension.lifted_at}
