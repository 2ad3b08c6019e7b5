#!/usr/bin/env python3
"""A correspondence bot for Pearlsite that uses only the public HTTP API and the standard library.

It registers (or logs in), then loops: it reads its event stream and accepts every challenge it is
sent, and in every active match where it is to move it plays a random legal move. Start it and
challenge it from another account, or let it challenge someone itself:

    python examples/bot.py --base http://127.0.0.1:8000 --username randombot --password 'a long one'
    python examples/bot.py --username randombot --password 'a long one' \\
        --challenge pearl-yard --opponent ai:random --until-finished --timeout 300

With --until-finished it exits once the match it started is over: 0 if it finished, 1 if it did
not within --timeout seconds. A stronger bot replaces `Bot.choose`; everything else stays.

The API it relies on (all under /api/v1/, `Authorization: Token <token>`):
  POST accounts/, POST auth/token/       register, or fetch the token of an existing account
  GET events/?after=<id>                 new events after a cursor ("challenge_received", "move", ...)
  POST challenges/, POST challenges/{id}/accept/
  GET matches/?player=<me>&status=active the bot's active matches (each with its seats and to_move)
  GET matches/{id}/legal/                the caller's legal moves, a page at a time (Glaisher lists
                                         hundreds); New Eleusis lists single plays and move kinds
                                         only (GET games/{slug}/, member `notation`, has the grammar)
  POST matches/{id}/moves/ {move, ply}   ply guards against playing on an out-of-date picture
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

API = "/api/v1"


class ApiError(Exception):
    """A refusal from the server: HTTP status, the stable error code and its message."""

    def __init__(self, status: int, body: dict):
        self.status, self.code = status, body.get("code", "")
        super().__init__(f"{status} {self.code}: {body.get('message', '')}")


class Client:
    """JSON over HTTP with an optional token."""

    def __init__(self, base: str, token: str | None = None, timeout: float = 30.0):
        self.base, self.token, self.timeout = base.rstrip("/"), token, timeout

    def call(self, method: str, path: str, body: dict | None = None):
        url = path if path.startswith("http") else self.base + API + path
        request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                payload = json.loads(error.read())
            except ValueError:
                payload = {}
            raise ApiError(error.code, payload if isinstance(payload, dict) else {}) from None

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body: dict | None = None):
        return self.call("POST", path, body if body is not None else {})

    def pages(self, path: str):
        """Every item of a paginated list, following `next`."""
        page = self.get(path)
        while True:
            yield from page["results"]
            if not page.get("next") or page.get("more") is False:     # a cursor list always links on
                return
            page = self.get(page["next"])


class Bot:
    def __init__(self, client: Client, username: str, password: str, rng: random.Random | None = None,
                 log=print):
        self.client, self.username, self.password = client, username, password
        self.rng = rng or random.Random()
        self.log = log
        self.last_event = 0

    # -- account -----------------------------------------------------------------------------
    def login(self) -> None:
        """Register the account, or log in if it exists already."""
        credentials = {"username": self.username, "password": self.password}
        try:
            self.client.token = self.client.post("/accounts/", credentials)["token"]
        except ApiError as error:
            if error.code != "username_taken":
                raise
            self.client.token = self.client.post("/auth/token/", credentials)["token"]

    def challenge(self, game: str, opponents: list[str], **options) -> int | None:
        """Challenge `opponents` (usernames, "ai:<level>" or None for an open seat); the challenge
        id. An engine-only challenge starts at once (see `match_of`)."""
        body = {"game": game, "opponents": opponents, **options}
        return self.client.post("/challenges/", body)["id"]

    def match_of(self, challenge_id: int) -> int | None:
        return self.client.get(f"/challenges/{challenge_id}/")["match"]

    # -- the loop ----------------------------------------------------------------------------
    def step(self) -> int:
        """One pass: handle new events, then move in every match where the bot is to move.
        Returns the number of moves played."""
        for event in self.new_events():
            if event["kind"] == "challenge_received":
                self.accept(event["payload"]["challenge"])
        return sum(self.play_turn(match) for match in self.active_matches())

    def new_events(self) -> list[dict]:
        events = list(self.client.pages(f"/events/?after={self.last_event}"))
        events.sort(key=lambda e: e["id"])
        if events:
            self.last_event = events[-1]["id"]
        return events

    def accept(self, challenge_id: int) -> None:
        try:
            self.client.post(f"/challenges/{challenge_id}/accept/")
            self.log(f"accepted challenge {challenge_id}")
        except ApiError as error:        # withdrawn, taken or accepted meanwhile: nothing to do
            self.log(f"challenge {challenge_id} not accepted: {error}")

    def active_matches(self) -> list[dict]:
        query = urllib.parse.urlencode({"player": self.username, "status": "active"})
        return list(self.client.pages(f"/matches/?{query}"))

    def my_seat(self, match: dict) -> int | None:
        return next((s["seat"] for s in match["seats"] if s["player"] == self.username), None)

    def play_turn(self, match: dict) -> bool:
        if match["to_move"] is None or match["to_move"] != self.my_seat(match):
            return False
        legal = [m["move"] for m in self.client.pages(f"/matches/{match['id']}/legal/")]
        if not legal:
            return False
        move = self.choose(match, legal)
        try:
            self.client.post(f"/matches/{match['id']}/moves/", {"move": move, "ply": match["ply"]})
        except ApiError as error:        # the match moved on (stale_ply) or ended: next pass
            self.log(f"match {match['id']}: {move} refused: {error}")
            return False
        self.log(f"match {match['id']} ply {match['ply'] + 1}: {move}")
        return True

    def choose(self, match: dict, legal: list[str]) -> str:
        """The move to play: here a random legal one."""
        return self.rng.choice(legal)

    def run(self, until=lambda: False, interval: float = 2.0, timeout: float | None = None) -> bool:
        """Loop until `until()` is true (True) or `timeout` seconds pass (False)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not until():
            if deadline is not None and time.monotonic() > deadline:
                return False
            if not self.step():
                time.sleep(interval)
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A random-move correspondence bot for Pearlsite.")
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the server's base URL")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True, help="at least 8 characters")
    parser.add_argument("--challenge", metavar="GAME", help="start by challenging --opponent to GAME")
    parser.add_argument("--opponent", default="ai:random", help='a username or "ai:<level>"')
    parser.add_argument("--until-finished", action="store_true", help="stop when that match is over")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between polls when idle")
    parser.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
    parser.add_argument("--seed", type=int, default=None, help="seed the move choice")
    args = parser.parse_args(argv)

    bot = Bot(Client(args.base), args.username, args.password, random.Random(args.seed))
    bot.login()
    print(f"logged in as {args.username} at {args.base}")
    finished = lambda: False                      # noqa: E731
    if args.challenge:
        challenge_id = bot.challenge(args.challenge, [args.opponent])
        print(f"challenged {args.opponent} to {args.challenge} (challenge {challenge_id})")
        if args.until_finished:
            def finished() -> bool:
                match_id = bot.match_of(challenge_id)
                if match_id is None:
                    return False
                match = bot.client.get(f"/matches/{match_id}/?legal=none")
                if match["status"] == "active":
                    return False
                print(f"match {match_id} is {match['status']}: {match['result']}")
                return True
    try:
        done = bot.run(until=finished, interval=args.interval, timeout=args.timeout)
    except KeyboardInterrupt:
        return 0
    if not done:
        print("timed out before the match finished", file=sys.stderr)
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
