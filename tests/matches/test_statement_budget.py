"""SQL statement budgets of the hot requests: a move and the reads a client polls. A change that
adds a statement to them fails here; raise a budget only with a reason."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Event, Match

from .helpers import play, start_match

pytestmark = pytest.mark.django_db

# Token (with its user); the transaction's savepoint; the match locked with its seats (and whether
# they prepared replies); on PostgreSQL the move, the match's changed columns and the events (with
# their locks) in one statement, elsewhere three; the release.
MOVE_BUDGET = 5 if connection.vendor == "postgresql" else 7
# Token; the match with its seats and their users.
DETAIL_BUDGET = 2
# Token; the page of events.
EVENTS_BUDGET = 2


@pytest.fixture
def match_id(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)       # both tokens used once (their first use is recorded)
    play(as_bob, match_id, "a9-a8", ply=1)
    return match_id


def _statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        call()
    return [q["sql"] for q in queries.captured_queries]


def test_a_move_stays_within_its_statement_budget(as_alice, match_id):
    before = Event.objects.count()
    sql = _statements(lambda: play(as_alice, match_id, "a1-a2", ply=2))
    assert len(sql) <= MOVE_BUDGET, "\n".join(sql)
    # The budget is not bought by leaving work out: the opponent hears of the move and their turn.
    assert list(Event.objects.filter(pk__gt=0).order_by("-id").values_list("kind", flat=True)[:2]) == \
        ["your_turn", "move"]
    assert Event.objects.count() == before + 2 and Match.objects.get(pk=match_id).ply == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_committed_move_is_these_five_round_trips(as_alice, match_id):
    """Outside a test's transaction the move's transaction is the outermost one: the token with its
    user, BEGIN, the locked match with its seats, one statement writing the move, the match's
    changed columns and the events (the event locks taken by the transaction's last statement),
    and COMMIT on its own."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    sql = _statements(lambda: play(as_alice, match_id, "a1-a2", ply=2))
    assert [s.split(" ", 3)[:3] for s in sql] == [
        ["SELECT", 't."id",', 't."user_id",'], ["BEGIN"], ["SELECT", 's."id",', 's."seat",'],
        ["WITH", "held_0", "AS"], ["COMMIT"]], "\n".join(sql)
    assert "FOR UPDATE OF m" in sql[2] and len(sql) == MOVE_BUDGET
    write = sql[3]
    assert 'INSERT INTO "matches_move"' in write and 'UPDATE "matches_match" SET' in write
    assert "INSERT INTO matches_event" in write and "pg_advisory_xact_lock" in write and "COMMIT" not in write
    match = Match.objects.get(pk=match_id)
    assert match.ply == 3 and match.last_move["move"] == "a1-a2" and match.moves.get(ply=3).notation == "a1-a2"
    assert list(Event.objects.order_by("-id").values_list("kind", flat=True)[:2]) == ["your_turn", "move"]


def test_a_move_writes_only_what_changed(as_alice, match_id):
    update = [s for s in _statements(lambda: play(as_alice, match_id, "a1-a2", ply=2))
              if 'UPDATE "matches_match" SET' in s]
    assert len(update) == 1 and '"options" = ' not in update[0] and '"seed" = ' not in update[0]
    move = Match.objects.get(pk=match_id).moves.get(ply=3)
    assert (move.seat, move.notation) == (0, "a1-a2")


def _prepare_reply(as_bob, match_id):
    response = as_bob.put(f"/api/v1/matches/{match_id}/conditional/",
                          {"lines": [["a1-a2", "b9-b8"]], "ply": 2}, format="json")
    assert response.status_code == 200, response.json()


def test_a_prepared_reply_costs_statements_only_when_there_is_one(as_alice, as_bob, match_id):
    _prepare_reply(as_bob, match_id)
    sql = _statements(lambda: play(as_alice, match_id, "a1-a2", ply=2))
    assert Match.objects.get(pk=match_id).ply == 4          # the reply was played in the same request
    assert len(sql) > MOVE_BUDGET


def test_reads_stay_within_their_statement_budgets(as_alice, match_id):
    assert len(_statements(lambda: as_alice.get(f"/api/v1/matches/{match_id}/"))) <= DETAIL_BUDGET
    assert len(_statements(lambda: as_alice.get("/api/v1/events/?after=0"))) <= EVENTS_BUDGET


@pytest.mark.parametrize("query,listed", [("", False), ("?legal=none", False), ("?legal=all", True)])
def test_a_moves_answer_lists_legal_moves_only_when_asked(as_alice, as_bob, match_id, query, listed):
    _prepare_reply(as_bob, match_id)        # the reply makes it alice's turn again at once
    response = as_alice.post(f"/api/v1/matches/{match_id}/moves/{query}", {"move": "a1-a2", "ply": 2},
                             format="json")
    assert response.status_code == 201, response.json()
    match = response.json()["match"]
    assert match["to_move"] == 0 and match["ply"] == 4 and bool(match["legal_moves"]) is listed


def test_a_moves_answer_refuses_an_unknown_legal_value(as_alice, match_id):
    response = as_alice.post(f"/api/v1/matches/{match_id}/moves/?legal=some", {"move": "a1-a2", "ply": 2},
                             format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_filter"
    assert Match.objects.get(pk=match_id).ply == 2
