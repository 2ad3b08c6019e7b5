from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications: e-mail and webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Sign-up (matches) takes an optional e-mail address; this app keeps and verifies it.
        from matches.services import accounts

        from .services.addresses import address_at_signup
        if address_at_signup not in accounts.ACCOUNT_CREATED:
            accounts.ACCOUNT_CREATED.append(address_at_signup)
