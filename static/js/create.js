// The new-match form: seat rows follow the number of players, each seat shows the bot level or the
// email field by its choice, the custom clock shows when chosen. Without this script every field shows
// and the server reads only what the choices ask for. No inline script: the CSP forbids it.
(function () {
  "use strict";

  function update(form) {
    var players = form.querySelector("[name=players]");
    var count = players ? parseInt(players.value, 10) || 0 : 0;
    form.querySelectorAll(".seat-row").forEach(function (row) {
      row.hidden = count > 0 && parseInt(row.dataset.seat, 10) > count;
      var kind = row.querySelector("select[name$=_kind]");
      var email = kind !== null && kind.value === "email";
      var bot = row.querySelector(".seat-bot");
      var mail = row.querySelector(".seat-email");
      if (bot) { bot.hidden = email; }
      if (mail) { mail.hidden = !email; }
    });
    var clock = form.querySelector("[name=time_control]");
    var custom = form.querySelector(".custom-clock");
    if (clock && custom) {
      custom.hidden = clock.value !== "custom";
      // Hidden hours are not posted, nor checked against their min and max: a preset is not held up by them.
      custom.querySelectorAll("input").forEach(function (input) { input.disabled = custom.hidden; });
    }
  }

  function updateAll() {
    document.querySelectorAll("form.create-form").forEach(update);
  }

  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = event.target instanceof Element ? event.target.closest("form.create-form") : null;
      if (form) {
        update(form);
      }
    });
  });
  document.addEventListener("DOMContentLoaded", updateAll);
  document.addEventListener("htmx:afterSettle", updateAll);
})();
