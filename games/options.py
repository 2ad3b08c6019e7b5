"""Game options: declared once, validated strictly, described as JSON Schema.

An option admits exactly one of these shapes, so the catalogue always reads plainly:
- a boolean (the default is `True` or `False`): only JSON `true`/`false`;
- an enumeration (`choices`): one of the listed values, of the listed type (`"5"` is not `5`);
- an integer range (`min`..`max`), optionally with an `off` value outside it that switches the rule
  off (`repetition`: 0, or 2-9) and named values beside it (`capture_goal`: 1-8 or `all_but_one`);
- an open-ended value checked by a `parse` function, which then also gives its JSON `schema`.
`aliases` map other spellings the rules accept to the canonical value (`custodial_max`: `"1"` is 1).
A value of the wrong type is refused with `InvalidOptionsError` naming the option; nothing is
coerced. `OptionSpec.json_schema()` states the same constraints for clients.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import InvalidOptionsError

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same JSON type (True is not 1, 1 is not "1")."""
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class OptionSpec:
    """One game option: a default, a doc line, and the values it admits (see the module doc)."""

    default: Any
    doc: str
    choices: tuple = ()
    min: int | None = None
    max: int | None = None
    off: int | None = None
    aliases: Mapping[Any, Any] = field(default_factory=dict)
    parse: Callable[[Any], Any] | None = field(default=None, compare=False)
    schema: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        ranged = self.min is not None or self.max is not None
        if ranged and (self.min is None or self.max is None or self.min > self.max):
            raise ValueError(f"an option range needs min <= max, not {self.min}..{self.max}")
        if ranged and any(type(c) is int for c in self.choices):
            raise ValueError("an integer beside a range is its `off` value, not a choice")
        if self.off is not None and (not ranged or self.min <= self.off <= self.max):
            raise ValueError(f"off={self.off} must lie outside the option's range")
        if self.is_bool and (self.choices or ranged or self.parse):
            raise ValueError("a boolean option takes no choices, range or parser")
        if self.parse is not None and self.schema is None:
            raise ValueError("an option with its own parser must give its JSON schema")
        if not (self.parse or self.is_bool or self.choices or ranged):
            raise ValueError("an option must admit some values")

    @property
    def is_bool(self) -> bool:
        return isinstance(self.default, bool)

    @property
    def is_range(self) -> bool:
        return self.min is not None

    def validate(self, name: str, value: Any) -> Any:
        """The canonical value, or InvalidOptionsError naming the option."""
        for spelling, canonical in self.aliases.items():
            if _same(value, spelling):
                return canonical
        if self.parse is not None:
            try:
                return self.parse(value)
            except (ValueError, TypeError) as exc:
                raise InvalidOptionsError(f"option {name}={value!r}: {exc}", option=name) from exc
        if self.admits(value):
            return value
        raise InvalidOptionsError(f"option {name}={value!r} is not {self.allowed_text()}", option=name)

    def admits(self, value: Any) -> bool:
        if self.is_bool:
            return type(value) is bool
        if any(_same(value, c) for c in self.choices):
            return True
        if type(value) is not int or not self.is_range:
            return False
        return self.min <= value <= self.max or value == self.off

    def allowed_text(self) -> str:
        if self.is_bool:
            return "true or false"
        parts = [json.dumps(c) for c in self.choices] + [json.dumps(a) for a in self.aliases]
        if self.is_range:
            parts.insert(0, f"an integer {self.min}..{self.max}")
            if self.off is not None:
                parts.append(f"{self.off} (off)")
        return "one of " + ", ".join(parts) if len(parts) > 1 else parts[0] if parts else "valid"

    def describe(self) -> dict:
        """The catalogue form: default, doc, and choices or a range (with `off`)."""
        out: dict[str, Any] = {"default": self.default, "doc": self.doc}
        if self.is_bool:
            out["choices"] = [False, True]
        elif self.choices:
            out["choices"] = list(self.choices)
        if self.is_range:
            out["min"], out["max"] = self.min, self.max
            if self.off is not None:
                out["off"] = self.off
        return out

    def json_schema(self) -> dict:
        """This option's constraints as JSON Schema (draft 2020-12)."""
        head: dict[str, Any] = {"description": self.doc, "default": self.default}
        if self.schema is not None:
            return {**head, **self.schema}
        if self.is_bool:
            return {**head, "type": "boolean"}
        named = list(self.choices) + list(self.aliases)
        if not self.is_range:
            return {**head, "enum": named}
        alternatives: list[dict] = [{"type": "integer", "minimum": self.min, "maximum": self.max}]
        if self.off is not None:
            alternatives.append({"const": self.off, "description": "off"})
        if named:
            alternatives.append({"enum": named})
        return {**head, **(alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives})}


def options_schema(title: str, options: Mapping[str, OptionSpec]) -> dict:
    """The JSON Schema of a game's whole `options` object: every option optional, no others."""
    return {
        "$schema": JSON_SCHEMA_DIALECT, "title": f"{title} options", "type": "object",
        "properties": {name: spec.json_schema() for name, spec in options.items()},
        "additionalProperties": False,
    }
