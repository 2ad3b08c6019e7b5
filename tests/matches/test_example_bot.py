"""examples/bot.py against a live server: it registers, accepts a challenge from its events, and
plays random legal moves through the public API until the match is over."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from random import Random

import pytest

from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

BOT_PATH = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


def _bot_module():
    spec = importlib.util.spec_from_file_location("example_bot", BOT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _new_bot(live_server, name: str, seed: int):
    bot = _bot_module()
    player = bot.Bot(bot.Client(live_server.url), name, "correct-horse-battery", Random(seed), log=lambda *_: None)
    player.login()
    return player


def _play_out(bots, match_id: int, seconds: float = 60.0) -> Match:
    deadline = time.monotonic() + seconds
    while Match.objects.get(pk=match_id).status == Match.Status.ACTIVE and time.monotonic() < deadline:
        for bot in bots:
            bot.step()
    return Match.objects.get(pk=match_id)


def test_two_bots_accept_and_play_a_whole_game(live_server):
    police, thief = _new_bot(live_server, "policebot", 1), _new_bot(live_server, "thiefbot", 2)
    challenge_id = police.challenge("pearl-yard", ["thiefbot"])
    assert police.match_of(challenge_id) is None
    thief.step()                                   # reads the "challenge_received" event and accepts
    match_id = police.match_of(challenge_id)
    assert match_id is not None
    match = _play_out([police, thief], match_id)
    assert match.status == Match.Status.FINISHED and match.result["termination"]
    assert match.moves.count() == match.ply > 0


def test_a_bot_plays_an_engine_to_the_end(live_server):
    bot = _new_bot(live_server, "lonebot", 3)
    match_id = bot.match_of(bot.challenge("pearl-yard", ["ai:random"]))
    match = _play_out([bot], match_id)
    assert match.status == Match.Status.FINISHED
    assert bot.run(until=lambda: True) is True
    again = _new_bot(live_server, "lonebot", 4)        # an existing account logs in instead
    assert again.client.token and again.active_matches() == []
