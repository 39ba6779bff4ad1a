// Registers the service worker that makes the site installable and lets a page open with no
// network (docs/frontend.md, "The installable app"). Browsers allow it on https and on the
// machine itself only: on a plain http network address the site works as before.

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(async () => {
    const ready = await navigator.serviceWorker.ready;
    // This page came from the network before the worker was there: it asks to be kept, with
    // the catalog of its language (`/jsi18n/?lang=xx`), so that it opens offline in its words.
    const catalog = document.querySelector('script[src*="/jsi18n/"]')?.src;
    ready.active?.postMessage({ keep: location.href, catalog });
  }).catch(() => {
    // No worker (private mode, a policy): the site works, only not offline.
  });
}
