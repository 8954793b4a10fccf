// The service worker of the installable app: the static shell (page, scripts, styles, catalogs,
// images) is answered from the network when there is one and from the cache otherwise, so the app
// starts offline. /api and /ws are never cached nor touched: play needs the network.

const CACHE = "burraco-shell-v1";
const SHELL = ["/", "/index.html", "/manifest.webmanifest", "/img/icon.svg", "/css/app.css", "/css/front.css",
  "/js/main.js", "/js/firstscreen.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith("/api") && !url.pathname.startsWith("/ws");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || !isShell(url)) return; // the browser's own handling
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request, { ignoreSearch: request.mode === "navigate" })
          .then((hit) => hit || caches.match("/"))),
  );
});
