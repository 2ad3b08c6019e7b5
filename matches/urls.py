from django.urls import path

from . import apis

urlpatterns = [
    path("accounts/", apis.AccountCreateApi.as_view(), name="account-create"),
    path("auth/token/", apis.TokenApi.as_view(), name="auth-token"),
    path("games/", apis.GameListApi.as_view(), name="game-list"),
    path("games/<slug:slug>/", apis.GameDetailApi.as_view(), name="game-detail"),
    path("challenges/", apis.ChallengeListCreateApi.as_view(), name="challenge-list"),
    path("challenges/<int:pk>/", apis.ChallengeDetailApi.as_view(), name="challenge-detail"),
    path("challenges/<int:pk>/accept/", apis.ChallengeAcceptApi.as_view(), name="challenge-accept"),
    path("challenges/<int:pk>/decline/", apis.ChallengeDeclineApi.as_view(), name="challenge-decline"),
    path("challenges/<int:pk>/cancel/", apis.ChallengeCancelApi.as_view(), name="challenge-cancel"),
    path("matches/", apis.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:pk>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:pk>/moves/", apis.MatchMovesApi.as_view(), name="match-moves"),
    path("matches/<int:pk>/resign/", apis.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<int:pk>/draw/", apis.MatchDrawApi.as_view(), name="match-draw"),
    path("matches/<int:pk>/abort/", apis.MatchAbortApi.as_view(), name="match-abort"),
    path("matches/<int:pk>/takeback/", apis.MatchTakebackApi.as_view(), name="match-takeback"),
    path("matches/<int:pk>/export/", apis.MatchExportApi.as_view(), name="match-export"),
    path("matches/<int:pk>/board/", apis.MatchBoardApi.as_view(), name="match-board"),
    path("matches/<int:pk>/analysis/", apis.MatchAnalysisApi.as_view(), name="match-analysis"),
    path("analyses/<int:pk>/", apis.AnalysisDetailApi.as_view(), name="analysis-detail"),
    path("players/<str:username>/", apis.PlayerDetailApi.as_view(), name="player-detail"),
    path("ladders/", apis.LadderListApi.as_view(), name="ladder-list"),
    path("ladders/<int:pk>/", apis.LadderDetailApi.as_view(), name="ladder-detail"),
    path("ladders/<int:pk>/join/", apis.LadderJoinApi.as_view(), name="ladder-join"),
    path("ladders/<int:pk>/challenges/", apis.LadderChallengeApi.as_view(), name="ladder-challenge"),
    path("events/", apis.EventListApi.as_view(), name="event-list"),
]
