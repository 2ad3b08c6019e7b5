// What the match page shows beyond the live parts: replay of any ply (the move list, the buttons
// under the board, ← and →), direction arrows drawn on the board when a picked cell leaves a
// choice of directions, the tab title and a short sound when it becomes your turn, and errors
// placed next to the control that caused them.
import { t } from "./strings.js";
const DIRECTION = /(NE|NW|SE|SW|N|E|S|W)$/;
const STEPS = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] };
const SVG_NS = "http://www.w3.org/2000/svg";

// --- errors beside their control ------------------------------------------------------------
export function errorBox(near) {
  if (!near) return null;
  let box = { "move-form": near.querySelector("#move-error"), board: document.getElementById("board-error") }[near.id] || null;
  if (!box) {
    box = near.nextElementSibling?.classList.contains("form-error") ? near.nextElementSibling : null;
  }
  if (!box) {
    box = document.createElement("p");
    box.className = "error form-error";
    box.setAttribute("role", "alert");
    near.after(box);
  }
  return box;
}

export function showError(box, text) {
  if (!box) return;
  box.textContent = text;
  const rect = box.getBoundingClientRect();
  if (rect.bottom > window.innerHeight || rect.top < 0) box.scrollIntoView({ block: "nearest" });
}

// --- arrows on the board for moves that differ only by a direction --------------------------
function centre(el) {
  const box = el.getBBox();
  return [box.x + box.width / 2, box.y + box.height / 2, Math.min(box.width, box.height)];
}

export function drawArrows(svg, cellName, moves, play) {
  clearArrows(svg);
  const cell = svg.querySelector(`[data-cell="${CSS.escape(cellName)}"]`);
  const directed = moves.map((move) => [move, DIRECTION.exec(move)?.[1]]).filter(([, d]) => d);
  if (!cell || directed.length !== moves.length) return false;
  const [x, y, size] = centre(cell);
  for (const [move, letters] of directed) {
    let dx = 0, dy = 0;
    for (const c of letters) { dx += STEPS[c][0]; dy += STEPS[c][1]; }
    const norm = Math.hypot(dx, dy) || 1;
    const ux = dx / norm, uy = dy / norm, tipX = x + ux * size * 1.1, tipY = y + uy * size * 1.1;
    const group = document.createElementNS(SVG_NS, "g");
    group.setAttribute("class", "choice-arrow");
    group.setAttribute("role", "button");
    group.setAttribute("tabindex", "0");
    group.setAttribute("aria-label", t("play_move", {move}));
    group.dataset.move = move;
    const hit = document.createElementNS(SVG_NS, "circle");
    hit.setAttribute("cx", tipX); hit.setAttribute("cy", tipY); hit.setAttribute("r", size * 0.45);
    hit.setAttribute("class", "arrow-hit");
    const line = document.createElementNS(SVG_NS, "path");
    const head = size * 0.3;
    line.setAttribute("d", `M${x + ux * size * 0.35},${y + uy * size * 0.35} L${tipX},${tipY} `
      + `M${tipX - ux * head - uy * head * 0.7},${tipY - uy * head + ux * head * 0.7} L${tipX},${tipY} `
      + `L${tipX - ux * head + uy * head * 0.7},${tipY - uy * head - ux * head * 0.7}`);
    line.setAttribute("class", "arrow-line");
    line.setAttribute("stroke-width", size * 0.14);
    group.append(hit, line);
    const choose = (event) => { event.preventDefault(); event.stopPropagation(); play(move); };
    group.addEventListener("click", choose);
    group.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") choose(event); });
    cell.parentNode.append(group);
  }
  return true;
}

export function clearArrows(svg) {
  for (const arrow of svg?.querySelectorAll(".choice-arrow") || []) arrow.remove();
}

// --- the tab title and a sound on your turn --------------------------------------------------
const baseTitle = document.title.replace(/^\(Your move\) /, "");
let audio = null;

export function announceTurn(myTurn, changed) {
  document.title = myTurn ? `(Your move) ${baseTitle}` : baseTitle;
  if (!myTurn || !changed) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (error) {
    // No sound where the browser allows none before a click: the title still says it.
  }
}

// --- replay ---------------------------------------------------------------------------------
export class Replay {
  // `positionUrl` answers ?ply=N with {ply, board_svg}; `onLive` re-wires the current board.
  constructor(root, positionUrl, flip, onLive) {
    this.root = root;
    this.positionUrl = positionUrl;
    this.flip = flip;
    this.onLive = onLive;
    this.shown = null;            // null: the current position
    this.wanted = null;           // the ply asked for and not yet shown
    this.live = null;             // the current board's markup while an earlier one is shown
    document.addEventListener("keydown", (event) => this.key(event));
  }

  get board() { return this.root.querySelector("#board"); }
  get current() { return Number(this.board?.dataset.ply || 0); }

  wire() {
    this.shown = null;
    this.live = null;
    // The move list, the analysis table and the chart's points all open their ply.
    for (const link of this.root.querySelectorAll("#move-list [data-ply], #region-analysis [data-ply]")) {
      link.addEventListener("click", () => this.show(Number(link.dataset.ply)));
    }
    for (const button of this.root.querySelectorAll(".replay [data-step]")) {
      button.addEventListener("click", () => this.step(button.dataset.step));
    }
    this.mark();
  }

  step(how) {
    const at = this.wanted ?? this.shown ?? this.current;
    const target = { first: 0, back: at - 1, forward: at + 1, last: this.current }[how];
    this.show(Math.max(0, Math.min(this.current, target)));
  }

  key(event) {
    if (!this.root.querySelector(".replay") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, select, textarea")) return;
    if (event.target.closest("[data-cell]") && this.shown === null) return;   // the board's own arrows
    if (event.key === "ArrowLeft") this.step("back");
    else if (event.key === "ArrowRight") this.step("forward");
    else return;
    event.preventDefault();
  }

  async show(ply) {
    if (!this.board) return;
    this.wanted = ply;             // quick key presses step from here, not from what has arrived
    if (ply >= this.current) {
      this.wanted = null;
      if (this.live !== null) {
        this.board.innerHTML = this.live;
        this.live = null;
        this.board.classList.remove("replaying");
        this.onLive();
      }
      this.shown = null;
      this.mark();
      return;
    }
    const url = new URL(this.positionUrl, location.href);
    url.searchParams.set("ply", ply);
    if (this.flip) url.searchParams.set("flip", "1");
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const data = await response.json();
    if (this.wanted !== ply) return;               // a later step overtook this one
    this.wanted = null;
    if (this.live === null) this.live = this.board.innerHTML;
    this.board.innerHTML = data.board_svg;
    this.board.classList.add("replaying");
    this.shown = data.ply;
    this.mark();
  }

  mark() {
    const at = this.shown ?? this.current;
    for (const button of this.root.querySelectorAll("#move-list [data-ply]")) {
      const here = Number(button.dataset.ply) === at;
      button.classList.toggle("current", here);
      if (here) button.setAttribute("aria-current", "step"); else button.removeAttribute("aria-current");
    }
    const label = this.root.querySelector("#replay-ply");
    if (label) label.textContent = t(this.shown === null ? "ply_of" : "ply_of_replay", {at, current: this.current});
    // The analysis board opens at the ply shown.
    const board = this.root.querySelector("#board-link");
    if (board) {
      const url = new URL(board.href, location.href);
      url.searchParams.set("ply", at);
      board.href = url.pathname + url.search;
    }
  }
}

// --- New Eleusis: the hand's picked cards, in the order picked ------------------------------
export function wireHand(root) {
  const order = root.querySelector("#cards-order");
  if (!order) return;
  const shown = root.querySelector("#hand-selection");
  let picked = [];
  for (const box of root.querySelectorAll(".hand input[name=card]")) {
    box.addEventListener("change", () => {
      picked = picked.filter((b) => b !== box);
      if (box.checked) picked.push(box);
      order.value = picked.map((b) => b.value).join(" ");
      shown.textContent = picked.length ? t("your_play", {cards: picked.map((b) => b.closest("label").textContent.trim().split(" ")[0]).join(" ")}) : "";
    });
  }
}
