"""Reports of a player, a message or a match; staff resolve them."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from matches.errors import ServiceError, first_or_error
from matches.models import Match

from ..models import ChatMessage, Report
from ..models.reports import REASON_MAX
from ..selectors.chat import may_read
from .audit import audit

User = get_user_model()


def _message(message_id: int, reporter) -> ChatMessage:
    message = first_or_error(ChatMessage.objects.filter(pk=message_id).select_related("match"),
                             "message_not_found", f"no message with id {message_id}")
    if not may_read(message.match, reporter, message.room):     # a message you cannot see does not exist
        raise ServiceError("message_not_found", f"no message with id {message_id}")
    return message


@transaction.atomic
def report_create(*, reporter, reason: str, player: str | None = None, message: int | None = None,
                  match: int | None = None) -> Report:
    reason = (reason or "").strip()
    if sum(x is not None for x in (player, message, match)) != 1 or not reason or len(reason) > REASON_MAX:
        raise ServiceError("invalid_report", f"name exactly one of player, message, match, and a reason of 1 to "
                                             f"{REASON_MAX} characters")
    report = Report(reporter=reporter, reason=reason)
    if player is not None:
        report.player = first_or_error(User.objects.filter(username__iexact=player).order_by("pk"), "player_not_found",
                                       f"no player named {player!r}")
    elif message is not None:
        report.message = _message(message, reporter)
        report.player, report.match = report.message.author, report.message.match
    else:
        report.match = first_or_error(Match.objects.filter(pk=match), "match_not_found", f"no match with id {match}")
    report.save()
    return report


def _close(*, staff, report_id: int, note: str, status: str, action: str) -> Report:
    note = (note or "").strip()
    if not note or len(note) > REASON_MAX:
        raise ServiceError("reason_required", f"give a reason of 1 to {REASON_MAX} characters")
    report = first_or_error(Report.objects.select_for_update().filter(pk=report_id), "report_not_found",
                            f"no report with id {report_id}")
    if report.status != Report.Status.OPEN:
        raise ServiceError("report_closed", f"report {report_id} is {report.status} already")
    report.status, report.resolved_at = status, timezone.now()
    report.save(update_fields=["status", "resolved_at"])
    audit(actor=staff, action=action, target=f"report:{report.pk}", reason=note)
    return report


@transaction.atomic
def report_resolve(*, staff, report_id: int, note: str) -> Report:
    """Staff acted on the report (the note says how)."""
    return _close(staff=staff, report_id=report_id, note=note, status=Report.Status.RESOLVED,
                  action="report_resolve")


@transaction.atomic
def report_dismiss(*, staff, report_id: int, note: str) -> Report:
    """Staff found nothing to act on."""
    return _close(staff=staff, report_id=report_id, note=note, status=Report.Status.DISMISSED,
                  action="report_dismiss")
