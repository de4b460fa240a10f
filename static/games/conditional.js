// Conditional moves (Onitama) entered on the board, on the opponent's turn.
//
// The player switches the board into "enter a line" mode and chooses their opponent's move,
// then their answer, and so on (at most max_plies plies), with the same controls as a move
// (./board.js, ./onitama.js). Each position comes from the server, which plays the line so far
// through the engine and draws the board and cards as the page does (position_url): no rule is
// written here. A line ending with an answer is added to the list of lines, which is the
// form's text field, one line a row; rows can be removed, and the form saves them (the engine
// checks every line again when they are saved). Without JavaScript the form alone works.
import {bindSquares, boardFor, controlsFor, format} from "./board.js";

function start() {
  const section = document.getElementById("conditional");
  const dataElement = document.getElementById("conditional-data");
  if (!section || !dataElement || section.dataset.ready) { return; }
  section.dataset.ready = "1";
  const data = JSON.parse(dataElement.textContent);
  const labels = data.labels;
  const field = document.getElementById("conditional-lines");
  const enterButton = document.getElementById("conditional-enter");
  const draft = document.getElementById("conditional-draft");
  const draftList = draft.querySelector(".conditional-draft-lines");
  const none = draft.querySelector(".conditional-none");
  const unsaved = document.getElementById("conditional-unsaved");
  const saved = data.saved.join("\n");

  // --- The list of lines: the text field's rows, each with a button that removes it --------
  function rows() {
    return field.value.split("\n").map((row) => row.trim().split(/\s+/).filter(Boolean).join(" ")).filter(Boolean);
  }

  function setRows(list) {
    field.value = list.join("\n");
    renderList();
  }

  function renderList() {
    const list = rows();
    draftList.replaceChildren(...list.map((line, index) => {
      const item = document.createElement("li");
      const code = document.createElement("code");
      code.dir = "ltr";
      code.textContent = line;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button secondary remove-line";
      remove.textContent = labels.remove;
      remove.setAttribute("aria-label", format(labels.remove_line, {line}));
      remove.addEventListener("click", () => {
        setRows(rows().filter((row, other) => other !== index));
        (draftList.querySelector(".remove-line") || field).focus();
      });
      item.append(code, " ", remove);
      return item;
    }));
    none.hidden = list.length > 0;
    unsaved.hidden = list.join("\n") === saved;
    if (entry) { showButtons(); }
  }

  section.querySelector(".conditional-saved").hidden = true;
  draft.hidden = false;
  field.addEventListener("input", renderList);

  // --- Entering a line on the board ----------------------------------------------------------
  let entry = null;  // while entering: the board's parts, the panel, the line and its position
  let asked = 0;  // the latest position asked for; older answers are dropped

  function enter() {
    const column = document.getElementById("board");
    const wrap = column && column.querySelector(".board-wrap");
    const extras = column && column.querySelector(".extras");
    const controlsBox = column && column.querySelector(".move-controls");
    if (!wrap || !extras || !controlsBox || entry) { return; }
    const panel = document.getElementById("conditional-entry-template").content.firstElementChild.cloneNode(true);
    controlsBox.append(panel);
    entry = {
      column, wrap, extras, panel,
      boardNodes: [...wrap.childNodes],
      extrasNodes: [...extras.childNodes],
      plies: panel.querySelector(".entry-plies"),
      prompt: panel.querySelector(".entry-prompt"),
      add: panel.querySelector(".entry-add"),
      back: panel.querySelector(".entry-back"),
      line: [],
      position: null,
      // The button that opened the panel is hidden: the first board takes the keyboard.
      focusBoard: true,
    };
    column.classList.add("conditional-entering");
    enterButton.hidden = true;
    entry.add.addEventListener("click", addLine);
    entry.back.addEventListener("click", () => { if (entry && entry.line.length) { load(entry.line.slice(0, -1)); } });
    panel.querySelector(".entry-done").addEventListener("click", leave);
    showButtons();
    column.scrollIntoView({block: "start"});
    load([]);
  }

  function leave() {
    if (!entry) { return; }
    const {column, wrap, extras, panel, boardNodes, extrasNodes} = entry;
    entry = null;
    asked += 1;
    if (wrap.isConnected) {  // put the board of the game back
      wrap.replaceChildren(...boardNodes);
      extras.replaceChildren(...extrasNodes);
    }
    panel.remove();
    column.classList.remove("conditional-entering");
    enterButton.hidden = false;
    if (section.isConnected) { enterButton.focus(); }
  }

  function showButtons() {
    const line = entry.line;
    const position = entry.position;
    const complete = line.length > 0 && line.length % 2 === 0;
    entry.add.disabled = !complete || rows().includes(line.join(" "));
    entry.back.disabled = line.length === 0;
    entry.plies.textContent = line.join(" ");
    entry.panel.classList.toggle("has-line", line.length > 0);
    if (position && position.over && line.length % 2 === 1) { entry.add.disabled = true; }
  }

  function load(line) {
    const ask = ++asked;
    const url = data.position_url + "?line=" + encodeURIComponent(line.join(" "));
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then((response) => response.json().then((body) => ({ok: response.ok, body})))
      .then(({ok, body}) => {
        if (!entry || ask !== asked) { return; }
        if (!ok) { entry.prompt.textContent = body.message || labels.failed; return; }
        show(body);
      })
      .catch(() => { if (entry && ask === asked) { entry.prompt.textContent = labels.failed; } });
  }

  function show(position) {
    const focusWasOnBoard = entry.focusBoard || entry.wrap.contains(document.activeElement) ||
      entry.extras.contains(document.activeElement) || entry.panel.contains(document.activeElement);
    entry.focusBoard = false;
    entry.position = position;
    entry.line = position.line;
    entry.wrap.innerHTML = position.board;
    entry.extras.innerHTML = position.extras;
    showButtons();
    const mine = position.to_move === position.side;
    const say = (text) => { entry.prompt.textContent = text || ""; };
    let focusSquare = null;
    let first = null;
    if (position.over) {
      say(entry.line.length % 2 ? labels.over_theirs : labels.over_mine);
    } else if (position.full) {
      say(labels.full);
    } else {
      const svg = entry.wrap.querySelector("svg");
      const boardData = {kind: data.kind, side: position.to_move, moves: position.moves,
                         labels: mine ? labels.mine : labels.theirs};
      const board = boardFor(svg, boardData, entry.prompt, {
        propose: (move) => load(entry.line.concat([move.text])),
        undo: () => {},
        pending: () => null,
      });
      const controls = controlsFor(board);
      focusSquare = bindSquares(board, controls, (square) => controls.square(square));
      first = controls.firstSquare() || board.spaces.keys().next().value;
      controls.reset();
      if (!mine && entry.line.length > 0) { say(labels.next_or_add); }
    }
    // Keep the keyboard where it was working: on the new board, or on the button that goes on.
    if (!focusWasOnBoard) { return; }
    if (!entry.add.disabled) {
      entry.add.focus();
    } else if (focusSquare && first) {
      focusSquare(first);
    } else {
      (entry.back.disabled ? entry.panel.querySelector(".entry-done") : entry.back).focus();
    }
  }

  function addLine() {
    if (!entry) { return; }
    const text = entry.line.join(" ");
    const list = rows();
    if (list.includes(text)) { entry.prompt.textContent = labels.already; return; }
    if (list.length >= data.max_lines) { entry.prompt.textContent = labels.too_many; return; }
    const hadKeyboard = document.activeElement === entry.add;
    setRows(list.concat([text]));
    entry.prompt.textContent = labels.added;
    // The button turns off once its line is in the list: the keyboard goes on to the next one.
    if (hadKeyboard) { entry.back.focus(); }
  }

  enterButton.addEventListener("click", enter);
  enterButton.hidden = false;
  renderList();
  // A new move or a fresh copy of the page (live.js): leave if this list or the board is gone.
  document.addEventListener("maatasite:game-updated", () => {
    if (entry && (!section.isConnected || !entry.wrap.isConnected)) { leave(); }
  });
}

start();
document.addEventListener("maatasite:game-updated", start);
