// scorepad: small progressive extras. Every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var words = window.scorepadWords; // static/words.js: the words in the page's language

  // Keep the screen awake while a match is open (Wake Lock where the browser has it).
  var lock = null;
  function wake() {
    var wanted = !!document.querySelector("[data-wake-lock]");
    if (!("wakeLock" in navigator)) return;
    if (wanted && !lock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        lock.addEventListener("release", function () { lock = null; });
      }).catch(function () {});
    } else if (!wanted && lock) {
      lock.release();
    }
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("htmx:afterSettle", wake);
  document.addEventListener("DOMContentLoaded", wake);

  // The "Can I?" board changes in place: the bar's language switch comes back to the cards shown.
  document.addEventListener("htmx:afterSettle", function () {
    var board = document.getElementById("board");
    var link = document.querySelector("a.language");
    if (board && board.dataset.language && link) link.href = board.dataset.language;
  });

  // Steppers: +/- buttons next to count boxes.
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".step");
    if (button) {
      var input = button.parentNode.querySelector("input");
      var value = Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10));
      input.value = value ? String(value) : "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var copy = event.target.closest("[data-copy]");
    if (copy) { copyField(copy); return; }
    var share = event.target.closest("[data-share]");
    if (share) {
      var text = document.getElementById(share.dataset.share).value;
      navigator.share({ text: text }).catch(function () { /* the person closed the share sheet */ });
    }
  });

  // Copy and share buttons: [data-copy] copies the field it names, [data-share] opens the phone's
  // share sheet. A .share-actions group is hidden until this runs (without JavaScript the text is
  // there to select), and a share button stays hidden where the phone cannot share.
  function reveal() {
    document.querySelectorAll(".share-actions[hidden]").forEach(function (actions) { actions.hidden = false; });
    if (navigator.share) {
      document.querySelectorAll("[data-share][hidden]").forEach(function (button) { button.hidden = false; });
    }
  }
  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);

  // A stored time in the phone's own time zone and the page's language. The server writes it in
  // UTC and says so ("2026-11-28 14:39 UTC"), which is what a phone without JavaScript shows.
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      try {
        time.textContent = when.toLocaleString(document.documentElement.lang || undefined,
          { dateStyle: "medium", timeStyle: "short" });
      } catch (error) { /* a browser without Intl's styles keeps the server's UTC text */ }
      time.removeAttribute("data-local");
    });
  }
  document.addEventListener("DOMContentLoaded", localTimes);
  document.addEventListener("htmx:afterSettle", localTimes);

  function say(button, message) {
    var status = button.parentElement.querySelector(".share-status");
    if (status) { status.textContent = message; } else { button.textContent = message; }
  }

  function copyField(button) {
    var field = document.getElementById(button.dataset.copy);
    var done = function () { say(button, words("copied")); };
    var fallback = function () {
      field.focus();
      field.select();
      try {
        if (document.execCommand("copy")) { done(); return; }
      } catch (error) { /* fall through to the hint */ }
      say(button, words("selected"));
    };
    if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, fallback); } else { fallback(); }
  }

  // A box that gets focus under the sticky Save bar comes up above it; a number box of a side
  // whose block runs under the bar brings the whole block up (as far as it fits under the top
  // bar), so the side's steppers and ticks are on screen with the box just tapped, no swipe needed.
  document.addEventListener("focusin", function (event) {
    var form = event.target.closest && event.target.closest(".hand-form");
    var bar = form && form.querySelector(".save");
    if (!bar || bar.contains(event.target)) return;
    var top = bar.getBoundingClientRect().top;
    // Only for a box typed in: it has focus from the touch itself, so moving the page cannot move
    // a tap off its target, as it would a stepper's or a tick's (focused on press, clicked on release).
    var side = event.target.matches("input[type=number], input[type=text]") && event.target.closest("fieldset.side");
    var header = document.querySelector("header.bar");
    var ceiling = header ? header.getBoundingClientRect().bottom + 8 : 0;
    var box = event.target.getBoundingClientRect();
    var lift = box.bottom > top ? box.bottom - top + 8 : 0;
    if (side) {
      var block = side.getBoundingClientRect();
      // Up until the block's end clears the bar, but never past its own top or the box itself.
      lift = Math.max(lift, Math.min(block.bottom - top + 8, block.top - ceiling, box.top - ceiling));
    }
    if (lift > 0) window.scrollBy(0, lift);
  });

  // Card counter: the counts fill the pile's points box (the server values the counts itself).
  document.addEventListener("input", function (event) {
    var pile = event.target.closest(".pile[data-pile]");
    if (!pile) return;
    var sum = 0, any = false;
    pile.querySelectorAll("input[data-value]").forEach(function (input) {
      var count = parseInt(input.value, 10) || 0;
      if (count) any = true;
      sum += count * parseInt(input.dataset.value, 10);
    });
    var target = document.getElementById(pile.dataset.pile);
    pile.querySelector(".pile-total").textContent = any ? "= " + sum : "";
    if (target && any) target.value = String(sum);
  });

  // An answer for an element that has left the page is not asked for, and is dropped when it
  // comes: a live preview still on its way when the hand is saved (or the player leaves) would
  // otherwise swap its error slots out of band into a page that has none. Nothing is aborted
  // (htmx logs every abort as an error). Events on a detached element never reach the document,
  // so each element that asks carries this guard, and so does its form, where its target is.
  function gone(event) {
    if (event.currentTarget.isConnected) return;
    if (event.type === "htmx:beforeSwap") event.detail.shouldSwap = false;
    else event.preventDefault();
  }
  if (window.htmx) {
    htmx.onLoad(function (content) {
      if (!content.querySelectorAll) return;
      var askers = Array.prototype.slice.call(content.querySelectorAll("[hx-get], [hx-post]"));
      if (content.matches("[hx-get], [hx-post]")) askers.push(content);
      askers.forEach(function (el) {
        [el, el.closest("form")].forEach(function (guarded) {
          if (!guarded) return;
          guarded.addEventListener("htmx:beforeRequest", gone); // one function: added once however often
          guarded.addEventListener("htmx:beforeSwap", gone);
        });
      });
    });
  }

  // The sheet's poll waits while nobody can see it (the page hidden or being left). Nothing is
  // asked in the background while the phone is offline either: offline.js, which knows, says so.
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || event.detail.boosted || !elt.matches("[hx-get], [hx-post]")) return;
    var unseen = leaving || document.visibilityState === "hidden";
    if (unseen && elt.matches("[hx-trigger^='every']")) event.preventDefault();
  });

  // A refusal from the server (a closed round's sheet, a form token that expired, a page that is
  // gone) is a whole page that says why: a boosted tap shows it, as the browser would without
  // JavaScript, instead of htmx's default of dropping every 4xx answer without a word.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail, status = detail.xhr && detail.xhr.status;
    if (detail.boosted && status >= 400 && status < 500) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
  });

  // Put an element at the top of the screen, under the sticky bar (scroll-padding-top), and give
  // it focus without a second jump; a heading or a message takes focus only for this.
  // htmx scrolls a boosted page to its top after its afterSettle event, so this waits a turn.
  function land(element, focus) {
    window.setTimeout(function () {
      element.scrollIntoView({ block: "start" });
      if (!focus) return;
      if (!focus.matches("input, select, textarea, button, a[href]")) focus.setAttribute("tabindex", "-1");
      focus.focus({ preventScroll: true });
    }, 0);
  }

  // After a boosted page swap, what the tap led to is in view (htmx itself shows the page's top):
  // - a refused hand: its first problem has focus (the reason is in the Save bar already);
  // - a saved hand: the next hand's form at the top of the screen, its first box focused;
  // - a refusal page from the server: its message, read out (role=alert) and focused;
  // - the winner once a hand ends the game, or the first problem on any other refused form.
  document.addEventListener("htmx:afterSettle", function (event) {
    var detail = event.detail;
    if (!detail || !detail.boosted) return;
    var config = detail.requestConfig || {}, sent = config.elt;
    var handSent = config.verb === "post" && sent && sent.matches && sent.matches(".hand-form");
    var refusal = document.querySelector("#save-refusal:not(:empty)");
    if (refusal) {
      var form = refusal.closest("form");
      var first = form.querySelector(".invalid input:not([type=hidden]), .invalid select, .problems:not(:empty)");
      if (first) land(first.closest("fieldset") || first, first);
      else { // a warning that asks once more: its "Save anyway" is in the bar, in view
        var again = form.querySelector("[name=low_melds_confirmed]");
        if (again) window.setTimeout(function () { again.focus({ preventScroll: true }); }, 0);
      }
      return;
    }
    var next = document.getElementById("next-hand");
    if (handSent && next && next.querySelector("form")) {
      var opening = next.querySelector("form fieldset");
      land(opening || next, next.querySelector("form input:not([type=hidden]), form select"));
      return;
    }
    var status = detail.xhr && detail.xhr.status;
    var said = document.querySelector("main [role=alert]:not(:empty)") || document.querySelector("main h1");
    if (status >= 400 && said) { land(said, said); return; }
    var result = document.querySelector(".outcome, .problems:not(:empty), .errors:not(:empty)");
    if (!result) return;
    var box = result.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) result.scrollIntoView({ block: "center" });
  });

  // --- a slow network: nothing typed is lost, a second tap is one request -------------------
  // Every form that posts (boosted, so the answer replaces the page, or a part that htmx swaps)
  // keeps what is typed while its answer is on the way: the values as sent are noted, and any box
  // changed meanwhile gets its new value back in the same form once the answer is in place. Its
  // Save button says "Saving…" and takes no second tap; a board of taps (the checker) keeps the
  // taps made meanwhile and plays them, in order, once its answer is in place.
  var EDITABLE = "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=file]), textarea, select";
  var inFlight = null; // {form, action, sent: {key: value}, buttons: [...]}
  var taps = [];

  function formOf(detail) {
    var elt = detail.elt;
    if (!elt || !elt.closest) return null;
    return elt.matches("form") ? elt : elt.closest("form");
  }
  function keyOf(field) {
    return field.name + (field.type === "checkbox" || field.type === "radio" ? "=" + field.value : "");
  }
  function valueOf(field) {
    return field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
  }
  function snapshot(form) {
    var values = {};
    form.querySelectorAll(EDITABLE).forEach(function (field) {
      if (field.name) values[keyOf(field)] = valueOf(field);
    });
    return values;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail, form = formOf(detail);
    if (!form || (detail.requestConfig && detail.requestConfig.verb !== "post")) return;
    if (!detail.boosted && !form.contains(document.getElementById("board"))) return; // live previews: nothing replaced
    if (inFlight && inFlight.form === form) { event.preventDefault(); return; } // a second tap: one request
    var buttons = Array.prototype.slice.call(form.querySelectorAll("button:not([type=button])")).filter(function (b) {
      return detail.boosted && !b.disabled;
    });
    inFlight = { form: form, xhr: detail.xhr, action: form.getAttribute("action"), sent: snapshot(form), buttons: buttons, labels: [] };
    form.setAttribute("aria-busy", "true");
    var named = form.querySelector("button.primary:not([type=button])") || buttons[0];
    buttons.forEach(function (button) {
      inFlight.labels.push(button.innerHTML);
      button.disabled = true;
      if (button === named) button.textContent = words("saving");
    });
  });

  // The request ended without its answer replacing the form (no connection, a dropped answer):
  // the form is as it was, ready for another tap.
  function release() {
    if (!inFlight) return;
    inFlight.form.removeAttribute("aria-busy");
    inFlight.buttons.forEach(function (button, index) {
      button.disabled = false;
      button.innerHTML = inFlight.labels[index];
    });
  }

  var carried = null;
  // The answer is known by its request: htmx names the body, not the form, as a boosted answer's element.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!inFlight || event.detail.xhr !== inFlight.xhr) return;
    // What was typed while the answer was on the way: every box whose value is not the one sent.
    var now = snapshot(inFlight.form), changed = {};
    Object.keys(now).forEach(function (key) { if (now[key] !== inFlight.sent[key]) changed[key] = now[key]; });
    carried = { form: inFlight.form, action: inFlight.action, changed: changed };
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!inFlight || event.detail.xhr !== inFlight.xhr) return;
    var swapped = event.detail.successful || (event.detail.xhr && event.detail.xhr.status >= 400 && event.detail.boosted);
    if (!swapped || inFlight.form.isConnected) release();
    inFlight = null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (carried) {
      var form = carried.form.isConnected ? carried.form : null;
      if (!form && carried.action !== null) {
        form = Array.prototype.filter.call(document.forms, function (f) { return f.getAttribute("action") === carried.action; })[0];
      }
      var changed = carried.changed, touched = null;
      carried = null;
      if (form) {
        form.querySelectorAll(EDITABLE).forEach(function (field) {
          var key = keyOf(field);
          if (!field.name || !(key in changed)) return;
          if (typeof changed[key] === "boolean") field.checked = changed[key]; else field.value = changed[key];
          touched = field;
        });
        // The live preview and the card counter hear about it as if typed now.
        if (touched) {
          touched.dispatchEvent(new Event("input", { bubbles: true }));
          touched.dispatchEvent(new Event("change", { bubbles: true }));
        }
      }
    }
    var next = taps.shift();
    if (next) {
      var button = document.querySelector('#board button[name="' + next.name + '"][value="' + next.value + '"]');
      if (button) button.click(); else taps = [];
    }
  });

  // A tap on the checker's board while its last answer is on the way waits its turn.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board button[name]");
    if (!button || !inFlight || !inFlight.form.contains(button)) return;
    event.preventDefault();
    event.stopPropagation();
    taps.push({ name: button.name, value: button.value });
  }, true);

  // Pages kept for offline use are in the language they were opened in: when the page's language
  // changes (the switch), the service worker drops them and keeps the shell again in the new one.
  try {
    var language = document.documentElement.lang;
    var before = localStorage.getItem("scorepad-language");
    if (before && before !== language && "serviceWorker" in navigator && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "language-changed", page: location.pathname + location.search });
    }
    localStorage.setItem("scorepad-language", language);
  } catch (error) { /* storage refused (private mode): pages stay as kept */ }

  // Installable: a service worker keeps the app shell for when the network drops. It is served
  // at the app's root (data-sw carries any prefix) and looks after every page under that root.
  var script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(script.dataset.sw, { scope: window.scorepadPath("") }).catch(function () {});
    });
  }
})();
