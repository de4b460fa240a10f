// The game page's board, shared by both games: the legal moves come from the page's data
// (#move-data, built by the engine: move text and parts), never from rules written here.
// A move chosen on the board or typed in notation becomes a pending move, shown on the
// board with its notation until it is confirmed (the form is sent) or undone. Squares
// are focusable: arrow keys move between them, Enter or Space acts like a click.
// A game plugs in its own controls (./onitama.js, ./maatatahay.js); without them the notation field and
// the buttons of moves that name no square are the controls.
import {maatatahayControls} from "./maatatahay.js";
import {onitamaControls} from "./onitama.js";

const CONTROLS = {onitama: onitamaControls, maatatahay: maatatahayControls};
const SQUARE_PARTS = ["from", "to", "square"];

export function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (all, key) => (key in values ? values[key] : all));
}

function squaresOf(move) {
  return SQUARE_PARTS.map((key) => move.parts[key]).filter((value) => typeof value === "string");
}

// The board object that a game's controls work with (./onitama.js, ./maatatahay.js): the
// spaces of ``svg``, the moves of ``data`` (the engine's legal moves) and what to do when a
// move is chosen (``hooks.propose``, ``hooks.undo``, ``hooks.pending``). The game page's move
// form uses it, and so does entering a conditional line on the board (./conditional.js).
export function boardFor(svg, data, prompt, hooks) {
  const spaces = new Map();
  svg.querySelectorAll(".space").forEach((rect) => {
    rect.dataset.name = rect.getAttribute("aria-label") || rect.dataset.square;
    spaces.set(rect.dataset.square, rect);
  });
  return {
    data, svg, labels: data.labels, moves: data.moves, side: data.side, spaces,
    space: (square) => spaces.get(square),
    byText: (text) => data.moves.find((move) => move.text === text) || null,
    squaresOf,
    say(text) { prompt.textContent = text || ""; },
    // Name a square for screen readers: its own name, or a label built on it.
    name(square, label) {
      const rect = spaces.get(square);
      if (!rect) { return; }
      const name = label ? format(label, {square: rect.dataset.name}) : rect.dataset.name;
      rect.setAttribute("aria-label", name);
      const title = rect.querySelector("title");
      if (title) { title.textContent = name; }
    },
    mark(squares, className) {
      spaces.forEach((rect, square) => rect.classList.toggle(className, squares.includes(square)));
    },
    propose: (move) => hooks.propose(move),
    undo: () => hooks.undo(),
    get pending() { return hooks.pending(); },
  };
}

export function controlsFor(board) {
  return (CONTROLS[board.data.kind] || genericControls)(board);
}

// Squares as buttons: click, and the keyboard (one square in the tab order at a time; arrow
// keys move between them, Enter or Space acts like a click). Returns focusSquare.
export function bindSquares(board, controls, activate) {
  const spaces = board.spaces;
  function focusSquare(square) {
    const rect = spaces.get(square);
    if (!rect) { return; }
    spaces.forEach((other) => other.setAttribute("tabindex", other === rect ? "0" : "-1"));
    rect.focus();
  }

  function neighbour(rect, key) {
    const x = Number(rect.getAttribute("x"));
    const y = Number(rect.getAttribute("y"));
    const size = Number(rect.getAttribute("width"));
    const step = {ArrowUp: [0, -size], ArrowDown: [0, size], ArrowLeft: [-size, 0], ArrowRight: [size, 0]}[key];
    for (const [square, other] of spaces) {
      if (Number(other.getAttribute("x")) === x + step[0] && Number(other.getAttribute("y")) === y + step[1]) {
        return square;
      }
    }
    return null;
  }

  if (!controls.squares) { return focusSquare; }
  const first = controls.firstSquare() || spaces.keys().next().value;
  spaces.forEach((rect, square) => {
    rect.setAttribute("role", "button");
    rect.setAttribute("tabindex", square === first ? "0" : "-1");
  });
  board.svg.addEventListener("click", (event) => {
    const rect = event.target.closest(".space");
    if (rect) { activate(rect.dataset.square); }
  });
  board.svg.addEventListener("keydown", (event) => {
    const rect = event.target.closest(".space");
    if (!rect) { return; }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate(rect.dataset.square);
    } else if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      const next = neighbour(rect, event.key);
      if (next) { focusSquare(next); }
    }
  });
  return focusSquare;
}

function start() {
  const dataElement = document.getElementById("move-data");
  const form = document.getElementById("move-form");
  const svg = document.querySelector(".board-wrap svg");
  // Once per move form: live.js swaps in a new one (with a new board) after a move.
  if (!dataElement || !form || !svg || form.dataset.boardReady) { return; }
  form.dataset.boardReady = "1";
  const data = JSON.parse(dataElement.textContent);
  const field = document.getElementById("move-text");
  const pendingBox = document.getElementById("pending-move");
  const pendingText = document.getElementById("pending-text");
  const prompt = document.getElementById("move-prompt");
  let pending = null;
  const board = boardFor(svg, data, prompt, {propose, undo, pending: () => pending});
  const controls = controlsFor(board);

  function showPending(move) {
    pending = move;
    pendingText.textContent = move.text;
    pendingBox.hidden = false;
    form.classList.add("has-pending");
    board.mark(squaresOf(move), "pending");
    controls.show(move);
    board.say(data.labels.confirm);
  }

  function propose(move) {
    showPending(move);
    field.value = move.text;
    document.getElementById("confirm-move").focus();
  }

  function clearPending() {
    if (!pending) { return; }
    const move = pending;
    pending = null;
    pendingBox.hidden = true;
    form.classList.remove("has-pending");
    board.mark([], "pending");
    controls.hide(move);
  }

  function undo() {
    const move = pending;
    clearPending();
    field.value = "";
    controls.reset();
    const back = move && squaresOf(move)[0];
    if (back && controls.squares) { focusSquare(back); }
  }

  document.getElementById("undo-move").addEventListener("click", undo);
  // Typing notation shows the move on the board as soon as it is a legal one.
  field.addEventListener("input", () => {
    const move = board.byText(field.value.trim());
    if (move && move !== pending) { clearPending(); showPending(move); } else if (!move) { clearPending(); }
  });
  form.querySelectorAll(".move-choice").forEach((button) => {
    button.addEventListener("click", (event) => {
      const move = board.byText(button.dataset.move);
      if (!move) { return; }
      event.preventDefault();
      clearPending();
      propose(move);
    });
  });

  function activate(square) {
    if (pending) { clearPending(); field.value = ""; }
    controls.square(square);
  }

  const focusSquare = bindSquares(board, controls, activate);
  controls.reset();
  const typed = board.byText(field.value.trim());
  if (typed) { showPending(typed); }
}

// A game without board controls yet: moves are typed (or chosen from the buttons or the
// list); the pending move's squares are marked.
function genericControls(board) {
  return {
    squares: false,
    reset() { board.say(board.labels.type_move); },
    show() {}, hide() {}, square() {}, firstSquare() { return null; },
  };
}

start();
document.addEventListener("maatasite:game-updated", start);
