// Write tokens on the page: handing a game or a campaign to another device (a tablet at the
// table, a friend's phone) by a link that carries its token, and pasting a token.

import { handOffLink, opens, saveToken } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { notify } from "./notice.js";

/** A button that shows, and copies, the link opening `kind` ("game" or "campaign") `id`
 * with write access; whoever has the link may change it, so the hint says so. */
export function shareControl(kind, id, token) {
  const box = h("div", { class: "share-box", id: "share-box", hidden: true });
  const show = async () => {
    const link = handOffLink(kind, id, token);
    const field = h("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": t("share.link") });
    box.replaceChildren(h("p", { class: "muted" }, t("share.hint")), field);
    box.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      notify(t("share.copied"));
    } catch (_) {
      // no clipboard here (an insecure origin, a refusal): the link is shown to copy by hand
    }
  };
  return h("div", { class: "share" }, h("button", { type: "button", id: "share", onclick: show }, t("share.button")), box);
}

/** A read-only page's token field: the token pasted is checked (GET .../access) before it is
 * kept, a wrong one is said at once; then `onKept()`. `draft` ({value}) keeps what was typed
 * while the page draws its panel again (the chances arriving, a live move). */
export function tokenForm(kind, id, text, onKept, draft = {}) {
  const input = h("input", { type: "password", id: "token-input", "aria-label": t("game.token"), placeholder: t("game.token"),
    value: draft.value || "", oninput: (e) => { draft.value = e.target.value; } });
  return h("section", { class: "readonly-banner" },
    h("p", {}, text),
    h("form", { class: "row", onsubmit: async (e) => {
      e.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      if (!(await opens(kind, id, token).catch(() => false))) {
        notify(t("token.wrong"), "error");
        return;
      }
      saveToken(`${kind}:${id}`, token);
      onKept();
    } }, input, h("button", { type: "submit" }, t("game.unlock"))));
}
