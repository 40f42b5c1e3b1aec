// What an attack or a contamination rolls, said before it is played: the dice, the face each
// needs, the target's save, and the chances, as the service computed them with the very code
// that resolves the action (GET .../actions, `odds`).

import { t } from "./i18n.js";

/** "2 dice · hits on 4+ · save on 6+ · 31% to put it down", or null for an action that
 * rolls nothing. */
export function oddsLine(odds) {
  if (!odds) return null;
  if (odds.kind === "contaminate") {
    return t("odds.contaminate", { bite: odds.bite_on, resist: odds.resist_on, p: odds.chance });
  }
  const parts = [t("odds.dice", { n: odds.dice }), t("odds.hits_on", { n: odds.hits_on })];
  if (odds.save_on === null || odds.save_on === undefined) parts.push(t("odds.no_save"));
  else parts.push(t(odds.reroll_save ? "odds.save_again" : "odds.save_on", { n: odds.save_on }));
  if (odds.retry_on_save) parts.push(t("odds.retry"));
  // a survivor who can take several wounds: the chance to wound, then to take them out
  if (odds.ends === "down" && odds.need > 1) parts.push(t("odds.wound", { p: odds.wound }));
  if (odds.ends in { removed: 1, down: 1, dies: 1 }) parts.push(t(`odds.ends.${odds.ends}`, { p: odds.down }));
  return parts.join(" · ");
}
