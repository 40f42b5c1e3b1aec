// The page's service worker (registered by js/offline.js, served from the page's root so its
// scope is the whole page). It keeps a copy of the page's own files, so a reload while the
// server is down still shows the page, with the "connection lost" banner, instead of the
// browser's error page. It never keeps the game's data.
//
// Which strategy, and why: NETWORK FIRST for the page's files. While the server answers,
// every file comes from it (a new deployment is in use on the next load, never a mix of old
// modules and a new API) and the copy kept is refreshed with it; only when the server does
// not answer (no connection, or a proxy's 502/503/504) is the last copy served.
// Stale-while-revalidate would show a page a little sooner but run the previous deployment's
// modules until the reload after; the page sits beside its server on the same network, so
// asking the server first costs little when it is there, and nothing when it is not (the
// refused connection fails at once).
// The cache is versioned (CACHE): a worker with another version drops the older caches when
// it takes over. Change the version when what is kept changes shape; a new sw.js is picked up
// by the browser on the next load (it checks the worker's file on every navigation), takes
// over at once (skipWaiting, clients.claim), and network first keeps every page fresh anyway.
//
// Never from the cache, always the network: anything under api/ (the JSON API and the
// games' event streams), anything but GET, other origins, and the server's other files
// (openapi.json, docs): the worker does not even answer for them, the browser asks the
// network as it would without it.

const CACHE = "survive-us-page-v1";
const PREFIX = "survive-us-page-";

/** The page's files, relative to the scope: the page, its modules, styles, catalogs, the
 * manifest and the icons. */
const PAGE_FILE = /^(?:|index\.html|manifest\.webmanifest|(?:js|css|i18n|icons)\/[\w.-]+)$/;
const NEVER = /^api\//;

/** Kept at installation, before any page asked for them (the modules follow with the page's
 * list, see "keep" below, and with each load). */
const CORE = [
  "./", "index.html", "manifest.webmanifest", "css/style.css", "css/print.css",
  "css/connection.css", "js/main.js", "js/offline.js", "js/connection.js", "js/api.js",
  "js/i18n.js", "i18n/en.json", "i18n/fr.json", "icons/icon.svg", "icons/icon-192.png",
  "icons/icon-512.png",
];

function scope() {
  return new URL(self.registration.scope);
}

/** The path of `url` inside the scope ("js/main.js", "" for the page), or null when it is
 * another origin or outside the scope. */
function inScope(url) {
  const root = scope();
  const u = new URL(url, root);
  if (u.origin !== root.origin || !u.pathname.startsWith(root.pathname)) return null;
  return u.pathname.slice(root.pathname.length);
}

/** May `url` be kept and served from the cache? Only the page's own files, never the API. */
function cacheable(url) {
  const path = inScope(url);
  return path !== null && !NEVER.test(path) && PAGE_FILE.test(path);
}

/** The key a file is kept under: its address without the query (the page is one file
 * whatever "?campaign=ID" follows it). */
function key(url) {
  const u = new URL(url, scope());
  u.search = "";
  u.hash = "";
  return u.href;
}

/** Fetch `url` and keep its answer when it is a good one of our own. */
async function keep(cache, url) {
  try {
    const response = await fetch(new Request(url, { cache: "no-cache" }));
    if (response.ok && response.type === "basic") await cache.put(key(url), response);
  } catch (_) {
    // not now: it will be kept the next time the page asks for it
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(CORE.map((path) => keep(cache, new URL(path, scope()).href)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** A proxy's answer when the server behind it is down. */
const GATEWAY = new Set([502, 503, 504]);

async function networkFirst(request, navigation) {
  const cache = await caches.open(CACHE);
  let response = null;
  try {
    response = await fetch(request);
  } catch (error) {
    response = null;
  }
  if (response && !GATEWAY.has(response.status)) {
    if (response.ok && response.type === "basic") await cache.put(key(request.url), response.clone());
    return response;
  }
  let kept = await cache.match(key(request.url));
  if (!kept && navigation) kept = await cache.match(key("./"));
  if (kept) return kept;
  return response || Response.error();
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const navigation = request.mode === "navigate";
  if (!cacheable(request.url)) return; // the API, the event streams, other files: the network
  if ((request.headers.get("Accept") || "").includes("text/event-stream")) return;
  event.respondWith(networkFirst(request, navigation));
});

// The page sends the files it loaded before this worker took over ({keep: [urls]}), so the
// first visit already leaves a whole page to show when the server is down.
self.addEventListener("message", (event) => {
  const urls = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  const wanted = urls.filter((url) => typeof url === "string" && cacheable(url));
  if (!wanted.length) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(wanted.map(async (url) => {
      if (!(await cache.match(key(url)))) await keep(cache, key(url));
    }));
  })());
});
