// Whether the server answers, and what the page does while it does not.
//
// A request that fails for want of the server (the network refused it, or a proxy answered
// 502/503/504) calls `lost()`: a banner under the top bar says so and counts down to the
// next try; tries come further apart (1, 2, 3, then every 5 s: one small request) and "Retry now" tries at
// once. A try asks GET api/v1/bands (small, and never answered by the service worker's
// cache). When anything answers again (a try, a request, a game's event stream: `reached()`),
// the banner says "Connection back" for a moment and goes; questions waiting in `whenBack()`
// are asked again, and whoever follows the server (`onBack`: the game page's event stream)
// reloads from it.
// A change (POST, PUT, DELETE) is never kept to be sent later: it fails at once, saying it was
// not applied (`changeNotApplied()`), and when the server is back a page that does not follow
// the server by itself is shown again from the server's state (the roster builder excepted:
// its band is the player's unsaved work, saved again with its button).

import { t } from "./i18n.js";

const PROBE = "api/v1/bands";
const DELAYS = [1, 2, 3, 5]; // seconds between tries, the last one repeated
const BACK_SHOWN = 2500; // ms "Connection back" stays
const GATEWAY = new Set([502, 503, 504]);

let down = false;
let tries = 0;
let nextAt = 0;
let probing = null; // the try under way (a promise)
let timer = null; // the next try
let ticker = null; // the countdown's redraw
let backTimer = null;
let waiting = []; // resolvers of whenBack()
let changeFailed = false;
let losses = 0;
const backHooks = new Set();
let banner = null;

/** Is this answer a proxy saying the server behind it is down? */
export function gatewayDown(status) {
  return GATEWAY.has(status);
}

export function isDown() {
  return down;
}

/** How many times the connection was lost since the page loaded (a stream compares them). */
export function lossCount() {
  return losses;
}

/** The server did not answer: show the banner and start trying again. */
export function lost() {
  if (down) return;
  down = true;
  losses += 1;
  tries = 0;
  clearTimeout(backTimer);
  showBanner("lost");
  schedule();
}

/** The server answered: the banner goes, waiting questions are asked again. */
export function reached() {
  if (!down) return;
  down = false;
  clearTimeout(timer);
  clearInterval(ticker);
  showBanner("back");
  backTimer = setTimeout(() => showBanner(null), BACK_SHOWN);
  const resume = waiting;
  waiting = [];
  for (const go of resume) go();
  for (const hook of [...backHooks]) {
    try {
      hook();
    } catch (error) {
      console.error(error);
    }
  }
  if (changeFailed) {
    changeFailed = false;
    // a view that follows the server reloads itself (onBack); another is shown again
    if (!backHooks.size && !window.location.hash.startsWith("#/roster")) {
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    }
  }
}

/** Resolves when the server answers (at once when it does now). */
export function whenBack() {
  return down ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve();
}

/** A change failed for want of the server: the page reloads from it once it is back. */
export function changeNotApplied() {
  changeFailed = true;
}

/** `hook()` each time the server answers again after being lost; returns its removal. */
export function onBack(hook) {
  backHooks.add(hook);
  return () => backHooks.delete(hook);
}

/** Does the server answer? One small request; `lost()` or `reached()` by its answer. */
export function check() {
  if (!probing) {
    probing = (async () => {
      let answered = false;
      try {
        const response = await fetch(PROBE, { cache: "no-store", headers: { Accept: "application/json" } });
        answered = !gatewayDown(response.status);
      } catch (_) {
        answered = false;
      }
      probing = null;
      if (answered) reached();
      else if (!down) lost();
      else {
        tries += 1;
        schedule();
      }
      return answered;
    })();
    if (down) draw();
  }
  return probing;
}

function schedule() {
  const delay = DELAYS[Math.min(tries, DELAYS.length - 1)];
  nextAt = Date.now() + delay * 1000;
  clearTimeout(timer);
  timer = setTimeout(check, delay * 1000);
  clearInterval(ticker);
  ticker = setInterval(draw, 250);
  draw();
}

// --- the banner ------------------------------------------------------------------------------

function element() {
  if (banner) return banner;
  const text = document.createElement("span");
  text.className = "connection-text";
  text.setAttribute("aria-hidden", "true"); // the countdown is not read out every second
  const live = document.createElement("span");
  live.className = "connection-live";
  live.setAttribute("role", "status");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "connection-retry";
  retry.addEventListener("click", () => check());
  banner = document.createElement("div");
  banner.id = "connection";
  banner.className = "connection";
  banner.hidden = true;
  banner.append(text, live, retry);
  const bar = document.querySelector(".topbar");
  if (bar) bar.after(banner);
  else document.body.prepend(banner);
  return banner;
}

/** "lost", "back" or null (hidden). */
function showBanner(state) {
  const box = element();
  box.hidden = !state;
  box.classList.toggle("back", state === "back");
  box.dataset.state = state || "";
  const live = box.querySelector(".connection-live");
  if (state === "back") {
    box.querySelector(".connection-text").textContent = t("connection.back");
    live.textContent = t("connection.back");
  } else if (state === "lost") {
    live.textContent = t("connection.lost_short");
  } else live.textContent = "";
  draw();
}

function draw() {
  if (!banner || !down) return;
  const left = Math.max(0, Math.ceil((nextAt - Date.now()) / 1000));
  const text = probing || left === 0 ? t("connection.trying") : t("connection.lost", { n: left });
  const span = banner.querySelector(".connection-text");
  if (span.textContent !== text) span.textContent = text;
  const retry = banner.querySelector(".connection-retry");
  retry.textContent = t("connection.retry");
  retry.disabled = Boolean(probing);
}

// the browser knows when its own network goes or comes back: ask the server then (it may
// be on this machine, reachable without any network)
window.addEventListener("offline", () => {
  if (!down) check();
});
window.addEventListener("online", () => {
  if (down) check();
});
