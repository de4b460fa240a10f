// Game page: while its post-game analysis is being computed, ask the API now and then whether it
// is done, and reload the page (to its analysis) once it is. Without JavaScript the page says to reload.
(function () {
  "use strict";
  var status = document.querySelector("[data-analysis-url]");
  if (!status || !window.fetch) { return; }
  var delay = 5000;
  var poll = function () {
    fetch(status.getAttribute("data-analysis-url"), {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && (data.status === "done" || data.status === "failed")) {
          window.location.hash = "analysis";
          window.location.reload();
          return;
        }
        delay = Math.min(delay * 1.5, 60000);
        window.setTimeout(poll, delay);
      })
      .catch(function () { window.setTimeout(poll, 60000); });
  };
  window.setTimeout(poll, delay);
})();
