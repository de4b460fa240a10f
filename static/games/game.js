// Game page: click squares on the board to narrow the list of legal moves.
// Without JavaScript the form works as it is (choose a move, press Play).
// The page may be patched in place (live.js): the move form is then set up again.
(function () {
  "use strict";
  // Forms that ask first (resign, report): one listener for the forms of now and of later patches.
  document.addEventListener("submit", function (event) {
    var f = event.target.closest && event.target.closest("form[data-confirm]");
    if (f && !window.confirm(f.getAttribute("data-confirm"))) { event.preventDefault(); }
  });
  // While waiting for the opponent (or the bot), look for a new move now and then, unless the
  // live socket is open (live.js); a change patches the page (live.js) or, without it, reloads.
  var root = document.querySelector(".game-page");
  if (root && window.fetch) {
    var delay = 4000;
    var live = function () { return window.maatasiteLive; };
    var poll = function () {
      if (!root.hasAttribute("data-poll") || (live() && live().connected)) {
        delay = 4000;
        window.setTimeout(poll, delay);
        return;
      }
      fetch(root.getAttribute("data-status-url"), {headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && (String(data.ply) !== root.getAttribute("data-ply") || data.status !== root.getAttribute("data-status"))) {
            if (live()) { live().refresh(); delay = 4000; } else { window.location.reload(); return; }
          } else {
            delay = Math.min(delay * 1.5, 60000);
          }
          window.setTimeout(poll, delay);
        })
        .catch(function () { window.setTimeout(poll, 60000); });
    };
    window.setTimeout(poll, delay);
  }
  setup();
  document.addEventListener("maatasite:game-updated", setup);

  function setup() {
  var form = document.getElementById("move-form");
  var board = document.querySelector(".board-wrap svg");
  if (!form || (board || form).getAttribute("data-ready")) { return; }
  (board || form).setAttribute("data-ready", "1");
  var moves = Array.prototype.slice.call(form.querySelectorAll(".legal-move"));
  var clear = document.getElementById("clear-filter");
  var typed = document.getElementById("move-typed");
  var selected = [];

  function squaresOf(label) {
    var text = label.getAttribute("data-squares") || "";
    return text ? text.split(" ") : [];
  }

  function render() {
    var visible = [];
    moves.forEach(function (label) {
      var squares = squaresOf(label);
      var ok = selected.every(function (sq, i) { return squares[i] === sq; });
      label.hidden = !ok;
      if (ok) { visible.push(label); }
    });
    if (board) {
      board.querySelectorAll(".space").forEach(function (space) {
        var sq = space.getAttribute("data-square");
        space.classList.toggle("selected", selected.indexOf(sq) >= 0);
        var target = selected.length > 0 && visible.some(function (label) {
          return squaresOf(label)[selected.length] === sq;
        });
        space.classList.toggle("target", target);
      });
    }
    if (clear) { clear.hidden = selected.length === 0; }
    if (selected.length > 0 && visible.length === 1) {
      visible[0].querySelector("input").checked = true;
      if (typed) { typed.value = ""; }
    }
  }

  if (board) {
    board.addEventListener("click", function (event) {
      var space = event.target.closest(".space");
      if (!space) { return; }
      var sq = space.getAttribute("data-square");
      var index = selected.indexOf(sq);
      if (index >= 0) {
        selected = selected.slice(0, index);
      } else {
        var next = selected.concat([sq]);
        var any = moves.some(function (label) {
          var squares = squaresOf(label);
          return next.every(function (s, i) { return squares[i] === s; });
        });
        selected = any ? next : (moves.some(function (label) { return squaresOf(label)[0] === sq; }) ? [sq] : []);
      }
      render();
    });
  }
  if (clear) { clear.addEventListener("click", function () { selected = []; render(); }); }
  moves.forEach(function (label) {
    label.querySelector("input").addEventListener("change", function () { if (typed) { typed.value = ""; } });
  });
  }
})();
