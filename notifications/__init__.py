"""Reaching players who are away: account e-mail, password reset, mails and webhooks (docs/notifications.md)."""
