// Registers the service worker that makes the site installable and lets a page open with no
// network (docs/frontend.md, "The installable app"). Browsers allow it on https and on the
// machine itself only: on a plain http network address the site works as before.

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(async () => {
    const ready = await navigator.serviceWorker.ready;
    // This page came from the network before the worker was there: it asks to be kept.
    ready.active?.postMessage({ keep: location.href });
  }).catch(() => {
    // No worker (private mode, a policy): the site works, only not offline.
  });
}
