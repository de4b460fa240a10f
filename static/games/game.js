// Game page: confirm a resignation, and look for the opponent's move while waiting.
// Moves on the board are ./board.js; without JavaScript the move form works as it is.
// The page may be patched in place (live.js): board.js then sets the new move form up.
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
})();
