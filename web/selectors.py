"""Page reads: what the templates show, assembled from `matches.selectors` (the same payloads the
API serves, so the pages are never a second source of truth). The few queries the API has no
selector for yet (a match's analyses) are small and live here."""
from __future__ import annotations

import hashlib
from datetime import datetime

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext

import games
from matches.models import (
    Analysis,
    Event,
    LadderEntry,
    Match,
    MatchSeat,
    RatingChange,
    Tournament,
    TournamentEntry,
)
from matches.rating_keys import PROVISIONAL_DEVIATION, RatingKey, rated_keys, system_for
from matches.selectors import capabilities, catalogue
from matches.selectors import challenges as challenge_selectors
from matches.selectors import ladders as ladder_selectors
from matches.selectors import matches as match_selectors
from matches.selectors import players as player_selectors
from matches.selectors import tournaments as tournament_selectors
from matches.selectors.analysis import analysis_payload
from matches.selectors.events import latest_event_id  # noqa: F401  (the lobby's live cursor)

from . import eleusis
from . import match_page as match_page_parts

# How a match can end (games.Termination), as the pages word it.
TERMINATION_WORDS = {
    "capture_goal": gettext_lazy("capture goal"),
    "lead": gettext_lazy("lead"),
    "no_moves": gettext_lazy("no moves"),
    "repetition": gettext_lazy("repetition"),
    "no_capture_limit": gettext_lazy("no capture limit"),
    "five_in_row": gettext_lazy("five in row"),
    "too_few_men": gettext_lazy("too few men"),
    "all_captured": gettext_lazy("all captured"),
    "home": gettext_lazy("home"),
    "mutual_block": gettext_lazy("mutual block"),
    "max_plies": gettext_lazy("max plies"),
    "line": gettext_lazy("line"),
    "both_lines": gettext_lazy("both lines"),
    "goal": gettext_lazy("goal"),
    "max_steps": gettext_lazy("max steps"),
    "last_survivor": gettext_lazy("last survivor"),
    "caught": gettext_lazy("caught"),
    "escape": gettext_lazy("escape"),
    "connection": gettext_lazy("connection"),
    "no_split_move": gettext_lazy("no split move"),
    "goal_closed": gettext_lazy("goal closed"),
    "went_out": gettext_lazy("went out"),
    "all_expelled": gettext_lazy("all expelled"),
    "guessed": gettext_lazy("guessed"),
    "card_cap": gettext_lazy("card cap"),
    "resignation": gettext_lazy("resignation"),
    "timeout": gettext_lazy("timeout"),
    "agreement": gettext_lazy("agreement"),
    "aborted": gettext_lazy("aborted"),
    "adjudicated": gettext_lazy("adjudicated"),
}

RECENT_FINISHED = 10
LOBBY_EVENTS = 10


def game_title(slug: str) -> str:
    """The game's name in the page's language."""
    return catalogue.game_title(slug, translation.get_language())


def player_label(name: str | None) -> str:
    """How a seat reads on a page: a username, 'engine (easy)', or 'open seat'."""
    if name is None:
        return gettext("open seat")
    return gettext("engine (%(level)s)") % {"level": name[3:]} if name.startswith("ai:") else name


# --- the lobby ---------------------------------------------------------------------------------
def _lobby_row(summary: dict, user) -> dict:
    names = {s["seat"]: s["player"] for s in summary["seats"]}
    mine = next((s for s, name in names.items() if name == user.username), None)
    return {**summary, "title": game_title(summary["game"]), "my_seat": mine,
            "my_turn": summary["to_move"] is not None and summary["to_move"] == mine,
            "opponents": [player_label(n) for s, n in sorted(names.items()) if s != mine],
            "to_move_name": player_label(names.get(summary["to_move"])) if summary["to_move"] is not None else None}


def _turn_order(row: dict) -> tuple:
    """My turn first, then the nearest deadline, then the most recently active."""
    deadline: datetime | None = row["deadline"]
    return (not row["my_turn"], deadline is None, deadline.timestamp() if deadline else 0,
            -row["updated_at"].timestamp())


def my_games(user) -> dict:
    active = [_lobby_row(match_selectors.match_summary(m), user)
              for m in match_selectors.matches_query(player=user.username, status="active")]
    finished = [_lobby_row(match_selectors.match_summary(m), user) for m in
                match_selectors.matches_query(player=user.username).exclude(status="active")[:RECENT_FINISHED]]
    return {"active": sorted(active, key=_turn_order), "finished": finished}


def _challenge_row(challenge, user) -> dict:
    payload = challenge_selectors.challenge_payload(challenge)
    mine = next((s for s in payload["seats"] if s["player"] == user.username), None)
    return {**payload, "title": game_title(payload["game"]),
            "mine": payload["created_by"] == user.username,
            "awaiting_me": mine is not None and not mine["accepted"],
            "seat_labels": [f"{player_label(s['player'])}{'' if s['accepted'] else ' (invited)'}"
                            if s["player"] else "open seat" for s in payload["seats"]]}


def lobby_challenges(user) -> dict:
    own = [c for c in challenge_selectors.challenges_for(user) if c.status == "open"]
    seeks = [c for c in challenge_selectors.challenges_for(user, open_only=True)
             if c.created_by_id != user.pk and not any(s.user_id == user.pk for s in c.seats.all())]
    return {"own": [_challenge_row(c, user) for c in own], "seeks": [_challenge_row(c, user) for c in seeks]}


def _tournament_row(summary: dict, entered: bool) -> dict:
    return {**summary, "title": game_title(summary["game"]), "entered": entered,
            "full": summary["entrants"] >= summary["max_entrants"]}


def lobby_events(user) -> dict:
    """Tournaments taking entries or under way, and ladders, with the viewer's place in each."""
    tournaments = list(tournament_selectors.tournaments_query()
                       .filter(status__in=(Tournament.Status.OPEN, Tournament.Status.RUNNING))[:LOBBY_EVENTS])
    entered = set(TournamentEntry.objects.filter(user=user, tournament__in=tournaments)
                  .values_list("tournament_id", flat=True))
    ladders = list(ladder_selectors.ladders_query()[:LOBBY_EVENTS])
    ranks = dict(LadderEntry.objects.filter(user=user, ladder__in=ladders).values_list("ladder_id", "rank"))
    return {
        "tournaments": [_tournament_row(tournament_selectors.tournament_summary(t), t.pk in entered)
                        for t in tournaments],
        "ladders": [{**ladder_selectors.ladder_payload(ladder), "title": game_title(ladder.game),
                     "my_rank": ranks.get(ladder.pk)} for ladder in ladders],
    }


def games_catalogue() -> list[dict]:
    """The catalogue in the page's language."""
    language = translation.get_language()
    return [catalogue.localized_entry(e, language) for e in catalogue.catalogue()]


# --- the match page ---------------------------------------------------------------------------
def _result_text(result: dict | None, names: dict[int, str], status: str) -> str:
    if status == "aborted":
        return gettext("Aborted")
    if not result:
        return ""
    how = termination_label(result["termination"])
    winners = result["winners"]
    if not winners:
        return gettext("Draw (%(how)s)") % {"how": how}
    if len(names) == 1:
        return gettext("Finished (%(how)s); score %(score)s") % {"how": how, "score": f"{result['scores'][0]:g}"}
    return gettext("%(winners)s won (%(how)s)") % {"winners": gettext(" and ").join(names[w] for w in winners),
                                                   "how": how}


def termination_label(termination: str) -> str:
    """How a match ended, in the page's language ('five captured' for five_captured)."""
    return str(TERMINATION_WORDS.get(termination, termination.replace("_", " ")))


def _days(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def clock_text(seconds: int | None) -> str:
    """A seat's time left as the page's clocks show it (clocks.js counts the same way)."""
    if seconds is None:
        return ""
    if seconds <= 0:
        return gettext("time is up")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    return (f"{days}d " if days else "") + f"{hours:02}:{rest // 60:02}:{rest % 60:02}"


def time_control_text(time_control: dict | None) -> str:
    """How a match's time control reads ('' without a clock)."""
    if not time_control:
        return ""
    if time_control["kind"] == "fischer":
        return gettext("Fischer clock: %(initial)s to start, %(increment)s more after each move, at most %(most)s") % {
            "initial": _days(time_control["initial_days"]), "increment": _days(time_control["increment_days"]),
            "most": _days(time_control["max_days"])}
    return gettext("%(days)s a move") % {"days": _days(time_control["days"])}


def low_clock_seconds(time_control: dict | None) -> int:
    """When a running clock shows as low: under a quarter of a turn's time, at most a day."""
    if not time_control:
        return 86400
    turn_days = time_control["days"] if time_control["kind"] != "fischer" else time_control["max_days"]
    return min(86400, turn_days * 86400 // 4)


def visible_analysis(match: Match, user) -> dict | None:
    """The newest analysis of the match the viewer may read (`capabilities.readable_analyses`: one
    of a hidden-information game is its requester's alone), preferring a finished one."""
    rows = list(capabilities.readable_analyses(match, user).order_by("-id")[:5])
    chosen = next((a for a in rows if a.status == Analysis.Status.DONE), rows[0] if rows else None)
    return analysis_payload(chosen) if chosen else None


def match_page(match_id: int, user, flip: bool = False) -> dict:
    """Everything the match page shows, as this viewer may see it (`flip`: the board turned the
    other way round from the viewer's default)."""
    match = match_selectors.get_match(match_id)
    seats = match_selectors.seats_of(match)
    state = match_selectors.match_state(match)
    detail = match_selectors.match_detail(match, user, seats, state)
    seat = detail["viewer_seat"]
    rules = games.get_game(match.game)
    names = {s.seat: player_label(s.player_name) for s in seats}
    active = match.status == "active"
    analysis = visible_analysis(match, user)
    if analysis:
        for row in analysis["summary"]["seats"]:
            row["name"] = names.get(row["seat"], "")
    clocks = {c["seat"]: {**c, "text": clock_text(c["remaining"])} for c in detail["clocks"] or []}
    allowed = {name: c["allowed"] for name, c in detail["capabilities"].items()}
    offers = [{**o, "name": names[o["seat"]], "mine": o["seat"] == seat,
               "can_accept": allowed[f"accept_{o['kind']}"], "can_decline": allowed[f"decline_{o['kind']}"],
               "can_withdraw": allowed[f"withdraw_{o['kind']}"]} for o in detail["offers"]]
    pictured = match_page_parts.board(state, seat, match.game, flip)
    sides = match_page_parts.seat_sides(match.game, seats, pictured["captures"])
    changes = rating_changes(match) if not active else {}
    marks = match_page_parts.move_marks(analysis)
    return {
        "match": detail, "rules": rules, "title": game_title(rules.slug), "seat": seat,
        "names": names, "flip": flip,
        "my_side": sides[seat]["side"] if seat is not None else None,
        "seat_rows": [{"seat": s.seat, "name": names[s.seat], "to_move": active and s.seat == match.to_move,
                       "username": s.user.username if s.user_id else None, "clock": clocks.get(s.seat),
                       "offers": [o["kind"] for o in offers if o["seat"] == s.seat], **sides[s.seat],
                       "rating_change": changes.get(s.seat)} for s in seats],
        "time_control": time_control_text(detail["time_control"]),
        "low_seconds": low_clock_seconds(detail["time_control"]),
        "to_move_name": names.get(match.to_move) if match.to_move is not None else None,
        "my_turn": seat is not None and active and match.to_move == seat,
        **pictured, "board_text": state.render_text(seat),
        "replay": not rules.has_hidden_information,
        "table": eleusis.table(state.view(seat), names) if match.game == "new-eleusis" else None,
        "moves": [{**m, "name": names.get(m["seat"], ""), "mark": marks.get(m["ply"])}
                  for m in match_selectors.match_moves(match)],
        "offers": offers,
        "my_offers": [o["kind"] for o in offers if o["mine"]],
        "their_offers": [o["kind"] for o in offers if not o["mine"]],
        "declined": declined_offer(match, user, seat),
        "result_text": _result_text(detail["result"], names, match.status),
        "capabilities": match_page_parts.capabilities(allowed),
        "analysis": analysis,
        "version": page_version(match, seats, analysis, _last_declined(match, user)),
    }


def declined_offer(match: Match, user, seat: int | None) -> dict | None:
    """The viewer's own offer declined since the turn began (the page tells them, once they look)."""
    if seat is None or not user.is_authenticated or match.status != Match.Status.ACTIVE:
        return None
    event = (Event.objects.filter(user=user, kind=Event.Kind.OFFER_DECLINED, payload__match=match.pk)
             .order_by("-id").first())
    if event is None or (match.turn_started_at and event.created_at < match.turn_started_at):
        return None
    return {"offer": event.payload.get("offer"), "by": player_label(event.payload.get("by"))}


def rating_changes(match: Match) -> dict[int, int]:
    """Seat → rounded rating change of a rated, finished match."""
    if not match.rated:
        return {}
    by_user = {c.rating.user_id: round(c.rating_after - c.rating_before)
               for c in RatingChange.objects.filter(match=match).select_related("rating")}
    return {s.seat: by_user[s.user_id] for s in match.seats.all() if s.user_id in by_user}


def match_position(match_id: int, user, ply: int, flip: bool = False) -> dict:
    """The board after `ply` moves as the viewer sees it (replay): perfect-information games only,
    since an earlier position of a hidden-information game would need its hidden state of then."""
    match = match_selectors.get_match(match_id)
    rules = games.get_game(match.game)
    if rules.has_hidden_information:
        raise games.GameError("replay is not offered in games with hidden information")
    seat = match_selectors.viewer_seat(match, user)
    notations = list(match.moves.order_by("ply").values_list("notation", flat=True)[:max(0, min(ply, match.ply))])
    state = rules.replay(players=match.players, seed=match.seed, options=match.options, moves=notations)
    pictured = match_page_parts.board(state, seat, match.game, flip)
    return {"ply": len(notations), "board_svg": pictured["board_svg"], "last_move": pictured["last_move"]}


def offer_declined_now(match_id: int, user) -> str:
    """After an offer: '' while it stands, else who declined it at once (an engine)."""
    match = match_selectors.get_match(match_id)
    seat = match_selectors.viewer_seat(match, user)
    declined = declined_offer(match, user, seat)
    if declined is None or MatchSeat.objects.filter(match=match, seat=seat).exclude(offer="").exists():
        return ""
    return gettext("%(by)s declined your %(offer)s offer.") % {"by": declined["by"], "offer": declined["offer"]}


def rematch_started(match_id: int, user) -> int | None:
    """The id of the rematch of `match_id` already under way with `user` seated, if any."""
    return (Match.objects.filter(challenge__rematch_of_id=match_id, seats__user=user)
            .order_by("-id").values_list("pk", flat=True).first())


def _last_declined(match: Match, user) -> int | None:
    """The id of the viewer's newest `offer_declined` event of this match (a person declining
    changes no match row the viewer's page is keyed on)."""
    if not user.is_authenticated:
        return None
    return (Event.objects.filter(user=user, kind=Event.Kind.OFFER_DECLINED, payload__match=match.pk)
            .order_by("-id").values_list("id", flat=True).first())


def page_version(match: Match, seats, analysis: dict | None, declined: int | None = None) -> str:
    """Changes whenever anything the match page shows changes: the position, offers, analyses, an
    offer of the viewer's declined."""
    key = "|".join([str(match.ply), match.status, match.updated_at.isoformat(),
                    ",".join(s.offer or "-" for s in seats),
                    f"{analysis['id']}:{analysis['status']}" if analysis else "-", str(declined)])
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def current_version(match_id: int, user) -> str:
    """`page_version` read afresh (the live endpoint's check)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return "gone"
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    return page_version(match, seats, visible_analysis(match, user), _last_declined(match, user))


# --- players and ratings --------------------------------------------------------------------
LEADERBOARD_ROWS = 100
HISTORY_POINTS = 200


def rating_title(game: str, variant: str | None) -> str:
    return f"{game_title(game)} ({variant})" if variant else game_title(game)


def leaderboard(slug: str, variant: str | None = None) -> dict:
    """A game's leaderboard (ranked's: established, active ratings, best first) and the other
    boards of the game (its variants rated on their own)."""
    key = player_selectors.rating_key(slug, variant)
    rows = player_selectors.leaderboard_query(key)[:LEADERBOARD_ROWS]
    return {"key": key, "title": rating_title(key.game, key.variant),
            "rows": [player_selectors.leaderboard_entry(row, rank) for rank, row in enumerate(rows, start=1)],
            "boards": [{"variant": k.variant, "title": rating_title(k.game, k.variant), "current": k == key}
                       for k in rated_keys(slug)],
            "established": round(PROVISIONAL_DEVIATION[system_for(slug)]),
            "inactive_days": settings.LEADERBOARD_INACTIVE_DAYS}


def rating_histories(username: str, ratings: list[dict]) -> list[dict]:
    """Each rating of the player's profile with its history (the latest HISTORY_POINTS rated
    games, oldest first) and the number of the first game shown."""
    out = []
    for rating in ratings:
        key = RatingKey(rating["game"], rating["variant"] or "")
        changes = list(player_selectors.rating_history(username, key).reverse()[:HISTORY_POINTS])[::-1]
        points = [player_selectors.rating_point(c) for c in changes]
        for point in points:
            point["change"] = round(point["rating_after"] - point["rating_before"])
        out.append({**rating, "key": str(key), "title": rating_title(key.game, key.variant), "points": points,
                    "band_below": PROVISIONAL_DEVIATION[system_for(key.game)],
                    "first_number": max(1, rating["games"] - len(points) + 1)})
    return out


def player_matches(username: str, limit: int = 20) -> list[dict]:
    rows = []
    for m in match_selectors.matches_query(player=username)[:limit]:
        summary = match_selectors.match_summary(m)
        rows.append({**summary, "title": game_title(m.game),
                     "players": [player_label(s["player"]) for s in summary["seats"]]})
    return rows


# -- the analysis board (docs/analysis.md) -------------------------------------------------------

def analysis_board(user, *, moves: list[str], match_id: int | None = None, ply: int | None = None,
                   game: str | None = None, flip: bool = False) -> dict:
    """The board after a line (a finished match at `ply`, or `game`'s start, then `moves`):
    the picture, the legal moves, who is to move, and what the ask form offers. The line is
    replayed by the rules (`matches.selectors.positions.replay_line`); a refusal is raised."""
    from matches.selectors import positions as board

    match = match_selectors.get_match(match_id) if match_id is not None else None
    line = board.replay_line(moves=moves, match=match, ply=ply, game=game)
    state = line.final
    seat = state.current_player
    pictured = match_page_parts.board(state, None, line.game, flip)
    budgets = {level: round(board.level_budget(line.game, level), 3) for level in ("easy", "medium", "strong")}
    base_ply = (match.ply if ply is None else ply) if match is not None else 0
    return {"game": line.game, "title": game_title(line.game), "match": match.pk if match else None,
            "base_ply": base_ply, "moves": list(moves), "ply": state.ply, "seat": seat,
            "over": state.is_terminal, "legal_moves": [] if state.is_terminal else state.legal_notations(),
            "board_svg": pictured["board_svg"], "last_move": pictured["last_move"],
            "board_text": state.render_text(None), "budgets": budgets}


def board_games() -> list[dict]:
    """The games the analysis board opens (no hidden information), for its game list."""
    return [{"slug": slug, "title": game_title(slug)} for slug, rules in sorted(games.GAMES.items())
            if not rules.has_hidden_information]
