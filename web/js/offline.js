// The page without its server: registers the service worker (../sw.js: the page's own files
// kept, so a reload while the server is down shows the page and its "connection lost"
// banner), and hands it the files this load already fetched, so the first visit is enough.
// Service workers need a secure context: https, or http on localhost / 127.0.0.1.

async function register() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    // sw.js sits beside index.html, so its scope is the whole page
    await navigator.serviceWorker.register("sw.js", { scope: "./" });
    const ready = await navigator.serviceWorker.ready;
    const loaded = [window.location.href, ...performance.getEntriesByType("resource").map((e) => e.name)];
    if (ready.active) ready.active.postMessage({ keep: loaded });
  } catch (error) {
    console.warn("service worker not registered:", error); // the page works without it
  }
}

if (document.readyState === "complete") register();
else window.addEventListener("load", register, { once: true });
