"""Analysis reads."""
from __future__ import annotations

from matches.errors import ServiceError, first_or_error
from matches.models import Analysis


def analysis_payload(analysis: Analysis) -> dict:
    return {"id": analysis.pk, "match": analysis.match_id, "level": analysis.level,
            "status": analysis.status, "upto_ply": analysis.upto_ply, "seat": analysis.seat,
            "results": analysis.results, "error": analysis.error or None,
            "created_at": analysis.created_at, "finished_at": analysis.finished_at}


def analysis_for(analysis_id: int, user) -> Analysis:
    """The analysis, if `user` may read it: one of a hidden-information game shows its
    requester's own cards, so only they may."""
    analysis = first_or_error(Analysis.objects.filter(pk=analysis_id), "analysis_not_found",
                              f"no analysis {analysis_id}")
    if analysis.seat is not None and analysis.requested_by_id != getattr(user, "pk", None):
        raise ServiceError("not_yours", "this analysis shows one player's own cards; only they may read it")
    return analysis
