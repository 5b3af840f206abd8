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
})();
