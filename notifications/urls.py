"""The API's notification endpoints, under /api/v1/ beside matches' (docs/notifications.md §6)."""
from django.urls import path

from .apis import account, passwords, webhooks

urlpatterns = [
    path("accounts/me/email/", account.EmailApi.as_view(), name="account-email"),
    path("accounts/me/email/resend/", account.EmailResendApi.as_view(), name="account-email-resend"),
    path("accounts/email/verify/", account.EmailVerifyApi.as_view(), name="account-email-verify"),
    path("accounts/me/notifications/", account.PreferencesApi.as_view(), name="account-notifications"),
    path("accounts/me/webhooks/", webhooks.WebhookListApi.as_view(), name="webhook-list"),
    path("accounts/me/webhooks/<id:pk>/", webhooks.WebhookDetailApi.as_view(), name="webhook-detail"),
    path("accounts/me/webhooks/<id:pk>/deliveries/", webhooks.WebhookDeliveriesApi.as_view(),
         name="webhook-deliveries"),
    path("auth/password-reset/", passwords.PasswordResetApi.as_view(), name="password-reset"),
    path("auth/password-reset/confirm/", passwords.PasswordResetConfirmApi.as_view(), name="password-reset-confirm"),
]
