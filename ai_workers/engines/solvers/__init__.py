"""Solvers: exact searches that prove a game's value from a position (docs/rules/pearl.md §10).

- `maze`: the longest Pearl Maze walk, by depth-first search memoising each position's longest
  continuation (the step graph has no cycle, so the memo is exact).
- `yard`: who wins Pearl Yard and in how many plies, by depth-limited AND/OR search with
  iterative deepening, a transposition table and the board's mirror symmetry.

Pure: they import only `games` and the standard library.
"""
