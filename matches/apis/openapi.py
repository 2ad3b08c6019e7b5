"""How the schema describes what every operation shares: the token scheme, descriptions that
belong to each operation, and the 401 that any request carrying a bad or expired token gets."""
from __future__ import annotations

import inspect

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as BaseAutoSchema

import games
from matches.errors import CODES

# Path parameters that name a game (games/{slug}/..., players/{username}/ratings/{game}/).
GAME_PATH_PARAMETERS = ("slug", "game")


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "matches.apis.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "opaque API token", "description": (
            "`Authorization: Bearer <token>` (`Token <token>` is accepted too), from POST auth/token/. "
            "A token unused for PEARLSITE_TOKEN_IDLE_DAYS expires; a bad or expired one is refused with "
            "401 `authentication_failed` on every operation, even those open to anonymous callers.")}


class AutoSchema(BaseAutoSchema):
    def get_auth(self) -> list[dict]:
        """An operation that authenticates nobody (registration, logging in) has no security
        requirement at all, rather than only the empty one: generated clients then take a plain
        client there."""
        requirements = super().get_auth()
        return [] if all(not r for r in requirements) else requirements

    def get_description(self) -> str:
        """The handler's or the view's own docstring: never one inherited from a shared base class."""
        handler = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        own = handler.__doc__ if handler is not None else None
        return inspect.cleandoc(own or self.view.__class__.__dict__.get("__doc__") or "")


def document_bad_tokens(result, generator, request, public):
    """Any authenticating operation may be called with a bad token: list 401 `authentication_failed`
    on each that does not already list a 401 (those open to anonymous callers)."""
    status, meaning = CODES["authentication_failed"]
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or not operation.get("security"):
                continue
            responses = operation["responses"]
            if str(status) not in responses:
                responses[str(status)] = {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                    "description": f"`authentication_failed`: {meaning}"}
    return result


def enumerate_game_slugs(result, generator, request, public):
    """A path parameter naming a game lists the catalogue's slugs: typed clients get an enum, and a
    fuzzer spends its calls on games that exist (others are still a 404 `game_not_found`)."""
    slugs = sorted(games.GAMES)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter.get("in") == "path" and parameter.get("name") in GAME_PATH_PARAMETERS:
                    parameter["schema"] = {"type": "string", "enum": slugs}
    return result
