from django.urls import path

from .apis import accounts, analysis, catalogue, challenges, events, ladders, matches, players

urlpatterns = [
    path("accounts/", accounts.AccountCreateApi.as_view(), name="account-create"),
    path("auth/token/", accounts.TokenApi.as_view(), name="auth-token"),
    path("games/", catalogue.GameListApi.as_view(), name="game-list"),
    path("games/<slug:slug>/", catalogue.GameDetailApi.as_view(), name="game-detail"),
    path("challenges/", challenges.ChallengeListCreateApi.as_view(), name="challenge-list"),
    path("challenges/<int:pk>/", challenges.ChallengeDetailApi.as_view(), name="challenge-detail"),
    path("challenges/<int:pk>/accept/", challenges.ChallengeAcceptApi.as_view(), name="challenge-accept"),
    path("challenges/<int:pk>/decline/", challenges.ChallengeDeclineApi.as_view(), name="challenge-decline"),
    path("challenges/<int:pk>/cancel/", challenges.ChallengeCancelApi.as_view(), name="challenge-cancel"),
    path("matches/", matches.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:pk>/", matches.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:pk>/legal/", matches.MatchLegalMovesApi.as_view(), name="match-legal"),
    path("matches/<int:pk>/moves/", matches.MatchMovesApi.as_view(), name="match-moves"),
    path("matches/<int:pk>/resign/", matches.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<int:pk>/draw/", matches.MatchDrawApi.as_view(), name="match-draw"),
    path("matches/<int:pk>/abort/", matches.MatchAbortApi.as_view(), name="match-abort"),
    path("matches/<int:pk>/takeback/", matches.MatchTakebackApi.as_view(), name="match-takeback"),
    path("matches/<int:pk>/export/", matches.MatchExportApi.as_view(), name="match-export"),
    path("matches/<int:pk>/board/", matches.MatchBoardApi.as_view(), name="match-board"),
    path("matches/<int:pk>/analysis/", analysis.MatchAnalysisApi.as_view(), name="match-analysis"),
    path("analyses/<int:pk>/", analysis.AnalysisDetailApi.as_view(), name="analysis-detail"),
    path("players/<str:username>/", players.PlayerDetailApi.as_view(), name="player-detail"),
    path("ladders/", ladders.LadderListApi.as_view(), name="ladder-list"),
    path("ladders/<int:pk>/", ladders.LadderDetailApi.as_view(), name="ladder-detail"),
    path("ladders/<int:pk>/join/", ladders.LadderJoinApi.as_view(), name="ladder-join"),
    path("ladders/<int:pk>/challenges/", ladders.LadderChallengeApi.as_view(), name="ladder-challenge"),
    path("events/", events.EventListApi.as_view(), name="event-list"),
    path("events/stream/", events.EventStreamApi.as_view(), name="event-stream"),
]
