"""Options are validated strictly, read plainly in the catalogue, and each game's `options_schema`
(JSON Schema) states what the server enforces: it admits the defaults and every named variant and
refuses what the server refuses."""
from __future__ import annotations

import jsonschema
import pytest

import games
from games import InvalidOptionsError, OptionSpec

SLUGS = sorted(games.GAMES)
JUNK = [None, "", "x", "5", "true", "1", 1, 0, -1, 10**9, 1.5, True, False, [], {}, [1], {"op": "int"}]


def _accepted(spec: OptionSpec, name: str, value) -> bool:
    try:
        spec.validate(name, value)
    except InvalidOptionsError:
        return False
    return True


@pytest.mark.parametrize("slug", SLUGS)
def test_the_schema_is_valid_and_admits_defaults_and_variants(slug):
    game = games.get_game(slug)
    schema = game.describe()["options_schema"]
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate({})
    validator.validate({name: spec.default for name, spec in game.options.items()})
    for variant in game.variants:
        validator.validate(game.public_options(game.normalize_options(None, variant)))
    assert not validator.is_valid({"no_such_option": 1})


@pytest.mark.parametrize("slug", SLUGS)
def test_the_schema_refuses_what_the_server_refuses(slug):
    """For options with a fixed set of values the schema and the server agree on every value;
    for open-ended ones (a rule text, a point name) the schema is a necessary condition."""
    game = games.get_game(slug)
    validator = jsonschema.Draft202012Validator(game.describe()["options_schema"])
    for name, spec in game.options.items():
        candidates = JUNK + list(spec.choices) + [spec.min, spec.max, spec.off]
        for value in candidates:
            server = _accepted(spec, name, value)
            schema = validator.is_valid({name: value})
            if spec.parse is None:
                assert server == schema, (name, value)
            elif server:
                assert schema, (name, value)


@pytest.mark.parametrize("slug", SLUGS)
def test_option_ranges_read_plainly(slug):
    """A range never comes with integer choices beside it (0 meaning "off" is `off`), and `off`
    lies outside the range."""
    for name, entry in games.get_game(slug).describe()["options"].items():
        if "min" in entry:
            assert entry["min"] <= entry["default"] <= entry["max"] or entry["default"] in (
                entry.get("choices", []) + [entry.get("off")]), name
            assert not any(type(c) is int for c in entry.get("choices", [])), name
            if "off" in entry:
                assert not entry["min"] <= entry["off"] <= entry["max"], name


def test_wrong_types_are_refused_naming_the_option():
    hasami = games.get_game("hasami-shogi")
    with pytest.raises(InvalidOptionsError, match="capture_goal") as caught:
        hasami.normalize_options({"capture_goal": "5"})
    assert caught.value.detail == {"option": "capture_goal"}
    with pytest.raises(InvalidOptionsError, match="tenbin") as caught:
        hasami.normalize_options({"tenbin": 1})
    assert caught.value.option == "tenbin"
    for value in (True, 5.0, "8", None):
        with pytest.raises(InvalidOptionsError):
            hasami.normalize_options({"directions": value})
    with pytest.raises(InvalidOptionsError) as caught:
        hasami.normalize_options({"no_such": 1})
    assert caught.value.option == "no_such"
    with pytest.raises(InvalidOptionsError) as caught:
        hasami.normalize_options(None, "chess")
    assert caught.value.detail == {"variant": "chess"}


def test_off_values_and_named_values_beside_a_range():
    hasami = games.get_game("hasami-shogi")
    assert hasami.normalize_options({"repetition": 0, "lead_rule": 0})["repetition"] == 0
    with pytest.raises(InvalidOptionsError, match="repetition"):
        hasami.normalize_options({"repetition": 1})
    assert hasami.options["repetition"].describe() == {
        "default": 4, "doc": hasami.options["repetition"].doc, "min": 2, "max": 9, "off": 0}
    assert hasami.normalize_options({"capture_goal": "all_but_one"})["capture_goal"] == "all_but_one"
    glaisher = games.get_game("glaisher")
    assert glaisher.normalize_options({"reserve": "unlimited"})["reserve"] == "unlimited"


def test_aliases_are_the_rules_own_spellings():
    dai = games.get_game("dai-hasami-shogi")
    assert dai.normalize_options({"custodial_max": "1"})["custodial_max"] == 1
    assert dai.normalize_options({"custodial_max": 1})["custodial_max"] == 1
    with pytest.raises(InvalidOptionsError, match="custodial_max"):
        dai.normalize_options({"custodial_max": "2"})


@pytest.mark.parametrize("kwargs", [
    {"choices": (0,), "min": 2, "max": 9},           # an integer choice beside a range: use off
    {"min": 2, "max": 9, "off": 5},                  # off inside the range
    {"min": 9, "max": 2},
    {"min": 2},
])
def test_incoherent_declarations_are_refused(kwargs):
    with pytest.raises(ValueError):
        OptionSpec(4, "doc", **kwargs)
