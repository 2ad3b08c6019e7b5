"""Reads (design §1): queries and the payloads built from `state.view(viewer)`, one module per
concern. Nothing here returns `to_dict()` or a match seed to a client; hidden moves are shown in
their public form (`Game.public_notation`). `engine_jobs` builds the plain-data jobs the workers
receive (the only place a position's full truth leaves the database)."""
