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
  // Every poll and every move swaps the table's live part (#live) whole. Before the swap we note where each scroll
  // box stood and which control held the keyboard focus; after it we put the reader back where they were and read
  // out what is new since the table they last got.

  // At most this many of the others' moves are read out after one refresh; the log holds the rest.
  var MAX_SPOKEN_MOVES = 5;
  var before = null;
  // The table the reader last got (#live) and what it told them: its newest log line and whose turn it was. Each
  // new table is compared with this, not with a note taken when its answer arrived, so that nothing is read out
  // twice or missed, whatever the order in which the answers of moves and polls come back.
  var shown = null;
  var heard = null;

  // A move or a chat message posted into the table, and the poll, each answer with the whole table. The first answer
  // replaces #live and htmx drops the other, whose target is gone. A poll that overtook a move would drop the move's
  // answer (a refusal, the focus back on the move panel) and show the table as the poll saw it, perhaps halfway
  // through the bots' replies. So a post cancels the poll in flight, and no poll starts until the post's answer is in.
  var post = null;

  function posting() {
    return post !== null && post.readyState !== XMLHttpRequest.DONE && post.readyState !== XMLHttpRequest.UNSENT;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var live = document.getElementById("live");
    if (live && event.detail.elt === live && posting()) {
      event.preventDefault();  // the poll waits for the next tick: the post's answer is the newer table
    }
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    var live = document.getElementById("live");
    if (!live || event.detail.target !== live || event.detail.elt === live) {
      return;
    }
    post = event.detail.xhr;
    window.htmx.trigger(live, "htmx:abort");  // the poll in flight, if any
  });

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

  function logLines(live) {
    return live.querySelectorAll("#log-lines > li[data-key]");  // newest first
  }

  function turnOf(live) {
    var panel = live.querySelector("#turn-panel");
    return panel ? panel.getAttribute("data-turn") : "";
  }

  function told(live) {
    var newest = logLines(live)[0];
    return { newest: newest ? Number(newest.getAttribute("data-key")) : 0, turn: turnOf(live) };
  }

  function spoken(element) {
    var copy = element.cloneNode(true);
    // A log line's notes under it (why a trick went so, a hand's summary) stay in the log: the region reads the move.
    copy.querySelectorAll(".why, .hand-end, .hand-summary").forEach(function (note) {
      note.remove();
    });
    if (copy.classList.contains("kind-bot")) {
      copy.querySelectorAll("small").forEach(function (note) {
        note.remove();  // "(bot)": the name already says so
      });
    }
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  // Sentences waiting to be put in the live region; a second refresh within the delay adds to them.
  var pending = [];

  function speak(sentences) {
    var region = document.getElementById("announcer");
    if (!region || !sentences.length) {
      return;
    }
    if (!pending.length) {
      // Emptied first and filled in a later task, so that the same words twice in a row are read twice; one
      // fill for all that arrived meanwhile, so that no announcement overwrites another before it was read.
      region.textContent = "";
      window.setTimeout(function () {
        region.textContent = pending.join(" ");
        pending = [];
      }, 50);
    }
    pending = pending.concat(sentences);
  }

  // "Bot 2 played 7♥. Your turn." in the polite live region: the others' moves since the table the reader last got,
  // oldest first, then the change of turn. The reader's own clicks are not read back to them (their forced moves
  // are: nobody clicked those).
  function announce(live) {
    var old = heard;
    heard = told(live);
    var fresh = Array.prototype.filter.call(logLines(live), function (line) {
      return Number(line.getAttribute("data-key")) > old.newest;
    });
    var sentences = fresh.filter(function (line) {
      return !(line.hasAttribute("data-mine") && line.classList.contains("kind-player"));
    }).reverse().slice(-MAX_SPOKEN_MOVES).map(function (line) {
      return spoken(line) + ".";
    });
    // The turn came (back) to the reader: from someone else, or after moves (the others', or only the reader's own,
    // say a trick they won) that left it with them. A refresh that brought no move does not repeat it.
    if (heard.turn === "mine" && (old.turn !== "mine" || fresh.length)) {
      sentences.push("Your turn.");
    } else if (heard.turn === "over" && old.turn !== "over") {
      var result = live.querySelector("#turn-panel .result");
      sentences.push("The match is over." + (result ? " " + spoken(result) : ""));
    }
    speak(sentences);
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
      // The folded parts the reader opened (past tricks, hands played) stay open in the new table.
      opened: Array.prototype.map.call(live.querySelectorAll("details[data-keep-open][open]"), function (d) {
        return d.getAttribute("data-keep-open");
      }),
      focus: focusSelector(focused, live),
      focusInPanel: Boolean(focused && focused.closest && focused.closest("#turn-panel")),
      // A move: a form of the move panel was sent. Its answer brings the next turn, or "Waiting for ...".
      moved: config.verb === "post" && Boolean(source && source.closest && source.closest("#turn-panel")),
    };
  });

  // htmx fires this on each element a response put in the page: the table and the header's "Your turn" count
  // (out of band), after both are in. Only a new #live is handled, once.
  document.addEventListener("htmx:afterSwap", function () {
    var live = document.getElementById("live");
    if (!live || live === shown || heard === null) {
      return;
    }
    shown = live;
    var old = before;
    before = null;
    if (old) {
      old.places.forEach(restorePlace);
      old.opened.forEach(function (name) {
        var details = live.querySelector('details[data-keep-open="' + CSS.escape(name) + '"]');
        if (details) {
          details.open = true;
        }
      });
      // After a move the keyboard is back on the move panel, one Tab from the next choice, not on the page.
      var target = old.moved ? null : old.focus && live.querySelector(old.focus);
      if (!target && (old.moved || old.focusInPanel)) {
        target = document.getElementById("turn-panel");
      }
      if (target) {
        target.focus({ preventScroll: !old.moved });
      }
    }
    announce(live);
  });

  var table = document.getElementById("live");
  if (table) {
    shown = table;
    heard = told(table);
  }

  // The chat reads oldest first, so it opens scrolled to the newest message.
  document.querySelectorAll('[data-keep-scroll="bottom"]').forEach(function (box) {
    box.scrollTop = box.scrollHeight;
  });
})();
