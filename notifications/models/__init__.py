from .addresses import EmailAddress
from .outbox import Notification, ScanCursor
from .preferences import CHANNELS, DEFAULT_CHANNELS, KINDS, Preferences, Presence
from .webhooks import Webhook

__all__ = ["CHANNELS", "DEFAULT_CHANNELS", "KINDS", "EmailAddress", "Notification", "Preferences", "Presence",
           "ScanCursor", "Webhook"]
