/* Browser notifications on the profile page: register the service worker, subscribe with the site's VAPID
   key and post the subscription to the server; or unsubscribe. Without JavaScript or the Push API the
   section says so and the rest of the page works as before. */
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

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !box.dataset.key) {
    say(box.dataset.key ? "This browser cannot show notifications from a site." : "Browser notifications are not available on this site.");
    return;
  }

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
    say(answer.message || "");
    return response.ok;
  }

  async function show() {
    const registration = await navigator.serviceWorker.getRegistration(box.dataset.sw);
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    onButton.hidden = Boolean(subscription);
    offButton.hidden = !subscription;
    if (!status.textContent) {
      say(subscription ? "Browser notifications are on in this browser." : "Browser notifications are off in this browser.");
    }
  }

  onButton.addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say("Your browser did not allow notifications from this site; you can allow them in its site settings.");
        return;
      }
      const registration = await navigator.serviceWorker.register(box.dataset.sw, { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key),
      });
      await post(subscription.toJSON());
    } catch (error) {
      say("Notifications could not be turned on in this browser: " + error.message);
    }
    status.textContent = status.textContent || "";
    await show();
  });

  offButton.addEventListener("click", async () => {
    const registration = await navigator.serviceWorker.getRegistration(box.dataset.sw);
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    if (subscription) {
      await post({ unsubscribe: true, endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    await show();
  });

  box.hidden = false;
  show();
})();
