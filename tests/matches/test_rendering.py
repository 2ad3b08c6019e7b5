"""Output rendering: `rendered` (one kept serializer instance per class, DRF's own
`to_representation`) gives exactly what a fresh serializer's `.data` gives, for real payloads (a
move's answer, a match with a clock, an offer and a result, an event page, a list) and for the edge
cases (a missing key, a callable, an object read by attribute, other time zones)."""
import datetime
import json
from types import SimpleNamespace

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from matches.apis.events import EventPageOut
from matches.apis.matches import MatchDetailOut, MatchSummaryOut, MoveOut, PlayedOut
from matches.apis.schema import TimeControlSchema, rendered
from matches.selectors import events as event_selectors
from matches.selectors import matches as selectors
from matches.services import offers, play, results
from tests.services.factories import UserFactory, match

pytestmark = pytest.mark.django_db


def _same(serializer_cls, payload, many=False):
    expected = serializer_cls(payload, many=many).data
    got = rendered(serializer_cls, payload, many=many)
    # Equal as JSON too: the same keys in the same order, the same types after encoding.
    assert json.dumps(got, cls=DjangoJSONEncoder) == json.dumps(expected, cls=DjangoJSONEncoder)
    assert got == expected
    return got


def test_a_move_a_clocked_match_an_offer_a_result_and_events_render_as_drf_renders_them():
    ann, ben = UserFactory(), UserFactory()
    game = match(ann, ben, days_per_move=3)
    state = selectors.match_state(game)
    played = play.move_submit(match_id=game.pk, user=ann, move=state.legal_notations()[0], ply=0)
    detail = selectors.match_detail(played.match, ann, played.seats, played.state, legal=False)
    assert detail["clocks"] and detail["last_move"] and detail["time_control"]
    _same(PlayedOut, {"ply": 1, "seat": 0, "move": played.record.notation, "match": detail})
    offers.match_draw(match_id=game.pk, user=ben)
    for viewer in (ann, ben, None):
        _same(MatchDetailOut, selectors.match_detail(selectors.get_match(game.pk), viewer))
    results.match_resign(match_id=game.pk, user=ben)
    finished = selectors.get_match(game.pk)
    assert finished.result
    _same(MatchDetailOut, selectors.match_detail(finished, ann))
    _same(MatchSummaryOut, [selectors.match_summary(finished, ann)] * 3, many=True)
    _same(MoveOut, selectors.match_moves(finished), many=True)
    page = event_selectors.events_after(ann, 0, 50)
    assert page
    _same(EventPageOut, {"results": [event_selectors.event_payload(e) for e in page], "last_id": page[-1].pk,
                         "more": False, "next": "http://testserver/api/v1/events/?after=1"})


def test_edge_cases_render_as_a_fresh_serializer_renders_them():
    moved = {"ply": 3, "seat": 1, "move": "a1-a2", "created_at": timezone.now()}
    assert _same(MoveOut, {**moved, "ply": "7"})["ply"] == 7          # converted as the field does
    with pytest.raises(KeyError):
        rendered(MoveOut, {"ply": 3, "seat": 1, "move": "a1-a2"})      # a missing required key, as DRF
    assert _same(MoveOut, {**moved, "move": lambda: "b1-b2"})["move"] == "b1-b2"
    _same(TimeControlSchema, {"kind": "per_move", "days": 3})          # its own to_representation
    _same(MatchDetailOut, [], many=True)
    _same(MoveOut, SimpleNamespace(**moved))                            # an object, read by attribute
    for created in (timezone.now().replace(tzinfo=None), "2026-01-01", timezone.now().astimezone(
            datetime.timezone(datetime.timedelta(hours=9)))):           # naive, a string, another zone
        _same(MoveOut, {**moved, "created_at": created})
    with timezone.override("Asia/Tokyo"):
        assert _same(MoveOut, moved)["created_at"].endswith("+09:00")
    _same(MoveOut, (SimpleNamespace(**moved), moved), many=True)


def test_capabilities_render_as_their_declared_fields_would():
    """The capabilities skip DRF's field-by-field rendering (their values are plain already): the
    answer is what the declared fields give, for granted and refused capabilities alike."""
    from rest_framework import serializers

    from matches.apis.matches import CapabilitiesOut
    from matches.selectors.capabilities import CAPABILITIES, GRANTED, Verdict

    verdicts = {name: (GRANTED if i % 2 else Verdict("not_your_turn", f"refused {i}")).as_dict()
                for i, name in enumerate(CAPABILITIES)}
    out = CapabilitiesOut()
    declared = serializers.Serializer.to_representation(out, verdicts)
    assert rendered(CapabilitiesOut, verdicts) == declared == out.to_representation(verdicts)
    assert list(declared) == list(CAPABILITIES)
    assert declared["move"] == {"allowed": False, "code": "not_your_turn", "message": "refused 0"}
    assert declared[CAPABILITIES[1]] == {"allowed": True, "code": None, "message": None}
