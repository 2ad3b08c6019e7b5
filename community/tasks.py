"""Beat tasks of community: lifting suspensions whose time is up."""
from __future__ import annotations

from celery import shared_task

from .services import moderation


@shared_task(name="community.tasks.lift_suspensions")
def lift_suspensions() -> list[int]:
    return moderation.suspensions_lift_expired()
