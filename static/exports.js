// Copy and share buttons for the share page. An enhancement only: without JavaScript the
// buttons stay hidden and the text is there to select. Loaded with defer; safe to run twice
// (hx-boost may load it again), because it listens once on the document.
(function () {
  if (window.scorepadExports) { window.scorepadExports.reveal(); return; }

  function reveal() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      if (navigator.clipboard || document.queryCommandSupported && document.queryCommandSupported("copy")) {
        button.hidden = false;
      }
    });
    document.querySelectorAll("[data-share]").forEach(function (button) {
      if (navigator.share) { button.hidden = false; }
    });
  }

  function say(button, message) {
    var status = button.parentElement.querySelector(".share-status");
    if (status) { status.textContent = message; }
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    var text = field.value;
    var done = function () { say(button, "Copied."); };
    var fallback = function () {
      field.focus();
      field.select();
      try { document.execCommand("copy"); done(); } catch (error) { say(button, "Select the text and copy it."); }
    };
    if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done, fallback); } else { fallback(); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-share]");
    if (!button) { return; }
    if (button.dataset.copy) { copy(button); return; }
    var text = document.getElementById(button.dataset.share).value;
    navigator.share({ text: text }).catch(function () {});
  });

  window.scorepadExports = { reveal: reveal };
  reveal();
})();
