from .blocks import Block
from .chat import ChatMessage
from .moderation import AuditEntry, Suspension, UsernameHold
from .reports import Report

__all__ = ["AuditEntry", "Block", "ChatMessage", "Report", "Suspension", "UsernameHold"]
