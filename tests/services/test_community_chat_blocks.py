"""Match chat rooms and blocks, at the service level (community/)."""
from __future__ import annotations

import pytest

from community.models import ChatMessage
from community.selectors.blocks import is_blocked
from community.selectors.chat import chat_messages
from community.services import blocks, chat
from matches.models import Challenge, Event
from matches.services import challenges, results

from .factories import challenge, match, refusal_code

pytestmark = pytest.mark.django_db


def test_seats_write_in_the_players_room_and_the_other_seat_is_told(users):
    ann, ben, cid = users
    game = match(ann, ben)
    message = chat.chat_post(match_id=game.pk, user=ann, room="players", text="  good luck <b>!</b> ")
    assert message.text == "good luck <b>!</b>" and message.ply == 0
    told = Event.objects.filter(kind="chat_message")
    assert [e.user for e in told] == [ben] and told[0].payload["text"] == "good luck <b>!</b>"
    assert refusal_code(lambda: chat.chat_post(match_id=game.pk, user=cid, room="players", text="hi")) == "chat_closed"


def test_spectators_room_is_hidden_from_the_seats_until_the_end(users):
    ann, ben, cid = users
    game = match(ann, ben)
    chat.chat_post(match_id=game.pk, user=cid, room="spectators", text="ann is losing")
    assert refusal_code(lambda: chat.chat_post(match_id=game.pk, user=ann, room="spectators", text="x")) \
        == "chat_closed"
    assert refusal_code(lambda: chat_messages(match_id=game.pk, user=ann, room="spectators")) == "chat_closed"
    assert not Event.objects.filter(kind="chat_message").exists()
    assert refusal_code(lambda: chat_messages(match_id=game.pk, user=cid, room="players")) == "chat_closed"
    results.match_resign(match_id=game.pk, user=ben)
    assert [m.text for m in chat_messages(match_id=game.pk, user=ann, room="spectators")] == ["ann is losing"]


def test_message_limits(users, settings):
    ann, ben, _ = users
    game = match(ann, ben)
    settings.CHAT_MESSAGE_MAX_CHARS = 5
    assert refusal_code(lambda: chat.chat_post(match_id=game.pk, user=ann, room="players", text="123456")) \
        == "message_too_long"
    assert refusal_code(lambda: chat.chat_post(match_id=game.pk, user=ann, room="players", text=" \x00\x07 ")) \
        == "message_empty"
    assert refusal_code(lambda: chat.chat_post(match_id=game.pk, user=ann, room="lobby", text="hi")) \
        == "invalid_room"
    assert not ChatMessage.objects.exists()


def test_a_block_stops_challenges_chat_and_events_and_is_reversible(users):
    ann, ben, _ = users
    game = match(ann, ben)
    blocks.block_create(blocker=ann, username="ben")
    assert is_blocked(ann, ben) and not is_blocked(ben, ann)
    assert refusal_code(lambda: challenge(ben, [ann])) == "refused_by_player"
    assert refusal_code(lambda: blocks.block_create(blocker=ann, username="ann")) == "cannot_block_self"
    chat.chat_post(match_id=game.pk, user=ben, room="players", text="you there?")
    assert not Event.objects.filter(kind="chat_message", user=ann).exists()
    assert list(chat_messages(match_id=game.pk, user=ann, room="players")) == []
    assert len(chat_messages(match_id=game.pk, user=ben, room="players")) == 1    # the blocked side is not told
    open_seat = challenge(ann, [None])      # the blocked player cannot take the blocker's open seat
    assert refusal_code(lambda: challenges.challenge_accept(challenge_id=open_seat.pk, user=ben)) == "refused_by_player"
    assert Challenge.objects.get(pk=open_seat.pk).seats.filter(user=ben).count() == 0
    blocks.block_delete(blocker=ann, username="ben")
    assert refusal_code(lambda: blocks.block_delete(blocker=ann, username="ben")) == "not_blocked"
    assert challenge(ben, [ann]).status == Challenge.Status.OPEN


def test_eleusis_chat_carries_only_what_people_wrote(users):
    ann, ben, _ = users
    pending = challenge(ann, [ben, "ai:random", "ai:random"], game="new-eleusis")
    game = challenges.challenge_accept(challenge_id=pending.pk, user=ben).match
    chat.chat_post(match_id=game.pk, user=ann, room="players", text="hello table")
    assert list(ChatMessage.objects.values_list("author__username", "text")) == [("ann", "hello table")]
    # the table's chat is open to every seat; engine seats have no account to tell
    assert [e.user.username for e in Event.objects.filter(kind="chat_message")] == ["ben"]
