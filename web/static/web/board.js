// Click-to-move on an SVG board. The picture names its cells (data-cell="a1"); a legal move's
// cells are the cell names in its notation, in order ("a1-a3" → a1, a3; "h5:2+1/E @i5" → h5, i5).
// Picking cells narrows the legal moves to those whose cells begin so; the next cells light up.
// When the picked cells complete one move it is played; several complete moves are offered as
// choices. Keyboard: arrow keys move between cells, Enter or Space picks, Escape starts over.
import { t } from "./strings.js";
const CELL_TOKEN = /[A-Za-z]\d+/g;

export function cellPath(notation, names) {
  const tokens = notation.match(CELL_TOKEN) || [];
  return tokens.length && tokens.every((t) => names.has(t)) ? tokens : [];
}

const startsWith = (path, prefix) => prefix.every((cell, i) => path[i] === cell);

export class BoardPicker {
  constructor(svg, legalMoves, { onMove, onChoices }) {
    this.svg = svg;
    this.cells = new Map();
    for (const el of svg.querySelectorAll("[data-cell]")) this.cells.set(el.dataset.cell, el);
    const names = new Set(this.cells.keys());
    this.moves = legalMoves.map((move) => ({ move, path: cellPath(move, names) })).filter((m) => m.path.length);
    this.onMove = onMove;
    this.onChoices = onChoices;
    this.picked = [];
    this.enabled = this.moves.length > 0;
    if (!this.enabled) return;
    svg.closest(".board")?.classList.add("clickable");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("board_label"));
    for (const [name, el] of this.cells) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "-1");
      el.addEventListener("click", () => this.pick(name));
    }
    svg.addEventListener("keydown", (event) => this.key(event));
    this.render();
    const first = this.svg.querySelector("[data-cell].source") || this.cells.values().next().value;
    first.setAttribute("tabindex", "0");
  }

  candidates() { return this.moves.filter((m) => startsWith(m.path, this.picked)); }

  nextCells() {
    const depth = this.picked.length;
    return new Set(this.candidates().filter((m) => m.path.length > depth).map((m) => m.path[depth]));
  }

  pick(name) {
    const firsts = new Set(this.moves.map((m) => m.path[0]));
    if (this.picked.length && this.nextCells().has(name)) this.picked.push(name);
    else if (firsts.has(name) && this.picked[0] !== name) this.picked = [name];
    else this.picked = [];
    const depth = this.picked.length;
    const complete = depth ? this.candidates().filter((m) => m.path.length === depth) : [];
    const longer = this.candidates().filter((m) => m.path.length > depth);
    this.render();
    if (complete.length === 1 && !longer.length) {
      this.onMove(complete[0].move);
    } else {
      this.onChoices(complete.map((m) => m.move));
    }
  }

  reset() { this.picked = []; this.render(); this.onChoices([]); }

  render() {
    const firsts = new Set(this.moves.map((m) => m.path[0]));
    const targets = this.picked.length ? this.nextCells() : new Set();
    for (const [name, el] of this.cells) {
      const picked = this.picked.includes(name);
      el.classList.toggle("picked", picked);
      el.classList.toggle("target", targets.has(name));
      el.classList.toggle("source", !this.picked.length && firsts.has(name));
      el.setAttribute("aria-pressed", String(picked));
      const role = picked ? ", picked" : targets.has(name) ? ", legal target" : (!this.picked.length && firsts.has(name)) ? ", can move" : "";
      el.setAttribute("aria-label", name + role);
    }
  }

  centre(el) {
    const box = el.getBBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  nearest(from, dx, dy) {
    const here = this.centre(from);
    let best = null, bestScore = Infinity;
    for (const el of this.cells.values()) {
      if (el === from) continue;
      const c = this.centre(el), along = (c.x - here.x) * dx + (c.y - here.y) * dy;
      const across = Math.abs((c.x - here.x) * dy) + Math.abs((c.y - here.y) * dx);
      if (along <= 0.5) continue;
      const score = along + 2 * across;
      if (score < bestScore) { best = el; bestScore = score; }
    }
    return best;
  }

  key(event) {
    const el = event.target.closest("[data-cell]");
    if (!el) return;
    const steps = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[event.key]) {
      const next = this.nearest(el, ...steps[event.key]);
      if (next) this.focusCell(next);
    } else if (event.key === "Enter" || event.key === " ") {
      this.pick(el.dataset.cell);
    } else if (event.key === "Escape") {
      this.reset();
    } else {
      return;
    }
    event.preventDefault();
  }

  focusCell(el) {
    for (const other of this.cells.values()) other.setAttribute("tabindex", "-1");
    el.setAttribute("tabindex", "0");
    el.focus();
  }

  focusByName(name) {
    const el = this.cells.get(name);
    if (el) this.focusCell(el);
  }
}
