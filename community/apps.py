from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "community"
    verbose_name = "Chat, blocks, reports and moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Refusals matches consults through its extension points (matches/policies.py).
        from matches import policies

        from .services import checks

        policies.challenge_checks.append(checks.refuse_blocked_challenge)
        policies.challenge_checks.append(checks.refuse_suspended_challenge)
        policies.username_checks.append(checks.refuse_held_username)
