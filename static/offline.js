// scorepad offline: a hand saved without a connection waits on this phone (localStorage) and is
// sent when the connection returns; the server's version check decides, and the player sees its
// answer. An item leaves the queue only once the server took it or its entry is back in a form.
// Every page works without this file: a form then posts the ordinary way.
(function () {
  "use strict";
  var KEY = "scorepad-queue";
  var NOTE = "scorepad-sent"; // sessionStorage: what to say once the sheet has reloaded
  var OPEN = "scorepad-open"; // sessionStorage: the item to put back into the form being loaded
  var sending = false;
  var reload = null;
  var notes = [];
  var words = window.scorepadWords; // static/words.js: the words in the page's language

  function parse(text) {
    try {
      var value = JSON.parse(text || "[]");
      return Array.isArray(value) ? value : [];
    } catch (error) {
      return [];
    }
  }

  function load() { return parse(localStorage.getItem(KEY)); }
  function find(id) { return load().filter(function (item) { return item.id === id; })[0]; }
  function remove(id) { store(load().filter(function (item) { return item.id !== id; })); }
  function sheetOf(item) { return "/matches/" + item.match; }

  function store(items) {
    localStorage.setItem(KEY, JSON.stringify(items));
    render();
    document.dispatchEvent(new CustomEvent("scorepad:queue"));
  }

  function change(id, values) {
    store(load().map(function (item) { return item.id === id ? Object.assign({}, item, values) : item; }));
  }

  function matchOf(path) {
    var found = /^\/matches\/([^/]+)/.exec(path);
    return found && found[1] !== "new" ? found[1] : null;
  }

  // The form as it would have been posted: CSRF token and match version included. Saving the
  // same form again replaces its entry instead of adding a second one.
  function queue(form) {
    var fields = [];
    var names = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    form.querySelectorAll("fieldset.side > legend").forEach(function (legend) {
      names.push(legend.firstChild.textContent.trim());
    });
    var action = new URL(form.action, location.href).pathname;
    var item = {
      id: form.dataset.queued || Date.now().toString(36) + Math.random().toString(36).slice(2, 8),
      match: matchOf(action),
      action: action,
      page: form.dataset.queue,
      label: document.querySelector("main h1").textContent.trim() + " (" + names.join(" v ") + ")",
      fields: fields,
      saved: new Date().toISOString(),
      state: "waiting"
    };
    try {
      store(load().filter(function (other) { return other.id !== item.id; }).concat([item]));
    } catch (error) {
      say(words("notKept", { error: error.name }));
      return;
    }
    form.dataset.queued = item.id;
    render();
    var status = document.getElementById("queue-status");
    if (status) status.scrollIntoView({ block: "nearest" });
  }

  // Send what waits (when online, or when the player asks), then show the outcome.
  function flush(anyway) {
    var work = null;
    if (!sending && (anyway || navigator.onLine) && load().some(function (item) { return item.state === "waiting"; })) {
      // One tab at a time: another tab finds the lock taken and leaves the queue to that one.
      work = navigator.locks ? navigator.locks.request(KEY, { ifAvailable: true }, function (lock) {
        return lock && send();
      }) : send();
    }
    return Promise.resolve(work).then(function () {
      if (reload) location.replace(reload);
      else present();
    });
  }

  function send() {
    sending = true;
    var blocked = {}; // after a refusal, that match's later hands wait for the player
    var items = load().filter(function (item) { return item.state === "waiting"; });

    function next(index) {
      var item = items[index];
      if (!item) return null;
      if (blocked[item.match] || !find(item.id)) return next(index + 1);
      var body = new URLSearchParams(item.fields);
      return fetch(item.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
        if (response.ok && response.redirected && new URL(response.url).pathname === sheetOf(item)) {
          remove(item.id);
          var text = words("sent", { label: item.label });
          if (location.pathname === sheetOf(item) || document.querySelector("form[data-queued='" + item.id + "']")) {
            sessionStorage.setItem(NOTE, JSON.stringify(parse(sessionStorage.getItem(NOTE)).concat([text])));
            reload = sheetOf(item);
          } else {
            say(text);
          }
          return next(index + 1);
        }
        if (response.status >= 500) {
          change(item.id, { problem: words("serverProblem", { status: response.status }) });
          return null;
        }
        return response.text().then(function (html) {
          blocked[item.match] = true;
          var page = new DOMParser().parseFromString(html, "text/html");
          var heading = page.querySelector("main h1");
          change(item.id, page.querySelector("form[data-queue]") ? { state: "refused", answer: html } : {
            state: "stuck",
            problem: words("notTaken", { reason: heading ? heading.textContent.trim() : response.status })
          });
          return next(index + 1);
        });
      }, function () {
        return null; // still no connection
      });
    }

    return Promise.resolve(next(0)).finally(function () { sending = false; });
  }

  // A refused hand opens in its form, unless the player is typing another hand right now.
  function present() {
    var item = load().filter(function (other) { return other.state === "refused"; })[0];
    var form = document.querySelector("form[data-queue]");
    if (!item) return;
    if (form && form.dataset.queued === item.id) putBack(item);
    else if (!form) open(item);
  }

  function open(item) {
    sessionStorage.setItem(OPEN, item.id);
    location.assign(item.page);
  }

  // The server's own answer to the queued post: its form, filled with the entry, saying why.
  function putBack(item) {
    var page = new DOMParser().parseFromString(item.answer, "text/html");
    var main = document.adoptNode(page.querySelector("main"));
    var old = document.querySelector("main");
    // A live preview still on its way for the old form is dropped by scorepad.js: it has left the page.
    old.replaceWith(main);
    document.title = page.title;
    remove(item.id);
    if (window.htmx) window.htmx.process(main);
    say(words("answerBelow", { label: item.label }));
    (main.querySelector(".problems:not(:empty)") || main).scrollIntoView({ block: "center" });
  }

  // An answer without a form (a deleted match, a lost session): the entry goes back into the
  // form of this page, with its old match version, so saving it asks the server again.
  function refill(item) {
    var form = document.querySelector("form[data-queue]");
    if (!form) return say(words("noForm", { label: item.label }));
    var values = {};
    item.fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (field) {
      var given = values[field.name] || [];
      if (!field.name || field.name === "csrf_token") return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = given.indexOf(field.value) >= 0;
      else field.value = given.length ? given[0] : "";
    });
    remove(item.id);
    say(words("backInForm", { label: item.label, problem: item.problem }));
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // --- what the player sees: one status box on the page ---------------------------------------
  function element(tag, text, action, id) {
    var node = document.createElement(tag);
    node.textContent = text || "";
    if (action) {
      node.type = "button";
      node.className = "button";
      node.dataset.queueAction = action;
      node.dataset.item = id || "";
    }
    return node;
  }

  function describe(item) {
    var line = element("p");
    if (item.state === "refused") {
      line.append(element("b", words("refused", { label: item.label }) + " "), element("button", words("openIt"), "open", item.id));
    } else if (item.state === "stuck") {
      line.append(element("b", words("kept", { label: item.label })), " " + item.problem + " ",
                  element("button", words("tryAgain"), "retry", item.id), " ",
                  element("button", words("openInForm"), "open", item.id), " ",
                  element("button", words("discard"), "discard", item.id));
    } else {
      var time = new Date(item.saved).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
      line.append(element("b", words("waiting")), " " + words("waitingItem", { label: item.label, time: time }) + " " + (item.problem || ""));
    }
    return line;
  }

  function say(text) {
    notes.push(text);
    render();
  }

  function render() {
    var old = document.getElementById("queue-status");
    var main = document.querySelector("main");
    var offline = main && main.querySelector("[data-offline-pages]");
    var match = matchOf(location.pathname);
    var items = load().filter(function (item) { return item.match === match; });
    if (old) old.remove();
    if (!main) return;
    var box = element("div");
    box.id = "queue-status";
    box.className = "flash";
    box.setAttribute("role", "status");
    notes.forEach(function (note) { box.append(element("p", note)); });
    if (!navigator.onLine && !offline) {
      box.append(element("p", words("offline")));
    }
    items.forEach(function (item) { box.append(describe(item)); });
    if (items.some(function (item) { return item.state === "waiting"; })) {
      box.append(element("p", words("soon") + " "));
      box.lastChild.append(element("button", words("sendNow"), "send"));
    }
    if (offline) showOffline(offline);
    if (!box.childNodes.length) return;
    var save = main.querySelector("form[data-queued] .save"); // next to the button just tapped
    var flashes = main.querySelector(".flashes");
    if (save) save.before(box);
    else if (flashes) flashes.after(box);
    else main.prepend(box);
  }

  // The "You're offline" page lists what the phone still has; its script loads only there.
  function showOffline(section) {
    if (window.scorepadOffline) window.scorepadOffline();
    else if (!document.querySelector("script[data-offline-page]")) {
      var script = element("script");
      script.src = section.dataset.script;
      script.dataset.offlinePage = "";
      document.head.append(script);
    }
  }

  // --- wiring ---------------------------------------------------------------------------------
  // Capture phase on the document: this runs before htmx's own submit handler on the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (navigator.onLine || !form.matches("form[data-queue]")) return;
    event.preventDefault();
    event.stopPropagation();
    queue(form);
  }, true);

  // The phone believes it is online, but the server cannot be reached.
  document.addEventListener("htmx:sendError", function (event) {
    var detail = event.detail;
    if (detail.elt.matches("form[data-queue]") && detail.requestConfig.verb === "post") queue(detail.elt);
    else if (detail.boosted) say(words("noConnection"));
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-queue-action]");
    var action = target && target.dataset.queueAction;
    var item = target && find(target.dataset.item);
    if (action === "send") flush(true);
    if (!item) return;
    if (action === "open") open(item);
    if (action === "retry") {
      change(item.id, { state: "waiting", problem: "" });
      flush(true);
    }
    if (action === "discard" && window.confirm(words("confirmDiscard", { label: item.label }))) {
      remove(item.id);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var item = find(sessionStorage.getItem(OPEN));
    sessionStorage.removeItem(OPEN);
    notes = parse(sessionStorage.getItem(NOTE));
    sessionStorage.removeItem(NOTE);
    if (item && item.state === "refused") return putBack(item);
    if (item && item.state === "stuck") refill(item);
    render();
    flush();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target !== document.body) return; // not a new page
    notes = [];
    render();
    flush();
  });
  document.addEventListener("htmx:historyRestore", render); // a snapshot may hold an old status box
  window.addEventListener("online", function () { render(); flush(); });
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (event) { if (event.key === KEY) render(); });
  window.setInterval(flush, 15000);
})();
