"""The pages: notification settings, verifying an address, resetting a password, one-click unsubscribe, the language switcher."""
from django.urls import path

from .views import account, language, links

app_name = "notifications"

urlpatterns = [
    path("settings/notifications/", account.settings_page, name="settings"),
    path("settings/notifications/email/", account.email_post, name="settings-email"),
    path("settings/notifications/preferences/", account.preferences_post, name="settings-preferences"),
    path("settings/notifications/webhooks/", account.webhook_post, name="settings-webhooks"),
    path("settings/notifications/webhooks/<id:pk>/delete/", account.webhook_delete_post, name="settings-webhook-delete"),
    path("accounts/verify/<str:token>/", links.verify_email, name="verify-email"),
    path("accounts/password-reset/", links.password_reset, name="password-reset"),
    path("accounts/password-reset/<str:uid>/<str:token>/", links.password_reset_confirm,
         name="password-reset-confirm"),
    path("language/", language.set_language, name="set-language"),
    path("notifications/unsubscribe/<str:token>/", links.unsubscribe, name="unsubscribe"),
]
