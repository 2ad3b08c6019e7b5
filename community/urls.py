from django.urls import path

import matches.converters  # noqa: F401  (registers <id:...>)

from .apis import blocks, chat, leaving, reports, staff

urlpatterns = [
    path("matches/<id:pk>/chat/", chat.MatchChatApi.as_view(), name="match-chat"),
    path("accounts/me/blocks/", blocks.BlockListApi.as_view(), name="block-list"),
    path("accounts/me/blocks/<str:username>/", blocks.BlockDetailApi.as_view(), name="block-detail"),
    path("accounts/me/export/", leaving.AccountExportApi.as_view(), name="account-export"),
    path("accounts/me/delete/", leaving.AccountDeleteApi.as_view(), name="account-delete"),
    path("reports/", reports.ReportCreateApi.as_view(), name="report-create"),
    path("staff/moderation/reports/", staff.ReportQueueApi.as_view(), name="staff-report-list"),
    path("staff/moderation/reports/<id:pk>/resolve/", staff.ReportResolveApi.as_view(), name="staff-report-resolve"),
    path("staff/moderation/reports/<id:pk>/dismiss/", staff.ReportDismissApi.as_view(), name="staff-report-dismiss"),
    path("staff/moderation/players/<str:username>/suspend/", staff.SuspendApi.as_view(), name="staff-suspend"),
    path("staff/moderation/players/<str:username>/unsuspend/", staff.UnsuspendApi.as_view(),
         name="staff-unsuspend"),
    path("staff/moderation/messages/<id:pk>/hide/", staff.MessageHideApi.as_view(), name="staff-message-hide"),
    path("staff/moderation/messages/<id:pk>/unhide/", staff.MessageUnhideApi.as_view(),
         name="staff-message-unhide"),
    path("staff/moderation/audit/", staff.AuditLogApi.as_view(), name="staff-audit"),
]
