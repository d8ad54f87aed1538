// Copy and share buttons for the result text. An enhancement only: without JavaScript the
// buttons stay hidden and the text is there to select. Safe to load twice (hx-boost may run it
// again): it listens once on the document and only reveals buttons on later runs.
(function () {
  function reveal() {
    document.querySelectorAll(".share-actions[hidden]").forEach(function (actions) {
      actions.hidden = false;
    });
    if (navigator.share) {
      document.querySelectorAll("[data-share-result]").forEach(function (button) { button.hidden = false; });
    }
  }

  if (window.scorepadExports) { reveal(); return; }

  function say(button, message) {
    var status = button.parentElement.querySelector(".share-status");
    if (status) { status.textContent = message; }
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copyResult);
    var done = function () { say(button, "Copied."); };
    var fallback = function () {
      field.focus();
      field.select();
      try {
        if (document.execCommand("copy")) { done(); return; }
      } catch (error) { /* fall through to the hint */ }
      say(button, "Selected: copy it with your phone's menu.");
    };
    if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, fallback); } else { fallback(); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy-result], [data-share-result]");
    if (!button) { return; }
    if (button.dataset.copyResult) { copy(button); return; }
    var text = document.getElementById(button.dataset.shareResult).value;
    navigator.share({ text: text }).catch(function () { /* the person closed the share sheet */ });
  });

  window.scorepadExports = true;
  reveal();
})();
