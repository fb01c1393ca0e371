// Povver's service worker: keeps the app shell of this deploy offline and serves it first, so the workout opens
// with no signal. API calls are never cached: the app queues its writes itself (assets/lib/queue.js).
const VERSION = "{{version}}";
const ASSETS = ["{{assets}}"];
const CACHE = `povver-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("povver-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page: the network when it answers within three seconds (a new deploy), else the cached shell.
    event.respondWith(pageFromNetworkOrCache(request));
    return;
  }
  if (url.pathname.startsWith(`/assets/${VERSION}/`)) {
    event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
  }
});

async function pageFromNetworkOrCache(request) {
  const cached = caches.match("/", { cacheName: CACHE });
  const network = fetch(request);
  const slow = new Promise((resolve) => setTimeout(resolve, 3000));
  try {
    const first = await Promise.race([network, slow.then(() => cached)]);
    if (first) return first;
    return await network;
  } catch {
    return (await cached) || Response.error();
  }
}
