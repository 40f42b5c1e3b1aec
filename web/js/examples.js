// The example bands shipped with the rules (GET /bands: the names the API takes, with their
// names in French and English), as [id, name] pairs for a band menu.

import { get } from "./api.js";
import { pick } from "./i18n.js";

let bands = null;

/** [[id, name in the page's language], ...], read once per page load. */
export async function exampleBands() {
  bands = bands || await get("/bands");
  return bands.map((b) => [b.id, pick(b.names)]);
}
