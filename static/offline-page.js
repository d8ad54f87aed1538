// The "You're offline" page (templates/errors/offline.html): the hands waiting on this phone and
// the pages it kept, read from the queue (static/offline.js) and the service worker's cache.
// offline.js loads this file only on that page, and calls it again when the queue changes.
(function () {
  "use strict";
  var PAGES = 80; // as many as the service worker keeps
  var words = window.scorepadWords; // static/words.js: the words in the page's language

  function element(tag, text, href) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    if (href) node.href = href;
    return node;
  }

  function waiting() {
    try {
      var items = JSON.parse(localStorage.getItem("scorepad-queue") || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  }

  function time(item) {
    var date = new Date(item.saved);
    return isNaN(date) ? "" : date.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }

  function kept() {
    var seen = {};
    var pages = [];
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("scorepad-") === 0; }).map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.slice(-PAGES).map(function (request) {
              var url = new URL(request.url);
              var path = url.pathname + url.search;
              var below = window.scorepadBelow(url.pathname);
              if (url.origin !== location.origin || below === null || below.indexOf("/static/") === 0 ||
                  below === "/offline" || seen[path]) return null;
              seen[path] = true;
              return cache.match(request).then(function (response) { return response.text(); }).then(function (html) {
                var title = new DOMParser().parseFromString(html, "text/html").title.replace(/ · scorepad$/, "");
                pages.push({ path: path, title: title || path });
              });
            }));
          });
        });
      }));
    }).then(function () {
      var start = window.scorepadPath("");
      return pages.sort(function (a, b) { return (b.path === start) - (a.path === start); });
    }, function () {
      return pages;
    });
  }

  function show() {
    var queued = document.querySelector("[data-offline-queue]");
    var section = document.querySelector("[data-offline-pages]");
    if (!queued || !section) return;
    var list = queued.querySelector("ul");
    list.replaceChildren();
    waiting().forEach(function (item) {
      var row = element("li");
      // The sentence around the link, in the page's language: %(label)s is where the link goes.
      var sentence = item.state === "waiting" ? words("waitingAt", { time: time(item) }) : words("keptShort");
      var parts = sentence.split("%(label)s");
      row.append(parts[0], element("a", item.label, window.scorepadPath("matches/" + item.match)), parts.slice(1).join(""));
      list.append(row);
    });
    queued.hidden = !list.childNodes.length;
    if (!("caches" in window) || section.dataset.listed) return;
    section.dataset.listed = "yes";
    kept().then(function (pages) {
      var links = section.querySelector("ul");
      pages.forEach(function (page) {
        var row = element("li");
        row.append(element("a", page.title, page.path));
        links.append(row);
      });
      var hint = section.querySelector("[data-offline-hint]");
      if (hint && pages.length) hint.hidden = true;
    });
  }

  window.scorepadOffline = show;
  document.addEventListener("scorepad:queue", show);
  show();
})();
