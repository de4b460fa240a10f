// Onitama on the board (plugged into ./board.js): choose one of your pieces and every
// square it reaches with either card is marked; choose a marked square to move there.
// Choosing a card first narrows the marks to that card; when both cards reach the
// square, the card is asked for. With no move possible, a card is chosen to pass with.
// Which moves exist comes only from the page's data (the engine's legal moves).

export function onitamaControls(board) {
  const labels = board.labels;
  const moves = board.moves;
  const passes = moves.filter((move) => move.parts.type === "pass");
  const steps = moves.filter((move) => move.parts.type === "move");
  const cardChoices = document.getElementById("card-choices");
  // The viewer's cards that a legal move uses, as drawn beside the board.
  const cardNames = [...new Set(moves.map((move) => move.parts.card))];
  const cards = [];
  document.querySelectorAll(".hand-" + board.side + " svg.card").forEach((svg) => {
    if (cardNames.includes(svg.dataset.card)) { cards.push(svg); }
  });
  let from = null;
  let card = null;
  let choice = null;  // the moves between which a card must be chosen

  function reachable() {
    return steps.filter((move) => move.parts.from === from && (!card || move.parts.card === card));
  }

  function render() {
    const targets = from ? reachable().map((move) => move.parts.to) : [];
    board.mark(from ? [from] : [], "selected");
    board.mark(targets, "target");
    board.spaces.forEach((rect, square) => {
      board.name(square, square === from ? labels.selected : targets.includes(square) ? labels.target : "");
    });
    cards.forEach((svg) => {
      const chosen = svg.dataset.card === card;
      svg.classList.toggle("selected", chosen);
      svg.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
    cardChoices.hidden = !choice;
    cardChoices.replaceChildren(...(choice || []).map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button secondary";
      button.textContent = labels.move_with.replace("%(card)s", move.parts.card.replace(/_/g, " "));
      button.addEventListener("click", () => board.propose(move));
      return button;
    }));
    if (choice) {
      board.say(labels.pick_card);
      cardChoices.querySelector("button").focus();
    } else {
      board.say(steps.length === 0 ? labels.must_pass : from ? labels.pick_square : labels.pick_piece);
    }
  }

  function pickCard(name) {
    if (board.pending) { board.undo(); }
    if (choice) {
      const move = choice.find((m) => m.parts.card === name);
      choice = null;
      if (move) { board.propose(move); return; }
    } else if (steps.length === 0) {
      const pass = passes.find((m) => m.parts.card === name);
      if (pass) { board.propose(pass); return; }
    } else {
      card = card === name ? null : name;
    }
    render();
  }

  cards.forEach((svg, index) => {
    svg.setAttribute("role", "button");
    svg.setAttribute("tabindex", "0");
    svg.addEventListener("click", () => pickCard(svg.dataset.card));
    svg.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pickCard(svg.dataset.card);
      } else if (event.key === "ArrowLeft" || event.key === "ArrowRight" ||
                 event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        cards[(index + 1) % cards.length].focus();
      }
    });
  });

  // The piece of a pending move stands on its new square; a captured piece fades.
  function pieceOn(square) {
    return board.svg.querySelector('.piece[data-square="' + square + '"]');
  }

  return {
    squares: true,
    firstSquare() { return steps.length ? steps[0].parts.from : null; },
    reset() { from = null; card = null; choice = null; render(); },
    square(square) {
      choice = null;
      if (from && square !== from) {
        const found = reachable().filter((move) => move.parts.to === square);
        if (found.length === 1) { board.propose(found[0]); return; }
        if (found.length > 1) { choice = found; render(); return; }
      }
      const ownPiece = steps.some((move) => move.parts.from === square);
      from = ownPiece && square !== from ? square : null;
      render();
    },
    show(move) {
      choice = null;
      cardChoices.hidden = true;
      board.mark([], "target");
      board.mark([], "selected");
      if (move.parts.type !== "move") { return; }
      const piece = pieceOn(move.parts.from);
      const source = board.space(move.parts.from);
      const target = board.space(move.parts.to);
      const captured = pieceOn(move.parts.to);
      if (captured) { captured.classList.add("captured"); }
      if (piece && source && target) {
        const dx = Number(target.getAttribute("x")) - Number(source.getAttribute("x"));
        const dy = Number(target.getAttribute("y")) - Number(source.getAttribute("y"));
        piece.setAttribute("transform", "translate(" + dx + " " + dy + ")");
      }
    },
    hide() {
      board.svg.querySelectorAll(".piece[transform]").forEach((piece) => piece.removeAttribute("transform"));
      board.svg.querySelectorAll(".piece.captured").forEach((piece) => piece.classList.remove("captured"));
    },
  };
}
