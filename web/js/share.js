// Handing a game or a campaign to another device (a tablet at the table, a friend's phone):
// a link that carries its write token, shown as a QR code for the other device's camera;
// the whole record downloaded as a file and opened elsewhere; pasting a token.

import { ApiError, get, handOffLink, opens, post, saveToken } from "./api.js";
import { h } from "./dom.js";
import { lang, pick, t } from "./i18n.js";
import { notify } from "./notice.js";

const QR = "api/v1/qr";
const shown = new Set(); // "kind:id" of the share boxes shown: the panel drawn again keeps them
const codes = new Map(); // link -> the promise of its QR code's object URL, asked once

/** A button that shows, and copies, the link opening `kind` ("game" or "campaign") `id`
 * with write access, with its QR code; whoever has the link may change it, so the hint
 * says so. Beside it, the button that downloads the whole record. */
export function shareControl(kind, id, token) {
  const key = `${kind}:${id}`;
  const box = h("div", { class: "share-box", id: "share-box", hidden: true });
  const button = h("button", { type: "button", id: "share", "aria-expanded": "false" }, t("share.button"));
  const fill = () => {
    const link = handOffLink(kind, id, token);
    const field = h("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": t("share.link") });
    const image = h("img", { class: "qr", id: "share-qr", alt: t("share.qr_alt"), width: 216, height: 216 });
    const figure = h("figure", { class: "qr-figure" }, image, h("figcaption", { class: "muted" }, t("share.qr_hint")));
    qrCode(link).then((url) => { image.src = url; }, (error) => {
      figure.replaceChildren(h("p", { class: "muted" }, t("share.qr_failed", { error: error.message })));
    });
    // a link to this machine's own loopback address opens nowhere else: said at once
    const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(window.location.hostname);
    box.replaceChildren(...[h("p", { class: "muted" }, t("share.hint")),
      local ? h("p", { class: "share-warning", id: "share-loopback" }, t("share.loopback")) : null, field, figure].filter(Boolean));
    box.hidden = false;
    button.setAttribute("aria-expanded", "true");
    return { link, field };
  };
  button.addEventListener("click", async () => {
    if (!box.hidden) { // a second press folds it away
      box.hidden = true;
      shown.delete(key);
      button.setAttribute("aria-expanded", "false");
      return;
    }
    shown.add(key);
    const { link, field } = fill();
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      notify(t("share.copied"));
    } catch (_) {
      // no clipboard here (an insecure origin, a refusal): the link is shown to copy by hand
    }
  });
  if (shown.has(key)) fill();
  return h("div", { class: "share" }, h("div", { class: "row" }, button, exportButton(kind, id, token)), box);
}

/** The QR code of `text` as an object URL of its SVG, made by the service (POST, so the
 * token in a link stays out of addresses and logs) once per text. */
function qrCode(text) {
  if (!codes.has(text)) {
    codes.set(text, (async () => {
      const response = await fetch(QR, {
        method: "POST", body: JSON.stringify({ text }),
        headers: { "Content-Type": "application/json", Accept: "image/svg+xml", "Accept-Language": lang() },
      });
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
      return URL.createObjectURL(await response.blob());
    })().catch((error) => {
      codes.delete(text); // asked again next time
      throw error;
    }));
  }
  return codes.get(text);
}

/** When a game or a campaign was made, in the page's language ("12 janv. 2025, 14:03"). */
export function whenText(iso) {
  return iso ? new Date(iso).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" }) : null;
}

/** A button that downloads the whole record of a game or a campaign (its `/export`, which
 * replays it exactly) as a JSON file named after its card or its band and today's date.
 * The export is asked with the write token: without it, the service leaves out what the
 * crates hold, and such a record cannot be opened elsewhere. */
export function exportButton(kind, id, token) {
  return h("button", { type: "button", id: "export-record", onclick: () => download(kind, id, token) }, t("share.download"));
}

async function download(kind, id, token) {
  try {
    const record = await get(`/${kind}s/${encodeURIComponent(id)}/export`, token);
    const name = await recordName(kind, record);
    const url = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" }));
    const link = h("a", { href: url, download: fileName(name), hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (error) {
    notify(error.message, "error");
  }
}

/** What a record is called in the page's language: a game by its scenario card, a
 * campaign by its band. */
async function recordName(kind, record) {
  if (kind === "campaign") {
    const roster = (record.campaign && record.campaign.roster) || {};
    return pick({ fr: roster.name, en: roster.name_en || roster.name }) || t("campaign.list_title");
  }
  const cards = await get("/scenarios").catch(() => []);
  const card = cards.find((c) => c.id === record.scenario);
  return card ? pick({ fr: card.name, en: card.name_en }) : t("game.title");
}

/** "survive-us-le-convoi-2025-01-30.json": the name without accents or spaces, the date
 * of the download in this device's calendar. */
function fileName(name) {
  const slug = String(name).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const now = new Date();
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, "0")).join("-");
  return `survive-us-${slug || "record"}-${day}.json`;
}

/** "Open a record": a file downloaded on another device (a game's or a campaign's, whichever
 * it holds; `kind` is what this page expects) is stored here under a new id; its token is
 * kept in this browser and the page opens it. A bad file is said with what is wrong. */
export function importForm(kind) {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "record-file", hidden: true,
    "aria-label": t("share.open_record") });
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = ""; // the same file may be chosen again
    if (file) openRecord(kind, file);
  });
  return h("div", { class: "row import-record", id: `import-${kind}` },
    h("button", { type: "button", id: "open-record", onclick: () => input.click() }, t("share.open_record")),
    input, h("span", { class: "muted hint" }, t(`share.open_hint.${kind}`)));
}

async function openRecord(expected, file) {
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (_) {
    notify(t("share.not_a_record", { file: file.name }), "error");
    return;
  }
  const kind = recordKind(data, expected);
  try {
    const made = await post(`/${kind}s/import`, importBody(kind, data));
    saveToken(`${kind}:${made.id}`, made.token);
    notify(t(`share.opened.${kind}`));
    window.location.hash = `#/${kind}/${made.id}`;
  } catch (error) {
    notify(t("share.bad_record", { file: file.name, error: error.message }), "error");
  }
}

/** Which record a file holds: a campaign's export (`campaign`, `games`), a game's (`export`,
 * or the bare `{start, log}`); anything else goes where the page expects, which says why. */
function recordKind(data, expected) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return expected;
  if ("campaign" in data) return "campaign";
  if ("export" in data || ("start" in data && "log" in data)) return "game";
  return expected;
}

/** The import's body: a campaign's export is it already; a game's export answer gives its
 * record, seed, card and band (its `version` belongs to the game it came from). */
function importBody(kind, data) {
  if (kind !== "game" || !data || typeof data !== "object" || Array.isArray(data)) return data;
  if (!("export" in data) && "start" in data && "log" in data) return { export: data };
  const body = { export: data.export };
  for (const k of ["seed", "scenario", "band"]) if (data[k] !== undefined && data[k] !== null) body[k] = data[k];
  return body;
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
