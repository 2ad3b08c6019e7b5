"""What each outbox row says: the mail's address, subject and template context, or why it is dropped.

Built when the mail is sent, from the rows as they are then: a your-turn mail lists the games
still waiting for the player, a reminder is dropped once they moved. Mails show public fields
only (the match list's own), so no hand, rule or seed can reach one. Templates escape every value."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from matches.models import Challenge, Match
from notifications import links
from notifications.models import EmailAddress, Notification, Preferences, Presence

from . import games as listed

ACCOUNT_MAILS = frozenset({"verify_email", "password_reset", "webhook_disabled"})
SUBJECTS = {
    "verify_email": gettext_noop("Verify your e-mail address"),
    "password_reset": gettext_noop("Reset your password"),
    "webhook_disabled": gettext_noop("A webhook of yours was switched off"),
    "your_turn": gettext_noop("Your move"),
    "deadline_reminder": gettext_noop("Reminder: your move"),
    "challenge_received": gettext_noop("You are challenged"),
    "ladder_challenge": gettext_noop("A ladder challenge for you"),
    "offer_made": gettext_noop("An offer in your game"),
    "match_finished": gettext_noop("A game of yours has ended"),
    "tournament_round": gettext_noop("A new tournament round"),
    "digest": gettext_noop("Your Pearlsite digest"),
}


@dataclass
class Mail:
    to: str
    subject: str
    kind: str
    context: dict = field(default_factory=dict)
    unsubscribe_url: str = ""


class Drop(Exception):
    """Nothing to send (the reason is kept on the row)."""


def mail_language(user) -> str:
    """The language a player's mails are written in: the one saved in their preferences, else English."""
    language = Preferences.objects.filter(user=user).values_list("language", flat=True).first()
    return language or settings.LANGUAGE_CODE


def compose(row: Notification) -> Mail:
    user = row.user
    prefs = Preferences.objects.filter(user=user).first() or Preferences()
    zone = prefs.time_zone
    if row.kind == "verify_email":
        address = row.payload["address"]
        current = EmailAddress.objects.filter(user=user).first()
        if current is None or current.address.lower() != address.lower() or current.verified:
            raise Drop("the address changed or was verified meanwhile")
        return Mail(address, gettext(SUBJECTS["verify_email"]), "verify_email",
                    {"url": links.verify_url(user.pk, address), "hours": settings.EMAIL_VERIFY_HOURS})
    address = EmailAddress.objects.filter(user=user, verified_at__isnull=False).first()
    if address is None:
        raise Drop("no verified address")
    context = {"zone": zone, "settings_url": links.settings_url()}
    context.update(_context(row, user, zone, prefs))
    unsubscribe = "" if row.kind in ACCOUNT_MAILS else links.unsubscribe_url(user.pk, row.kind)
    subject = context.pop("subject", None) or gettext(SUBJECTS[row.kind])
    return Mail(address.address, subject, row.kind, context, unsubscribe)


def _context(row: Notification, user, zone: str, prefs: Preferences) -> dict:
    builder = {"password_reset": _reset, "webhook_disabled": _plain, "your_turn": _your_turn,
               "deadline_reminder": _reminder, "digest": _digest}.get(row.kind, _event)
    return builder(row, user, zone, prefs)


def _reset(row, user, zone, prefs) -> dict:
    return {"url": links.reset_url(user), "minutes": settings.PASSWORD_RESET_TIMEOUT // 60}


def _plain(row, user, zone, prefs) -> dict:
    return dict(row.payload)


def _recently_seen(user) -> bool:
    minutes = settings.NOTIFY_ACTIVE_MINUTES
    return minutes > 0 and Presence.objects.filter(
        user=user, seen_at__gte=timezone.now() - timedelta(minutes=minutes)).exists()


def _your_turn(row, user, zone, prefs) -> dict:
    if _recently_seen(user):
        raise Drop("the player was on the site lately")
    waiting = listed.games_to_move(user, zone)
    if not waiting:
        raise Drop("no game waits for the player's move")
    subject = ngettext("Your move in %(count)d game", "Your move in %(count)d games", len(waiting)) % {
        "count": len(waiting)}
    return {"games": waiting, "subject": subject}


def _reminder(row, user, zone, prefs) -> dict:
    seat = listed.mover_seat(row.payload["match"], row.payload["ply"])
    if seat is None or seat.user_id != user.pk:
        raise Drop("the player moved, or the match ended")
    game = listed.match_line(row.payload["match"], user, zone)
    hours = row.payload["hours"]
    return {"game": game, "hours": hours, "subject": gettext("Your move: under %(hours)s h left in %(game)s") % {
        "hours": hours, "game": game["title"]}}


def _event(row, user, zone, prefs) -> dict:
    data = row.payload.get("event", {})
    context: dict = {"data": data}
    if "match" in data:
        context["game"] = listed.match_line(data["match"], user, zone)
        if row.kind == "match_finished" and context["game"]:
            context["outcome"] = _outcome(data["match"], user)
    if "challenge" in data:
        challenge = Challenge.objects.filter(pk=data["challenge"]).first()
        context["challenge"] = {"from": data.get("from", ""), "game": data.get("game", ""),
                                "variant": data.get("variant", ""), "open": bool(challenge and challenge.status == "open"),
                                "url": links.absolute("/")}
    return context


def _outcome(match_id: int, user) -> str:
    match = Match.objects.defer("state").prefetch_related("seats").get(pk=match_id)
    seat = next((s.seat for s in match.seats.all() if s.user_id == user.pk), None)
    return listed.outcome_for(match, seat)


def _digest(row, user, zone, prefs) -> dict:
    since = prefs.last_digest_at
    if since is None:
        since = timezone.now() - timedelta(days=7 if row.payload.get("period") == "weekly" else 1)
    sections = {kind: prefs.channels_for(kind) for kind in ("match_finished", "challenge_received")}
    context = {"to_move": listed.games_to_move(user, zone), "waiting": listed.games_waiting(user, zone),
               "since": listed.local_time(since, zone), "period": row.payload.get("period", "daily")}
    context["results"] = listed.results_since(user, since, zone) if "digest" in sections["match_finished"] else []
    context["challenges"] = (_open_challenges(user) if "digest" in sections["challenge_received"] else [])
    return context


def _open_challenges(user) -> list[dict]:
    rows = Challenge.objects.filter(status="open", seats__user=user, seats__accepted=False).select_related(
        "created_by").order_by("-id")[:listed.LIST_LIMIT]
    return [{"from": c.created_by.username, "game": c.game, "variant": c.variant} for c in rows]
