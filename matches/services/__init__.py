"""Writes (design §1): every state change, one module per concern, each public function one
transaction. Import the module you need (`from matches.services import play`).

- `accounts`   registration and tokens
- `challenges` create, accept, decline, cancel; a full challenge starts its match (`play`)
- `play`       match start, move submission, engine replies written back (compare-and-set on ply)
- `offers`     draw and takeback offers (engines answer at once)
- `results`    finishing a match (resign, abort, timeouts), then `ratings` and `standings`
- `clocks`     clock bookkeeping each turn, time warnings; `vacations` pause a player's clocks
- `conditional` prepared replies, played inside the opponent's move
- `analysis`   analysis requests and their results
- `ladders`    ladder creation, joining, ladder challenges
- `events`     the event rows every other service writes (ids in commit order)
- `dispatch`   engine jobs sent to the workers after commit, by task name

Lower modules never import higher ones: events → match_rows, clocks, vacations, ratings,
standings, dispatch → conditional → results → play → offers, challenges → ladders; analysis beside them.
"""
