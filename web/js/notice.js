// A message kept in view at the top of the screen whatever the scroll (fixed, above
// everything): information clears itself after a while, an error stays until it is closed
// or a new message replaces it. Both can be closed (×). It never covers the AI's proposal
// box (sticky in the game panel): beside the panel CSS keeps it over the table; where the
// box comes up under it (the panel under the table) it moves just below the box, or above.

import { t } from "./i18n.js";

const INFO_MS = 4000;
const GAP = 8; // px between the notice and the proposal box or the screen's edge
let timer = null;
let queued = false;

function hide(box) {
  clearTimeout(timer);
  box.hidden = true;
  box.replaceChildren();
  box.style.top = "";
}

/** Out of the way of the AI's proposal box, when it would cover it. */
function place() {
  queued = false;
  const box = document.getElementById("notice");
  if (!box || box.hidden) return;
  box.style.top = "";
  const ai = document.querySelector(".ai-box");
  if (!ai) return;
  const a = ai.getBoundingClientRect();
  const n = box.getBoundingClientRect();
  const covers = n.left < a.right && a.left < n.right && n.top < a.bottom && a.top < n.bottom;
  if (!covers) return;
  if (a.bottom + GAP + n.height <= window.innerHeight) box.style.top = `${Math.max(GAP, a.bottom + GAP)}px`;
  else if (a.top - GAP - n.height >= 0) box.style.top = `${a.top - GAP - n.height}px`;
}

function placeSoon() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(place);
}

// the page or the panel scrolls, the screen turns, the panel is drawn again
window.addEventListener("scroll", placeSoon, { capture: true, passive: true });
window.addEventListener("resize", placeSoon, { passive: true });
new MutationObserver(placeSoon).observe(document.getElementById("view") || document.body, { childList: true, subtree: true });

export function notify(text, kind = "info") {
  const box = document.getElementById("notice");
  clearTimeout(timer);
  if (!text) {
    hide(box);
    return;
  }
  const words = document.createElement("span");
  words.className = "notice-text";
  words.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "notice-close";
  close.textContent = "×";
  close.setAttribute("aria-label", t("notice.close"));
  close.title = t("notice.close");
  close.addEventListener("click", () => hide(box));
  box.replaceChildren(words, close);
  box.className = `notice ${kind}`;
  // an error is read out at once and stays; a piece of information is polite and goes
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  box.hidden = false;
  place();
  if (kind !== "error") timer = setTimeout(() => hide(box), INFO_MS);
}
