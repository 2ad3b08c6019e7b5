"""The few words the pages' scripts write themselves, in the page's language: base.html puts
them in a JSON script element (`page-strings`), which the scripts read (static/web/strings.js)."""
from __future__ import annotations

from django.utils.translation import gettext


def page_strings(request) -> dict:
    return {"page_strings": {
        "board_label": gettext("Board: arrow keys move between cells, Enter picks"),
        "no_answer": gettext("The server did not answer; try again."),
        "which_move": gettext("Which move? "),
        "play_move": gettext("Play %(move)s"),
        "your_play": gettext("Your play: %(cards)s"),
        "challenge_received": gettext("New challenge from %(from)s."),
        "match_started": gettext("Match #%(match)s has started."),
        "your_turn": gettext("Your turn in match #%(match)s."),
        "updated": gettext("Updated: ply %(ply)s."),
        "updated_status": gettext("Updated: ply %(ply)s, %(status)s."),
        "ply_of": gettext("ply %(at)s of %(current)s"),
        "ply_of_replay": gettext("ply %(at)s of %(current)s (replay)"),
        # the analysis board (static/web/board_page.js)
        "board_refused": gettext("The server refused this line."),
        "board_over": gettext("The game is over in this position."),
        "board_to_move": gettext("Ply %(ply)s, seat %(seat)s to move."),
        "board_failed": gettext("The engine could not answer: %(error)s"),
        "board_thinking": gettext("The engine is thinking (%(status)s)…"),
        "board_status_queued": gettext("queued"),
        "board_status_running": gettext("running"),
        "board_value": gettext("Level %(level)s, %(seconds)s s: value %(value)s for seat %(seat)s "
                               "(to move; 1 a win, −1 a loss)."),
        "board_play_move": gettext("Play %(move)s on the board"),
        "board_play_line": gettext("Play the line up to %(move)s"),
    }}
