"""Every write of the notifications app: one module per concern (docs/notifications.md)."""
