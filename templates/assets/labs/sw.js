// The service worker that keeps the site offline after one visit.
// The build (sitebuild/offline.py) writes it at the site's root (so its scope is the whole site, under
// any sub-path) with this build's files and their sha256: the two lines below
// are replaced. runtime.js (templates/runtime/page/offline.js) registers it on every page once the page has
// loaded (on a lab page, once Python's first start has ended).
//
// - install: every file of the build into one cache named after the build,
//   one after the other, each checked against its sha256; one failure and
//   the whole install fails (the old cache keeps serving, the new one is
//   deleted), so a cache is never half a build;
// - activate: the caches of older builds are deleted;
// - fetch: the build's files from the cache, anything else from the network;
//   a page asked for offline and not in the cache gets the site's 404 page.

const BUILD = "dev";
const FILES = [];

const PREFIX = "laboratori-llm-";
const CACHE = PREFIX + BUILD;

// One file at a time: the page's own requests (a search, the next page) never
// wait behind a hundred of ours for the browser's few connections to the site.
async function copyBuild() {
  const cache = await caches.open(CACHE);
  try {
    for (const [url, integrity] of FILES) {
      // no-cache: revalidate with the server, never trust an HTTP cache that may hold an older build
      const response = await fetch(new Request(url, { cache: "no-cache", integrity }));
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await cache.put(url, response);
    }
  } catch (error) {
    await caches.delete(CACHE); // never half a build
    throw error;
  }
}

self.addEventListener("install", (event) => event.waitUntil(copyBuild()));

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim(); // the page that registered it works offline from now on, without a reload
  })());
});

const isPage = (url) => url.pathname.endsWith("/") || url.pathname.endsWith(".html");

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // a lab's settings live in the query (?vento=1): the page is the same file
    const cached = await cache.match(request, { ignoreSearch: isPage(url) });
    if (cached) return cached;
    try {
      return await fetch(request);
    } catch (error) {
      if (request.mode === "navigate") {
        const missing = await cache.match(new URL("404.html", self.registration.scope));
        if (missing) return missing;
      }
      throw error;
    }
  })());
});
