/* Browser notifications on the profile page: register the service worker, subscribe with the site's VAPID
   key and post the subscription to the server; or unsubscribe. Only the button that applies shows: "on"
   while this browser is not yet one of the player's (and notifications are not blocked), "off" once it is.
   Without a key (the site sends none), JavaScript or the Push API, neither shows and the section says why. */
"use strict";

(function () {
  const box = document.getElementById("push-notices");
  if (!box) {
    return;
  }
  const status = box.querySelector("[data-push-status]");
  const onButton = box.querySelector("[data-push-on]");
  const offButton = box.querySelector("[data-push-off]");
  const say = (text) => { status.textContent = text; };

  if (!box.dataset.key || !onButton || !offButton) {
    return; // the page already says that the site sends no browser notifications
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot show notifications from a site.");
    return;
  }

  // The endpoints the server holds for this player: a browser subscribed for someone else (a shared
  // computer) or forgotten by the server is not "on" for this player, whatever the browser holds.
  const listed = document.getElementById("push-endpoints");
  const mine = new Set(listed ? JSON.parse(listed.textContent || "[]") : []);

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  async function post(body) {
    const response = await fetch(box.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({ message: "The server did not answer; try again." }));
    return { ok: response.ok, message: answer.message || "" };
  }

  async function current() {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return registration ? registration.pushManager.getSubscription() : null;
  }

  // Shows the one button that applies; a sentence just said (the server's answer) stays on the page.
  async function show(message) {
    let subscription = null;
    try {
      subscription = await current();
    } catch (error) {
      subscription = null; // a browser that keeps service workers from this page: not subscribed
    }
    const on = Boolean(subscription) && mine.has(subscription.endpoint);
    const blocked = Notification.permission === "denied";
    onButton.hidden = on || blocked;
    offButton.hidden = !on;
    if (message) {
      say(message);
    } else if (on) {
      say("Browser notifications are on in this browser.");
    } else if (blocked) {
      say("This browser blocks notifications from this site; allow them in its site settings to turn them on here.");
    } else {
      say("Browser notifications are off in this browser.");
    }
  }

  onButton.addEventListener("click", async () => {
    let message = "";
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        await show("Your browser did not allow notifications from this site; you can allow them in its site settings.");
        return;
      }
      const registration = await navigator.serviceWorker.register(box.dataset.sw, { scope: "/" });
      await navigator.serviceWorker.ready;
      const existing = await registration.pushManager.getSubscription();
      const subscription = existing || await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key),
      });
      const answer = await post(subscription.toJSON());
      message = answer.message;
      if (answer.ok) {
        mine.add(subscription.endpoint);
      } else if (!existing) {
        await subscription.unsubscribe(); // made just now and refused: the browser is left as it was
      }
    } catch (error) {
      message = "Notifications could not be turned on in this browser: " + error.message;
    }
    await show(message);
  });

  offButton.addEventListener("click", async () => {
    let message = "";
    try {
      const subscription = await current();
      if (subscription) {
        const answer = await post({ unsubscribe: true, endpoint: subscription.endpoint });
        message = answer.message;
        if (answer.ok) {
          mine.delete(subscription.endpoint);
          await subscription.unsubscribe();
        }
      }
    } catch (error) {
      message = "Notifications could not be turned off in this browser: " + error.message;
    }
    await show(message);
  });

  show("");
})();
