"""Analysis reads."""
from __future__ import annotations

from ai_workers.engines import analysis as judging
from matches.errors import first_or_error
from matches.models import Analysis

from . import capabilities

# Per-ply fields added after the first analyses were stored: older rows read them as null.
JUDGED_FIELDS = ("value_before", "value_after", "loss", "classification", "accuracy")


def analysis_payload(analysis: Analysis) -> dict:
    match = analysis.match
    rows = [{**dict.fromkeys(JUDGED_FIELDS), "candidates": [], **row} for row in analysis.results or []]
    return {"id": analysis.pk, "match": analysis.match_id, "level": analysis.level,
            "status": analysis.status, "upto_ply": analysis.upto_ply, "seat": analysis.seat,
            "results": rows, "summary": _summary(match.game, match.players, rows),
            "error": analysis.error or None,
            "created_at": analysis.created_at, "finished_at": analysis.finished_at}


def _summary(game: str, players: int, rows: list[dict]) -> dict:
    """What players read first: per seat the counts per class and the accuracy, the scale the
    thresholds are on, and a graph-ready series of values (ai_workers/engines/analysis.py)."""
    return {"scale": judging.scale_for(game).describe(),
            "seats": judging.summarize(rows, players),
            "series": judging.series(rows, players)}


def analysis_for(analysis_id: int, user) -> Analysis:
    """The analysis, if `user` may read it: one of a hidden-information game shows its
    requester's own cards, so only they may."""
    analysis = first_or_error(Analysis.objects.select_related("match").filter(pk=analysis_id),
                              "analysis_not_found", f"no analysis {analysis_id}")
    capabilities.analysis_verdict(analysis, user).check()
    return analysis
