// Parlour's few behaviours, from our own origin: the Content-Security-Policy allows no inline script
// and no eval, so nothing here may be written as an on* attribute or an hx-on:: handler.
(function () {
  "use strict";

  // After the chat form's htmx post has succeeded, empty it for the next message.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form instanceof HTMLFormElement && form.matches("form.chat-form") && event.detail.successful) {
      form.reset();
    }
  });

  // htmx swaps nothing on an error answer; show its sentence (a 429 "wait a few seconds", a 403, ...)
  // in the page's status area instead of leaving the click without an answer.
  document.addEventListener("htmx:responseError", function (event) {
    var box = document.getElementById("htmx-error");
    if (!box) {
      return;
    }
    var xhr = event.detail.xhr;
    var type = (xhr.getResponseHeader("Content-Type") || "").toLowerCase();
    var text = type.indexOf("text/plain") === 0 && xhr.responseText
      ? xhr.responseText.slice(0, 300)
      : "Something went wrong. Please reload the page and try again.";
    box.firstElementChild.textContent = text;
    box.hidden = false;
  });

  document.addEventListener("htmx:beforeRequest", function () {
    var box = document.getElementById("htmx-error");
    if (box) {
      box.hidden = true;
    }
  });

  // --- the table's refreshes -------------------------------------------------------------------------
  // Every poll and every move swaps the table's live part (#live) whole. Before the swap we note what the
  // reader had: where each scroll box stood, which control held the keyboard focus, the newest log line and
  // whose turn it was. After it we put the reader back where they were and read out what changed.

  // At most this many of the others' moves are read out after one refresh; the log holds the rest.
  var MAX_SPOKEN_MOVES = 5;
  var before = null;

  function keyedLines(box) {
    return Array.prototype.filter.call(box.children, function (line) {
      return line.hasAttribute("data-key");
    });
  }

  // A box that keeps its place: "top" (the log, newest first) or "bottom" (the chat, newest last). A reader
  // at that edge stays there and sees what is new; a reader who scrolled away keeps the line they were on.
  function scrollPlace(box) {
    var mode = box.getAttribute("data-keep-scroll");
    var atEdge = mode === "bottom"
      ? box.scrollHeight - box.scrollTop - box.clientHeight <= 4
      : box.scrollTop <= 4;
    var place = { id: box.id, mode: mode, atEdge: atEdge, key: null, offset: 0, top: box.scrollTop };
    keyedLines(box).some(function (line) {
      if (line.offsetTop + line.offsetHeight > box.scrollTop) {
        place.key = line.getAttribute("data-key");
        place.offset = line.offsetTop - box.scrollTop;
        return true;
      }
      return false;
    });
    return place;
  }

  function restorePlace(place) {
    var box = document.getElementById(place.id);
    if (!box) {
      return;
    }
    if (place.atEdge) {
      box.scrollTop = place.mode === "bottom" ? box.scrollHeight : 0;
      return;
    }
    var line = place.key === null ? null : box.querySelector('[data-key="' + CSS.escape(place.key) + '"]');
    box.scrollTop = line ? line.offsetTop - place.offset : place.top;
  }

  // How to find the focused control again in the new table: by id, or by its name (and a button's value).
  function focusSelector(element, live) {
    if (!element || element === document.body || !live.contains(element)) {
      return null;
    }
    if (element.id) {
      return "#" + CSS.escape(element.id);
    }
    if (element.name) {
      var selector = element.tagName.toLowerCase() + '[name="' + CSS.escape(element.name) + '"]';
      if (element.tagName === "BUTTON" && element.value) {
        selector += '[value="' + CSS.escape(element.value) + '"]';
      }
      return selector;
    }
    return null;
  }

  function newestLine(live) {
    var line = live.querySelector("#log-lines > li[data-key]");  // newest first
    return line ? Number(line.getAttribute("data-key")) : 0;
  }

  function turnOf(live) {
    var panel = live.querySelector("#turn-panel");
    return panel ? panel.getAttribute("data-turn") : "";
  }

  function spoken(element) {
    var copy = element.cloneNode(true);
    if (copy.classList.contains("kind-bot")) {
      copy.querySelectorAll("small").forEach(function (note) {
        note.remove();  // "(bot)": the name already says so
      });
    }
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  // "Bot 2 played 7♥. Your turn." in the polite live region: the others' moves since the last refresh,
  // oldest first, then the change of turn. The reader's own clicks are not read back to them (their forced
  // moves are: nobody clicked those).
  function announce(old, live) {
    var region = document.getElementById("announcer");
    if (!region) {
      return;
    }
    var sentences = Array.prototype.filter.call(live.querySelectorAll("#log-lines > li[data-key]"), function (line) {
      var ownClick = line.hasAttribute("data-mine") && line.classList.contains("kind-player");
      return Number(line.getAttribute("data-key")) > old.newest && !ownClick;
    }).reverse().slice(-MAX_SPOKEN_MOVES).map(function (line) {
      return spoken(line) + ".";
    });
    var turn = turnOf(live);
    // The turn came (back) to the reader: after the others played, even if it was theirs before the refresh.
    if (turn === "mine" && (old.turn !== "mine" || sentences.length)) {
      sentences.push("Your turn.");
    } else if (turn !== old.turn && turn === "over") {
      var result = live.querySelector("#turn-panel .result");
      sentences.push("The match is over." + (result ? " " + spoken(result) : ""));
    }
    if (!sentences.length) {
      return;
    }
    // Emptied first so that the same words twice in a row are read twice.
    region.textContent = "";
    window.setTimeout(function () {
      region.textContent = sentences.join(" ");
    }, 50);
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = document.getElementById("live");
    before = null;
    if (!live || event.detail.target !== live) {
      return;
    }
    var config = event.detail.requestConfig || {};
    var source = config.elt || event.detail.elt;
    var focused = document.activeElement;
    before = {
      places: Array.prototype.map.call(live.querySelectorAll("[data-keep-scroll][id]"), scrollPlace),
      focus: focusSelector(focused, live),
      focusInPanel: Boolean(focused && focused.closest && focused.closest("#turn-panel")),
      // A move: a form of the move panel was sent. Its answer brings the next turn, or "Waiting for ...".
      moved: config.verb === "post" && Boolean(source && source.closest && source.closest("#turn-panel")),
      newest: newestLine(live),
      turn: turnOf(live),
    };
  });

  document.addEventListener("htmx:afterSwap", function () {
    var live = document.getElementById("live");
    var old = before;
    before = null;
    if (!old || !live) {
      return;
    }
    old.places.forEach(restorePlace);
    // After a move the keyboard is back on the move panel, one Tab from the next choice, not on the page.
    var target = old.moved ? null : old.focus && live.querySelector(old.focus);
    if (!target && (old.moved || old.focusInPanel)) {
      target = document.getElementById("turn-panel");
    }
    if (target) {
      target.focus({ preventScroll: !old.moved });
    }
    announce(old, live);
  });

  // The chat reads oldest first, so it opens scrolled to the newest message.
  document.querySelectorAll('[data-keep-scroll="bottom"]').forEach(function (box) {
    box.scrollTop = box.scrollHeight;
  });
})();
