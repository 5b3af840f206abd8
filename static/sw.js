/* Parlour's service worker: shows a turn notice pushed by the server and opens the table when it is clicked.
   Served from /sw.js (games.views_mail.service_worker) so that its scope is the whole site. */
"use strict";

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const options = { body: data.body || "", tag: data.tag || undefined, data: { url: data.url || "/" } };
  event.waitUntil(self.registration.showNotification(data.title || "Parlour", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) {
    url = new URL("/", self.location.origin); // only ever open a page of this site
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url.href && "focus" in client) {
          return client.focus();
        }
      }
      return self.clients.openWindow(url.href);
    })
  );
});
