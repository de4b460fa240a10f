// Game page, live: the opponent's move, a new message and the game's end appear without a reload.
//
// A WebSocket (games/consumers.py) sends this viewer's own view of the game after every change,
// and each new message the viewer may read, already rendered. A change then patches the page
// from a fresh copy of it (the same page, fetched): the header, the board, the moves and the
// actions are swapped; the message box, with whatever is being typed in it, is never touched.
// The socket is opened only when the site has push on (data-live-url). While it is closed,
// game.js polls as before and patches the page the same way (window.maatasiteLive.refresh).
(function () {
  "use strict";
  var root = document.querySelector(".game-page");
  if (!root || !window.fetch || !window.DOMParser) { return; }

  var live = {connected: false, refresh: refresh};
  window.maatasiteLive = live;

  // --- Patching the page from a fresh copy of it ---------------------------------------------
  var fetching = false;
  var again = false;

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    var url = window.location.href.split("#")[0];
    fetch(url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) { patch(new DOMParser().parseFromString(html, "text/html")); } })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  function swap(selector, fresh) {
    var old = document.querySelector(selector);
    var next = fresh.querySelector(selector);
    if (old && next) { old.replaceWith(document.importNode(next, true)); }
  }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // The side column, child by child, around the messages panel, which stays as it is; only the
  // messages it lacks are added. (The move form is in the board column, which patch() keeps at
  // the same ply.)
  function patchSide(fresh) {
    var side = document.querySelector(".side-column");
    var next = fresh.querySelector(".side-column");
    if (!side || !next) { return; }
    var panel = side.querySelector("#messages");
    var kept = panel && next.querySelector("#messages") ? panel : null;
    Array.prototype.slice.call(side.children).forEach(function (child) {
      if (child !== kept) { child.remove(); }
    });
    var anchor = side.firstChild;
    Array.prototype.slice.call(next.children).forEach(function (child) {
      if (kept && child.id === "messages") {
        anchor = kept.nextSibling;
        mergeMessages(child);
        return;
      }
      side.insertBefore(document.importNode(child, true), anchor);
    });
  }

  function mergeMessages(nextPanel) {
    Array.prototype.slice.call(nextPanel.querySelectorAll(".message-list > .message")).forEach(function (item) {
      addMessage(document.importNode(item, true));
    });
  }

  function addMessage(item) {
    if (!item.id || document.getElementById(item.id)) { return; }
    var panel = document.getElementById("messages");
    if (!panel) { return; }
    item.querySelectorAll("form[method=post]").forEach(function (f) {
      if (!f.querySelector("input[name=csrfmiddlewaretoken]")) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = "csrfmiddlewaretoken";
        input.value = csrfToken();
        f.prepend(input);
      }
    });
    var list = panel.querySelector(".message-list");
    if (!list) {
      list = document.createElement("ol");
      list.className = "message-list";
      var empty = panel.querySelector(".no-messages");
      if (empty) { empty.replaceWith(list); } else { panel.insertBefore(list, panel.querySelector("form, .notice")); }
    }
    list.appendChild(item);
  }

  function patch(fresh) {
    var nextRoot = fresh.querySelector(".game-page");
    if (!nextRoot) { return; }
    // The board column (board, last move, move form) changes only with a move or the game's end;
    // otherwise (a draw offer, say) it stays, with a move being chosen or typed on it.
    var moved = ["data-ply", "data-status"].some(function (name) {
      return nextRoot.getAttribute(name) !== root.getAttribute(name);
    });
    ["data-ply", "data-shown-ply", "data-status", "data-poll"].forEach(function (name) {
      if (nextRoot.hasAttribute(name)) { root.setAttribute(name, nextRoot.getAttribute(name)); }
      else { root.removeAttribute(name); }
    });
    swap(".game-header", fresh);
    if (moved) { swap("#board", fresh); }
    patchSide(fresh);
    document.dispatchEvent(new CustomEvent("maatasite:game-updated"));
  }

  // --- The socket -------------------------------------------------------------------------
  var path = root.getAttribute("data-live-url");
  if (!path || !window.WebSocket) { return; }
  var retry = 2000;

  function changed(game) {
    return String(game.ply) !== root.getAttribute("data-ply") || game.status !== root.getAttribute("data-status");
  }

  function open() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + path);
    var first = true;
    socket.addEventListener("open", function () { live.connected = true; retry = 2000; });
    socket.addEventListener("message", function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data.type === "game" && data.game) {
        // The first view says whether anything changed between the page's render and now.
        if (!first || changed(data.game)) { refresh(); }
        first = false;
      } else if (data.type === "message" && data.html) {
        var item = new DOMParser().parseFromString("<ol>" + data.html + "</ol>", "text/html").querySelector("li");
        if (item) { addMessage(document.importNode(item, true)); }
      }
    });
    socket.addEventListener("close", function () {
      live.connected = false;  // game.js polls meanwhile
      window.setTimeout(open, retry);
      retry = Math.min(retry * 2, 60000);
    });
  }
  open();
})();
