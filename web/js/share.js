// Handing a game or a campaign to another device (a tablet at the table, a friend's phone):
// a link that carries its write token, shown to copy and copied when the browser allows.

import { handOffLink } from "./api.js";
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
