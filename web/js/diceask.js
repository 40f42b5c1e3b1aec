// Dice rolled at the real table: when the rules need a die the player has not given yet, the
// service refuses the action with `need_dice` and names the die (whose, and for what); the
// page then asks for that die's face, and plays the action again with every face so far.
// Nothing is played until the last die is in (the service applies an action whole or not at
// all), so cancelling leaves the game as it was.

import { h } from "./dom.js";
import { message, t } from "./i18n.js";

/** Ask the face of the die `words` names (the service's `refusal.need_die` message: {who,
 * purpose}, or `refusal.need_die_side`: {purpose}); `action` is the action in words and
 * `sofar` the faces already given. Resolves to 1-6, or null when the player cancels. */
export function askDie(words, action, sofar) {
  const params = (words && words.params) || {};
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "dice-ask", id: "dice-ask", "aria-labelledby": "dice-ask-title" });
    const done = (face) => {
      dialog.close();
      dialog.remove();
      resolve(face);
    };
    const faces = [1, 2, 3, 4, 5, 6].map((n) => h("button", {
      type: "button", class: "face", "data-face": String(n), "aria-label": t("dice.face", { n }),
      onclick: () => done(n),
    }, String(n)));
    dialog.append(...[ // append() would write a null as the word "null"
      h("h2", { id: "dice-ask-title" }, t("dice.title")),
      h("p", { class: "dice-which" }, params.who ? t("dice.who", params) : message(params.purpose)),
      action ? h("p", { class: "muted" }, t("dice.for", { action })) : null,
      sofar.length ? h("p", { class: "muted", id: "dice-sofar" }, t("dice.sofar", { dice: sofar.join(" · ") })) : null,
      h("div", { class: "faces" }, faces),
      h("button", { type: "button", id: "dice-cancel", onclick: () => done(null) }, t("dice.cancel"))].filter(Boolean));
    dialog.addEventListener("cancel", (e) => { // Escape
      e.preventDefault();
      done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    faces[0].focus();
  });
}
