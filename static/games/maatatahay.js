// Maatatahay on the board (plugged into ./board.js). A pair is picked by clicking it in the
// Tile Stream; who places first by its two buttons (board.js). A placement: choose a marked
// space and the tile appears there with its arrows; choose it again (or the rotate button,
// or the arrow keys on that button) to rotate; plus and minus move crystals from storage.
// Every value offered is one that a legal move has (the page's data, from the engine), so
// nothing can be set outside its legal range; where only the settlement order differs, the
// distinct results are offered with their previews. The previews of a square come from the
// engine through a small JSON endpoint (games.views.game_previews) when it is chosen.
import {format} from "./board.js";

const SVG = "http://www.w3.org/2000/svg";
const ON_SQUARE = ["place", "shrine", "draft"];

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([key, value]) => node.setAttribute(key, value));
  if (text !== undefined) { node.textContent = text; }
  return node;
}

export function maatatahayControls(board) {
  const labels = board.labels;
  const moves = board.moves;
  const data = board.data;
  const hot = data.hot_tile;
  const a1 = board.space("a1");
  const flip = a1 && a1.getAttribute("x") !== "0";
  const finishes = moves.filter((move) => move.parts.type === "finish");
  const picks = moves.filter((move) => move.parts.type === "pick");
  const onSquare = moves.filter((move) => ON_SQUARE.includes(move.parts.type));
  const targets = [...new Set(onSquare.map((move) => move.parts.square))];
  if (finishes.length && data.pending_square) { targets.push(data.pending_square); }
  const previews = new Map();  // move text -> the engine's preview
  let square = null;
  let candidates = [];  // the legal moves on the chosen square
  let choice = null;  // {rotation, energy, spirit} of the move being set up
  let tileGroup = null;

  // The panel of the placement controls, before the pending move's confirm.
  const panel = el("div", {class: "maat-controls", id: "maat-controls", hidden: ""});
  const rotate = el("button", {type: "button", class: "button secondary", id: "maat-rotate"}, labels.rotate);
  const rows = {};
  const counters = el("div", {class: "maat-counters"});
  ["energy", "spirit"].forEach((crystal) => {
    const row = el("p", {class: "maat-counter"});
    const name = el("span", {class: "maat-counter-name"}, labels[crystal]);
    const minus = el("button", {type: "button", class: "button secondary", id: "maat-" + crystal + "-minus",
      "aria-label": format(labels.less, {crystal: labels[crystal]})}, "−");
    const value = el("output", {id: "maat-" + crystal + "-value", "aria-live": "polite"}, "0");
    const plus = el("button", {type: "button", class: "button secondary", id: "maat-" + crystal + "-plus",
      "aria-label": format(labels.more, {crystal: labels[crystal]})}, "+");
    minus.addEventListener("click", () => step(crystal, -1));
    plus.addEventListener("click", () => step(crystal, 1));
    row.append(name, minus, value, plus);
    rows[crystal] = {row, minus, value, plus};
    counters.append(row);
  });
  const putLabel = el("p", {class: "maat-put-label muted"});
  const orders = el("div", {class: "maat-orders", id: "maat-orders", role: "group"});
  const preview = el("div", {class: "maat-preview", id: "maat-preview", "aria-live": "polite"});
  panel.append(rotate, putLabel, counters, orders, preview);
  const pendingBox = document.getElementById("pending-move");
  pendingBox.parentNode.insertBefore(panel, pendingBox);

  rotate.addEventListener("click", () => turn(1));
  // Up turns on, down turns back; sideways follows the reading direction, as a slider's arrows do
  // (in Arabic the arrow pointing left, where the line runs, turns on).
  rotate.addEventListener("keydown", (event) => {
    const forward = getComputedStyle(rotate).direction === "rtl" ? "ArrowLeft" : "ArrowRight";
    const back = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    if (event.key === forward || event.key === "ArrowUp") { event.preventDefault(); turn(1); }
    if (event.key === back || event.key === "ArrowDown") { event.preventDefault(); turn(-1); }
  });

  // Pairs of the Tile Stream are buttons when a pick is to be made.
  document.querySelectorAll(".tile-stream .stream-pair[data-wazu]").forEach((item) => {
    const move = picks.find((m) => m.parts.wazu === item.dataset.wazu && m.parts.balan === item.dataset.balan);
    if (!move) { return; }
    item.setAttribute("role", "button");
    item.setAttribute("tabindex", "0");
    item.classList.add("pickable");
    item.setAttribute("aria-label", labels.pair + ": " + move.text.replace(/^pick /, ""));
    const pick = () => { if (board.pending) { board.undo(); } board.propose(move); };
    item.addEventListener("click", pick);
    item.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(); }
    });
  });

  // The values a dimension of the chosen square's moves can take (rotation, energy, spirit).
  const kindOf = (move) => move.parts.type;
  const energyOf = (move) => (kindOf(move) === "shrine" ? move.parts.pay_energy : move.parts.put_energy || 0);
  const spiritOf = (move) => (kindOf(move) === "shrine" ? move.parts.pay_spirit : move.parts.put_spirit || 0);
  const rotationOf = (move) => move.parts.rotation || 0;
  const values = (list, of) => [...new Set(list.map(of))].sort((a, b) => a - b);

  function matching(rotation, energy, spirit) {
    return candidates.filter((m) => rotationOf(m) === rotation && energyOf(m) === energy && spiritOf(m) === spirit);
  }

  // The closest legal setting to the one asked for (the rotation first, then energy, then spirit).
  function settle(rotation, energy, spirit) {
    const turned = candidates.filter((m) => rotationOf(m) === rotation);
    const energies = values(turned, energyOf);
    const e = energies.includes(energy) ? energy : energies.reduce((a, b) => (Math.abs(b - energy) < Math.abs(a - energy) ? b : a));
    const spirits = values(turned.filter((m) => energyOf(m) === e), spiritOf);
    const s = spirits.includes(spirit) ? spirit : spirits.reduce((a, b) => (Math.abs(b - spirit) < Math.abs(a - spirit) ? b : a));
    return {rotation, energy: e, spirit: s};
  }

  function turn(by) {
    if (!choice) { return; }
    const rotations = values(candidates, rotationOf);
    const next = rotations[(rotations.indexOf(choice.rotation) + by + rotations.length) % rotations.length];
    choice = settle(next, choice.energy, choice.spirit);
    name();
    offer(0, rotate);
  }

  function step(crystal, by) {
    if (!choice) { return; }
    const turned = candidates.filter((m) => rotationOf(m) === choice.rotation);
    const of = crystal === "energy" ? energyOf : spiritOf;
    const options = values(crystal === "energy" ? turned : turned.filter((m) => energyOf(m) === choice.energy), of);
    const now = options.indexOf(choice[crystal]);
    const next = options[now + by];
    if (next === undefined) { return; }
    choice = crystal === "energy" ? settle(choice.rotation, next, choice.spirit) : {...choice, spirit: next};
    offer(0, rows[crystal][by > 0 ? "plus" : "minus"]);
  }

  // The moves of the current setting (one per distinct result of the settlement order).
  function offer(index, keepFocus) {
    const found = matching(choice.rotation, choice.energy, choice.spirit);
    if (!found.length) { return; }
    render(found);
    propose(found[Math.min(index, found.length - 1)], keepFocus);
  }

  function propose(move, keepFocus) {
    board.propose(move);
    if (keepFocus) { keepFocus.focus(); }
  }

  function render(found) {
    const rotations = values(candidates, rotationOf);
    const turned = candidates.filter((m) => rotationOf(m) === choice.rotation);
    const energies = values(turned, energyOf);
    const spirits = values(turned.filter((m) => energyOf(m) === choice.energy), spiritOf);
    rotate.hidden = rotations.length < 2;
    rotate.textContent = labels.rotate + " (" + format(labels.rotation, {n: choice.rotation}) + ")";
    const shrine = kindOf(candidates[0]) === "shrine";
    putLabel.textContent = shrine ? labels.pay : labels.put;
    const crystalCount = {energy: energies, spirit: spirits};
    ["energy", "spirit"].forEach((crystal) => {
      const options = crystalCount[crystal];
      const at = options.indexOf(choice[crystal]);
      rows[crystal].row.hidden = options.length < 2;
      rows[crystal].value.textContent = String(choice[crystal]);
      rows[crystal].minus.disabled = at <= 0;
      rows[crystal].plus.disabled = at >= options.length - 1;
    });
    putLabel.hidden = energies.length < 2 && spirits.length < 2;
    orders.replaceChildren();
    if (found.length > 1) {
      orders.append(el("p", {class: "maat-orders-label"}, labels.pick_order));
      found.forEach((move) => {
        const button = el("button", {type: "button", class: "button secondary maat-order",
          "data-move": move.text}, format(labels.order, {order: move.parts.order.join(", ")}));
        button.addEventListener("click", () => propose(move, button));
        const said = el("span", {class: "maat-order-preview muted"});
        button.append(" ", said);
        orders.append(button);
      });
    }
    panel.hidden = false;
  }

  function describe(effects) {
    if (!effects) { return [labels.loading]; }
    const lines = [];
    const side = board.side;
    if (effects.strength) { lines.push(format(labels.strength, effects.strength)); }
    if (effects.collected && (effects.collected.energy || effects.collected.spirit)) {
      lines.push(format(labels.collected, effects.collected));
    }
    if (effects.deaths) {
      lines.push(effects.deaths.length ? format(labels.deaths, {list: effects.deaths.map((dead) =>
        dead.square + " (" + (dead.tribe === side ? labels.friend : labels.enemy) + ")").join(", ")}) : labels.no_deaths);
    }
    if (effects.hot_survives === false) { lines.push(labels.hot_dies); }
    if (effects.relic_points !== undefined) { lines.push(format(labels.relic_points, {n: effects.relic_points})); }
    if (effects.favour_draws) { lines.push(format(labels.favour, {n: effects.favour_draws})); }
    if (effects.score_change && side) {
      const other = Object.keys(effects.score_change).find((key) => key !== side);
      const signed = (n) => (n > 0 ? "+" + n : String(n));
      lines.push(format(labels.score_change, {mine: signed(effects.score_change[side]),
        theirs: signed(effects.score_change[other])}));
    }
    return lines;
  }

  function showPreview(move) {
    preview.replaceChildren(...describe(previews.get(move.text)).map((line) => el("p", {}, line)));
    orders.querySelectorAll(".maat-order").forEach((button) => {
      const effects = previews.get(button.dataset.move);
      button.querySelector(".maat-order-preview").textContent = effects ? describe(effects).join(" · ") : "";
      button.setAttribute("aria-pressed", button.dataset.move === move.text ? "true" : "false");
    });
  }

  function fetchPreviews(chosen) {
    const url = data.previews_url + "?square=" + encodeURIComponent(chosen === data.pending_square && finishes.length ? "" : chosen);
    fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then((response) => (response.ok ? response.json() : null))
      .then((body) => {
        if (!body || body.ply !== data.ply) { return; }
        body.moves.forEach((entry) => previews.set(entry.text, entry.preview));
        if (board.pending && square === chosen) { showPreview(board.pending); }
      })
      .catch(() => {});
  }

  // The crystals moved from storage onto the pending tile, drawn as a placed tile's (small
  // diamonds, energy then spirit, a count beyond 3: games/boards/maatatahay.py _crystals).
  function drawCrystals(group, x, y, energy, spirit) {
    const size = 5;
    let cx = x;
    [["energy", energy], ["spirit", spirit]].forEach(([crystal, count]) => {
      if (!count) { return; }
      for (let i = 0; i < Math.min(count, 3); i += 1) {
        const path = document.createElementNS(SVG, "path");
        path.setAttribute("d", "M" + cx + " " + (y - size) + " l" + size + " " + size + " l-" + size + " " + size +
          " l-" + size + " -" + size + " z");
        path.setAttribute("class", "hot-crystal hot-" + crystal);
        path.setAttribute("fill", hot.crystal_colours[crystal]);
        path.setAttribute("stroke", "#333");
        path.setAttribute("stroke-width", "0.8");
        group.append(path);
        cx += (size * 2 + 2) * 0.7;
      }
      if (count > 3) {
        const text = document.createElementNS(SVG, "text");
        [["x", cx - 2], ["y", y + 5], ["font-size", 15], ["fill", "#222"]].forEach(([k, v]) => text.setAttribute(k, v));
        text.textContent = String(count);
        group.append(text);
        cx += 12;
      }
      cx += 3;
    });
  }

  // The tile drawn on the chosen space, turned as the pending move says and with the crystals
  // it puts on it. The first half of a Shrine placement names no rotation and puts nothing:
  // its tile is drawn as the engine's first "finish" places it (rotation 0, no crystals) until
  // the second confirm chooses.
  function drawTile(where, rotation, energy, spirit) {
    removeTile();
    const rect = board.space(where);
    if (!rect || !hot) { return; }
    const cell = hot.cell;
    const x = Number(rect.getAttribute("x"));
    const y = Number(rect.getAttribute("y"));
    const cx = x + cell / 2;
    const cy = y + cell / 2;
    const angle = (rotation * 90 + (flip ? 180 : 0)) % 360;
    const group = document.createElementNS(SVG, "g");
    group.setAttribute("class", "hot-tile");
    group.setAttribute("pointer-events", "none");
    group.setAttribute("aria-hidden", "true");
    group.dataset.rotation = String(rotation);
    const turned = document.createElementNS(SVG, "g");
    turned.setAttribute("transform", "rotate(" + angle + " " + cx + " " + cy + ")");
    const m = 6;
    const size = cell - 2 * m;
    const body = document.createElementNS(SVG, "rect");
    [["x", x + m], ["y", y + m], ["width", size], ["height", size], ["rx", 8], ["fill", hot.fill],
      ["stroke", hot.stroke], ["stroke-width", 3], ["opacity", 0.9]].forEach(([k, v]) => body.setAttribute(k, v));
    turned.append(body);
    hot.arrows.forEach(([dx, dy]) => {
      const reach = size / 2 - 3;
      const bx = cx + dx * (reach - 10);
      const by = cy + dy * (reach - 10);
      const px = -dy * 5;
      const py = dx * 5;
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("d", "M" + (cx + dx * reach) + " " + (cy + dy * reach) + " L" + (bx + px) + " " + (by + py) +
        " L" + (bx - px) + " " + (by - py) + " z");
      path.setAttribute("fill", hot.stroke);
      turned.append(path);
    });
    const text = document.createElementNS(SVG, "text");
    [["x", cx], ["y", cy + 6], ["font-size", 15], ["text-anchor", "middle"], ["fill", "#222"]].forEach(([k, v]) => text.setAttribute(k, v));
    text.textContent = hot.short;
    const claws = document.createElementNS(SVG, "text");
    [["x", cx], ["y", cy + 26], ["font-size", 17], ["font-weight", "bold"], ["text-anchor", "middle"],
      ["fill", hot.stroke]].forEach(([k, v]) => claws.setAttribute(k, v));
    claws.textContent = String(hot.claws);
    group.append(turned, text, claws);
    drawCrystals(group, x + 16, y + cell - 16, energy, spirit);
    board.svg.append(group);
    tileGroup = group;
  }

  function removeTile() {
    if (tileGroup) { tileGroup.remove(); tileGroup = null; }
  }

  function name() {
    board.spaces.forEach((rect, where) => {
      const selected = labels.space_selected + (hot && choice ? ", " + hot.label + ", " +
        format(labels.rotation, {n: choice.rotation}) : "");
      board.name(where, where === square ? selected : targets.includes(where) ? labels.space_free : "");
    });
  }

  function choose(where) {
    square = where;
    candidates = where === data.pending_square && finishes.length ? finishes
      : onSquare.filter((move) => move.parts.square === where);
    // One kind of decision per square (a relic's Shrine offers only Shrine placements).
    candidates = candidates.filter((move) => kindOf(move) === kindOf(candidates[0]));
    board.mark([where], "selected");
    name();
    if (kindOf(candidates[0]) === "draft") { panel.hidden = true; board.propose(candidates[0]); return; }
    const first = candidates[0];
    choice = settle(rotationOf(first), 0, 0);
    name();
    fetchPreviews(where);
    offer(0, null);
  }

  function reset() {
    square = null;
    candidates = [];
    choice = null;
    panel.hidden = true;
    removeTile();
    board.mark([], "selected");
    board.mark(targets, "placeable");
    name();
    if (picks.length) { board.say(labels.pick_pair); } else if (moves.some((m) => kindOf(m) === "first")) {
      board.say(labels.pick_first);
    } else if (targets.length) { board.say(labels.pick_space); } else { board.say(labels.type_move); }
  }

  return {
    squares: targets.length > 0,
    firstSquare() { return targets[0] || null; },
    reset,
    square(where) {
      if (where === square && choice) { turn(1); return; }
      if (!targets.includes(where)) { return; }
      choose(where);
    },
    show(move) {
      const kind = kindOf(move);
      if (kind === "place" || kind === "finish" || kind === "shrine") {
        const where = kind === "finish" ? data.pending_square : move.parts.square;
        if (square !== where) {  // typed in notation: set the controls up from the move
          square = where;
          candidates = kind === "finish" ? finishes : onSquare.filter((m) => m.parts.square === where && kindOf(m) === kind);
          choice = {rotation: rotationOf(move), energy: energyOf(move), spirit: spiritOf(move)};
          render(matching(choice.rotation, choice.energy, choice.spirit));
          fetchPreviews(where);
          name();
        }
        board.mark([where], "selected");
        if (kind === "shrine") { drawTile(where, 0, 0, 0); } else {
          drawTile(where, rotationOf(move), move.parts.put_energy || 0, move.parts.put_spirit || 0);
        }
        showPreview(move);
        board.say(labels.adjust);
      }
    },
    hide() { removeTile(); },
  };
}
