// The lobby live: the signed-in player's events (live.js: a stream, or a long poll of events/)
// refresh the lists of games and challenges in place, and a challenge received, a match started
// or their turn in a match is told at the top of the page.
import { followStream, longPoll, notice } from "./live.js";

const root = document.getElementById("lobby");
const REGIONS = ["lobby-games", "lobby-challenges"];
let cursor = Number(root.dataset.eventsAfter);
let pending = null;

async function refreshLists() {
  const response = await fetch(window.location.pathname + window.location.search,
    { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of REGIONS) {
    const mine = document.getElementById(id);
    const theirs = fresh.getElementById(id);
    // Never under the player's hands: a list whose form has focus waits for the next change.
    if (mine && theirs && !mine.contains(document.activeElement)) mine.replaceWith(theirs);
  }
}

function received(event) {
  cursor = Math.max(cursor, event.id);
  notice(event);
  clearTimeout(pending);
  pending = setTimeout(() => refreshLists().catch(() => {}), 300);     // one refresh per burst
}

const KINDS = ["challenge_received", "challenge_accepted", "challenge_declined", "challenge_cancelled",
  "challenge_expired", "challenge_seat_left", "match_started", "your_turn", "move", "match_finished",
  "ladder_forfeit", "tournament_round", "tournament_finished"];

if (root) {
  const handlers = Object.fromEntries(KINDS.map((kind) => [kind, received]));
  followStream(`/api/v1/events/stream/?after=${cursor}`, handlers, () => longPoll(
    () => `/api/v1/events/?after=${cursor}&wait=25`,
    (page) => {
      for (const event of page.results) received(event);
      cursor = Math.max(cursor, page.last_id);
    }));
}
