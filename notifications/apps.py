from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications: e-mail and webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Sign-up (matches) takes an optional e-mail address; this app keeps and verifies it.
        from matches.policies import account_erasers, account_exports
        from matches.services import accounts

        from .selectors.account import account_export_part
        from .services.addresses import address_at_signup
        from .services.leaving import account_erase
        if address_at_signup not in accounts.ACCOUNT_CREATED:
            accounts.ACCOUNT_CREATED.append(address_at_signup)
        # Leaving (community/): this app's part of the data download, and what deletion erases.
        if account_export_part not in account_exports:
            account_exports.append(account_export_part)
        if account_erase not in account_erasers:
            account_erasers.append(account_erase)
