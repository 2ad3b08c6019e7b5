// The match page: forms post in the background, the board takes clicks, and the page's parts are
// swapped in from /matches/<id>/live/ whenever the match changes (an opponent's or an engine's
// move, an offer, a result, an analysis): told by the live stream (live.js), or by a long poll of
// live/ where no stream can be had. Without JavaScript the forms still work.
import { t } from "./strings.js";
import { BoardPicker } from "./board.js";
import { Replay, announceTurn, clearArrows, drawArrows, errorBox, showError, wireHand } from "./match_view.js";
import { NOTICE_KINDS, followStream, longPoll, notice } from "./live.js";

const root = document.getElementById("match");
const liveUrl = root.dataset.liveUrl;
const flip = new URLSearchParams(location.search).get("flip") === "1";
let version = root.dataset.version;
let picker = null;
let replay = null;

const $ = (selector) => root.querySelector(selector);
const matchId = Number(liveUrl.match(/(\d+)\/live\/$/)[1]);

function say(text) {
  $("#live-note").textContent = text;
}

// A refusal is shown beside what caused it (`near`: the form, or the board) and the form's
// buttons work again; an accepted action's note goes to the live note.
async function post(form, body, near = form) {
  let answer;
  try {
    // getAttribute: a control named "action" (the offer buttons) shadows form.action.
    const response = await fetch(form.getAttribute("action"), {
      method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
    });
    answer = await response.json();
  } catch (error) {
    enable(form);
    showError(errorBox(near), t("no_answer"));
    return;
  }
  if (answer.ok && answer.redirect && answer.redirect !== location.pathname) {
    location.assign(answer.redirect);
    return;
  }
  if (!answer.ok) {
    enable(form);
    showError(errorBox(near), answer.message);
  }
  await refresh(false);
  // The action's own note (e.g. an offer an engine declined at once) beside what the update said.
  const note = $("#live-note").textContent;
  if (answer.ok && answer.message && !note.includes(answer.message)) say(`${answer.message} ${note}`.trim());
}

function enable(form) {
  for (const button of form.querySelectorAll("button")) button.disabled = false;
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
      const box = errorBox(form);
      if (box) box.textContent = "";
      post(form, body);
    });
  }
}

function showChoices(moves) {
  const box = $("#move-choices");
  if (!box) return;
  box.replaceChildren();
  const svg = $("#board svg");
  clearArrows(svg);
  if (!moves.length) return;
  // Moves that differ only by a direction: arrows on the board, from the picked cell.
  if (picker?.picked.length) drawArrows(svg, picker.picked.at(-1), moves, playMove);
  const label = document.createElement("span");
  label.textContent = t("which_move");
  box.append(label);
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = move;
    button.addEventListener("click", () => playMove(move));
    box.append(button);
  }
  box.querySelector("button").focus({ preventScroll: true });
}

function playMove(move) {
  const form = $("#move-form");
  if (!form) return;
  const body = new FormData(form);
  body.set("pick", move);
  $("#board-error").textContent = "";
  post(form, body, $("#board"));
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
  wireHand(root);
  if (!replay) replay = new Replay(root, root.dataset.positionUrl, flip, wireBoard);
  replay.wire();
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
  announceTurn(data.my_turn, true);
  if (focusedCell && picker?.enabled) picker.focusByName(focusedCell);
  else if (focusedId && document.getElementById(focusedId)) document.getElementById(focusedId).focus();
  say(data.status === "active" ? t("updated", {ply: data.ply}) : t("updated_status", {ply: data.ply, status: data.status}));
}

function liveUrlFor(wait) {
  return `${liveUrl}?version=${encodeURIComponent(version)}&wait=${wait ? 1 : 0}${flip ? "&flip=1" : ""}`;
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
announceTurn(root.dataset.myTurn === "1", false);
followStream(`${liveUrl}stream/?version=${encodeURIComponent(version)}`, handlers,
  () => longPoll(() => liveUrlFor(true), apply));
