from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches, ratings and ladders"
    default_auto_field = "django.db.models.BigAutoField"
