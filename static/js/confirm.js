// A form with data-confirm="..." asks before it is sent (the organizer's Resolve and Run the
// aftermath: they cannot be undone). A static file: the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        event.preventDefault();
      }
    });
  });
})();
