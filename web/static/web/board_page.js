// The analysis board: the line is kept here; a move picked on the board (or from the list) is
// added to it and the position after it is fetched from board/position/; "Ask the engine" posts
// the line to board/ask/ and polls board/answers/<id>/ until the lines are there. A line's move
// can be played onto the board. Without JavaScript the forms still work (GET adds a move, POST
// asks and comes back with the answer).
import { BoardPicker } from "./board.js";
import { clearArrows, drawArrows, errorBox, showError } from "./match_view.js";
import { t } from "./strings.js";

const root = document.getElementById("analysis-board");
const $ = (selector) => root.querySelector(selector);
const positionUrl = root.dataset.positionUrl;
const askUrl = root.dataset.askUrl;
const answerUrl = root.dataset.answerUrl.replace(/0\/$/, "");
const start = new URLSearchParams(location.search);
const base = start.get("match") ? { match: start.get("match"), ply: start.get("ply") || "" } : { game: start.get("game") || "hasami-shogi" };
let line = JSON.parse(document.getElementById("board-line").textContent);
let legal = JSON.parse(document.getElementById("board-legal").textContent);
let picker = null;
const POLL_MS = 400;

function lineParams() {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(base)) if (value !== "") params.set(key, value);
  for (const move of line) params.append("m", move);
  if (start.get("flip") === "1") params.set("flip", "1");
  return params;
}

function boardError(text) { showError($("#board-error"), text); }

async function show(moves) {
  const previous = line;
  line = moves;
  let answer;
  try {
    const response = await fetch(`${positionUrl}?${lineParams()}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.message || t("board_refused"));
  } catch (error) {
    line = previous;
    boardError(error instanceof TypeError ? t("no_answer") : error.message);
    return;
  }
  $("#board-error").textContent = "";
  $("#board").innerHTML = answer.board_svg;
  $("#board-text").textContent = answer.board_text;
  legal = answer.legal_moves;
  $("#line-status").textContent = answer.over ? t("board_over") : t("board_to_move", { ply: answer.ply, seat: answer.seat });
  $("#line-moves").replaceChildren(...line.map((move) => Object.assign(document.createElement("li"), { textContent: move })));
  $("#line-back").disabled = $("#line-reset").disabled = line.length === 0;
  const select = $("#line-move");
  select.replaceChildren(...legal.map((move) => Object.assign(document.createElement("option"), { textContent: move })));
  const ask = $("#ask-form");
  if (ask) ask.querySelector("button[type=submit]").disabled = answer.over;
  history.replaceState(null, "", `?${lineParams()}`);
  wireBoard();
}

function play(move) { show([...line, move]); }

function showChoices(moves) {
  const box = $("#move-choices");
  box.replaceChildren();
  const svg = $("#board svg");
  clearArrows(svg);
  if (!moves.length) return;
  if (picker?.picked.length) drawArrows(svg, picker.picked.at(-1), moves, play);
  box.append(Object.assign(document.createElement("span"), { textContent: t("which_move") }));
  for (const move of moves) {
    const button = Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: move });
    button.addEventListener("click", () => play(move));
    box.append(button);
  }
}

function wireBoard() {
  const svg = $("#board svg");
  picker = svg ? new BoardPicker(svg, legal, { onMove: play, onChoices: showChoices }) : null;
}

function renderAnswer(answer) {
  const box = $("#answer");
  box.replaceChildren();
  const p = document.createElement("p");
  if (answer.status === "failed") {
    p.className = "error";
    p.textContent = t("board_failed", { error: answer.error || "" });
    box.append(p);
    return;
  }
  if (answer.status !== "done") {
    p.setAttribute("role", "status");
    p.textContent = t("board_thinking", { status: t(`board_status_${answer.status}`) });
    box.append(p);
    return;
  }
  p.textContent = t("board_value", { level: answer.level, seconds: answer.seconds, value: answer.value.toFixed(3), seat: answer.seat });
  const list = document.createElement("ol");
  list.className = "engine-lines";
  const asked = [...line];
  for (const found of answer.lines) {
    const item = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button", className: "link", textContent: found.move });
    button.setAttribute("aria-label", t("board_play_move", { move: found.move }));
    button.addEventListener("click", () => show([...asked, found.move]));
    item.append(button, ` ${found.value.toFixed(3)}: `);
    found.pv.forEach((move, i) => {
      const step = Object.assign(document.createElement("button"), { type: "button", className: "link", textContent: move });
      step.setAttribute("aria-label", t("board_play_line", { move }));
      step.addEventListener("click", () => show([...asked, ...found.pv.slice(0, i + 1)]));
      item.append(step, " ");
    });
    list.append(item);
  }
  box.append(p, list);
}

async function poll(id) {
  for (;;) {
    const response = await fetch(`${answerUrl}${id}/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const answer = await response.json();
    if (!response.ok) { renderAnswer({ status: "failed", error: answer.message }); return; }
    renderAnswer(answer);
    if (answer.status === "done" || answer.status === "failed") return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function wireAsk() {
  const form = $("#ask-form");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = new FormData(form);
    body.delete("m");
    for (const move of line) body.append("m", move);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const box = errorBox(form);
    if (box) box.textContent = "";
    try {
      const response = await fetch(askUrl, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
      const answer = await response.json();
      if (!answer.ok) { showError(errorBox(form), answer.message); return; }
      renderAnswer(answer.position);
      await poll(answer.position.id);
    } catch (error) {
      showError(errorBox(form), t("no_answer"));
    } finally {
      button.disabled = false;
    }
  });
}

$("#line-back").addEventListener("click", () => show(line.slice(0, -1)));
$("#line-reset").addEventListener("click", () => show([]));
$("#line-form").addEventListener("submit", (event) => { event.preventDefault(); play($("#line-move").value); });
wireBoard();
wireAsk();
const shown = start.get("position");
if (shown && /^\d+$/.test(shown)) poll(shown);
