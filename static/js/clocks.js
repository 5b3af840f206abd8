// The table's countdowns: every element with data-deadline (an ISO 8601 time) shows the time left until it.
// Without JavaScript the element stays hidden and the absolute deadline beside it says the same. The
// table's polls replace these elements, so each tick looks them up again instead of keeping references.
(function () {
  "use strict";
  if (window.parlourClocks) {
    return;
  }
  window.parlourClocks = true;

  function plural(count, unit) {
    return count + " " + unit + (count === 1 ? "" : "s");
  }

  function left(ms) {
    if (ms <= 0) {
      return "time is up";
    }
    var minutes = Math.floor(ms / 60000);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    if (days > 0) {
      return plural(days, "day") + ", " + plural(hours, "hour") + " left";
    }
    if (hours > 0) {
      return plural(hours, "hour") + ", " + plural(minutes % 60, "minute") + " left";
    }
    if (minutes > 0) {
      return plural(minutes, "minute") + " left";
    }
    return plural(Math.ceil(ms / 1000), "second") + " left";
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (element) {
      var deadline = Date.parse(element.getAttribute("data-deadline"));
      if (isNaN(deadline)) {
        return;
      }
      var text = "(" + left(deadline - now) + ")";
      if (element.textContent !== text) {
        element.textContent = text;
      }
      element.hidden = false;
      element.classList.toggle("urgent", deadline - now < 3600000);
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  window.setInterval(tick, 1000);
})();
