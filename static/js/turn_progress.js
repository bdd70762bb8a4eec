// The organizer's pages while a phase or the reports run in the background
// (templates/includes/turn_progress.html): ask the turn's status every two seconds, show its words,
// and reload the page once the work has moved on. A static file: the Content-Security-Policy
// allows no inline script.
(function () {
  "use strict";
  var panel = document.getElementById("turn-progress");
  if (!panel || !panel.hasAttribute("data-running")) {
    return;
  }
  var url = panel.getAttribute("data-status-url");
  var state = panel.getAttribute("data-state");
  var message = panel.querySelector(".progress-message");

  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (progress) {
        if (progress && progress.state !== state) {
          window.location.reload();
          return;
        }
        if (progress && message) {
          message.textContent = progress.message;
        }
        setTimeout(poll, 2000);
      })
      .catch(function () {
        setTimeout(poll, 5000);  // the site was unreachable for a moment: ask again later
      });
  }
  setTimeout(poll, 2000);
})();
