// A table wider than the page scrolls inside its own box (static/css/site.css). A keyboard user must
// be able to scroll it too: such a table becomes focusable (the arrow keys then scroll it), named
// for screen readers by its caption or the heading before it. Tables that fit stay out of the tab order.
(function () {
  "use strict";
  function nameOf(table) {
    var caption = table.querySelector("caption");
    if (caption) return caption.textContent.trim();
    var before = table.previousElementSibling;
    while (before && !/^H[1-6]$/.test(before.tagName)) before = before.previousElementSibling;
    return before ? before.textContent.trim() + " (table)" : "Table";
  }
  function mark() {
    document.querySelectorAll("main table").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth) {
        table.setAttribute("tabindex", "0");
        if (!table.hasAttribute("aria-label") && !table.querySelector("caption")) {
          table.setAttribute("aria-label", nameOf(table));
        }
      } else if (table.getAttribute("tabindex") === "0") {
        table.removeAttribute("tabindex");
      }
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();
