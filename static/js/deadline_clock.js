// The deadline that matters now (templates/includes/deadline_clock.html), shown in the reader's
// own time zone with the time left counting down each second. A static file: the
// Content-Security-Policy allows no inline script. Without JavaScript the server's words stay.
(function () {
  "use strict";

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function leftText(ms) {
    if (ms <= 0) {
      return "the deadline has passed";
    }
    var seconds = Math.floor(ms / 1000);
    var days = Math.floor(seconds / 86400);
    var hours = Math.floor((seconds % 86400) / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var parts = [];
    if (days) {
      parts.push(plural(days, "day"));
    }
    if (days || hours) {
      parts.push(plural(hours, "hour"));
    }
    if (!days) {
      parts.push(plural(minutes, "minute"));
    }
    if (!days && !hours) {
      parts.push(plural(seconds % 60, "second"));
    }
    return parts.join(" ") + " left";
  }

  // The server's words (rulebook/campaign_schedule.py deadline_text), in the reader's zone:
  // "Sunday 29 November 2026, 15:00 (your time, America/New_York)".
  function localText(date) {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    var parts = {};
    new Intl.DateTimeFormat("en-GB", {
      weekday: "long", day: "numeric", month: "long", year: "numeric",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone
    }).formatToParts(date).forEach(function (part) {
      parts[part.type] = part.value;
    });
    return parts.weekday + " " + parts.day + " " + parts.month + " " + parts.year + ", " +
      parts.hour + ":" + parts.minute + " (your time, " + zone + ")";
  }

  function start(clock) {
    var deadline = new Date(clock.getAttribute("data-deadline"));
    if (isNaN(deadline.getTime())) {
      return;
    }
    clock.querySelector(".clock-when").textContent = localText(deadline);
    if (clock.hasAttribute("data-paused")) {
      return;  // no deadline passes while the campaign is paused
    }
    var left = clock.querySelector(".clock-left");
    function tick() {
      var ms = deadline.getTime() - Date.now();
      left.textContent = leftText(ms);
      if (ms <= 0) {
        clearInterval(timer);
      }
    }
    var timer = setInterval(tick, 1000);
    tick();
  }

  document.querySelectorAll("[data-deadline]").forEach(start);
})();
