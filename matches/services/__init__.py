"""Writes (design §1): every state change, one module per concern, each public function one
transaction. Import the module you need (`from matches.services import play`).

- `accounts`   registration and tokens
- `challenges` create, accept, decline, cancel; a full challenge starts its match (`play`)
- `play`       match start, move submission, engine replies written back (compare-and-set on ply)
- `offers`     draw and takeback offers (engines answer at once)
- `results`    finishing a match (resign, abort, timeouts), then `ratings` and `standings`
- `clocks`     clock bookkeeping each turn, time warnings; `vacations` pause a player's clocks
- `conditional` prepared replies, played inside the opponent's move
- `ratings`    Glicko-2 or Weng–Lin updates and their history points
- `standings`  ladder ranks and forfeits, tournament scores after a result
- `analysis`   analysis requests and their results
- `ladders`    ladder creation, joining, ladder challenges, forfeits of unanswered ones
- `tournaments` creation, entries, the start, each round's pairings and matches
- `profiles`   a user's own profile and settings
- `events`     the event rows every other service writes (ids in commit order)
- `dispatch`   the engine-job outbox: rows written with the move or request, sent fairly after
               commit by task name
- `jobs`       engine jobs from the workers' side (take, finish, fail) and the sweep

Lower modules never import higher ones: events → match_rows, clocks, vacations, standings →
ratings, dispatch → conditional → results → play → offers, challenges, tournaments → ladders;
analysis and profiles beside them; jobs above play and analysis.
"""
