"""Every URL with an id in its path, asked for ids no 64-bit key holds (and for the edges of the
range), answers 4xx or 2xx, never a 500: on SQLite, which cannot bind an integer past 2**63-1,
and on PostgreSQL alike. The patterns come from the URL resolver, so a new one is covered too."""
from __future__ import annotations

import re

import pytest
from django.urls import URLResolver, get_resolver

pytestmark = pytest.mark.django_db
PAST_THE_RANGE = (10**30, 2**63)
EDGES = (2**63 - 1, -1, 0)
ID_PARAMETER = re.compile(r"<(?:int|id):(\w+)>")
# Stand-ins for the other parameters of a route, so that only the id is out of the ordinary.
OTHER_PARAMETERS = {"slug": "hasami-shogi", "game": "hasami-shogi", "username": "alice"}
OTHER_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def _routes(patterns, prefix: str = ""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern), entry


ROUTES_WITH_IDS = {route: entry for route, entry in _routes(get_resolver().url_patterns) if ID_PARAMETER.search(route)}


def _methods(entry) -> list[str]:
    """GET and POST everywhere (a page's action takes POST only), and whatever else a class view has."""
    view_class = getattr(entry.callback, "view_class", None)
    extra = [m for m in ("put", "patch", "delete") if view_class is not None and hasattr(view_class, m)]
    return ["get", "post", *extra]


def _path(route: str, id_value: int) -> str:
    path = ID_PARAMETER.sub(str(id_value), route)
    return "/" + OTHER_PARAMETER.sub(lambda m: OTHER_PARAMETERS[m.group(1)], path)


@pytest.fixture
def signed_in(as_alice, alice):
    as_alice.force_login(alice)     # the token for the API, the session for the pages
    return as_alice


def test_the_walk_covers_the_api_and_the_pages():
    routes = set(ROUTES_WITH_IDS)
    assert {"api/v1/matches/<id:pk>/", "api/v1/matches/<id:pk>/moves/", "api/v1/auth/tokens/<id:pk>/",
            "matches/<id:pk>/", "matches/<id:pk>/move/", "challenges/<id:pk>/accept/"} <= routes
    assert not [r for r in routes if "<int:" in r], "ids take the <id:...> converter (the 64-bit range)"


@pytest.mark.parametrize("route", sorted(ROUTES_WITH_IDS))
def test_ids_out_of_range_are_not_found(route, signed_in, anon):
    for client in (signed_in, anon):
        for method in _methods(ROUTES_WITH_IDS[route]):
            for id_value in PAST_THE_RANGE:
                response = getattr(client, method)(_path(route, id_value), {}, format="json")
                assert response.status_code == 404, (method, route, id_value, response.status_code)
                if route.startswith("api/"):
                    assert response.json()["code"] == "not_found"
            for id_value in EDGES:
                response = getattr(client, method)(_path(route, id_value), {}, format="json")
                assert response.status_code < 500, (method, route, id_value, response.status_code)


@pytest.mark.parametrize("path", ["/api/v1/events/?after={}", "/api/v1/events/stream/?after={}"])
def test_event_cursors_past_the_range_are_refused(as_alice, path):
    for id_value in (*PAST_THE_RANGE, -1):
        response = as_alice.get(path.format(id_value))
        assert response.status_code == 400, (path, id_value, response.status_code)
        assert response.json() == {**response.json(), "code": "invalid_filter"}
        assert response.json()["detail"]["parameter"] == "after"
    assert as_alice.get(path.format(2**63 - 1)).status_code == 200


def test_plies_past_the_range_are_refused(as_alice):
    created = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]},
                            format="json").json()
    for id_value in PAST_THE_RANGE:
        for method, suffix, body in (("post", "moves/", {"move": "e1-e5", "ply": id_value}),
                                     ("put", "conditional/", {"lines": [], "ply": id_value})):
            response = getattr(as_alice, method)(f"/api/v1/matches/{created['match']}/{suffix}", body, format="json")
            assert response.status_code == 400, (suffix, id_value, response.content)
            assert response.json()["code"] == "validation_error"


@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/challenges/", "/api/v1/ladders/",
                                  "/api/v1/tournaments/", "/api/v1/players/"])
def test_pages_past_the_range_are_not_found(as_alice, path):
    for page in PAST_THE_RANGE:
        response = as_alice.get(f"{path}?page={page}")
        assert response.status_code == 404, (path, page, response.status_code)
        assert response.json()["code"] == "page_not_found"
