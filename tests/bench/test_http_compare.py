"""`bench.http_moves --baseline`: the side-by-side table is the median of each figure over the
runs of each side, and a figure a run lacks (no /proc) is left out, not counted as zero."""
from bench.http_moves import comparison_rows, print_comparison


def _run(p50: float, rate: float, web: float | None = 4.0) -> dict:
    level = {"floor": {"p50_ms": 1.0, "p99_ms": 2.0, "rate_per_s": 1000.0},
             "http_move": {"p50_ms": p50, "p99_ms": 2 * p50, "rate_per_s": rate}}
    if web is not None:
        level["cpu_ms_per_move"] = {"web": web, "database": 2.0, "client": 0.5}
    return {"game": "hasami-shogi", "seconds": 1.0, "finished_matches": 0, "levels": {1: level},
            "reads": {"match_detail": {"p50_ms": p50 / 2, "p99_ms": p50}}, "by_ply": {}}


def _report() -> dict:
    return {"baseline_ref": "main", "baseline_commit": "abc1234", "rounds": 3, "runs": {
        "baseline": [_run(10.0, 100.0), _run(30.0, 90.0, web=5.0), _run(12.0, 300.0, web=None)],
        "current": [_run(11.0, 95.0), _run(9.0, 99.0), _run(50.0, 10.0, web=6.0)]}}


def test_each_figure_is_the_median_of_its_side():
    rows = {label: (base, current) for label, base, current in comparison_rows(_report())}
    assert rows["1 clients: move p50 ms"] == (12.0, 11.0)
    assert rows["1 clients: moves per s"] == (100.0, 95.0)
    assert rows["1 clients: web CPU ms a move"] == (4.5, 4.0)       # the baseline's third run had none
    assert rows["read match_detail p50 ms"] == (6.0, 5.5)


def test_the_table_shows_the_ratio(capsys):
    print_comparison(_report())
    out = capsys.readouterr().out
    assert "| 1 clients: moves per s | 100.00 | 95.00 | 0.950 |" in out
    assert "baseline main (abc1234)" in out
