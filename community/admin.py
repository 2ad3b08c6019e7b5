"""Admin views: the audit log is read-only (nobody edits or deletes an entry); reports and
messages are listed for staff (acting on them goes through the staff API, which audits)."""
from django.contrib import admin

from .models import AuditEntry, ChatMessage, Report, Suspension


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor_name", "action", "target", "reason")
    list_filter = ("action",)


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "status", "reporter", "player", "match", "message", "reason")
    list_filter = ("status",)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "match", "room", "author", "ply", "text", "hidden_at")


@admin.register(Suspension)
class SuspensionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "ends_at", "lifted_at", "reason")
