// The page's entry: language, then the view named by the URL hash (#/game/ID,
// #/campaign/ID, #/roster...), so links can be shared.

import { lang, preferredLang, setLang, t, translate } from "./i18n.js";
import { showHome } from "./home.js";
import { showGame } from "./game.js";
import { showRoster } from "./roster.js";
import { showCampaign, showCampaigns } from "./campaign.js";
import { showSheet } from "./sheet.js";
import { showScenario } from "./scenario.js";
import { showSetup } from "./setup.js";
import { takeLinkToken } from "./api.js";
import { notify } from "./notice.js";

const ROUTES = [
  [/^#?\/?$/, () => showHome(), "home"],
  [/^#\/game\/([\w-]+)$/, (m) => showGame(m[1]), "home"],
  [/^#\/roster$/, () => showRoster(null), "roster"],
  [/^#\/roster\/([\w-]+)$/, (m) => showRoster(m[1]), "roster"],
  [/^#\/sheet\/([\w-]+)$/, (m) => showSheet(m[1]), "roster"],
  [/^#\/scenario\/([\w-]+)(?:\?(.*))?$/, (m) => showScenario(m[1], m[2]), "home"],
  [/^#\/setup\/([\w-]+)(?:\?(.*))?$/, (m) => showSetup(m[1], m[2]), "home"],
  [/^#\/campaigns$/, () => showCampaigns(), "campaigns"],
  [/^#\/campaign\/([\w-]+)$/, (m) => showCampaign(m[1]), "campaigns"],
];

let leave = null; // what the current view does when the page goes elsewhere

async function route() {
  if (leave) {
    leave();
    leave = null;
  }
  if (!(await takeLinkToken())) notify(t("token.wrong"), "error");
  const hash = window.location.hash || "#/";
  const view = document.getElementById("view");
  view.replaceChildren();
  for (const [pattern, show, nav] of ROUTES) {
    const m = hash.match(pattern);
    if (!m) continue;
    for (const a of document.querySelectorAll(".topbar nav a")) {
      a.classList.toggle("current", a.getAttribute("href") === `#/${nav === "home" ? "" : nav}`);
    }
    try {
      leave = (await show(m)) || null;
    } catch (error) {
      view.replaceChildren(errorPage(error));
    }
    return;
  }
  view.replaceChildren(errorPage(new Error(t("errors.no_page", { hash }))));
}

function errorPage(error) {
  const div = document.createElement("div");
  div.className = "page";
  const h = document.createElement("h1");
  h.textContent = t("errors.title");
  const p = document.createElement("p");
  p.className = "error-text";
  p.textContent = error.message;
  const a = document.createElement("a");
  a.href = "#/";
  a.textContent = t("nav.home");
  div.append(h, p, a);
  return div;
}

function markLang() {
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang()));
  }
}

/** The page's fixed words in its language (the language switch itself says both). */
function translatePage() {
  translate();
  document.querySelector(".topbar nav").setAttribute("aria-label", t("nav.aria"));
}

async function start() {
  await setLang(preferredLang());
  translatePage();
  markLang();
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.addEventListener("click", async () => {
      await setLang(b.dataset.lang, true);
      translatePage();
      markLang();
      route();
    });
  }
  // the campaign link the API hands out is /?campaign=ID
  const campaign = new URLSearchParams(window.location.search).get("campaign");
  if (campaign && !window.location.hash) window.location.hash = `#/campaign/${campaign}`;
  window.addEventListener("hashchange", route);
  await route();
}

start();
