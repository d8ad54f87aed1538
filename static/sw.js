// scorepad service worker. The server prepends `const SHELL = [...]` (the versioned app shell),
// `const VERSION`, which changes whenever any file of the shell changes, and `const OFFLINE`,
// the "You're offline" page (part of the shell).
// Hands saved without a connection are queued by the page (static/offline.js), not here: the
// player must see the server's answer to them, and only a page can show it.
const CACHE = "scorepad-" + VERSION;
// The app's root ("/", or a proxy's prefix such as "/canasta/"): the page registers this worker
// with that root as its scope (static/scorepad.js reads it from <html data-root>).
const ROOT = new URL(self.registration.scope).pathname;
const STATIC = ROOT + "static/";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// A whole page: a navigation, or htmx asking for a page (boosted link, history restore).
function wantsPage(request) {
  if (request.mode === "navigate") return true;
  const headers = request.headers;
  return headers.get("HX-Request") === "true" &&
    (headers.get("HX-Boosted") === "true" || headers.get("HX-History-Restore-Request") === "true");
}

// Keep a copy of a plain page: not an error, not a redirect, nothing the server said not to store.
function keep(request, response) {
  if (!response.ok || response.redirected || response.type !== "basic") return Promise.resolve();
  if (/no-store/.test(response.headers.get("Cache-Control") || "")) return Promise.resolve();
  const copy = response.clone();
  return caches.open(CACHE).then((cache) => cache.put(request.url, copy).then(() => trim(cache)));
}

// Keep the PAGES pages opened last (a page opened again moves to the end of the cache's order).
const PAGES = 80;
function trim(cache) {
  return cache.keys().then((requests) => {
    const pages = requests.filter((request) => {
      const path = new URL(request.url).pathname;
      return !path.startsWith(STATIC) && !SHELL.includes(path);
    });
    return Promise.all(pages.slice(0, Math.max(0, pages.length - PAGES)).map((request) => cache.delete(request)));
  });
}

// The page says its language changed (static/scorepad.js): every kept page is in the old one, so
// they go, and the shell's pages (the list, the offline page) and the page that asked are fetched
// again in the new one.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "language-changed") return;
  const pages = SHELL.filter((path) => !path.startsWith(STATIC));
  const here = new URL(String(data.page || ROOT), self.location.origin);
  if (here.origin === self.location.origin && !pages.includes(here.pathname)) pages.push(here.pathname + here.search);
  event.waitUntil(caches.open(CACHE).then((cache) => cache.keys()
    .then((requests) => Promise.all(requests
      .filter((request) => !new URL(request.url).pathname.startsWith(STATIC))
      .map((request) => cache.delete(request))))
    .then(() => cache.addAll(pages))
    .catch(() => {})));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    // Static files carry their content hash in the URL: the cached copy is always right.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
      return response;
    })));
    return;
  }
  if (wantsPage(request)) {
    // Pages: always the network (scores must be current); the last copy only when offline, and
    // for a page this phone never kept, the "You're offline" page, never some other page.
    event.respondWith(fetch(request).then((response) => {
      event.waitUntil(keep(request, response));
      return response;
    }).catch(() => caches.match(request.url, { ignoreVary: true })
      .then((hit) => hit || caches.match(OFFLINE))
      .then((hit) => hit || Response.error())));
  }
});
