// The words the scripts say, in the page's language. They come from base.html's
// <meta name="scorepad-text"> (the content policy allows no inline script), and
// scorepadWords(key, {label: ...}) fills in the {label} placeholders. Loaded before the
// other scripts (scorepad.js, offline.js, offline-page.js), which all speak through it.
(function () {
  "use strict";
  var text = null;
  window.scorepadWords = function (key, values) {
    if (text === null) {
      var meta = document.querySelector("meta[name='scorepad-text']");
      try { text = JSON.parse(meta.content) || {}; } catch (error) { text = {}; }
    }
    return (text[key] || key).replace(/\{(\w+)\}/g, function (all, name) {
      return values && name in values ? String(values[name]) : all;
    });
  };
})();
