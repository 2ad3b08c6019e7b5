from django.contrib import admin

from .models import (
    Analysis,
    Challenge,
    EngineJob,
    Event,
    Ladder,
    LadderEntry,
    LadderEvent,
    Match,
    MatchSeat,
    Move,
    Profile,
    Rating,
    RatingChange,
    Tournament,
    TournamentEntry,
    TournamentGame,
    Vacation,
)


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "variant", "status", "ply", "to_move", "rated", "created_at")
    list_filter = ("status", "game", "rated")
    inlines = [MatchSeatInline]
    exclude = ("state",)          # the full truth (hands, decks) stays out of the admin too


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "created_by", "rated", "created_at")
    list_filter = ("status", "game")


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "variant", "challenge_reach")


@admin.register(EngineJob)
class EngineJobAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "lane", "status", "match", "ply", "level", "user", "attempts",
                    "lease_until", "created_at")
    list_filter = ("status", "lane", "kind")
    readonly_fields = [f.name for f in EngineJob._meta.fields]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "game", "kind", "status", "current_round", "rounds", "starts_at")
    list_filter = ("status", "kind", "game")


admin.site.register([Move, Rating, RatingChange, LadderEntry, LadderEvent, Analysis, Event, Profile,
                     TournamentEntry, TournamentGame, Vacation])
