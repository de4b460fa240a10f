// Game page: confirm a resignation, and look for the opponent's move while waiting.
// Moves on the board are ./board.js; without JavaScript the move form works as it is.
(function () {
  "use strict";
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (!window.confirm(f.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
  });
  // While waiting for the opponent (or the bot), look for a new move now and then.
  var root = document.querySelector(".game-page[data-poll]");
  if (root && window.fetch) {
    var delay = 4000;
    var poll = function () {
      fetch(root.getAttribute("data-status-url"), {headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && (String(data.ply) !== root.getAttribute("data-ply") || data.status !== root.getAttribute("data-status"))) {
            window.location.reload();
            return;
          }
          delay = Math.min(delay * 1.5, 60000);
          window.setTimeout(poll, delay);
        })
        .catch(function () { window.setTimeout(poll, 60000); });
    };
    window.setTimeout(poll, delay);
  }
})();
