"""`bench.streams`: which servers `--servers` accepts, the order the runs alternate in, and the
table's medians over rounds."""
import argparse

import pytest

from bench.streams import median_rows, parse_servers, schedule


def test_servers_are_the_known_ones_in_the_order_given():
    assert parse_servers("granian, threaded,asgi,daphne") == ["granian", "threaded", "asgi", "daphne"]


@pytest.mark.parametrize("value", ["hypercorn", "asgi,asgi", "", " , "])
def test_an_unknown_repeated_or_empty_server_list_is_refused(value):
    with pytest.raises(argparse.ArgumentTypeError):
        parse_servers(value)


def test_rounds_alternate_the_order_of_the_servers():
    assert schedule([1000], ["threaded", "asgi", "granian"], 2) == [
        (1000, "threaded"), (1000, "asgi"), (1000, "granian"),
        (1000, "granian"), (1000, "asgi"), (1000, "threaded")]
    assert schedule([10, 20], ["asgi"], 1) == [(10, "asgi"), (20, "asgi")]


def test_the_median_leaves_out_a_figure_a_failed_run_lacks():
    runs = [{"server": "daphne", "streams": 1000, "held_after": 1000, "p50_ms": 10.0, "rss_mb": 100.0},
            {"server": "daphne", "streams": 1000, "held_after": 900, "p50_ms": 30.0, "rss_mb": 120.0},
            {"server": "daphne", "streams": 1000, "error": "did not start"},
            {"server": "asgi", "streams": 1000, "held_after": 1000, "p50_ms": 5.0, "rss_mb": 90.0}]
    rows = {row["server"]: row for row in median_rows(runs)}
    assert rows["daphne"]["runs"] == 3 and rows["daphne"]["failed"] == 1
    assert rows["daphne"]["held_after"] == 950 and rows["daphne"]["p50_ms"] == 20.0 and rows["daphne"]["rss_mb"] == 110.0
    assert rows["asgi"]["p50_ms"] == 5.0 and rows["asgi"]["failed"] == 0
    assert rows["daphne"]["moves"] is None
