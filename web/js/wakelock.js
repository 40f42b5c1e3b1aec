// The screen kept awake while a game is open (the Screen Wake Lock API, where the browser
// has it: a tablet beside the table must not dim between two turns). The browser lets the
// lock go when the page is hidden; it is asked again when the page shows. game.js calls
// keepAwake(view) when a game loads and letSleep(view) when the page leaves it.

const holders = new Set(); // the game views open now
let sentinel = null; // the lock held, or null
let asking = null; // a request under way

async function acquire() {
  if (!holders.size || sentinel || asking || document.visibilityState !== "visible") return;
  if (!("wakeLock" in navigator)) return;
  asking = navigator.wakeLock.request("screen").catch(() => null); // refused: battery saver...
  const lock = await asking;
  asking = null;
  if (!lock) return;
  if (!holders.size) { // the game was left while the lock was asked for
    lock.release().catch(() => {});
    return;
  }
  sentinel = lock;
  lock.addEventListener("release", () => {
    if (sentinel === lock) sentinel = null;
  });
}

function onVisibility() {
  if (document.visibilityState === "visible") acquire();
}

/** Keep the screen on while `view` (a game view) is open; a view already closed is ignored. */
export function keepAwake(view) {
  if (view && view.closed) return;
  holders.add(view);
  if (holders.size === 1) document.addEventListener("visibilitychange", onVisibility);
  acquire();
}

/** `view` is left: the screen may sleep again when no game is open. */
export function letSleep(view) {
  holders.delete(view);
  if (holders.size) return;
  document.removeEventListener("visibilitychange", onVisibility);
  const lock = sentinel;
  sentinel = null;
  if (lock) lock.release().catch(() => {});
}

/** Is the screen held awake now? (for tests) */
export function awake() {
  return Boolean(sentinel && !sentinel.released);
}
