// What the page tells the scripts: the words they say, in the page's language, and the root the
// app answers under ("/", or "/canasta/" behind a proxy that adds a prefix). Both come from
// base.html (<meta name="scorepad-text"> and <html data-root>: the content policy allows no
// inline script). scorepadWords(key, {label: ...}) fills in the %(label)s placeholders;
// scorepadPath("matches/x") is that page's path under the root, and scorepadBelow(path) the
// part of a path below it ("/matches/x"), or null for a path outside the app. Loaded before the
// other scripts (scorepad.js, offline.js, offline-page.js), which all speak through it.
(function () {
  "use strict";
  var text = null;
  var root = document.documentElement.dataset.root || "/";
  window.scorepadWords = function (key, values) {
    if (text === null) {
      var meta = document.querySelector("meta[name='scorepad-text']");
      try { text = JSON.parse(meta.content) || {}; } catch (error) { text = {}; }
    }
    return (text[key] || key).replace(/%\((\w+)\)s/g, function (all, name) {
      return values && name in values ? String(values[name]) : all;
    });
  };
  window.scorepadPath = function (below) { return root + String(below || "").replace(/^\/+/, ""); };
  window.scorepadBelow = function (path) {
    return path.indexOf(root) === 0 ? "/" + path.slice(root.length) : null;
  };
})();
