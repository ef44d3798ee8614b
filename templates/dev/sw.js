// The service worker `make dev` serves in place of the site's sw.js (scripts/serve.py --dev): it keeps
// nothing and answers nothing, so every reload reaches the server and shows the latest build, and it
// deletes the caches a sw.js of a built site left on this address.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("laboratori-llm-")) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});
