// Game page, live: the opponent's move, a new message and the game's end appear without a reload.
//
// A WebSocket (games/consumers.py) sends, after every change, the parts of this page that
// change (header, board column, actions, move list), rendered for this viewer alone, and each
// new message the viewer may read, already rendered: they are swapped in as they come, with
// no fetch. The game's end, or a page showing an earlier ply, fetches a fresh copy of the page
// instead and patches it the same way. The message box, with whatever is being typed in it, is
// never touched. The socket is opened only when the site has push on (data-live-url); it is
// pinged now and then, which also renews its place in the game's group (the channel layer
// forgets a member after a day); without an answer it is reopened. While it is closed, game.js
// polls as before and patches the page from a fresh copy (window.maatasiteLive.refresh).
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

  // The page's own CSRF token, read once (pushed parts carry none) and after each fresh copy.
  var token = "";
  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input && input.value) { token = input.value; }
    return token;
  }
  csrfToken();

  function withToken(node) {
    node.querySelectorAll("form[method=post]").forEach(function (f) {
      var input = f.querySelector("input[name=csrfmiddlewaretoken]");
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = "csrfmiddlewaretoken";
        f.prepend(input);
      }
      input.value = token;
    });
    return node;
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
    withToken(item);
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
    csrfToken();
    document.dispatchEvent(new CustomEvent("maatasite:game-updated"));
  }

  // --- Patching the page from the parts pushed to it ----------------------------------------
  var PARTS = {header: ".game-header", board: "#board", actions: "#game-actions", moves: ".move-list"};

  function applyParts(data) {
    var current = root.getAttribute("data-shown-ply") === root.getAttribute("data-ply");
    if (data.status !== root.getAttribute("data-status") || !current) { refresh(); return; }
    var moved = String(data.ply) !== root.getAttribute("data-ply");
    Object.keys(PARTS).forEach(function (name) {
      if (name === "board" && !moved) { return; }  // a move being chosen on it stays
      var old = document.querySelector(PARTS[name]);
      var next = new DOMParser().parseFromString(data.parts[name] || "", "text/html").querySelector(PARTS[name]);
      if (old && next) { old.replaceWith(withToken(document.importNode(next, true))); }
    });
    root.setAttribute("data-ply", String(data.ply));
    root.setAttribute("data-shown-ply", String(data.ply));
    if (data.poll) { root.setAttribute("data-poll", "1"); } else { root.removeAttribute("data-poll"); }
    document.dispatchEvent(new CustomEvent("maatasite:game-updated"));
  }

  // --- The socket -------------------------------------------------------------------------
  var path = root.getAttribute("data-live-url");
  if (!path || !window.WebSocket) { return; }
  var retry = 2000;

  function changed(game) {
    return String(game.ply) !== root.getAttribute("data-ply") || game.status !== root.getAttribute("data-status");
  }

  var PING_EVERY = 240000;  // ms; the answer must come within PONG_WITHIN
  var PONG_WITHIN = 20000;

  function open() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var lang = encodeURIComponent(document.documentElement.lang || "");
    var socket = new WebSocket(scheme + window.location.host + path + "?view=page&lang=" + lang);
    var pinger = null;
    var deadline = null;
    socket.addEventListener("open", function () {
      live.connected = true;
      retry = 2000;
      pinger = window.setInterval(function () {
        socket.send(JSON.stringify({type: "ping"}));
        if (!deadline) { deadline = window.setTimeout(function () { socket.close(); }, PONG_WITHIN); }
      }, PING_EVERY);
    });
    socket.addEventListener("message", function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data.type === "hello" || data.type === "pong") {
        if (deadline) { window.clearTimeout(deadline); deadline = null; }
        // Whether anything changed since the page was drawn (or the last answer): fetch it then.
        if (changed(data)) { refresh(); }
      } else if (data.type === "page" && data.parts) {
        applyParts(data);
      } else if (data.type === "message" && data.html) {
        var item = new DOMParser().parseFromString("<ol>" + data.html + "</ol>", "text/html").querySelector("li");
        if (item) { addMessage(document.importNode(item, true)); }
      }
    });
    socket.addEventListener("close", function () {
      live.connected = false;  // game.js polls meanwhile
      window.clearInterval(pinger);
      if (deadline) { window.clearTimeout(deadline); deadline = null; }
      window.setTimeout(open, retry);
      retry = Math.min(retry * 2, 60000);
    });
  }
  open();
})();
