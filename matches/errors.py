"""Stable API errors: every failure is `{"code", "message", "detail"}` with a fixed HTTP status.

`CODES` is the one list of error codes: each code's status and meaning. Services raise
`ServiceError(code, message)`; the rules library raises `games.GameError` subclasses, whose `code`
attribute is their entry here; DRF's own errors get codes here too. `exception_handler` maps all
three, so bad input never becomes a 500. The OpenAPI schema lists each endpoint's codes
(`matches.apis.schema.errors`) from this table.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import DataError
from django.http import Http404, JsonResponse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop
from rest_framework import exceptions as drf
from rest_framework.response import Response

import games

# code: (HTTP status, what it means). The meanings are marked for translation: in a language
# other than English an error's message is its code's meaning, translated (localized_message).
CODES: dict[str, tuple[int, str]] = {
    # request shape
    "parse_error": (400, gettext_noop("the body is not JSON")),
    "json_too_deep": (400, gettext_noop("the body's JSON nests arrays and objects too deeply")),
    "payload_too_large": (413, gettext_noop("the body is larger than the server accepts (detail.limit, in bytes)")),
    "validation_error": (400, gettext_noop("the body's fields are not valid (detail names them)")),
    "invalid_input": (400, gettext_noop("a value the database cannot hold or search for (such as a NUL character)")),
    "invalid_filter": (400, gettext_noop("a query parameter is malformed")),
    "unsupported_media_type": (415, gettext_noop("the body's content type is not accepted")),
    "not_acceptable": (406, gettext_noop("no representation matches the Accept header")),
    "method_not_allowed": (405, gettext_noop("the URL does not take this method")),
    # authentication and permission
    "not_authenticated": (401, gettext_noop("no credentials were given")),
    "authentication_failed": (401, gettext_noop("the credentials are wrong")),
    "invalid_credentials": (400, gettext_noop("wrong username or password")),
    "forbidden": (403, gettext_noop("you may not do this")),
    "throttled": (429, gettext_noop("too many requests; detail.retry_after says when to try again")),
    "too_many_streams": (429, gettext_noop("as many event streams and waiting requests are open as allowed, for your account or your address (detail.scope, detail.limit); close one first")),
    # accounts
    "invalid_username": (400, gettext_noop("the username is not allowed (reserved, or contains ':')")),
    "weak_password": (400, gettext_noop("the password fails a password rule (detail lists them)")),
    "username_taken": (409, gettext_noop("the username is taken (usernames are unique regardless of case)")),
    "token_not_found": (404, gettext_noop("you have no token with this id")),
    "no_token": (400, gettext_noop("the request did not use a token (use ?all=true to revoke every token)")),
    # not found
    "not_found": (404, gettext_noop("no such resource")),
    "page_not_found": (404, gettext_noop("the page number is past the last page")),
    "game_not_found": (404, gettext_noop("no game with this slug")),
    "match_not_found": (404, gettext_noop("no match with this id")),
    "challenge_not_found": (404, gettext_noop("no challenge with this id")),
    "player_not_found": (404, gettext_noop("no player with this username")),
    "ladder_not_found": (404, gettext_noop("no ladder with this id")),
    "analysis_not_found": (404, gettext_noop("no analysis with this id")),
    # the rules (games.GameError codes)
    games.GameError.code: (400, gettext_noop("the rules refuse the request")),
    games.UnknownGameError.code: (400, gettext_noop("no game with this slug")),
    games.InvalidOptionsError.code: (400, gettext_noop("an option is unknown or its value is not allowed (detail.option names "
                                          "it; detail.variant an unknown variant)")),
    games.InvalidMoveError.code: (400, gettext_noop("the text is not a move of this game")),
    games.IllegalMoveError.code: (400, gettext_noop("the move is not legal in this position")),
    games.GameOverError.code: (409, gettext_noop("the game is over")),
    games.NotYourTurnError.code: (403, gettext_noop("it is another seat's turn")),
    games.InvalidStateError.code: (409, gettext_noop("the stored position cannot be read")),
    # challenges
    "invalid_opponent": (400, gettext_noop("an opponent entry is not a username, 'ai:<level>' or null")),
    "unknown_player": (400, gettext_noop("no player with this username")),
    "unknown_level": (400, gettext_noop("no engine level with this name")),
    "invalid_seat": (400, gettext_noop("the challenger's seat is out of range")),
    "rated_needs_people": (400, gettext_noop("rated matches are between people only")),
    "rated_needs_clock": (400, gettext_noop("rated matches need a time control")),
    "invalid_time_control": (400, gettext_noop("the time control is not one of the kinds, or a value is out of range")),
    "challenge_closed": (409, gettext_noop("the challenge is no longer open (taken, declined, cancelled or expired)")),
    "rematch_pending": (409, gettext_noop("you have asked for this rematch already")),
    "already_accepted": (409, gettext_noop("you have accepted this challenge already")),
    "not_invited": (403, gettext_noop("the challenge has no seat for you")),
    "not_challenger": (403, gettext_noop("only the challenger may do this")),
    "too_many_challenges": (429, gettext_noop("you have as many open challenges as allowed (detail.limit); cancel one first")),
    "too_many_engine_matches": (429, gettext_noop("you have as many matches against engines going as allowed (detail.limit)")),
    # play
    "not_seated": (403, gettext_noop("you do not play in this match")),
    "match_finished": (409, gettext_noop("the match is over")),
    "stale_ply": (409, gettext_noop("the match has moved on (detail.ply is where it is)")),
    "too_late_to_abort": (409, gettext_noop("every seat has moved: resign instead")),
    "your_turn": (409, gettext_noop("it is your turn: move first")),
    "conditional_unavailable": (422, gettext_noop("conditional moves are for two-seat games without hidden information")),
    "invalid_conditional": (400, gettext_noop("a conditional line is not legal play (detail names the line and step)")),
    "time_out": (409, gettext_noop("the deadline of the seat to move has passed: the clock settles the match")),
    "invalid_action": (400, gettext_noop("the action is not offer, accept, decline or withdraw")),
    "no_offer": (409, gettext_noop("there is no offer to accept, decline or withdraw")),
    "already_offered": (409, gettext_noop("your offer of this kind is pending already")),
    "no_opponent": (409, gettext_noop("a one-seat match has nobody to agree with")),
    "takeback_unavailable": (409, gettext_noop("this game does not allow takebacks")),
    "takeback_against_engine": (409, gettext_noop("engines never agree to take moves back: there is nobody to ask")),
    "draw_unavailable": (409, gettext_noop("this game has no draws by agreement (New Eleusis): play on or resign")),
    "nothing_to_take_back": (409, gettext_noop("you have no move to take back")),
    # vacations
    "already_on_vacation": (409, gettext_noop("you are on vacation already")),
    "not_on_vacation": (409, gettext_noop("you are not on vacation")),
    "no_vacation_left": (409, gettext_noop("this year's vacation allowance is used up")),
    # analysis
    "match_in_progress": (409, gettext_noop("the match is still being played (analysis and rematches come after it)")),
    "hidden_information": (422, gettext_noop("only a player may ask for analysis of a hidden-information game")),
    "not_yours": (403, gettext_noop("this analysis shows one player's own cards; only they may read it")),
    "too_many_analyses": (429, gettext_noop("you have as many analyses waiting or running as allowed (detail.limit)")),
    # the analysis board (docs/analysis.md)
    "position_not_found": (404, gettext_noop("no position analysis with this id")),
    "live_game_position": (409, gettext_noop("a position on the requested line is the position of a match you are "
                                "playing (detail.match): no engine help in a live game")),
    "board_unavailable": (422, gettext_noop("the analysis board is for games without hidden information")),
    "too_many_board_moves": (413, gettext_noop("the line has more moves than the board takes (detail.limit)")),
    "invalid_ply": (400, gettext_noop("the ply is not one of the match's (0 to its last), or comes without a match")),
    "invalid_budget": (400, gettext_noop("the thinking time is not within the level's budget (detail.max_seconds)")),
    # ladders
    "staff_only": (403, gettext_noop("only staff may do this")),
    "not_two_player": (400, gettext_noop("ladders and tournaments are for games two can play")),
    "ladder_exists": (409, gettext_noop("a ladder with this name exists")),
    "already_joined": (409, gettext_noop("you are on this ladder already")),
    "not_on_ladder": (403, gettext_noop("join the ladder first")),
    "out_of_reach": (400, gettext_noop("the opponent is not within challenge reach above you")),
    "ladder_game_pending": (409, gettext_noop("a ladder challenge or game is already under way with this player, or as "
                                 "your challenge (one at a time)")),
    # tournaments
    "tournament_not_found": (404, gettext_noop("no tournament with this id")),
    "invalid_tournament": (400, gettext_noop("the tournament's settings do not fit together (detail names the field)")),
    "tournament_closed": (409, gettext_noop("the tournament has started or ended: entries are closed")),
    "tournament_full": (409, gettext_noop("the tournament has as many entrants as it takes")),
    "already_entered": (409, gettext_noop("you have entered this tournament already")),
    "not_entered": (409, gettext_noop("you have not entered this tournament")),
    "not_organiser": (403, gettext_noop("only the tournament's organiser may do this")),
    "too_few_entrants": (409, gettext_noop("a tournament needs at least two entrants to start")),
    "abort_unavailable": (409, gettext_noop("ladder and tournament games cannot be aborted: resign instead")),
    # staff tools (docs/operations.md)
    "user_not_found": (404, gettext_noop("no user with this username")),
    "engine_job_not_found": (404, gettext_noop("no engine job with this id")),
    "job_not_retryable": (409, gettext_noop("only a failed job whose work is still wanted can run again (detail.reason)")),
    "invalid_seat_choice": (400, gettext_noop("the winner is not a seat of this match")),
    # notifications (account e-mail, password reset, webhooks: docs/notifications.md)
    "email_taken": (409, gettext_noop("another account uses this e-mail address (addresses are unique regardless of case)")),
    "no_email": (409, gettext_noop("you have no e-mail address; set one first")),
    "already_verified": (409, gettext_noop("this address is verified already")),
    "invalid_link": (400, gettext_noop("the link or token is wrong, used already or expired")),
    "invalid_time_zone": (400, gettext_noop("not an IANA time zone name (such as Europe/Paris)")),
    "invalid_language": (400, gettext_noop("not a language of this site (detail.languages lists them)")),
    "invalid_channels": (400, gettext_noop("an unknown notification kind or channel (detail names it)")),
    "webhook_not_found": (404, gettext_noop("you have no webhook with this id")),
    "too_many_webhooks": (429, gettext_noop("you have as many webhooks as allowed (detail.limit); delete one first")),
    "webhook_url_refused": (400, gettext_noop("the webhook URL is not https, or resolves to an address that is not public")),
    # community (chat, blocks, reports, moderation, leaving: community/)
    "refused_by_player": (403, gettext_noop("the player does not take challenges from you")),
    "chat_closed": (403, gettext_noop("not your room: seats talk in the players' room, everyone else in the spectators' room "
                         "(which the seats read once the match is over)")),
    "message_too_long": (400, gettext_noop("the message is longer than allowed (detail.limit, in characters)")),
    "message_empty": (400, gettext_noop("the message has no text")),
    "message_not_found": (404, gettext_noop("no message with this id")),
    "invalid_room": (400, gettext_noop("the room is not players or spectators")),
    "cannot_block_self": (400, gettext_noop("you cannot block yourself")),
    "not_blocked": (404, gettext_noop("you have not blocked this player")),
    "invalid_report": (400, gettext_noop("a report names exactly one player, message or match, and a reason")),
    "report_not_found": (404, gettext_noop("no report with this id")),
    "report_closed": (409, gettext_noop("the report is resolved or dismissed already")),
    "message_not_hidden": (409, gettext_noop("the message is not hidden")),
    "already_suspended": (409, gettext_noop("the player is suspended already")),
    "not_suspended": (409, gettext_noop("the player is not suspended")),
    "invalid_suspension": (400, gettext_noop("a suspension lasts a whole number of days from 1 to 36500, or null (for good)")),
    "reason_required": (400, gettext_noop("staff actions need a reason (1 to 1000 characters)")),
    "username_held": (409, gettext_noop("the username belonged to a deleted account and is not free yet")),
    "wrong_password": (400, gettext_noop("the password is not this account's")),
    "server_error": (500, gettext_noop("an unexpected error; it has been logged")),
}


class ServiceError(Exception):
    """A refusal with a code from `CODES`; the status comes from there."""

    def __init__(self, code: str, message: str, *, detail: Any = None):
        if code not in CODES:
            raise KeyError(f"unknown error code {code!r}: add it to matches.errors.CODES")
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = CODES[code][0]
        self.detail = detail if detail is not None else {}


def first_or_error(query, code: str, message: str):
    """The first row of `query`, or ServiceError(code, message) when it has none."""
    row = query.first()
    if row is None:
        raise ServiceError(code, message)
    return row


_DRF_CODES = {
    drf.NotAuthenticated: "not_authenticated",
    drf.AuthenticationFailed: "authentication_failed",
    drf.PermissionDenied: "forbidden",
    drf.NotFound: "not_found",
    drf.MethodNotAllowed: "method_not_allowed",
    drf.NotAcceptable: "not_acceptable",
    drf.UnsupportedMediaType: "unsupported_media_type",
    drf.Throttled: "throttled",
    drf.ParseError: "parse_error",
    drf.ValidationError: "validation_error",
}


def localized_message(code: str, message: str) -> str:
    """The human message of an error in the active language (Accept-Language on the API, the
    page's language on the pages): English keeps the specific sentence the code raised; Japanese
    gives the code's meaning from `CODES`, translated (the specifics stay in `detail`), unless the
    sentence itself was marked for translation (`gettext_lazy`, `format_lazy`), as it is where one
    code covers more than one reason. The code itself never changes."""
    if isinstance(message, Promise):     # a specific sentence marked for translation: say it
        return str(message)
    language = translation.get_language() or "en"
    if language.split("-")[0] == "en" or code not in CODES:
        return message
    return gettext(CODES[code][1])


def error_body(code: str, message: str, detail: Any = None) -> dict:
    return {"code": code, "message": localized_message(code, message),
            "detail": detail if detail is not None else {}}


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ServiceError):
        response = Response(error_body(exc.code, exc.message, exc.detail), status=exc.status)
        if exc.status == 429 and isinstance(exc.detail, dict) and "retry_after" in exc.detail:
            response["Retry-After"] = str(exc.detail["retry_after"])
        return response
    if isinstance(exc, games.GameError):
        code = exc.code if exc.code in CODES else games.GameError.code
        return Response(error_body(code, str(exc), getattr(exc, "detail", None)), status=CODES[code][0])
    if isinstance(exc, DataError):
        return Response(error_body("invalid_input", CODES["invalid_input"][1]), status=400)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    if isinstance(exc, drf.APIException):
        return _drf_response(exc)
    return None


def _drf_response(exc: drf.APIException) -> Response:
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "forbidden")
    if isinstance(exc, drf.ValidationError):
        message, detail = "the request body is not valid", exc.detail
    else:
        message, detail = str(exc.detail), {}
    if isinstance(exc, drf.Throttled) and exc.wait is not None:
        detail = {"retry_after": int(exc.wait + 0.999)}
    response = Response(error_body(code, message, detail), status=exc.status_code)
    if getattr(exc, "auth_header", None):
        response["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        response["Retry-After"] = str(int(exc.wait + 0.999))
    return response


def not_found_view(request, exception=None) -> JsonResponse:
    """Django's 404 for URLs no view matches: the same JSON shape as every other error."""
    return JsonResponse(error_body("not_found", f"no such resource: {request.path}"), status=404)


def server_error_view(request) -> JsonResponse:
    return JsonResponse(error_body("server_error", CODES["server_error"][1]), status=500)
