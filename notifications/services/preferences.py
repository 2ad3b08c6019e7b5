"""A player's notification preferences: channels per kind, time zone, digest hour and day."""
from __future__ import annotations

from zoneinfo import ZoneInfo, available_timezones

from django.db import transaction

from matches.errors import ServiceError
from matches.services.profiles import profile_update
from notifications.models import CHANNELS, DEFAULT_CHANNELS, KINDS, Preferences

_ZONES = frozenset(available_timezones())


def check_time_zone(name: str) -> str:
    if name not in _ZONES:
        raise ServiceError("invalid_time_zone", f"{name!r} is not an IANA time zone name", detail={"time_zone": name})
    ZoneInfo(name)                       # loads: a name listed but unreadable fails here, not in a mail
    return name


def _checked_channels(channels: dict) -> dict[str, list[str]]:
    out = {}
    for kind, chosen in channels.items():
        if kind not in KINDS:
            raise ServiceError("invalid_channels", f"no notification kind {kind!r}", detail={"kind": kind})
        if not isinstance(chosen, list) or any(c not in CHANNELS for c in chosen):
            raise ServiceError("invalid_channels", f"{kind}: channels are a list of {', '.join(CHANNELS)}",
                               detail={"kind": kind})
        out[kind] = [c for c in CHANNELS if c in chosen]
    return out


@transaction.atomic
def preferences_update(*, user, channels: dict | None = None, time_zone: str | None = None,
                       digest: str | None = None, digest_hour: int | None = None,
                       digest_weekday: int | None = None) -> Preferences:
    """Change what is given; `digest` (none/daily/weekly) is the profile's notification_digest."""
    checked = _checked_channels(channels or {})
    if time_zone is not None:
        check_time_zone(time_zone)
    row, _ = Preferences.objects.select_for_update().get_or_create(user=user)
    merged = {**row.channels, **checked}
    row.channels = {k: v for k, v in merged.items() if v != DEFAULT_CHANNELS[k]}
    for name, value in (("time_zone", time_zone), ("digest_hour", digest_hour), ("digest_weekday", digest_weekday)):
        if value is not None:
            setattr(row, name, value)
    row.save()
    if digest is not None:
        profile_update(user=user, settings={"notification_digest": digest})
    return row


@transaction.atomic
def channel_off(*, user, kind: str) -> None:
    """One-click unsubscribe: no more mail of this kind (the digest: no more digests)."""
    if kind == "digest":
        profile_update(user=user, settings={"notification_digest": "none"})
        return
    row, _ = Preferences.objects.select_for_update().get_or_create(user=user)
    preferences_update(user=user, channels={kind: [c for c in row.channels_for(kind) if c != "email"]})
