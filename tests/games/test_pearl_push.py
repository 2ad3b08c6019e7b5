"""The shared lattice and pushing primitives of the Glass Pearl games — docs/rules/pearl.md §2, §8."""
import pytest

from games import InvalidMoveError
from games.pearl import push
from games.pearl.board import E, N, S, W, grid, opposite, parse_point, perpendicular, point_name
from games.pearl.moves import PASS, Place, PushIn, Slide, parse_slide

G = grid(9)


def m(*names):
    return G.mask_of(parse_point(n, G.n) for n in names)


def p(name):
    return G.parse(name)


# §2.1–2.2 points and directions --------------------------------------------------------------
def test_point_names():
    assert point_name(0, 0) == "a1" and point_name(9, 9) == "j10" and point_name(18, 18) == "s19"
    assert point_name(8, 0) == "i1"   # no letter skipped
    assert parse_point("S19", 19) == (18, 18)
    for bad in ("t1", "a0", "a20", "a01", "1a", "", "aa1"):
        with pytest.raises(InvalidMoveError):
            parse_point(bad, 19)


def test_directions():
    assert [opposite(d) for d in (N, E, S, W)] == [S, W, N, E]
    assert set(perpendicular(N)) == {E, W} and set(perpendicular(E)) == {N, S}


def test_shift_never_wraps():
    assert G.shift(m("i5"), E) == 0 and G.shift(m("a5"), W) == 0
    assert G.shift(m("e9"), N) == 0 and G.shift(m("e1"), S) == 0
    assert G.shift(m("e5"), N) == m("e6") and G.shift(m("e5"), W) == m("d5")


# §2.3 runs -------------------------------------------------------------------------------------
def test_run_stops_at_a_gap_or_the_edge():
    occ = m("c3", "d3", "e3", "g3")
    assert push.run(G, occ, p("c3"), E) == (m("c3", "d3", "e3"), p("e3"))
    assert push.run(G, occ, p("g3"), E) == (m("g3"), p("g3"))
    occ = m("g3", "h3", "i3")
    assert push.run(G, occ, p("g3"), E) == (m("g3", "h3", "i3"), p("i3"))


# §2.4 contact predicate ------------------------------------------------------------------------
def test_contact_only_across_neighbouring_lines():
    row = m("c3", "d3")
    assert push.contact(G, row, E, m("c3", "d3", "e3")) is False     # own line never counts
    assert push.contact(G, row, E, m("c3", "d3", "d4")) is True
    assert push.contact(G, row, E, m("c3", "d3", "e4")) is False     # diagonal is not adjacent
    assert push.contact(G, m("c3"), N, m("c3", "b3")) is True
    assert push.contact(G, row, E, m("c3", "d4")) is False           # d3 is not ok


# §2.4 slide length ------------------------------------------------------------------------------
def test_slide_length_grows_the_row_and_checks_after():
    occ = m("c3", "d3", "d4")
    assert push.slide_length(G, occ, occ, p("c3"), N) == 1          # c3-c5 fails the after-check
    assert push.slide_length(G, occ, occ, p("c3"), E) == 1
    occ = m("c3", "c4", "c5", "d5")
    assert push.slide_length(G, occ, occ, p("c3"), N) == 2
    assert push.slide_length(G, occ, occ, p("c4"), N) == 1


def test_slide_length_step_conditions():
    occ = m("b5", "c5", "d5", "b4", "c4", "d4")
    assert push.slide_length(G, occ, occ, p("b5"), E) == 2
    assert push.slide_length(G, occ, occ, p("b5"), E, max_k=1) == 1
    assert push.slide_length(G, occ, occ, p("b5"), E, enter=occ) == 2    # always into pearls
    # `enter` marks pearls, not points: the c5 pearl is still ahead after step 1.
    assert push.slide_length(G, occ, occ, p("b5"), E, enter=m("c5")) == 2
    assert push.slide_length(G, occ, occ, p("b5"), E, enter=m("d5")) == 0
    assert push.slide_length(G, occ, occ, p("b5"), E, ban=m("d5")) == 0
    assert push.slide_length(G, occ, occ, p("b5"), E, ban=m("a1")) == 2


def test_slide_length_push_off():
    occ = m("g5", "h5", "i5", "h4", "g4")
    assert push.slide_length(G, occ, occ, p("g5"), E, push_off=False) == 0
    assert push.slide_length(G, occ, occ, p("g5"), E) == 1   # step 2: i5 alone, no contact
    # the pusher itself never leaves the board
    assert push.slide_length(G, m("i5", "h5"), m("i5", "h5"), p("i5"), E) == 0


def test_ok_marks_travel_with_their_pearls():
    # White c3 pushes black c4 north; d3 and d4 are white. Friendly contact only.
    white, black = m("c3", "d3", "d4"), m("c4")
    assert push.slide_length(G, white | black, white, p("c3"), N) == 1
    assert push.slide_length(G, m("c3", "d4", "c4"), m("c3", "d4"), p("c3"), N) == 0


def test_slide_moves_layers_and_reports_displaced():
    white, black = m("c3", "d3", "d4"), m("c4")
    (w, b), moved = push.slide(G, (white, black), p("c3"), N, 1)
    assert w == m("c4", "d3", "d4") and b == m("c5") and moved == m("c4", "c5")
    (w,), moved = push.slide(G, (m("g5", "h5", "i5"),), p("g5"), E, 2)
    assert w == m("i5") and moved == m("i5")               # two pearls pushed off


# §2.5 push-in ---------------------------------------------------------------------------------
def test_push_in_points():
    occ = m("e5", "f5")
    assert push.push_in_points(G, occ, E) == m("e5")
    assert push.push_in_points(G, occ, W) == m("f5")
    assert push.push_in_points(G, occ, N) == occ
    assert push.push_in_points(G, occ, E, single=True) == 0
    edge = m("h5", "i5")
    assert push.push_in_points(G, edge, E) == 0              # the front would leave
    assert push.push_in_points(G, m("a5"), E) == 0           # nothing enters from outside
    assert push.edge_line(G, N) == m(*[f"{c}9" for c in "abcdefghi"])


# §8 move values ------------------------------------------------------------------------------
def test_move_notation():
    assert str(Slide(7, 0, N, 3)) == "h1-h4" and Slide(7, 0, N, 3).to == (7, 3)
    assert parse_slide("g13-j13", 19) == Slide(6, 12, E, 3)
    assert parse_slide("j13-g13", 19) == Slide(9, 12, W, 3)
    for bad in ("g13-g13", "g13-h14", "g13", "g13-h13-i13", "g13-z1"):
        with pytest.raises(InvalidMoveError):
            parse_slide(bad, 19)
    assert str(PushIn(9, 9, N)) == "j10N" and str(Place(9, 9)) == "j10" and str(PASS) == "pass"
