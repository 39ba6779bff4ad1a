// The service worker (docs/frontend.md, "The installable app"). It keeps the static files and
// the pages this device opened, and answers from them only when the network does not: pages
// first from the network (waiting at most a few seconds, as a silent network never answers),
// static files from the cache of this release. The browser catalog of each language
// (`/jsi18n/?lang=xx`, the page's words) is taken from the network first too, its last copy
// kept, so that a page opened offline keeps its language. API calls and sockets are never
// touched: the server stays the only truth about rooms.
const VERSION = "{{ version }}";
const STATIC_CACHE = `dominoes-static-${VERSION}`;
const PAGE_CACHE = "dominoes-pages";
/** The last copy of each `/jsi18n/?lang=xx` the worker fetched (one per language). */
const CATALOG_CACHE = "dominoes-catalogs";
const CATALOG_PATH = "/jsi18n/";
const STATIC_URLS = {{ static_urls|safe }};
const OFFLINE_URL = "{{ offline_url }}";
const PAGE_WAIT_MS = 4000;
const PAGES_KEPT = 24;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC_CACHE);
    await cache.addAll([...STATIC_URLS, OFFLINE_URL]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("dominoes-static-") && name !== STATIC_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** A page worth keeping: a page of the site, not the API, the schema or the admin. */
function isPage(url) {
  return url.origin === self.location.origin && !/^\/(api|ws|static|admin)\//.test(url.pathname)
    && url.pathname !== "/sw.js";
}

async function keepPage(request, response) {
  if (!response.ok || !(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  const language = response.headers.get("Content-Language");
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(request, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - PAGES_KEPT))) await cache.delete(old);
  await offlinePageIn(language);
}

/** The offline page in the language the pages now come in: fetched again (the request carries
 * the language cookie) only when the kept one is in another language. */
async function offlinePageIn(language) {
  if (!language) return;
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(OFFLINE_URL);
  if (kept && kept.headers.get("Content-Language") === language) return;
  try {
    const response = await fetch(OFFLINE_URL);
    if (response.ok && response.headers.get("Content-Language") === language) await cache.put(OFFLINE_URL, response);
  } catch {
    // No network after all: the offline page kept stays.
  }
}

/** The browser catalog of one language (`/jsi18n/?lang=xx`): its query names the language. */
function isCatalog(url) {
  return url.origin === self.location.origin && url.pathname === CATALOG_PATH;
}

async function keepCatalog(url, response) {
  if (!response.ok) return;
  const cache = await caches.open(CATALOG_CACHE);
  await cache.put(url, response);
}

/** The catalog from the network (waiting as long as for a page), else the last copy of this
 * very URL: the language stays the page's own, never another language's catalog. */
async function catalog(event) {
  const request = event.request;
  const response = await networkWithin(request, PAGE_WAIT_MS);
  if (response) {
    event.waitUntil(keepCatalog(request.url, response.clone()));
    return response;
  }
  return (await caches.match(request.url, { cacheName: CATALOG_CACHE, ignoreVary: true })) || Response.error();
}

/** The network's answer, or nothing after `ms` (a network gone silent never answers). */
function networkWithin(request, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    fetch(request).then((response) => {
      clearTimeout(timer);
      resolve(response);
    }, () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

async function page(event) {
  const request = event.request;
  const response = await networkWithin(request, PAGE_WAIT_MS);
  if (response) {
    event.waitUntil(keepPage(new Request(request.url), response.clone()));
    return response;
  }
  const kept = await caches.match(request.url, { cacheName: PAGE_CACHE, ignoreSearch: true });
  return kept || (await caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE })) || Response.error();
}

async function staticFile(request) {
  const kept = await caches.match(request, { cacheName: STATIC_CACHE });
  return kept || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isPage(url)) event.respondWith(page(event));
  else if (isCatalog(url)) event.respondWith(catalog(event));
  else if (url.pathname.startsWith("/static/")) event.respondWith(staticFile(request));
});

// A page opened before the worker took charge asks for itself to be kept, and for its
// language's catalog (fetched then only if no copy is kept yet: once the worker is in
// charge, every load of the catalog passes through it and refreshes the copy).
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keep;
  if (typeof url === "string") {
    const parsed = new URL(url, self.location.origin);
    if (isPage(parsed)) {
      event.waitUntil(fetch(parsed.href).then((response) => keepPage(new Request(parsed.href), response), () => {}));
    }
  }
  const words = event.data && event.data.catalog;
  if (typeof words === "string") {
    const parsed = new URL(words, self.location.origin);
    if (!isCatalog(parsed)) return;
    event.waitUntil((async () => {
      if (await caches.match(parsed.href, { cacheName: CATALOG_CACHE, ignoreVary: true })) return;
      try {
        await keepCatalog(parsed.href, await fetch(parsed.href));
      } catch {
        // No network: the next load of the page keeps it.
      }
    })());
  }
});
