// scorepad offline: a hand saved without a connection waits on this phone (localStorage) and is
// sent when the connection returns; the server's version check decides, and the player sees its
// answer. An item leaves the queue only once the server took it or its entry is back in a form.
// Every page works without this file: a form then posts the ordinary way.
(function () {
  "use strict";
  var KEY = "scorepad-queue";
  var NOTE = "scorepad-sent"; // sessionStorage: what to say once the sheet has reloaded
  var OPEN = "scorepad-open"; // sessionStorage: the item to put back into the form being loaded
  var SEEN = "scorepad-seen"; // localStorage: per match, the newest version (and its hands) a page showed
  var RETRIES = [300, 600, 1000, 1500, 2500, 4000, 8000]; // ms after a failed send, before the 15 s poll takes over
  // What one refusal may keep: localStorage is small (5 MB an origin) and shared by the queue.
  // A hand's form shows a handful of reasons; the player sees them all again on saving anew.
  var REASONS = 20;
  var SAID = 300; // characters of one reason, or of a problem with an answer that had no form
  var retries = 0;
  var retrying = null;
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
  // A hand's sheet on the server it was typed for: the start of its form's action, which holds
  // that server's root (two scorepads under one host name share this phone's storage).
  function sheetOf(item) {
    var sheet = "/matches/" + item.match;
    var at = item.action.indexOf(sheet + "/");
    return at < 0 ? window.scorepadPath(sheet) : item.action.slice(0, at) + sheet;
  }

  function store(items) {
    localStorage.setItem(KEY, JSON.stringify(items));
    render();
    document.dispatchEvent(new CustomEvent("scorepad:queue"));
  }

  function change(id, values) {
    store(load().map(function (item) { return item.id === id ? Object.assign({}, item, values) : item; }));
  }

  function matchOf(path) {
    var found = /^\/matches\/([^/]+)/.exec(window.scorepadBelow(path) || "");
    return found && found[1] !== "new" ? found[1] : null;
  }

  // --- what this phone knows of a match: the newest page it showed, and the hands it holds ----
  function seen() {
    try { return JSON.parse(localStorage.getItem(SEEN) || "{}") || {}; } catch (error) { return {}; }
  }

  // Keep the newest version a page of this match showed, with its number of hands, for the
  // SEEN_MATCHES matches shown last (a club phone opens new matches every week for years).
  var SEEN_MATCHES = 100;
  function remember(match, version, hands, totals) {
    var all = seen();
    var known = all[match];
    if (!match || !(version > 0) || (known && (known.version > version || (known.version === version && (known.totals || !totals))))) return;
    delete all[match]; // to the end: object keys keep their order (match ids are never array indices)
    all[match] = { version: version, hands: hands, totals: totals };
    Object.keys(all).slice(0, -SEEN_MATCHES).forEach(function (old) { delete all[old]; });
    try { localStorage.setItem(SEEN, JSON.stringify(all)); } catch (error) { /* only a hint */ }
  }

  function waitingFor(match, except) {
    return load().filter(function (item) { return item.match === match && item.state === "waiting" && item.id !== except; });
  }

  // The hand a new-hand form is for, and the version to send a hand with: after the entries this
  // phone holds for the match (each one saved moves the version on by one), else after the
  // newest page of the match this phone showed (a kept form can be older than the sheet).
  function nextHand(match, form, except) {
    var ahead = waitingFor(match, except);
    var numbered = ahead.filter(function (item) { return item.number; });
    var version = Number(form.elements.version.value) || 0;
    var number = Number(form.dataset.hand) || 1;
    var known = seen()[match];
    if (known && known.version > version && form.dataset.correction === undefined) {
      version = known.version;
      number = known.hands + 1;
    }
    return {
      number: numbered.length ? numbered[numbered.length - 1].number + 1 : number,
      version: ahead.length ? versionOf(ahead[ahead.length - 1]) + 1 : version
    };
  }

  function versionOf(item) { // entries queued before items carried their version kept it in their fields only
    var field = item.fields.filter(function (pair) { return pair[0] === "version"; })[0];
    return item.version || Number(field && field[1]) || 0;
  }

  // --- hands that wait show the server's figures: no rule is worked out here -----------------
  // A new hand's preview carries what the core made of it (data-figures: scores, totals after it,
  // next minimums, game end); a hand saved offline keeps the figures of the preview answered for
  // exactly what it holds. A hand behind waiting hands is previewed from their totals (`hand`,
  // `totals_before`); behind one without figures (typed offline), nothing is known until it is sent.
  function same(one, other) { return JSON.stringify(one) === JSON.stringify(other); }

  // The match as a sheet or a new hand's form shows it (data-version, -hands, -totals).
  function stateOf(page) {
    var data = page && page.dataset;
    return data && data.totals ? { version: Number(data.version), hands: Number(data.hands), totals: JSON.parse(data.totals) } : null;
  }

  // The match's new hands waiting after the server's last, each with its figures while each one's
  // start is where the one before it ends (a waiting correction moves every total: none known).
  function chain(match, server, except) {
    var ahead = waitingFor(match, except);
    var totals = server && !ahead.some(function (item) { return !item.number; }) && server.totals;
    return ahead.filter(function (item) { return server && item.number > server.hands; }).map(function (item) {
      var figures = item.figures;
      var known = totals && figures && figures.hand === item.number && same(figures.before, totals) ? figures : null;
      totals = known && known.totals;
      return { item: item, figures: known };
    });
  }

  // Where new hand `number` starts: { hand, totals, last } (`last`: the figures of the waiting hand
  // before it; none waits: no totals, the server's are right), or null when that is not known here.
  function startOf(form, number) {
    var match = matchOf(new URL(form.action, location.href).pathname);
    if (!waitingFor(match, form.dataset.queued).length) return { hand: number, totals: null, last: null };
    var known = seen()[match];
    var server = stateOf(form);
    if (known && known.totals && (!server || known.version > server.version)) server = known;
    var links = chain(match, server, form.dataset.queued).filter(function (link) { return link.item.number < number; });
    var last = links.length && links[links.length - 1].figures;
    if (!last || links.length !== number - server.hands - 1) return null;
    return { hand: number, totals: last.totals, last: last };
  }

  // What a preview is asked for: the hand's boxes as typed, and where it starts.
  var UNSCORED = ["csrf_token", "version", "submission", "low_melds_confirmed"];
  function askedFor(form, start) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) { if (UNSCORED.indexOf(name) < 0) pairs.push([name, value]); });
    return JSON.stringify([start.hand, start.totals, pairs]);
  }

  // The figures of the preview answered for what the form holds now, as hand `number`; else null.
  function figuresOf(form, number) {
    var table = form.querySelector("#preview [data-figures]");
    var start = startOf(form, number);
    if (!table || !start || table.dataset.asked !== askedFor(form, start)) return null;
    var figures = JSON.parse(table.dataset.figures);
    return figures.hand === number ? figures : null;
  }

  // Show `text` in `node` instead of what the server drew there (null: what it drew).
  function put(node, text) {
    if (!node) return;
    if (node.dataset.server === undefined) node.dataset.server = node.textContent;
    node.textContent = text === null ? node.dataset.server : text;
  }

  // A new hand's form: each side's total and minimum to open after the hands waiting before it.
  function showOnForm(form) {
    if (!form || form.dataset.correction !== undefined || !form.dataset.totals) return;
    var start = startOf(form, Number(form.dataset.hand));
    var last = start && start.last;
    form.querySelectorAll("fieldset.side").forEach(function (side, index) {
      var total = side.querySelector("[data-side-total]");
      var open = side.querySelector("legend small");
      put(total, last ? last.text.totals[index] : null);
      if (total) total.hidden = !last && (!start || !total.dataset.server);
      put(open, null);
      if (open && (!start || last)) open.textContent = last ? open.dataset.server.replace(side.dataset.toOpen, last.text.needs[index]) : words("openLater");
    });
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (byte) { return (byte + 256).toString(16).slice(1); }).join("");
  }

  // A new-hand form shows the hand it will be (the page may be a kept copy, or hands may wait on
  // the phone), and a kept copy gets a key of its own: its old one may be on the sheet already.
  function adjust(form) {
    if (!form || form.dataset.correction !== undefined || form.dataset.queued) return;
    var match = matchOf(new URL(form.action, location.href).pathname);
    var next = nextHand(match, form, null);
    var fields = form.elements;
    var key = fields.submission && fields.submission.value;
    if (next.version !== Number(fields.version.value) || load().some(function (item) { return item.key === key; })) {
      if (fields.submission) fields.submission.value = newKey();
    }
    fields.version.value = next.version;
    var heading = title(form);
    if (heading && String(next.number) !== form.dataset.hand) { // "Hand 8" in any language: its number changes
      heading.textContent = heading.textContent.replace(form.dataset.hand, next.number);
      form.dataset.hand = next.number;
    }
    showOnForm(form);
  }

  // The heading that says which hand a form is: the page's, or the in-place form's under the sheet.
  function title(form) {
    var place = form.closest("#next-hand");
    return place ? place.querySelector(".next-hand-title") : document.querySelector("main h1");
  }

  // The form in place under the sheet, once its hand waits on the phone, becomes the next hand's,
  // empty: left filled in and headed "Hand 1", saving it again would replace the waiting hand.
  function fresh(form) {
    form.reset();
    delete form.dataset.queued;
    delete form.dataset.touched; // nobody is typing in it yet: a refused hand may open in its place
    form.querySelectorAll(".pile-total").forEach(function (total) { total.textContent = ""; });
    var preview = form.querySelector("#preview");
    if (preview) preview.textContent = "";
    adjust(form);
  }

  // The form as it would have been posted, CSRF token included, with the version and key this
  // queued hand is sent with. Saving the same form again replaces its entry, keeping its place.
  function queue(form) {
    var fields = [];
    var names = [];
    var action = new URL(form.action, location.href).pathname;
    var match = matchOf(action);
    var before = find(form.dataset.queued);
    var correction = form.dataset.correction !== undefined;
    var next = before || nextHand(match, form, null);
    // The form's own key, unless another queued hand has it: a save whose answer was lost is
    // then recognised by the server as the one it already has.
    var key = form.elements.submission && form.elements.submission.value;
    if (before) key = before.key;
    else if (!key || load().some(function (item) { return item.key === key; })) key = newKey();
    new FormData(form).forEach(function (value, name) {
      if (name === "version") value = next.version;
      if (name === "submission") value = key;
      fields.push([name, String(value)]);
    });
    form.querySelectorAll("fieldset.side > legend").forEach(function (legend) {
      names.push(legend.firstChild.textContent.trim());
    });
    var heading = title(form).textContent.trim();
    if (!correction && !before) heading = heading.replace(form.dataset.hand, next.number);
    var figures = correction ? null : figuresOf(form, next.number);
    var item = {
      id: before ? before.id : Date.now().toString(36) + Math.random().toString(36).slice(2, 8),
      match: match,
      action: action,
      page: form.dataset.queue,
      label: heading + " (" + names.join(" – ") + ")",
      number: correction ? null : next.number,
      version: next.version,
      key: key,
      fields: fields,
      saved: new Date().toISOString(),
      state: "waiting",
      figures: figures
    };
    try {
      var items = load();
      var at = items.findIndex(function (other) { return other.id === item.id; });
      if (at >= 0) items[at] = item;
      else items.push(item);
      store(items);
    } catch (error) {
      say(words("notKept", { error: error.name }));
      return;
    }
    form.dataset.queued = item.id;
    if (form.elements.submission) form.elements.submission.value = key;
    render();
    if (form.closest("#next-hand") && !correction) fresh(form);
    var status = document.getElementById("queue-status");
    if (status) status.scrollIntoView({ block: "nearest" });
  }

  // The connection may be back before the phone can reach the server: a failed send is tried
  // again after a short wait, then a longer one, so a hand goes out within moments of it.
  function later() {
    if (retrying || retries >= RETRIES.length) return;
    retrying = window.setTimeout(function () {
      retrying = null;
      flush();
    }, RETRIES[retries++]);
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
      body.set("saved_at", item.saved); // when the phone saved it: a club night's time rule judges by it
      return fetch(item.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
        retries = 0;
        reached();
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
          var form = page.querySelector("form[data-queue]");
          change(item.id, form ? refusal(item, form, page) : {
            state: "stuck",
            problem: words("notTaken", { reason: heading ? brief(heading.textContent) : response.status })
          });
          return next(index + 1);
        });
      }, function () {
        unreachable = Date.now();
        later(); // still no connection: try again shortly
        return null;
      });
    }

    return Promise.resolve(next(0)).finally(function () { sending = false; });
  }

  // A refused hand opens in its form, unless the player is typing another hand right now.
  // The next hand's form that the sheet loads in place counts as typing only once touched.
  function present() {
    var item = load().filter(function (other) { return other.state === "refused"; })[0];
    var form = document.querySelector("form[data-queue]");
    var untouched = form && form.closest("#next-hand") && !form.dataset.touched;
    if (item && (!form || untouched || form.dataset.queued === item.id)) open(item);
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-queue]");
    if (form) form.dataset.touched = "yes";
  });

  function open(item) {
    sessionStorage.setItem(OPEN, item.id);
    location.assign(item.page);
  }

  // What the queue keeps of a refusal (never the page): the server's reasons, and the version
  // its form carried, so saving again is a knowing second try.
  function refusal(item, form, page) {
    var version = form.elements.version ? form.elements.version.value : item.version;
    var reasons = [];
    page.querySelectorAll(".problems p, .errors:not(:empty)").forEach(function (node) {
      var said = brief(node.textContent);
      if (said && reasons.indexOf(said) < 0 && reasons.length < REASONS) reasons.push(said);
    });
    return {
      state: "refused",
      reasons: reasons,
      fields: item.fields.map(function (pair) { return pair[0] === "version" ? [pair[0], version] : pair; })
    };
  }

  function brief(text) {
    var said = String(text).trim().replace(/\s+/g, " ");
    return said.length > SAID ? said.slice(0, SAID - 1) + "\u2026" : said;
  }

  // A phone updated while a refusal waited holds the server's whole page ("answer"), as an older
  // offline.js kept it: its reasons are read out once and the page is let go.
  function upgrade() {
    var items = load();
    if (!items.some(function (item) { return item.answer; })) return;
    store(items.map(function (item) {
      if (!item.answer) return item;
      var page = new DOMParser().parseFromString(String(item.answer), "text/html");
      var kept = Object.assign({}, item, refusal(item, page.querySelector("form[data-queue]") || { elements: {} }, page));
      delete kept.answer;
      return kept;
    }));
  }

  // A refused hand goes back into its form, loaded afresh (a current token and heading), with the
  // server's reasons above the boxes.
  function putBack(item) {
    var form = document.querySelector("form[data-queue]");
    if (!form) return say(words("noForm", { label: item.label }));
    fill(form, item);
    var box = document.getElementById("form-problems");
    if (box) {
      box.replaceChildren.apply(box, (item.reasons || []).map(function (reason) {
        var line = element("p", reason);
        line.className = "error";
        return line;
      }));
    }
    say(words("answerBelow", { label: item.label }));
    (box || form).scrollIntoView({ block: "center" });
  }

  // An answer without a form (a deleted match, a lost session): the entry goes back into the
  // form of this page, with its old match version, so saving it asks the server again.
  function refill(item) {
    var form = document.querySelector("form[data-queue]");
    if (!form) return say(words("noForm", { label: item.label }));
    fill(form, item);
    say(words("backInForm", { label: item.label, problem: item.problem }));
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The entry into the form's boxes; it then leaves the queue (the form holds it now).
  function fill(form, item) {
    var values = {};
    item.fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (field) {
      var given = values[field.name] || [];
      if (!field.name || field.name === "csrf_token") return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = given.indexOf(field.value) >= 0;
      else field.value = given.length ? given[0] : "";
    });
    delete form.dataset.queued;
    remove(item.id);
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
    showOnSheet(match);
    showOnForm(main.querySelector("form[data-queue]"));
    if (!box.childNodes.length) return;
    var save = main.querySelector("form[data-queued] .save"); // next to the button just tapped
    var flashes = main.querySelector(".flashes");
    if (save) save.before(box);
    else if (flashes) flashes.after(box);
    else main.prepend(box);
  }

  // The sheet shows the hands this phone holds as rows of their own, with the figures their
  // previews answered, and offers the hand after them.
  function showOnSheet(match) {
    var sheet = document.querySelector("#sheet[data-version]");
    if (!sheet) return;
    var hands = Number(sheet.dataset.hands);
    var own = stateOf(sheet) || { version: Number(sheet.dataset.version), hands: hands, totals: null }; // a copy kept before totals were drawn
    remember(match, own.version, hands, own.totals);
    sheet.querySelectorAll(".queued-hands, tr.queued, tr.queued-note, .queued-totals").forEach(function (node) { node.remove(); });
    var links = chain(match, own, null);
    var enter = sheet.querySelector(".actions a[href$='/hands/new']");
    if (enter) { // "Enter hand 8" in any language: the number moves past the hands held here
      enter.dataset.text = enter.dataset.text || enter.textContent;
      enter.textContent = enter.dataset.text.replace(String(hands + 1), String(hands + links.length + 1));
    }
    // Undo and Put back act on the server's last hand: while hands wait on this phone they would
    // undo (or put back behind) a hand that is not the last one the players see, so none is offered.
    sheet.querySelectorAll(".actions form[action$='/hands/undo'], .actions form[action$='/hands/restore']")
      .forEach(function (form) { form.hidden = links.length > 0; });
    // The big totals and "needs" after the last waiting hand with figures, with a line saying so.
    var known = links.filter(function (link) { return link.figures; });
    var last = known.length && known[known.length - 1].figures;
    var unknown = links[known.length];
    sheet.querySelectorAll(".scoreboard .side-total").forEach(function (card, index) {
      put(card.querySelector("[data-total]"), last ? last.text.totals[index] : null);
      put(card.querySelector(".need b"), last ? last.text.needs[index] : null);
      card.classList.toggle("waiting", links.length > 0);
    });
    var empty = sheet.querySelector(".empty");
    if (empty) empty.hidden = links.length > 0;
    if (!links.length) return;
    var line = element("p", unknown ? words("totalsBefore", { number: unknown.item.number }) : words("totalsWaiting"));
    line.className = "queued-totals";
    sheet.querySelector(".scoreboard").after(line);
    var body = sheet.querySelector("table.hands tbody") || queuedTable(sheet);
    var sides = sheet.querySelectorAll(".scoreboard .side-total").length;
    links.forEach(function (link) {
      var figures = link.figures;
      var time = new Date(link.item.saved).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
      var row = body.appendChild(element("tr"));
      row.className = "queued";
      row.appendChild(element("th", String(link.item.number))).scope = "row";
      var note = element("td", words("waitingRow", { time: time }) + " " + (figures ? (figures.ends ? words("mayEnd") : "") : words("scoreLater")));
      note.colSpan = sides * 2;
      if (!figures) return row.append(note);
      figures.text.scores.forEach(function (score, side) {
        row.appendChild(element("td", score)).className = "score";
        row.appendChild(element("td", figures.text.totals[side])).className = "running";
      });
      var below = body.appendChild(element("tr"));
      below.className = "queued-note";
      below.appendChild(note).colSpan = 1 + sides * 2;
    });
  }

  // A sheet with no hands yet gets a table for the hands waiting on the phone, headed as its own is.
  function queuedTable(sheet) {
    var scroll = element("div");
    scroll.className = "hands-scroll queued-hands";
    var table = scroll.appendChild(element("table"));
    var head = table.appendChild(element("thead")).appendChild(element("tr"));
    var names = sheet.querySelectorAll(".scoreboard .side-name");
    table.className = "hands sides-" + names.length;
    head.appendChild(element("th", "#")).scope = "col";
    names.forEach(function (name) {
      var th = head.appendChild(element("th", name.textContent));
      th.scope = "col";
      th.colSpan = 2;
    });
    (sheet.querySelector(".empty") || sheet.lastElementChild).before(scroll);
    return table.appendChild(element("tbody"));
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
  // Online too, a hand goes behind the hands of its match that still wait on the phone.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-queue]")) return;
    var match = matchOf(new URL(form.action, location.href).pathname);
    var behind = load().some(function (item) {
      return item.match === match && item.state === "waiting" && item.id !== form.dataset.queued;
    });
    if (navigator.onLine && !behind) return;
    event.preventDefault();
    event.stopPropagation();
    queue(form);
    if (navigator.onLine) flush();
  }, true);

  // A new hand's preview behind hands that wait on the phone is asked from their totals, and not
  // at all while their scores are not known here (it would be scored from the wrong totals). The
  // answer is marked with what it was asked for, so a hand saved offline keeps only its own figures.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    var form = detail.elt && detail.elt.closest && detail.elt.closest("form[data-queue]");
    if (!form || form.dataset.correction !== undefined || !/\/hands\/preview$/.test(detail.path)) return;
    var start = startOf(form, Number(form.dataset.hand));
    if (!start) {
      event.preventDefault();
      var preview = form.querySelector("#preview");
      if (preview) preview.textContent = "";
      return;
    }
    if (start.totals) {
      detail.parameters.hand = String(start.hand);
      detail.parameters.totals_before = start.totals.join(" ");
    }
    form.dataset.asked = askedFor(form, start);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    var form = target && target.id === "preview" && target.closest("form[data-queue]");
    var table = form && target.querySelector("[data-figures]");
    if (table) table.dataset.asked = form.dataset.asked || "";
  });

  // Offline (navigator.onLine), htmx asks for pages only (the worker has copies; saves queue).
  // Cut off from the server, nothing is asked in the background (poll, preview) for a while.
  var UNREACHABLE = 15000;
  var unreachable = 0; // when a request last failed for the network
  function reached() { unreachable = 0; }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || event.detail.boosted || !elt.matches("[hx-get], [hx-post]")) return;
    if (unreachable && Date.now() - unreachable > UNREACHABLE) reached();
    if (!navigator.onLine || (unreachable && elt.matches("[hx-trigger]"))) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status > 0) reached();
  });

  // A request cut by the network: a save waits on the phone, a page says so, the rest is quiet.
  document.addEventListener("htmx:sendError", function (event) {
    var detail = event.detail;
    unreachable = Date.now();
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
    try { upgrade(); } catch (error) { /* storage refused: the old entry stays as it was */ }
    var item = find(sessionStorage.getItem(OPEN));
    sessionStorage.removeItem(OPEN);
    notes = parse(sessionStorage.getItem(NOTE));
    sessionStorage.removeItem(NOTE);
    if (item && item.state === "refused") return putBack(item);
    if (item && item.state === "stuck") refill(item); // with its old version: the server says again
    else adjust(document.querySelector("form[data-queue]"));
    render();
    flush();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target; // none for some swaps (a dashboard's out-of-band parts)
    if (target !== document.body) { // not a new page: perhaps the sheet, refreshed
      if (target && target.id === "next-hand") adjust(target.querySelector("form[data-queue]"));
      if (document.getElementById("sheet")) render();
      return;
    }
    notes = [];
    adjust(document.querySelector("form[data-queue]"));
    render();
    flush();
  });
  document.addEventListener("htmx:historyRestore", render); // a snapshot may hold an old status box
  window.addEventListener("online", function () {
    reached();
    retries = 0;
    window.clearTimeout(retrying);
    retrying = null;
    render();
    flush();
  });
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (event) { if (event.key === KEY) render(); });
  window.setInterval(flush, 15000);
})();
