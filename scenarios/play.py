"""Playing a scenario card with the rules engine: its seeded set-up as a `Game`, refereed.

`start_scenario` builds on `scenarios.setup.setup_scenario`: the scene (terrain, the card's
zones and markers as terrain that blocks nothing), the band, the zombies and the civilians as
figures, the crates and the card's items as `Game.markers`, the card's turn limit, and a
`ScenarioReferee`. Crates hold the loot rolled at set-up (D20: rolled in advance, kept hidden
until opened): equipment and the card's items lie inside, a trap's zombie is kept in the
referee's record and bursts out when the crate is opened.

The referee (registered as "scenario", so `Game.replay` and `Game.from_json` rebuild it once
this module is imported) keeps in plain JSON everything it tracks: the card id, the weather,
the starting band and civilian groups, the zones figures were evacuated through, events,
crates opened, the sick cared for, the trapped freed, items delivered, the end rolls, the
reinforcements and other arrivals, and the result. It referees:

- the end (docs/scenarios.md): an `ends_when` condition after any activation, no survivor left
  who can act, the turn limit, the card's end roll; then each side's conditions (all or
  any); both or neither hold: a draw;
- exits (a base touching the exit's stretch of edge, for the sides it lists), zone
  evacuation (`refuge` after every activation, `helicopter` at the end of a turn);
- weather: shooting ranges times `range_factor`, no target beyond `sight_limit` unless it
  stands in a light zone at night;
- the card's actions (`scenarios.play_specials`): escort, exit with a civilian or a down
  friend, treat, deliver; the trapped freed at the end of a survivor activation; heavy items
  lowering M (by the rule's malus per item carried, never below 1); crates opened (counted,
  traps, noisy crates); reinforcements at turn end.

A trapped figure is a civilian until freed (it cannot act, save a wound, or be escorted) but
has the M, PV and D of the profile it joins with: a soldier holding out in the ruins, not a
child; zombies in base contact keep it from being freed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from geometry.corners import keep_out
from geometry.errors import SurviveUsError
from geometry.units import CONTACT_INCHES as CONTACT
from geometry.units import TABLE_INCHES
from i18n import Message
from rules.actions import Action, Special
from rules.catalog import Catalog, Equipment, load_catalog
from rules.dice import Roll
from rules.errors import IllegalActionError
from rules.figures import Fig, civilian, survivor_from_member, zombie_of
from rules.game import SURVIVORS, ZOMBIES, Game
from rules.inventory import marker_gap
from rules.referee import register
from rules.settings import Settings
from rules.state import GameState, plain_copy
from rules.warband import Roster, example_bands
from scenarios import modules as rule_modules
from scenarios import play_arrivals as arrivals
from scenarios import play_specials as specials
from scenarios import words
from scenarios.cards import Card, load_cards
from scenarios.objectives import Condition
from scenarios.play_conditions import condition_text, holds, in_zone, tally, victory
from scenarios.setup import DEFAULT_BAND, roll_dice, setup_scenario
from scenarios.special_rules import (
    Escorted,
    HeavyItem,
    Helicopter,
    NoisyCrates,
    Refuge,
    Trapped,
)

__all__ = ["REFEREE", "ScenarioReferee", "start_scenario", "markers_from_setup",
           "scenario_equipment", "UnknownScenario"]

REFEREE = "scenario"


class UnknownScenario(SurviveUsError, ValueError):
    code = "unknown_scenario"


def _card(card_id: str) -> Card:
    cards = load_cards()
    if card_id not in cards:
        raise UnknownScenario(Message("scenario.unknown_card", {
            "card": card_id, "known": [words.text(c.name) for c in cards.values()],
            "ids": list(cards)}), "scenario")
    return cards[card_id]


def scenario_equipment(card: Card) -> dict[str, Equipment]:
    """The card's own items as equipment of kind "scenario": carried for their encumbrance,
    their uses counted (a case of the cure holds 2)."""
    return {i.id: Equipment(id=i.id, name=i.name.fr, name_en=i.name.en, kind="scenario",
                            encumbrance=i.encumbrance, rarity=None, ap_cost=0, units=i.uses,
                            text_fr=i.name.fr, text_en=i.name.en) for i in card.items}


class ScenarioReferee:
    """A scenario card's rules during a game (the `rules.referee.Referee` protocol).

    `state` is plain JSON and is all there is to save; `card` may be given for a card that is
    not one of the ten (tests), otherwise it is looked up by `state["card"]`.
    """

    name = REFEREE

    def __init__(self, state: dict[str, Any], card: Card | None = None) -> None:
        self.state = state
        self._sight_words: tuple[float, Message] | None = None
        self._card = card

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScenarioReferee:
        return cls(copy.deepcopy({k: v for k, v in data.items() if k != "name"}))

    @classmethod
    def for_figures(cls, card: Card, figures: Sequence[Fig], weather: dict[str, Any],
                    crates: Sequence[dict[str, Any]] = (),
                    modules: dict[str, Any] | None = None) -> ScenarioReferee:
        """A referee at the start: the band and civilians as placed, the set-up's weather and
        crates (`{"id", "loot": {...}}`: traps are kept here), the rule modules' state
        (`scenarios.modules.initial_state`)."""
        civilians: dict[str, list[str]] = {g.id: [] for g in card.civilians}
        for fig in figures:
            if fig.side == "civilians":
                group = next((g.id for g in card.civilians if fig.id.startswith(g.id)
                              and fig.id[len(g.id):].isdigit()), None)
                if group is not None:
                    civilians[group].append(fig.id)
        state: dict[str, Any] = {
            "card": card.id,
            "weather": copy.deepcopy(weather),
            "band": [f.id for f in figures if f.side == "survivors"],
            "civilians": civilians,
            "closed_crates": [c["id"] for c in crates],
            "traps": {c["id"]: {"zombie": c["loot"]["zombie"], "count": c["loot"]["count"]}
                      for c in crates if c.get("loot", {}).get("type") == "zombie"},
            "crates_opened": [],
            "evacuated_via": {},
            "events": [],
            "treated": [],
            "freed": [],
            "delivered": {},
            "base_move": {},
            "end_rolls": [],
            "arrivals": [],
            "next_zombie": 1 + max((int(f.id[1:]) for f in figures
                                    if f.id[:1] == "z" and f.id[1:].isdigit()), default=0),
            "result": None,
        }
        if modules:
            state["modules"] = copy.deepcopy(modules)
        return cls(state, card if card is not load_cards().get(card.id) else None)

    def __deepcopy__(self, memo: dict[int, Any]) -> ScenarioReferee:
        """A copy for a copy of the game: its record is plain JSON (`plain_copy`)."""
        return ScenarioReferee(plain_copy(self.state), self._card)

    @property
    def card(self) -> Card:
        return self._card if self._card is not None else _card(self.state["card"])

    # --- the protocol ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self.state)

    def catalog(self, base: Catalog) -> Catalog:
        extra = scenario_equipment(self.card)
        if not extra or all(i in base.equipment for i in extra):
            return base
        return Catalog(archetypes=base.archetypes, skills=base.skills,
                       equipment={**base.equipment, **extra}, zombies=base.zombies)

    def check(self, game: GameState) -> None:
        if game.outcome is not None:
            return
        self._crates(game)
        if "modules" in self.state:
            rule_modules.after_activation(game, self)
        self._heavy_items(game)
        self._refuges(game)
        if game.activating == SURVIVORS and not game.pending:
            self._free_trapped(game)
        self._maybe_end(game)

    def turn_ended(self, game: GameState) -> None:
        if "modules" in self.state:
            rule_modules.turn_ended(game, self)
        self._helicopter(game)
        if self._maybe_end(game):
            return
        end_roll = self.card.turns.end_roll
        if game.turn >= game.max_turns:
            self._end(game, Message("scenario.end.turn_limit", {"n": game.max_turns}))
            return
        if end_roll is not None and game.turn >= end_roll.from_turn:
            die = game.roll(Roll(f"end of the scenario on {end_roll.ends_on}+", words=Message(
                "scenario.roll.end", {"n": end_roll.ends_on})))
            self.state["end_rolls"].append({"turn": game.turn, "die": die})
            if die >= end_roll.ends_on:
                self._end(game, Message("scenario.end.end_roll", {"die": die,
                                                                  "turn": game.turn}))
                return
        self._reinforce(game)

    def exit_name(self, exit_id: str) -> words.Words:
        """What a person calls one of the card's exits."""
        return words.exit_(self.card, exit_id)

    def exits(self, game: GameState, fig: Fig) -> list[str]:
        who = {"survivors": "survivors", "civilians": "civilians"}.get(fig.side)
        if who is None or not fig.on_table:
            return []
        return [e.id for e in self.card.exits
                if who in e.who and specials.touches_exit(game, self, fig, e.id)]

    def range_factor(self, game: GameState) -> float:
        return float(self.state["weather"].get("effects", {}).get("range_factor", 1.0))

    def _effects(self) -> Mapping[str, Any]:
        effects: Mapping[str, Any] = self.state["weather"].get("effects", {})
        return effects

    def _limit_words(self, limit: float) -> Message:
        """The weather's sight limit in words, made once (the weather is set for the game)."""
        if self._sight_words is None or self._sight_words[0] != limit:
            weather = self.state["weather"]
            said = {"weather": weather.get("name") or weather.get("id", ""), "d": limit}
            lit = self._effects().get("lights") and any(z.kind == "light"
                                                        for z in self.card.zones)
            self._sight_words = (limit, Message("scenario.sight.beyond_lit", said) if lit
                                 else Message("scenario.sight.beyond", said))
        return self._sight_words[1]

    def sight_limit(self, game: GameState) -> tuple[float, Message] | None:
        limit = self._effects().get("sight_limit")
        return None if limit is None else (float(limit), self._limit_words(float(limit)))

    def lit_zones(self, game: GameState) -> list[list[list[float]]]:
        """The polygons of the card's light zones when the weather lets them show figures."""
        if not self._effects().get("lights"):
            return []
        return [[list(p) for p in z.polygon] for z in self.card.zones if z.kind == "light"]

    def sight_veto(self, game: GameState, shooter: Fig, target: Fig, distance: float
                   ) -> Message | None:
        # asked for every target the engine and the AI weigh: the words are made only for a
        # target the weather does hide
        effects = self._effects()
        limit = effects.get("sight_limit")
        if limit is None or distance <= float(limit) + 1e-9:
            return None
        if effects.get("lights") and any(z.kind == "light" and in_zone(self.card, z.id, target)
                                         for z in self.card.zones):
            return None
        return self._limit_words(float(limit))

    def pool_dice(self, game: GameState, side: str) -> int:
        if "modules" not in self.state:
            return 0
        return rule_modules.extra_pool_dice(game, self, side)

    def move_limit(self, game: GameState, fig: Fig,
                   route: tuple[tuple[float, float], ...]
                   ) -> tuple[float, str | Message] | None:
        if "modules" not in self.state:
            return None
        return rule_modules.move_limit(game, self, fig, route)

    def may_contaminate(self, game: GameState, zombie: Fig, target: Fig) -> bool:
        return "modules" not in self.state or rule_modules.may_contaminate(game, self, target)

    def special_actions(self, game: GameState, fig: Fig) -> list[Action]:
        if "modules" not in self.state:
            return specials.actions(game, self, fig)
        return specials.actions(game, self, fig) + rule_modules.actions(game, self, fig)

    def _module_rule(self, act: Special) -> bool:
        return "modules" in self.state and act.rule in rule_modules.rules_of(self)

    def special_cost(self, game: GameState, act: Special) -> int:
        if self._module_rule(act):
            return rule_modules.cost(game, self, act)
        return specials.cost(game, self, act)

    def check_special(self, game: GameState, fig: Fig, act: Special) -> None:
        if self._module_rule(act):
            rule_modules.check(game, self, fig, act)
        elif fig.is_zombie:
            raise IllegalActionError(Message("scenario.refusal.zombie_special",
                                             {"rule": act.rule}), "action.rule")
        else:
            specials.check(game, self, fig, act)

    def do_special(self, game: GameState, fig: Fig, act: Special) -> None:
        if self._module_rule(act):
            rule_modules.carry_out(game, self, fig, act)
        else:
            specials.carry_out(game, self, fig, act)

    # --- the end ----------------------------------------------------------------------------

    def _maybe_end(self, game: GameState) -> bool:
        if game.outcome is not None:
            return True
        card = self.card
        for cond in card.objectives.ends_when:
            if holds(cond, game, card, self.state):
                self._end(game, Message("scenario.end.at_once",
                                        {"condition": cond.words(card)}), cond)
                return True
        band = [f for f in game.figures.values() if f.side == SURVIVORS and f.on_table]
        if not any(f.standing or f.has("heroique") for f in band):
            self._end(game, Message("scenario.end.none_on_table") if not band
                      else Message("scenario.end.none_standing"))
            return True
        return False

    def result(self, game: GameState, counted: bool = False) -> dict[str, Any]:
        """Each side's conditions as they stand now: each with `condition` (its type and
        English, for programs) and `words` (the message a player reads); `counted` adds
        each one's `type` and `tally` (done, needed, out of; None for a condition that does
        not count) for the page's tracker (the result kept in a finished game's state has
        neither, as saved games have it)."""
        card = self.card

        def condition(c: Condition) -> dict[str, Any]:
            out = {"condition": condition_text(c), "holds": holds(c, game, card, self.state),
                   "words": c.words(card).to_json()}
            if counted:
                out.update(type=c.type, tally=_listed(tally(c, game, card, self.state)))
            return out

        def side(victory_: Any) -> dict[str, Any]:
            return {"wins": victory(victory_, game, card, self.state), "mode": victory_.mode,
                    "conditions": [condition(c) for c in victory_.conditions]}

        return {"survivors": side(card.objectives.survivors),
                "zombies": side(card.objectives.zombies)}

    def tracker(self, game: GameState) -> dict[str, Any]:
        """What the page shows beside the table: each side's objective as the card words it
        and as it stands (`result`), and the card's special rules in words."""
        card = self.card
        return {**self.result(game, counted=True),
                "text": {side: {"fr": getattr(card.objectives, side).text.fr,
                                "en": getattr(card.objectives, side).text.en}
                         for side in ("survivors", "zombies")},
                "rules": [r.words(card, game.catalog).to_json() for r in card.special_rules]}

    def _end(self, game: GameState, why: Message, ending: Condition | None = None) -> None:
        """The scenario ends (`ending`: the card's condition that ended it, if one did): the
        result kept in the state, the game finished with the reason a player reads
        (`outcome["reason"]` in English, `outcome["words"]` its message): why it ended and
        what the winner achieved, or that both or neither did."""
        result = self.result(game)
        surv, zomb = result["survivors"]["wins"], result["zombies"]["wins"]
        winner = SURVIVORS if surv and not zomb else ZOMBIES if zomb and not surv else "draw"
        result["ended_by"] = why.text("en")
        result["ended_by_words"] = why.to_json()
        result["winner"] = winner
        self.state["result"] = result
        what: Message | list[dict[str, Any]]
        if winner == "draw":
            what = (Message("scenario.outcome.both") if surv
                    else Message("scenario.outcome.neither"))
        else:
            said = ending.words(self.card).to_json() if ending is not None else None
            held = [c["words"] for c in result[winner]["conditions"] if c["holds"]]
            what = [c for c in held if c != said] or (
                [] if held else Message("scenario.outcome.holds"))
        reason = Message("scenario.outcome", {"why": why, "what": what}) if what else why
        game.finish(winner, reason)

    # --- bookkeeping after activations ----------------------------------------------------

    def _crates(self, game: GameState) -> None:
        """Crates opened since the last look: counted, their trap sprung, their noise heard."""
        for crate_id in list(self.state["closed_crates"]):
            marker = game.markers.get(crate_id)
            if marker is not None and marker.get("kind") == "crate":
                continue
            self.state["closed_crates"].remove(crate_id)
            self.state["crates_opened"].append(crate_id)
            if marker is None:
                continue
            opener = self._opener(game, marker)
            trap = self.state["traps"].pop(crate_id, None)
            if trap is not None:
                for _ in range(int(trap["count"])):
                    self._burst_out(game, trap["zombie"], marker, opener)
            for rule in self.card.special_rules:
                if isinstance(rule, NoisyCrates):
                    edge, along = arrivals.nearest_edge(game, marker["x"], marker["y"])
                    self._arrive(game, rule.zombie, rule.count, edge, along,
                                 f"the noise of {crate_id}", Message("scenario.why.noise", {
                                     "crate": words.crate(crate_id), "edge": words.edge(edge)}))
            if "modules" in self.state:
                for kind, count, at in rule_modules.crate_opened(game, self, marker):
                    edge, along = arrivals.nearest_edge(game, *at)
                    self._arrive(game, kind, count, edge, along, f"the noise of {crate_id}",
                                 Message("scenario.why.noise", {
                                     "crate": words.crate(crate_id), "edge": words.edge(edge)}))

    @staticmethod
    def _opener(game: GameState, marker: dict[str, Any]) -> Fig | None:
        touching = [(marker_gap(f, marker), f.id, f) for f in game.figures.values()
                    if f.side == SURVIVORS and f.standing
                    and marker_gap(f, marker) <= CONTACT + 1e-9]
        return min(touching)[2] if touching else None

    def _burst_out(self, game: GameState, kind: str, marker: dict[str, Any],
                   opener: Fig | None) -> None:
        probe = zombie_of(kind, "probe", game.catalog, marker["x"], marker["y"])
        spot = None
        if opener is not None:
            spot = arrivals.contact_spot(game, opener, probe, (marker["x"], marker["y"]))
        if spot is None:
            edge_spot = arrivals.zone_spots(game, _square(marker["x"], marker["y"], 1.5), 1)
            spot = edge_spot[0] if edge_spot else None
        crate = words.crate(str(marker["id"]))
        if spot is None:
            game.note(Message("scenario.trap.no_room", {
                "zombie": words.zombie(game.catalog, kind), "crate": crate}))
            return
        zombie = arrivals.add_zombie(game, self.state, kind, spot)
        self.state["arrivals"].append({"turn": game.turn, "why": f"trap in {marker['id']}",
                                       "zombies": [zombie.id]})
        if opener is None:
            game.note(Message("scenario.trap.bursts", {
                "zombie": words.figure(game, zombie.id), "crate": crate}))
        else:
            game.note(Message("scenario.trap.bursts_at", {
                "zombie": words.figure(game, zombie.id), "crate": crate,
                "opener": words.figure(game, opener.id)}))

    def _heavy_items(self, game: GameState) -> None:
        rules = [r for r in self.card.special_rules if isinstance(r, HeavyItem)]
        if not rules:
            return
        base_move: dict[str, int] = self.state["base_move"]
        for fig in game.figures.values():
            if fig.side != SURVIVORS:
                base_move.pop(fig.id, None)
                continue
            malus = sum(r.move_malus * fig.items.get(r.item, 0) for r in rules)
            base = base_move.get(fig.id, fig.move)
            if malus:
                base_move[fig.id] = base
                if fig.move != max(base - malus, 1):
                    fig.move = max(base - malus, 1)
                    game.note(Message("scenario.weighed_down", {
                        "figure": words.figure(game, fig.id), "move": fig.move}))
            elif fig.id in base_move:
                fig.move = base_move.pop(fig.id)
                game.note(Message("scenario.unburdened", {
                    "figure": words.figure(game, fig.id), "move": fig.move}))

    def _refuges(self, game: GameState) -> None:
        zones = [r.zone for r in self.card.special_rules if isinstance(r, Refuge)]
        if not zones:
            return
        escorted = {r.civilians for r in self.card.special_rules if isinstance(r, Escorted)}
        movers = {i for g in escorted for i in self.state["civilians"].get(g, [])}
        for fig in game.figures.values():
            if not fig.on_table or not (fig.side == SURVIVORS or fig.id in movers):
                continue
            zone = next((z for z in zones if in_zone(self.card, z, fig)), None)
            if zone is not None:
                self._evacuate(game, fig, zone, Message("scenario.reaches_refuge", {
                    "figure": words.figure(game, fig.id), "zone": words.zone(self.card, zone)}))

    def _evacuate(self, game: GameState, fig: Fig, zone: str, how: Message) -> None:
        fig.status, fig.exit = "evacuated", zone
        self.state["evacuated_via"][fig.id] = zone
        game.moved()
        game.note(how)

    def _free_trapped(self, game: GameState) -> None:
        for rule in self.card.special_rules:
            if not isinstance(rule, Trapped):
                continue
            for fig_id in self.state["civilians"].get(rule.civilians, []):
                fig = game.figures.get(fig_id)
                if fig is None or fig.side != "civilians" or not fig.on_table \
                        or fig_id in self.state["freed"]:
                    continue
                near = [f for f in game.figures.values() if f.on_table and f.id != fig.id
                        and game.in_contact(f.id, fig.id)]
                rescuers = [f for f in near if f.side == SURVIVORS and f.standing]
                if rescuers and not any(f.is_zombie for f in near):
                    self._join(game, fig, rule, rescuers[0])

    def _join(self, game: GameState, fig: Fig, rule: Trapped, rescuer: Fig) -> None:
        """The freed figure joins the band: its profile and skill, no equipment, full PV
        (0 if it was down), AP from the next turn."""
        a = game.catalog.archetypes[rule.joins_as]
        fig.side, fig.band, fig.kind, fig.cls, fig.sex = (
            "survivors", rescuer.band, a.id, a.class_, a.sex)
        fig.move, fig.wounds, fig.attack, fig.defense = a.move, a.wounds, a.attack, a.defense
        fig.intelligence, fig.panic, fig.encumbrance = a.intelligence, a.panic, a.encumbrance
        fig.skills, fig.items, fig.units = [rule.skill], {}, {}
        fig.pv = a.wounds if fig.standing else 0
        fig.resting = True
        self.state["freed"].append(fig.id)
        self._event(game, "freed")
        game.moved()
        game.note(Message("scenario.freed", {
            "rescuer": words.figure(game, rescuer.id), "figure": words.figure(game, fig.id),
            "archetype": words.archetype(game.catalog, a.id),
            "skill": words.skill(game.catalog, rule.skill)}))

    def _event(self, game: GameState, event: str) -> None:
        if event not in self.state["events"]:
            self.state["events"].append(event)

    # --- the end of a turn ----------------------------------------------------------------

    def _helicopter(self, game: GameState) -> None:
        for rule in self.card.special_rules:
            if not isinstance(rule, Helicopter) or game.turn < rule.from_turn \
                    or "helicopter_left" in self.state["events"]:
                continue
            inside = [f for f in game.figures.values() if f.on_table
                      and in_zone(self.card, rule.zone, f)]
            standing = [f for f in inside if f.side == SURVIVORS and f.standing]
            if not standing or any(f.is_zombie for f in inside):
                continue
            game.note(Message("scenario.helicopter.lands",
                              {"zone": words.zone(self.card, rule.zone)}))
            boarding = [f for f in inside if f.side == SURVIVORS and (f.standing or any(
                game.in_contact(f.id, s.id) for s in standing))]
            for fig in boarding:
                self._evacuate(game, fig, rule.zone, Message(
                    "scenario.helicopter.boards", {"figure": words.figure(game, fig.id)}))
            self._event(game, "helicopter_left")
            game.note(Message("scenario.helicopter.leaves"))

    def _reinforce(self, game: GameState) -> None:
        for rule in self.card.zombies.reinforcements:
            if game.turn not in rule.turns(game.max_turns):
                continue
            count, dice = roll_dice(rule.count, lambda why: game.roll(Roll(
                f"reinforcements ({why})", words=Message("scenario.roll.reinforcements",
                                                         {"dice": why}))))
            if "modules" in self.state:
                count = rule_modules.trade_for_weapons(game, self, count)
            if count <= 0:
                continue
            if rule.at == "far_edge":
                self._reinforce_at(game, rule.zombie, count, "far")
            elif rule.at == "random_edge":
                die = game.roll(Roll("reinforcements' edge: 1-2 far, 3-4 left, 5-6 right",
                                     words=Message("scenario.roll.reinforcements_edge")))
                edge = "far" if die <= 2 else "left" if die <= 4 else "right"
                self._reinforce_at(game, rule.zombie, count, edge)
            elif rule.at == "side_edges":
                left = (count + 1) // 2
                self._reinforce_at(game, rule.zombie, left, "left")
                self._reinforce_at(game, rule.zombie, count - left, "right")
            else:
                zones = self.card.zombies.zones
                for k, zone_id in enumerate(zones):
                    share = count // len(zones) + (1 if k < count % len(zones) else 0)
                    self._arrive_in_zone(game, rule.zombie, share, zone_id)

    def _reinforce_at(self, game: GameState, kind: str, count: int, edge: str) -> None:
        self._arrive(game, kind, count, edge, None, "reinforcements",
                     Message("scenario.why.reinforcements", {"edge": words.edge(edge)}))

    def _arrive(self, game: GameState, kind: str, count: int, edge: str, anchor: float | None,
                why: str, said: Message) -> None:
        if count <= 0:
            return
        spots = arrivals.edge_spots(game, edge, count, anchor)
        self._put(game, kind, count, spots, f"{why}, {edge} edge", said)

    def _arrive_in_zone(self, game: GameState, kind: str, count: int, zone_id: str) -> None:
        if count <= 0:
            return
        from shapely.geometry import Polygon

        spots = arrivals.zone_spots(game, Polygon(self.card.zone(zone_id).polygon), count)
        self._put(game, kind, count, spots, f"reinforcements, zone {zone_id}",
                  Message("scenario.why.reinforcements_zone",
                          {"zone": words.zone(self.card, zone_id)}))

    def _put(self, game: GameState, kind: str, count: int, spots: list[tuple[float, float]],
             why: str, said: Message) -> None:
        """Zombies arrive: the referee's record keeps why in English (`arrivals`), the note
        says it with the newcomers' names."""
        ids = [arrivals.add_zombie(game, self.state, kind, spot).id for spot in spots]
        self.state["arrivals"].append({"turn": game.turn, "why": why, "zombies": ids})
        if ids:
            game.note(Message("scenario.arrive", {
                "why": said, "figures": [words.figure(game, i) for i in ids]}))
        if len(ids) < count:
            left = count - len(ids)
            zombie = words.zombie(game.catalog, kind)
            game.note(Message("scenario.arrive.no_room.one", {"zombie": zombie, "why": said})
                      if left == 1 else Message("scenario.arrive.no_room",
                                                {"n": left, "zombie": zombie, "why": said}))


def _square(x: float, y: float, half: float) -> Any:
    from shapely.geometry import box

    return box(x - half, y - half, x + half, y + half)


register(REFEREE, ScenarioReferee.from_json)


# --- starting a game -----------------------------------------------------------------------


def markers_from_setup(card: Card, setup: dict[str, Any],
                       catalog: Catalog) -> list[dict[str, Any]]:
    """`Game.markers` from a set-up: crates closed with their rolled loot inside (a trap's
    zombie is the referee's), the card's items lying on the ground with their uses."""
    equipment = {**catalog.equipment, **scenario_equipment(card)}

    def put(marker: dict[str, Any], item: str, count: int) -> None:
        marker["items"][item] = marker["items"].get(item, 0) + count
        kind = equipment[item].kind
        if kind in ("ammunition", "healing", "throwing", "scenario"):
            marker["units"][item] = marker["units"].get(item, 0) + equipment[item].units * count

    out: list[dict[str, Any]] = []
    for crate in setup["crates"]:
        marker: dict[str, Any] = {"id": crate["id"], "kind": "crate", "x": crate["x"],
                                  "y": crate["y"], "items": {}, "units": {},
                                  "cost": card.crates.ap}
        if card.crates.intelligence_test:
            marker["test"] = "intelligence"
        loot = crate["loot"]
        if loot["type"] == "equipment":
            put(marker, loot["item"], int(loot.get("count", 1)))
            for extra in loot.get("with", []):
                put(marker, extra, 1)
        elif loot["type"] == "item":
            put(marker, loot["item"], 1)
        out.append(marker)
    for raw in setup["markers"]:
        if raw["kind"] != "item":
            continue
        marker = {"id": raw["id"], "kind": "items", "x": raw["x"], "y": raw["y"],
                  "items": {}, "units": {}}
        put(marker, raw["item"], 1)
        out.append(marker)
    return out


def _figures(card: Card, setup: dict[str, Any], roster: Roster,
             catalog: Catalog) -> list[Fig]:
    members = {m.id: m for m in roster.members}
    trapped = {r.civilians: r for r in card.special_rules if isinstance(r, Trapped)}
    out: list[Fig] = []
    for raw in setup["scene"]["figures"]:
        x, y = float(raw["x"]), float(raw["y"])
        if raw["side"] == SURVIVORS:
            out.append(survivor_from_member(members[raw["id"]], catalog, x, y))
        elif raw["side"] == ZOMBIES:
            out.append(zombie_of(raw["type"], raw["id"], catalog, x, y,
                                 float(raw.get("base_mm", 25))))
        else:
            fig = civilian(raw["id"], x, y)
            fig.name = str(raw.get("name") or fig.name)
            fig.name_en = str(raw.get("name_en") or raw.get("name") or fig.name_en)
            rule = trapped.get(str(raw.get("group", "")))
            if rule is not None:  # a soldier, not a child: her own M, PV and D, acting later
                a = catalog.archetypes[rule.joins_as]
                fig.move, fig.wounds, fig.pv, fig.defense = a.move, a.wounds, a.wounds, a.defense
            out.append(fig)
    return out


def start_scenario(card_id: str | Card, band: Roster | None = None, seed: int = 0, *,
                   table: str | None = None, settings: Settings | None = None,
                   dice: Sequence[int] | None = None, catalog: Catalog | None = None,
                   max_turns: int | None = None,
                   modules: Sequence[str | rule_modules.Pick | dict[str, Any]] = (),
                   balanced: bool = True,
                   prepare: Callable[[list[Fig]], None] | None = None) -> Game:
    """A game of the card ready to play: the seeded set-up (`dice` typed in for it first),
    the first turn's action points rolled from `seed`. `band` defaults to the example band
    of the set-up; `max_turns` overrides the card's limit. `modules` are the optional rule
    modules picked (`scenarios.modules`: ids, `ID:key=value` or picks); when both sides
    pick, their points must match unless `balanced` is false (the totals are kept in the
    referee's state either way). `prepare` may change the figures before the game starts
    (a campaign gives them the PV and uses they carry)."""
    picks = rule_modules.picks_of(modules)
    module_state = rule_modules.initial_state(picks, balanced=balanced) if picks else None
    card = _card(card_id) if isinstance(card_id, str) else card_id
    settings = settings or Settings()
    catalog = catalog or load_catalog()
    roster = band if band is not None else example_bands()[DEFAULT_BAND]
    setup = setup_scenario(card, seed, roster, table=table, settings=settings, catalog=catalog,
                           dice=list(dice or ()))
    newcomers = rule_modules.module_figures(picks)
    figures = _figures(card, setup, roster, catalog) + newcomers
    if prepare is not None:
        prepare(figures)
    referee = ScenarioReferee.for_figures(card, figures, setup["weather"], setup["crates"],
                                          module_state)
    scene = {k: v for k, v in setup["scene"].items() if k != "figures"} | {"figures": []}
    if picks:
        scene = copy.deepcopy(scene)
        rule_modules.prepare_scene(scene, picks)
        rule_modules.place_figures({**scene, "figures": setup["scene"]["figures"]}, newcomers,
                                   _corner_squares(scene) if settings.camera_corners_clear
                                   else None)
    return Game.new(scene, figures, seed=seed, settings=settings, catalog=catalog,
                    max_turns=max_turns or card.turns.limit,
                    markers=markers_from_setup(card, setup, catalog), referee=referee)


def _corner_squares(scene: Mapping[str, Any]) -> Any:
    """The camera's corner squares on the scene's table (docs/rules.md D41)."""
    table = scene.get("table", {})
    return keep_out(float(table.get("width", TABLE_INCHES)),
                    float(table.get("depth", TABLE_INCHES)))


def _listed(counts: tuple[int, int, int] | None) -> list[int] | None:
    """A tally as plain JSON (a list, as a saved state reads it back)."""
    return None if counts is None else list(counts)
