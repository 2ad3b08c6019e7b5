"""New Eleusis card vocabulary (docs/rules/eleusis.md §2, §6)."""
from __future__ import annotations

import pytest

from games.new_eleusis.cards import (
    ALL_KINDS, FULL_MASK, SUITS, card_text, is_red, kinds_mask, make_kind, mask_kinds, parse_card,
    rank_of, suit_of,
)


def test_kind_layout_sorts_by_rank_then_suit():
    assert SUITS == "SHDC"
    assert [card_text(k) for k in range(6)] == ["AS", "AH", "AD", "AC", "2S", "2H"]
    assert card_text(51) == "KC"
    assert make_kind(10, 1) == 37 and rank_of(37) == 10 and suit_of(37) == 1


def test_colours():
    assert [is_red(parse_card(t)) for t in ("5S", "5H", "5D", "5C")] == [False, True, True, False]


def test_parse_and_print_round_trip():
    assert parse_card("10h") == parse_card("10H") and card_text(parse_card("10h")) == "10H"
    assert parse_card(" qs ") == make_kind(12, 0)
    for kind in ALL_KINDS:
        assert parse_card(card_text(kind)) == kind
        assert parse_card(card_text(kind).lower()) == kind


@pytest.mark.parametrize("text", ["", "H", "1H", "11H", "0S", "10X", "QQ", "10", "AH S", "JOKER"])
def test_parse_rejects_junk_naming_it(text):
    with pytest.raises(ValueError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)


def test_masks():
    kinds = [parse_card(t) for t in ("AS", "KC", "7D")]
    mask = kinds_mask(kinds)
    assert mask == (1 << 0) | (1 << 51) | (1 << parse_card("7D"))
    assert mask_kinds(mask) == sorted(kinds)
    assert kinds_mask(ALL_KINDS) == FULL_MASK and mask_kinds(FULL_MASK) == list(ALL_KINDS)
