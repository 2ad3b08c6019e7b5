from django.urls import path

from .views import accounts, board, lobby, matches, players, privacy, staff

# <id:...> is registered by matches.converters (imported first by the root URL conf).
app_name = "web"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("accounts/login/", accounts.login_view, name="login"),
    path("accounts/logout/", accounts.logout_view, name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("challenges/", lobby.challenge_create, name="challenge-create"),
    path("challenges/<id:pk>/accept/", lobby.challenge_accept, name="challenge-accept"),
    path("challenges/<id:pk>/decline/", lobby.challenge_decline, name="challenge-decline"),
    path("challenges/<id:pk>/cancel/", lobby.challenge_cancel, name="challenge-cancel"),
    path("tournaments/<id:pk>/join/", lobby.tournament_join, name="tournament-join"),
    path("tournaments/<id:pk>/leave/", lobby.tournament_leave, name="tournament-leave"),
    path("ladders/<id:pk>/join/", lobby.ladder_join, name="ladder-join"),
    path("matches/<id:pk>/", matches.match_page, name="match"),
    path("matches/<id:pk>/live/", matches.match_live, name="match-live"),
    path("matches/<id:pk>/move/", matches.match_move, name="match-move"),
    path("matches/<id:pk>/resign/", matches.match_resign, name="match-resign"),
    path("matches/<id:pk>/abort/", matches.match_abort, name="match-abort"),
    path("matches/<id:pk>/draw/", matches.match_draw, name="match-draw"),
    path("matches/<id:pk>/takeback/", matches.match_takeback, name="match-takeback"),
    path("matches/<id:pk>/analysis/", matches.match_analysis, name="match-analysis"),
    path("matches/<id:pk>/position/", matches.match_position, name="match-position"),
    path("matches/<id:pk>/rematch/", matches.match_rematch, name="match-rematch"),
    path("board/", board.board_page, name="board"),
    path("board/position/", board.board_position, name="board-position"),
    path("board/ask/", board.board_ask, name="board-ask"),
    path("board/answers/<id:pk>/", board.board_answer, name="board-answer"),
    path("games/", players.games, name="games"),
    path("games/<slug:slug>/rules/", players.rules, name="rules"),
    path("games/<slug:slug>/leaderboard/", players.leaderboard, name="leaderboard"),
    path("players/<str:username>/", players.player, name="player"),
    # privacy: blocks, your data, deleting the account (community/)
    path("accounts/privacy/", privacy.privacy, name="privacy"),
    path("accounts/blocks/", privacy.block, name="block"),
    path("accounts/blocks/<str:username>/unblock/", privacy.unblock, name="unblock"),
    path("accounts/delete/", privacy.delete_account, name="delete-account"),
    path("players/<str:username>/report/", privacy.report_player, name="report-player"),
    path("matches/<id:pk>/report/", privacy.report_match, name="report-match"),
    path("matches/<id:pk>/chat/report/", privacy.report_message, name="report-message"),
    # staff moderation pages (community/)
    path("staff/moderation/", staff.report_queue, name="staff-reports"),
    path("staff/moderation/reports/<id:pk>/resolve/", staff.report_resolve, name="staff-report-resolve"),
    path("staff/moderation/reports/<id:pk>/dismiss/", staff.report_dismiss, name="staff-report-dismiss"),
    path("staff/moderation/players/", staff.player_find, name="staff-player-find"),
    path("staff/moderation/players/<str:username>/", staff.player, name="staff-player"),
    path("staff/moderation/players/<str:username>/suspend/", staff.suspend, name="staff-suspend"),
    path("staff/moderation/players/<str:username>/unsuspend/", staff.unsuspend, name="staff-unsuspend"),
    path("staff/moderation/messages/<id:pk>/hide/", staff.message_hide, name="staff-message-hide"),
    path("staff/moderation/messages/<id:pk>/unhide/", staff.message_unhide, name="staff-message-unhide"),
    path("staff/moderation/audit/", staff.audit_log, name="staff-audit"),
]
