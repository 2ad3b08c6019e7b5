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
    }}
