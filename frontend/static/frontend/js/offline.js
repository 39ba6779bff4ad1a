// The page the service worker shows for a page this device never opened, with no network: it
// opens the page asked for as soon as the network is back (and tries every 3 s, as a
// network can come back without the browser noticing).
const retry = () => location.reload();
window.addEventListener("online", retry);
setInterval(() => {
  fetch("/healthz", { cache: "no-store" }).then((r) => r.ok && retry(), () => {});
}, 3000);
