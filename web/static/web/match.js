// The match page: forms post in the background, the board takes clicks, and the page's parts are
// swapped in from /matches/<id>/live/ whenever the match changes (an opponent's or an engine's
// move, an offer, a result, an analysis): told by the live stream (live.js), or by a long poll of
// live/ where no stream can be had. Without JavaScript the forms still work.
import { BoardPicker } from "./board.js";
import { NOTICE_KINDS, followStream, longPoll, notice } from "./live.js";

const root = document.getElementById("match");
const liveUrl = root.dataset.liveUrl;
let version = root.dataset.version;
let picker = null;

const $ = (selector) => root.querySelector(selector);
const matchId = Number(liveUrl.match(/(\d+)\/live\/$/)[1]);

function say(text, isError = false) {
  const target = (isError && $("#move-error")) || $("#live-note");
  target.textContent = text;
}

async function post(form, body) {
  let answer;
  try {
    // getAttribute: a control named "action" (the offer buttons) shadows form.action.
    const response = await fetch(form.getAttribute("action"), {
      method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
    });
    answer = await response.json();
  } catch (error) {
    say("The server did not answer; try again.", true);
    return;
  }
  if (!answer.ok) say(answer.message, true);
  await refresh(false);
}

function wireForms() {
  for (const form of root.querySelectorAll("form[method=post]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
      // Read the form before disabling its buttons: a disabled submitter sends no name=value
      // (the offer forms' Accept, Decline and Withdraw differ only by it).
      const body = new FormData(form, event.submitter);
      for (const button of form.querySelectorAll("button")) button.disabled = true;
      post(form, body);
    });
  }
}

function showChoices(moves) {
  const box = $("#move-choices");
  if (!box) return;
  box.replaceChildren();
  if (!moves.length) return;
  const label = document.createElement("span");
  label.textContent = "Which move? ";
  box.append(label);
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = move;
    button.addEventListener("click", () => playMove(move));
    box.append(button);
  }
  box.querySelector("button").focus();
}

function playMove(move) {
  const form = $("#move-form");
  if (!form) return;
  const body = new FormData(form);
  body.set("pick", move);
  post(form, body);
}

function wireBoard() {
  const svg = $("#board svg");
  const legal = $("#legal-moves");
  picker = null;
  if (!svg || !legal) return;
  picker = new BoardPicker(svg, JSON.parse(legal.textContent), { onMove: playMove, onChoices: showChoices });
  const help = $("#board-help");
  if (help) help.hidden = !picker.enabled;
}

function wire() {
  wireForms();
  wireBoard();
}

function apply(data) {
  if (!data.changed || data.version === version) return;
  const focusedCell = document.activeElement?.closest?.("[data-cell]")?.dataset.cell;
  const focusedId = document.activeElement?.id;
  for (const [name, html] of Object.entries(data.regions)) {
    const region = document.getElementById(`region-${name}`);
    if (region) region.innerHTML = html;
  }
  version = data.version;
  root.dataset.version = version;
  wire();
  if (focusedCell && picker?.enabled) picker.focusByName(focusedCell);
  else if (focusedId && document.getElementById(focusedId)) document.getElementById(focusedId).focus();
  say(`Updated: ply ${data.ply}${data.status === "active" ? "" : `, ${data.status}`}.`);
}

function liveUrlFor(wait) {
  return `${liveUrl}?version=${encodeURIComponent(version)}&wait=${wait ? 1 : 0}`;
}

async function refresh(wait) {
  const response = await fetch(liveUrlFor(wait), { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`live update: ${response.status}`);
  apply(await response.json());
}

function elsewhere(event) {
  if (event.payload.match !== matchId) notice(event);
}

const handlers = {
  version: (data) => {
    if (data.version !== version) refresh(false).catch(() => {});
  },
};
for (const kind of NOTICE_KINDS) handlers[kind] = elsewhere;

wire();
followStream(`${liveUrl}stream/?version=${encodeURIComponent(version)}`, handlers,
  () => longPoll(() => liveUrlFor(true), apply));
