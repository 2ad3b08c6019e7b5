"""How the schema describes what every operation shares: the token scheme, descriptions that
belong to each operation, and the 401 that any request carrying a bad or expired token gets."""
from __future__ import annotations

import inspect
import re

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.settings import spectacular_settings

import games
from matches.errors import CODES

from .schema import NO_NUL, NOT_BLANK

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


VERBS = {"post": "create", "put": "update", "patch": "partial_update", "delete": "destroy"}


def _is_collection(result: dict, operation: dict) -> bool:
    """A GET that answers a collection: a JSON array, or a page (`results` and a `next` link or cursor)."""
    for status, response in operation.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        for content in response.get("content", {}).values():
            schema = content.get("schema", {})
            if "$ref" in schema:
                schema = result["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            if schema.get("type") == "array" or {"results", "next"} <= schema.get("properties", {}).keys():
                return True
    return False


def operation_id(path: str, method: str, collection: bool) -> str:
    """`<path words>_<verb>`: the path without its version prefix and parameters, words joined by
    `_`; the verb `list` (a GET answering a collection), `retrieve`, `create`, `update`,
    `partial_update` or `destroy`."""
    words = [w.replace("-", "_") for w in re.sub(f"^{spectacular_settings.SCHEMA_PATH_PREFIX}", "", path).split("/")
             if w and not w.startswith("{")]
    verb = ("list" if collection else "retrieve") if method == "get" else VERBS[method]
    return "_".join([*words, verb])


def uniform_operation_ids(result, generator, request, public):
    """Every operation id follows one rule (`operation_id`), whatever a view declares: generated
    clients name their functions after them."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and method in (*VERBS, "get"):
                operation["operationId"] = operation_id(path, method, method == "get" and _is_collection(
                    result, operation))
    return result


def _exclude_nul(schema: dict) -> None:
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & schema.keys():
        schema["pattern"] = NOT_BLANK if schema.get("minLength", 0) >= 1 else NO_NUL
    for inner in (*schema.get("properties", {}).values(), schema.get("items")):
        if isinstance(inner, dict) and inner is not schema:
            _exclude_nul(inner)


def exclude_nul_characters(result, generator, request, public):
    """DRF's CharField refuses NUL characters (ProhibitNullCharactersValidator) in bodies and query
    strings alike, and whitespace alone where it may not be blank (it trims, then finds it blank):
    state both as a pattern on every free-text string a request carries."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _exclude_nul(component)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter.get("in") == "query":
                    _exclude_nul(parameter.get("schema", {}))
    return result
