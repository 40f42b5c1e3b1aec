"""What carries from one scenario of a campaign to the next, and how the campaign ends (D37).

`new_campaign` starts the record (`scenarios/campaign_data.py`: a `Campaign` is plain data that
round-trips through JSON). After a scenario, `result_from_game` reads a finished
`rules.game.Game` into a `GameResult` and `record_result` applies it: the dead and the
contaminated leave the band, survivors still down roll to recover (D8), the winner takes the
card's reward, then the 1D6 consequence roll (re-rolled once by a living Prof with
*pragmatique*, D14). Every choice a player makes goes through `Choices`, whose defaults are
documented there. `points_for_next` gives the next scenario's zombie points from the band's
remaining cost, `campaign_outcome` who wins (D22, D24).

>>> from rules.warband import example_bands
>>> campaign = new_campaign(example_bands()["cops_and_kids"], 3, random.Random(1))
>>> campaign.next_scenario == campaign.draw.scenarios[0]
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from i18n import Message, Name
from rules.catalog import Archetype, Catalog, load_catalog
from rules.dice import Dice, Roll
from rules.figures import Fig
from rules.game import Game
from rules.names import figure_name, number_of
from rules.settings import Settings
from rules.warband import (
    MAX_FIGURES,
    PROF_ADDED_SKILLS,
    Member,
    Roster,
    band_cost,
    cost_breakdown,
    figure_cost,
    item_name,
    member_name,
    skill_name,
    validate,
)
from scenarios import words
from scenarios.campaign import CampaignError, Chooser, draw_campaign
from scenarios.campaign_data import (
    FORMAT,
    VERSION,
    WINNERS,
    Campaign,
    ConsequenceRoll,
    Counts,
    Effect,
    EndStatus,
    Fate,
    FigureResult,
    GameResult,
    MemberState,
    MemberStatus,
    Played,
    Recovery,
    Source,
    Winner,
    bad,
    unique,
)
from scenarios.cards import Card, load_cards
from scenarios.outcomes import (
    Consequence,
    GainEquipment,
    HealBand,
    LoseItem,
    LoseWeapon,
    LoseWounded,
    NewMember,
    Nothing,
    SecondSkill,
)

__all__ = [
    # the record (scenarios/campaign_data.py)
    "FORMAT",
    "VERSION",
    "Campaign",
    "MemberState",
    "GameResult",
    "FigureResult",
    "Played",
    "Fate",
    "Effect",
    "ConsequenceRoll",
    "MemberStatus",
    "EndStatus",
    "Winner",
    # what changes it
    "Recruit",
    "SkillOption",
    "WeaponOption",
    "Choices",
    "CampaignOutcome",
    "NextPoints",
    "new_campaign",
    "choose_final",
    "result_from_game",
    "record_result",
    "campaign_outcome",
    "points_for_next",
    "heal_between",
    "apply_campaign_state",
    "start_next",
]

RECOVER_ON = 4  # D8: a down survivor left alone recovers on 4+
UNIT_KINDS = ("ammunition", "healing", "throwing")  # items whose uses are counted (D15)
PRAGMATIQUE = "pragmatique"
PREMIERS_SOINS = "premiers_soins"
_STATUS_WORDS: dict[str, Message] = {  # a member's status as a person reads it
    "dead": Message("campaign.status.dead"),
    "contaminated": Message("campaign.status.contaminated"),
    "lost": Message("campaign.status.lost")}
END_OF_GAME: dict[str, EndStatus] = {  # a survivor's game status -> its end status
    "standing": "standing", "down": "down", "dead": "dead", "removed": "dead",
    "evacuated": "evacuated", "contaminated": "contaminated"}


# =============================================================================================
# Starting a campaign


def new_campaign(roster: Roster, length: int, rng: random.Random | Dice | None = None, *,
                 seed: int | None = None, zombie_players: Sequence[str] = ("zombies",),
                 settings: Settings | None = None, choose: Chooser | None = None,
                 catalog: Catalog | None = None,
                 cards: Mapping[str, Card] | None = None) -> Campaign:
    """A campaign for a legal band: the scenarios drawn (D21), every member alive at full PV.

    The roster must be legal (`rules.warband.validate`: errors refuse it, warnings do not).
    `rng` rolls the draw; with none, `random.Random(seed)`.
    """
    catalog = catalog or load_catalog()
    settings = settings or Settings()
    errors = [p for p in validate(roster, catalog, settings) if p.severity == "error"]
    if errors:
        first = errors[0]
        params = {"problem": first.words or first.message, "fix": first.fix_words or first.fix}
        raise CampaignError(
            Message("campaign.error.band", params) if len(errors) == 1 else
            Message("campaign.error.band_more", {**params, "more": len(errors) - 1}),
            f"band.{first.where}")
    players = tuple(zombie_players)
    if not players or any(not isinstance(p, str) or not p.strip() for p in players):
        raise bad("zombie_players", Message("campaign.expected.player_names"), list(players))
    unique(list(players), "zombie_players", "name")
    draw = draw_campaign(length, rng if rng is not None else random.Random(seed),
                         cards=cards, choose=choose)
    band = tuple(MemberState(member=m, pv=catalog.archetypes[m.archetype].wounds,
                             units=_full_units(m.equipment, catalog))
                 for m in roster.members)
    return Campaign(roster=roster, band=band, draw=draw, zombie_players=players,
                    settings=settings, seed=seed)


def choose_final(campaign: Campaign, scenario: str) -> Campaign:
    """The player who won the conclusive roll (1 or 6) names the last scenario (D21)."""
    draw = campaign.draw
    if not draw.choice_pending:
        raise CampaignError(Message("campaign.error.nothing_to_choose"), "draw.choice_pending")
    if scenario not in draw.options:
        raise bad("scenario", Message("campaign.expected.one_of", {
            "options": repr(list(draw.options))}), scenario)
    rolls = list(draw.rolls)
    if rolls and rolls[-1].table == "conclusive":
        rolls[-1] = dataclasses.replace(rolls[-1], scenario=scenario)
    new_draw = dataclasses.replace(draw, scenarios=(*draw.scenarios[:-1], scenario),
                                   choice_pending=False, rolls=tuple(rolls))
    return dataclasses.replace(campaign, draw=new_draw)


# =============================================================================================
# Reading a finished game


def result_from_game(game: Game, scenario_id: str,
                     zombie_players: Mapping[str, str] | None = None) -> GameResult:
    """The campaign's view of a finished game: every survivor of the band (contaminated ones,
    now zombies, as `contaminated`), the winner, and which zombie player controlled which
    zombie (`zombie_players`, zombie id -> player name; unmapped zombies are credited to the
    first zombie player, D37)."""
    if game.outcome is None:
        raise CampaignError(Message("campaign.error.game_not_over"), "game")
    if game.mode != "solo":
        raise CampaignError(Message("campaign.error.not_solo", {"mode": game.mode}),
                            "game.mode")
    winner = game.outcome.get("winner")
    if winner not in WINNERS:
        raise bad("game.outcome.winner", Message("campaign.expected.winner"), winner)
    figures: list[FigureResult] = []
    for fig in game.figures.values():
        if fig.side == "survivors":
            status = END_OF_GAME[fig.status]
        elif fig.side == "zombies" and fig.origin:
            status = "contaminated"
        else:
            continue
        contact = status == "down" and any(
            other.side == "survivors" and other.band == fig.band and other.standing
            and other.id != fig.id and game.in_contact(fig.id, other.id)
            for other in game.figures.values())
        figures.append(FigureResult(
            id=fig.id, status=status, pv=max(0, fig.pv) if status != "contaminated" else 0,
            items={} if status == "contaminated" else dict(fig.items),
            units={} if status == "contaminated" else dict(fig.units),
            downed_by=fig.downed_by, friend_in_contact=contact,
            used_once=_used_once(fig)))
    said = game.outcome.get("words") or game.outcome.get("reason_words")
    names = {f.downed_by: figure_name(game, f.downed_by) for f in figures if f.downed_by}
    return GameResult(scenario=scenario_id, winner=winner, figures=tuple(figures),
                      reason=str(game.outcome.get("reason", "")),
                      turn=int(game.outcome.get("turn", game.turn)),
                      zombie_players=dict(zombie_players or {}),
                      reason_words=dict(said) if isinstance(said, dict) else None,
                      names=names)


def _used_once(fig: Fig) -> tuple[str, ...]:
    """Once-per-game skills spent in the game: robuste's ignored wound and maline's free
    test count as spent (D14)."""
    used = {skill for skill, n in fig.used_game.items() if n}
    if fig.has("robuste") and fig.wounds_ignored:
        used.add("robuste")
    if fig.has("maline") and fig.panic_tests:
        used.add("maline")
    return tuple(sorted(used))


# =============================================================================================
# The players' choices between scenarios


@dataclass(frozen=True)
class Recruit:
    """A new member: its archetype and skill (and optionally sex and name)."""

    archetype: str
    skill: str
    sex: Literal["H", "F"] | None = None
    name: str | None = None


@dataclass(frozen=True)
class SkillOption:
    member: str
    skill: str


@dataclass(frozen=True)
class WeaponOption:
    member: str
    item: str


def _first_recruit(consequence: NewMember, options: Sequence[Recruit]) -> Recruit:
    return options[0]


def _first_holder(item: str, members: Sequence[str]) -> str | None:
    return members[0]


def _first_skill(options: Sequence[SkillOption]) -> SkillOption:
    return options[0]


def _first_wounded(members: Sequence[str]) -> str:
    return members[0]


def _first_weapon(options: Sequence[WeaponOption]) -> WeaponOption:
    return options[0]


@dataclass(frozen=True)
class Choices:
    """Every choice made between scenarios; each is asked with its options already in the
    default order, and the default takes the first (D37):

    - `new_member` (survivors player): the archetypes of the class in catalog (rulebook)
      order, each with its skills in profile order; default: the first archetype of the class
      with its first skill, sex left unset, named after the archetype.
    - `give_item` (survivors player): the living members with room for the item, in band
      order; default: the first. Returning None leaves the item behind.
    - `second_skill` (survivors player): every (living member without a second skill, other
      skill of its profile) pair, in band order; default: the first member, its first other
      skill. Asked once per member gaining a skill.
    - `lose_wounded` (zombie player, ties only): the equally most wounded members, the most
      costly first; default: the most costly.
    - `lose_weapon` (zombie player): every weapon of the band, the most valuable first
      (points, i.e. encumbrance; then "+N aux blessures"; then rarity, rarer first; then
      range or reach; then band order); default: the most valuable.
    """

    new_member: Callable[[NewMember, Sequence[Recruit]], Recruit] = _first_recruit
    give_item: Callable[[str, Sequence[str]], str | None] = _first_holder
    second_skill: Callable[[Sequence[SkillOption]], SkillOption] = _first_skill
    lose_wounded: Callable[[Sequence[str]], str] = _first_wounded
    lose_weapon: Callable[[Sequence[WeaponOption]], WeaponOption] = _first_weapon


# =============================================================================================
# Recording a scenario


def record_result(campaign: Campaign, result: GameResult | Mapping[str, Any],
                  dice: random.Random | Dice | None = None, *,
                  reroll: bool | Callable[[int, Consequence], bool] = False,
                  choices: Choices | None = None, seed: int | None = None,
                  cards: Mapping[str, Card] | None = None,
                  catalog: Catalog | None = None) -> Campaign:
    """The campaign after the scenario `result` (see D37 for the order of the steps).

    `dice` rolls the D8 rolls and the consequence roll (a `Dice` to type in the real table's
    dice); `reroll` says whether the survivors player asks the Prof's re-roll (a bool, or
    `reroll(first_face, its_consequence)`); `seed` is only recorded. Nothing is changed on
    error: the campaign is a value.
    """
    if campaign.finished:
        raise CampaignError(Message("campaign.error.over"), "next")
    if not isinstance(result, GameResult):
        result = GameResult.from_json(result)
    cards = cards or load_cards()
    catalog = catalog or load_catalog()
    expected = campaign.next_scenario
    last = campaign.next == len(campaign.draw.scenarios) - 1
    if result.scenario != expected:
        if last and campaign.draw.choice_pending and result.scenario in campaign.draw.options:
            campaign = choose_final(campaign, result.scenario)
        else:
            raise bad("result.scenario", Message("campaign.expected.next_scenario", {
                "scenario": repr(expected)}), result.scenario)
    for zombie, player in result.zombie_players.items():
        if player not in campaign.zombie_players:
            raise bad(f"result.zombie_players.{zombie}", Message("campaign.expected.player", {
                "players": repr(list(campaign.zombie_players))}), player)
    rolling = dice if isinstance(dice, Dice) else Dice(rng=dice or random.Random())
    card = cards[result.scenario]
    step = _Step(campaign, result, rolling, choices or Choices(), catalog, card)
    step.apply_figures()
    step.end_rolls()
    rewards = step.rewards(card)
    consequence = step.consequence_roll(card, reroll)
    if not campaign.settings.wounds_carry_over:
        step.heal_all()
    band = tuple(step.states)
    after = dataclasses.replace(campaign, band=band)
    played = Played(
        number=campaign.next + 1, scenario=result.scenario, winner=result.winner,
        reason=result.reason, fates=tuple(step.fates), rewards=rewards,
        consequence=consequence,
        band_cost=band_cost(after.current_roster(), catalog, campaign.settings),
        dice=tuple((r.purpose, v) for r, v in rolling.rolled), seed=seed,
        dice_words=tuple(r.words.to_json() if r.words is not None else None
                         for r, _ in rolling.rolled),
        notes=tuple(n.text("en") for n in step.notes), reason_words=result.reason_words,
        notes_words=tuple(n.to_json() for n in step.notes))
    return dataclasses.replace(after, next=campaign.next + 1,
                               history=(*campaign.history, played), first_aid=())


class _Step:
    """The band being changed by one scenario's aftermath."""

    def __init__(self, campaign: Campaign, result: GameResult, dice: Dice, choices: Choices,
                 catalog: Catalog, card: Card | None = None) -> None:
        self.campaign = campaign
        self.result = result
        self.dice = dice
        self.choices = choices
        self.catalog = catalog
        self.card = card
        self.settings = campaign.settings
        self.number = campaign.next + 1
        self.states = list(campaign.band)
        self.fates: list[Fate] = []
        self.notes: list[Message] = []

    # --- members --------------------------------------------------------------------------

    def index(self, member_id: str) -> int:
        return next(i for i, s in enumerate(self.states) if s.id == member_id)

    def get(self, member_id: str) -> MemberState:
        return self.states[self.index(member_id)]

    def put(self, state: MemberState) -> None:
        self.states[self.index(state.id)] = state

    def alive(self) -> list[MemberState]:
        return [s for s in self.states if s.alive]

    def wounds(self, state: MemberState) -> int:
        return self.catalog.archetypes[state.member.archetype].wounds

    def name(self, state: MemberState | str) -> Name:
        """What a person calls a member of the band (`rules.warband.member_name`)."""
        state = self.get(state) if isinstance(state, str) else state
        return member_name(state.member, [s.member for s in self.states], self.catalog)

    def killer(self, figure_id: str) -> Name:
        """Who put a member down: a zombie as the game named it, a member of the band."""
        if figure_id in self.result.names:
            return dict(self.result.names[figure_id])
        if any(s.id == figure_id for s in self.states):
            return self.name(figure_id)
        number = number_of(figure_id) or "?"
        return {"fr": f"n° {number}", "en": f"no. {number}"}

    def leave(self, state: MemberState, status: MemberStatus, cause: Message,
              inflicted_by: str | None) -> MemberState:
        """The member leaves the band; what it carried is lost with it."""
        member = dataclasses.replace(state.member, equipment={})
        gone = dataclasses.replace(state, member=member, status=status, pv=0, units={},
                                   left=self.number, cause=cause.text("en"),
                                   cause_words=cause.to_json(), inflicted_by=inflicted_by)
        self.put(gone)
        return gone

    def credit(self, zombie: str) -> str | None:
        """The zombie player credited with a loss by figure `zombie` (D24, D37)."""
        seen: set[str] = set()
        while zombie and zombie not in seen:
            seen.add(zombie)
            if zombie in self.result.zombie_players:
                return self.result.zombie_players[zombie]
            fig = self.result.figure(zombie)
            if fig is None:
                return self.campaign.zombie_players[0]
            if fig.status != "contaminated":
                return None  # a survivor's doing (friendly fire, a rival band)
            zombie = fig.downed_by  # a contaminated survivor: its contaminator's player
        return None

    # --- the game's end -------------------------------------------------------------------

    def apply_figures(self) -> None:
        """Statuses, PV, equipment and spent skills from the game; the dead and the
        contaminated leave the band."""
        alive_ids = {s.id for s in self.alive()}
        if not any(f.id in alive_ids for f in self.result.figures):
            raise CampaignError(Message("campaign.error.no_member_in_game", {
                "members": [self.name(s) for s in self.alive()]}), "result.figures")
        for other in self.result.figures:
            if other.id not in alive_ids:
                self.notes.append(Message("campaign.note.not_a_member",
                                          {"n": number_of(other.id) or "?"}))
        for state in self.alive():
            fig = self.result.figure(state.id)
            if fig is None or fig.status == "absent":
                self.fates.append(Fate(state.id, "absent", "alive", state.pv))
                continue
            before = dict(state.member.equipment)
            if fig.status in ("dead", "contaminated"):
                player = self.credit(fig.downed_by)
                by = {"by": self.killer(fig.downed_by)} if fig.downed_by else {}
                if fig.status == "dead":
                    cause = (Message("campaign.cause.killed_by", by) if by
                             else Message("campaign.cause.killed"))
                else:
                    cause = (Message("campaign.cause.contaminated_by", by) if by
                             else Message("campaign.cause.contaminated"))
                self.leave(state, fig.status, cause, player)
                self.fates.append(Fate(state.id, fig.status, fig.status, 0, lost=before,
                                       downed_by=fig.downed_by, inflicted_by=player))
                continue
            items = {i: n for i, n in fig.items.items() if i in self.catalog.equipment}
            for item in fig.items:
                if item not in self.catalog.equipment:
                    self.notes.append(Message("campaign.note.item_stays", {
                        "member": self.name(state),
                        "item": words.item(self.card, self.catalog, item)}))
            units = {i: n for i, n in fig.units.items() if i in items}
            items, units = self.normalise(items, units, full_missing=True)
            member = dataclasses.replace(state.member, equipment=items)
            used = state.used_once
            if self.settings.once_per_game_scope == "campaign":
                used = tuple(sorted({*used, *fig.used_once}))
            pv = min(fig.pv, self.wounds(state))
            carried: Recovery | None = None
            if fig.status in ("standing", "evacuated") and pv < 1:
                pv, carried = 1, "carried"  # carried off the table while down (D8)
            self.put(dataclasses.replace(state, member=member, units=units, pv=pv,
                                         used_once=used))
            self.fates.append(Fate(
                state.id, fig.status, "alive", pv, recovery=carried,
                found=_diff(items, before),
                lost=_diff(before, items), downed_by=fig.downed_by,
                inflicted_by=self.credit(fig.downed_by) if fig.status == "down" else None))

    def normalise(self, items: Mapping[str, int], units: Mapping[str, int],
                  full_missing: bool = False) -> tuple[Counts, Counts]:
        """Items whose uses are counted hold what is left: an item with no use left is gone,
        and no item holds more than its uses (D15, as the engine's `spend`)."""
        out_items, out_units = dict(items), {}
        for item_id, count in items.items():
            equipment = self.catalog.equipment[item_id]
            if equipment.kind not in UNIT_KINDS:
                continue
            per = equipment.units or 1
            left = units.get(item_id, per * count if full_missing else 0)
            left = min(left, per * count)
            if left <= 0:
                out_items.pop(item_id)
                continue
            out_items[item_id] = -(-left // per)
            out_units[item_id] = left
        return out_items, out_units

    def end_rolls(self) -> None:
        """D8: survivors still down at the end recover with 1 PV or die of their wounds."""
        mode = self.settings.down_at_end
        for i, fate in enumerate(self.fates):
            if fate.end_status != "down":
                continue
            state = self.get(fate.member)
            fig = self.result.figure(state.id)
            in_contact = fig is not None and fig.friend_in_contact
            roll = None
            recovery: Recovery
            if mode == "survive":
                recovers, recovery = True, "survive"
            elif mode == "die":
                recovers, recovery = False, "die"
            elif in_contact:
                recovers, recovery = True, "contact"
            else:
                roll = self.dice.roll(Roll(f"down at the end: {state.label()} recovers on "
                                           f"{RECOVER_ON}+ (D8)", state.id, words=Message(
                                               "campaign.roll.recover", {
                                                   "member": self.name(state), "n": RECOVER_ON})))
                recovers, recovery = roll >= RECOVER_ON, "roll"
            if recovers:
                self.put(dataclasses.replace(state, pv=1))
                self.fates[i] = dataclasses.replace(fate, pv=1, recovery=recovery, roll=roll,
                                                    inflicted_by=None)
                continue
            lost = dict(state.member.equipment)
            self.leave(state, "dead", Message("campaign.cause.down_at_end", {"die": roll})
                       if roll is not None else Message("campaign.cause.down_at_end.setting"),
                       fate.inflicted_by)
            self.fates[i] = dataclasses.replace(
                fate, status="dead", pv=0, recovery=recovery, roll=roll,
                lost=_merge(fate.lost, lost))

    def heal_all(self) -> None:
        """wounds_carry_over false: every member starts the next scenario at full PV."""
        for state in self.alive():
            self.put(dataclasses.replace(state, pv=self.wounds(state)))

    # --- rewards and consequences ---------------------------------------------------------

    def rewards(self, card: Card) -> tuple[Effect, ...]:
        winner = self.result.winner
        given = (card.rewards.survivors_win if winner == "survivors" else
                 card.rewards.zombies_win if winner == "zombies" else ())
        return tuple(self.apply(c, "reward") for c in given)

    def consequence_roll(self, card: Card,
                         reroll: bool | Callable[[int, Consequence], bool]) -> ConsequenceRoll:
        scenario = words.text(card.name)
        first = self.dice.roll(Roll(f"consequence of {card.id}", words=Message(
            "campaign.roll.consequence", {"scenario": scenario})))
        face, second, prof_id, asked = first, None, None, False
        prof = next((s for s in self.alive()
                     if PRAGMATIQUE in (s.member.skill, s.member.second_skill)), None)
        if prof is not None:
            asked = reroll(first, _face(card, first)) if callable(reroll) else bool(reroll)
            if asked:
                second = self.dice.roll(Roll(f"consequence of {card.id}, re-rolled "
                                             "(pragmatique)", prof.id, words=Message(
                                                 "campaign.roll.consequence_again", {
                                                     "scenario": scenario,
                                                     "member": self.name(prof)})))
                face, prof_id = second, prof.id
        elif reroll is True:
            asked = True
            self.notes.append(Message("campaign.note.no_reroll", {
                "skill": skill_name(self.catalog.skills[PRAGMATIQUE])}))
        effect = self.apply(_face(card, face), "consequence")
        return ConsequenceRoll(first=first, face=face, effect=effect, second=second,
                               prof=prof_id, reroll_asked=asked)

    def apply(self, c: Consequence, source: Source) -> Effect:
        body = c.to_json()
        if isinstance(c, NewMember):
            return self.new_member(c, source, body)
        if isinstance(c, GainEquipment):
            return self.gain(c, source, body)
        if isinstance(c, SecondSkill):
            return self.second_skill(c, source, body)
        if isinstance(c, LoseWounded):
            return self.lose_wounded(source, body)
        if isinstance(c, LoseWeapon):
            return self.lose_weapon(source, body)
        if isinstance(c, LoseItem):
            return self.lose_item(c, source, body)
        if isinstance(c, HealBand):
            return self.heal_band(c, source, body)
        if isinstance(c, Nothing):
            return Effect.said(c.type, source, Message("campaign.effect.nothing"), body)
        raise CampaignError(Message("campaign.error.unknown_consequence", {"type": c.type}),
                            "consequence")

    def new_member(self, c: NewMember, source: Source, body: dict[str, Any]) -> Effect:
        if len(self.alive()) >= MAX_FIGURES:
            return Effect.said(c.type, source, Message("campaign.effect.band_full",
                                                       {"n": MAX_FIGURES}), body)
        options = [Recruit(a.id, s) for a in self.catalog.archetypes.values()
                   if a.class_ == c.class_ and c.archetype in (None, a.id)
                   for s in _offered(a, self.settings)]
        pick = self.choices.new_member(c, options)
        if not any(o.archetype == pick.archetype and o.skill == pick.skill for o in options):
            raise bad("choices.new_member", Message("campaign.expected.recruit"), pick)
        archetype = self.catalog.archetypes[pick.archetype]
        taken = {s.id for s in self.states}
        number = next(n for n in range(len(taken) + 1, 10 * len(taken) + 10)
                      if f"m{n}" not in taken)
        member = Member(id=f"m{number}", archetype=archetype.id, sex=pick.sex,
                        name=pick.name or archetype.name, skill=pick.skill)
        self.states.append(MemberState(member=member, pv=archetype.wounds, starting=False,
                                       joined=self.number))
        return Effect.said(c.type, source, Message("campaign.effect.joins", {
            "member": self.name(member.id),
            "archetype": words.archetype(self.catalog, archetype.id),
            "skill": skill_name(self.catalog.skills[pick.skill])}), body, members=(member.id,))

    def gain(self, c: GainEquipment, source: Source, body: dict[str, Any]) -> Effect:
        equipment = self.catalog.equipment[c.item]
        given: list[str] = []
        left = 0
        for _ in range(c.count):
            held = sum(s.member.equipment.get(c.item, 0) for s in self.alive())
            rare = (self.settings.rarity_scope == "always" and equipment.rarity is not None
                    and held >= equipment.rarity)
            room = [] if rare else [s.id for s in self.alive() if self.has_room(s, c.item)]
            holder = self.choices.give_item(c.item, room) if room else None
            if holder is None:
                left += 1
                continue
            if holder not in room:
                raise bad("choices.give_item", Message("campaign.expected.one_of", {
                    "options": repr(room)}), holder)
            state = self.get(holder)
            items = dict(state.member.equipment)
            items[c.item] = items.get(c.item, 0) + 1
            units = dict(state.units)
            if equipment.kind in UNIT_KINDS:
                units[c.item] = units.get(c.item, 0) + (equipment.units or 1)
            self.put(dataclasses.replace(
                state, member=dataclasses.replace(state.member, equipment=items), units=units))
            given.append(holder)
        item = item_name(equipment)
        takers = [self.name(m) if given.count(m) == 1 else Message(
            "campaign.times", {"name": self.name(m), "n": given.count(m)})
            for m in dict.fromkeys(given)]
        if given and left:
            said = Message("campaign.effect.gain_some_left", {"item": item, "members": takers,
                                                              "n": left})
        elif given:
            said = Message("campaign.effect.gain", {"item": item, "members": takers})
        else:
            said = Message("campaign.effect.gain_none", {"item": item, "n": left})
        return Effect.said(c.type, source, said, body, members=tuple(given),
                           items={c.item: len(given)} if given else {})

    def has_room(self, state: MemberState, item: str) -> bool:
        items = dict(state.member.equipment)
        items[item] = items.get(item, 0) + 1
        load = cost_breakdown(dataclasses.replace(state.member, equipment=items),
                              self.catalog, self.settings)
        return load["carried"] <= load["capacity"]

    def second_skill(self, c: SecondSkill, source: Source, body: dict[str, Any]) -> Effect:
        gained: list[str] = []
        gains: list[Message] = []
        for _ in range(c.count):
            options = [SkillOption(s.id, skill) for s in self.alive()
                       if s.member.second_skill is None
                       for skill in _offered(self.catalog.archetypes[s.member.archetype],
                                             self.settings)
                       if skill != s.member.skill]
            if not options:
                break
            pick = self.choices.second_skill(options)
            if pick not in options:
                raise bad("choices.second_skill", Message("campaign.expected.skill"), pick)
            state = self.get(pick.member)
            self.put(dataclasses.replace(
                state, member=dataclasses.replace(state.member, second_skill=pick.skill)))
            gained.append(pick.member)
            gains.append(Message("campaign.effect.gains", {
                "member": self.name(state), "skill": skill_name(self.catalog.skills[pick.skill])}))
        said = (Message("campaign.effect.list", {"items": gains}) if gains
                else Message("campaign.effect.no_second_skill"))
        return Effect.said(c.type, source, said, body, members=tuple(gained))

    def lose_wounded(self, source: Source, body: dict[str, Any]) -> Effect:
        wounded = [s for s in self.alive() if s.pv < self.wounds(s)]
        if not wounded:
            return Effect.said("lose_wounded", source, Message("campaign.effect.nobody_wounded"),
                               body)

        def hurt(s: MemberState) -> tuple[int, int]:
            return (self.wounds(s) - s.pv, -s.pv)

        worst = max(hurt(s) for s in wounded)
        tied = [s for s in wounded if hurt(s) == worst]
        tied.sort(key=lambda s: -figure_cost(s.member, self.catalog, self.settings))
        options = [s.id for s in tied]
        pick = self.choices.lose_wounded(options) if len(options) > 1 else options[0]
        if pick not in options:
            raise bad("choices.lose_wounded", Message("campaign.expected.one_of", {
                "options": repr(options)}), pick)
        state = self.get(pick)
        self.leave(state, "lost", Message("campaign.cause.wounds"), None)
        return Effect.said("lose_wounded", source, Message("campaign.effect.dies_of_wounds", {
            "member": self.name(state), "pv": state.pv}), body, members=(pick,),
            items=dict(state.member.equipment))

    def lose_weapon(self, source: Source, body: dict[str, Any]) -> Effect:
        order = {s.id: i for i, s in enumerate(self.states)}
        weapons = [WeaponOption(s.id, item) for s in self.alive()
                   for item in s.member.equipment if self.catalog.equipment[item].is_weapon]
        if not weapons:
            return Effect.said("lose_weapon", source, Message("campaign.effect.no_weapon"), body)

        def value(option: WeaponOption) -> tuple[Any, ...]:
            e = self.catalog.equipment[option.item]
            return (-e.encumbrance, -e.roll_bonus, e.rarity if e.rarity is not None else 99,
                    -(e.range or e.reach or 0.0), order[option.member], option.item)

        weapons.sort(key=value)
        pick = self.choices.lose_weapon(weapons)
        if pick not in weapons:
            raise bad("choices.lose_weapon", Message("campaign.expected.weapon"), pick)
        self.remove(pick.member, pick.item, 1)
        return Effect.said("lose_weapon", source, Message("campaign.effect.loses", {
            "member": self.name(pick.member),
            "item": item_name(self.catalog.equipment[pick.item])}), body,
            members=(pick.member,), items={pick.item: 1})

    def lose_item(self, c: LoseItem, source: Source, body: dict[str, Any]) -> Effect:
        holders = [s for s in self.alive() if c.item in s.member.equipment]
        total = sum(s.member.equipment[c.item] for s in holders)
        for s in holders:
            self.remove(s.id, c.item, s.member.equipment[c.item])
        item = item_name(self.catalog.equipment[c.item])
        said = (Message("campaign.effect.items_lost", {"n": total, "item": item}) if total
                else Message("campaign.effect.no_item", {"item": item}))
        return Effect.said(c.type, source, said, body, members=tuple(s.id for s in holders),
                           items={c.item: total} if total else {})

    def remove(self, member_id: str, item: str, count: int) -> None:
        state = self.get(member_id)
        items = dict(state.member.equipment)
        items[item] -= count
        if items[item] <= 0:
            items.pop(item)
        units = dict(state.units)
        if item in units:
            per = self.catalog.equipment[item].units or 1
            units[item] = min(units[item], per * items.get(item, 0))
            if units[item] <= 0:
                units.pop(item)
        self.put(dataclasses.replace(
            state, member=dataclasses.replace(state.member, equipment=items), units=units))

    def heal_band(self, c: HealBand, source: Source, body: dict[str, Any]) -> Effect:
        healed = []
        for s in self.alive():
            pv = min(self.wounds(s), s.pv + c.pv)
            if pv > s.pv:
                self.put(dataclasses.replace(s, pv=pv))
                healed.append(s.id)
        said = (Message("campaign.effect.healed", {
            "members": [self.name(m) for m in healed], "pv": c.pv}) if healed
            else Message("campaign.effect.nobody_to_heal"))
        return Effect.said(c.type, source, said, body, members=tuple(healed))


def _face(card: Card, die: int) -> Consequence:
    for entry in card.consequences:
        if entry.covers(die):
            return entry.value
    raise CampaignError(Message("campaign.error.no_consequence", {
        "card": words.text(card.name), "die": die}), "consequences")


def _offered(archetype: Archetype, settings: Settings) -> tuple[str, ...]:
    """The profile's skills under the settings (D13: the printed Prof has only one)."""
    if settings.prof_skills == "printed":
        return tuple(s for s in archetype.skills if s not in PROF_ADDED_SKILLS)
    return archetype.skills


def _diff(after: Mapping[str, int], before: Mapping[str, int]) -> Counts:
    return {k: n - before.get(k, 0) for k, n in after.items() if n > before.get(k, 0)}


def _merge(a: Mapping[str, int], b: Mapping[str, int]) -> Counts:
    out = dict(a)
    for k, n in b.items():
        out[k] = out.get(k, 0) + n
    return out


def _full_units(items: Mapping[str, int], catalog: Catalog) -> Counts:
    out: Counts = {}
    for item_id, count in items.items():
        item = catalog.equipment.get(item_id)
        if item is not None and item.kind in UNIT_KINDS:
            out[item_id] = (item.units or 1) * count
    return out


# =============================================================================================
# Between scenarios: healing, the next scenario's figures and points, the end


def heal_between(campaign: Campaign, target: str, healer: str | None = None, *,
                 catalog: Catalog | None = None) -> Campaign:
    """D30: between scenarios, at no AP cost, `healer` (default: the target itself) gives
    `target` +2 PV: with *premiers soins*, once per target since the last scenario, without
    an item; otherwise one use of a healing item the healer carries."""
    catalog = catalog or load_catalog()
    healer = healer or target
    patient, doctor = campaign.member(target), campaign.member(healer)

    def name(state: MemberState) -> Name:
        return member_name(state.member, [s.member for s in campaign.band], catalog)

    for who, state in (("target", patient), ("healer", doctor)):
        if not state.alive:
            raise CampaignError(Message("campaign.error.not_alive", {
                "member": name(state), "status": _STATUS_WORDS.get(state.status, state.status)}),
                who)
    if healer == target and not campaign.settings.self_heal:
        raise CampaignError(Message("campaign.error.self_heal"), "healer")
    wounds = catalog.archetypes[patient.member.archetype].wounds
    if patient.pv >= wounds:
        raise CampaignError(Message("campaign.error.full_pv", {"member": name(patient),
                                                               "pv": wounds}), "target")
    skills = (doctor.member.skill, doctor.member.second_skill)
    if PREMIERS_SOINS in skills and target not in campaign.first_aid:
        healed = dataclasses.replace(patient, pv=min(wounds, patient.pv + 2))
        band = tuple(healed if s.id == target else s for s in campaign.band)
        return dataclasses.replace(campaign, band=band, first_aid=(*campaign.first_aid, target))
    kit = next((i for i, n in doctor.units.items()
                if n > 0 and catalog.equipment[i].kind == "healing"), None)
    if kit is None:
        raise CampaignError(Message("campaign.error.nothing_to_heal", {
            "member": name(doctor), "skill": skill_name(catalog.skills[PREMIERS_SOINS])}),
            "healer")
    bonus = catalog.equipment[kit].bonus or 2
    units = dict(doctor.units)
    units[kit] -= 1
    items = dict(doctor.member.equipment)
    per = catalog.equipment[kit].units or 1
    if units[kit] <= 0:
        units.pop(kit)
        items.pop(kit, None)
    else:
        items[kit] = -(-units[kit] // per)
    doctor = dataclasses.replace(doctor, units=units,
                                 member=dataclasses.replace(doctor.member, equipment=items))
    if healer == target:
        patient = doctor
    patient = dataclasses.replace(patient, pv=min(wounds, patient.pv + bonus))
    band = tuple(patient if s.id == target else doctor if s.id == healer else s
                 for s in campaign.band)
    return dataclasses.replace(campaign, band=band)


def apply_campaign_state(campaign: Campaign, figures: Iterable[Fig]) -> None:
    """Give figures made by `rules.figures.survivor_from_member` (before the game is built)
    what the campaign carries: PV (D30, unless `wounds_carry_over` is false), the uses left
    in their items, and with `once_per_game_scope` "campaign" the once-per-game skills
    already spent."""
    states = {s.id: s for s in campaign.alive_members()}
    for fig in figures:
        state = states.get(fig.id)
        if state is None:
            continue
        if campaign.settings.wounds_carry_over:
            fig.pv = min(fig.wounds, state.pv)
        fig.units = {**fig.units, **{i: n for i, n in state.units.items() if i in fig.items}}
        if campaign.settings.once_per_game_scope != "campaign":
            continue
        for skill in state.used_once:
            if skill == "robuste":
                fig.wounds_ignored = 1
            elif skill == "maline":
                fig.panic_tests = max(fig.panic_tests, 1)
            else:
                fig.used_game = fig.counted("used_game", skill, 1)


@dataclass(frozen=True)
class NextPoints:
    """The zombie points of the next scenario (D20, D24): from the band's cost now. `formula`
    says how, in English; `formula_words` as a message, in the reader's language."""

    scenario: str | None
    band_cost: int
    points: int
    split: Mapping[str, int]
    formula: str
    formula_words: Message | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"scenario": self.scenario, "band_cost": self.band_cost, "points": self.points,
               "split": dict(self.split), "formula": self.formula}
        if self.formula_words is not None:
            out["formula_words"] = self.formula_words.to_json()
        return out


def points_for_next(campaign: Campaign, cards: Mapping[str, Card] | None = None,
                    catalog: Catalog | None = None) -> NextPoints:
    """The band's remaining cost (living members, their equipment now) through the next
    card's formula, or the fixed `zombie_points` setting; split evenly between the zombie
    players, the remainder to the first (D24)."""
    catalog = catalog or load_catalog()
    cost = band_cost(campaign.current_roster(), catalog, campaign.settings)
    scenario = campaign.next_scenario
    fixed = campaign.settings.zombie_points
    said: Message
    if isinstance(fixed, int) and not isinstance(fixed, bool):
        points, formula = fixed, f"fixed by the setting zombie_points = {fixed}"
        said = Message("campaign.points.fixed", {"n": fixed})
    elif scenario is None:
        points, formula = 0, "the campaign is over"
        said = Message("campaign.points.over")
    else:
        spec = (cards or load_cards())[scenario].zombies.points
        points = spec.points(cost)
        base = "band cost" if spec.base == "band_cost" else str(spec.base)
        formula = f"floor({base} x {spec.factor:g})" + (f" + {spec.plus}" if spec.plus else "")
        said = Message("campaign.points.band_cost", {"factor": spec.factor, "cost": cost}) \
            if spec.base == "band_cost" else Message("campaign.points.base", {
                "factor": spec.factor, "base": spec.base})
        if spec.plus:
            said = Message("campaign.points.plus", {"formula": said, "plus": spec.plus})
        if campaign.next == len(campaign.draw.scenarios) - 1 and campaign.draw.choice_pending:
            formula += " (the last scenario is a placeholder until the player chooses)"
            said = Message("campaign.points.placeholder", {"formula": said})
    players = campaign.zombie_players
    share, extra = divmod(points, len(players))
    split = {p: share + (extra if i == 0 else 0) for i, p in enumerate(players)}
    return NextPoints(scenario, cost, points, split, formula, said)


@dataclass(frozen=True)
class CampaignOutcome:
    """Who wins the campaign (D22, D24). `counted` members are alive out of the `starting`
    band's size; `needed` is half of it, rounded up. `winner` is None until the campaign is
    over; `zombie_winners` are the zombie players with the most losses credited (all of them
    when tied)."""

    finished: bool
    winner: Literal["survivors", "zombies"] | None
    zombie_winners: tuple[str, ...]
    counted: int
    needed: int
    starting: int
    losses: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"finished": self.finished, "winner": self.winner,
                "zombie_winners": list(self.zombie_winners), "counted": self.counted,
                "needed": self.needed, "starting": self.starting, "losses": dict(self.losses)}


def campaign_outcome(campaign: Campaign) -> CampaignOutcome:
    starting = len(campaign.roster.members)
    if campaign.settings.victory_counts == "starting_members":
        counted = sum(1 for s in campaign.band if s.starting and s.alive)
    else:
        counted = len(campaign.alive_members())
    needed = -(-starting // 2)
    losses = campaign.losses()
    if not campaign.finished:
        return CampaignOutcome(False, None, (), counted, needed, starting, losses)
    if counted >= needed:
        return CampaignOutcome(True, "survivors", (), counted, needed, starting, losses)
    best = max(losses.values())
    winners = tuple(p for p in campaign.zombie_players if losses[p] == best)
    return CampaignOutcome(True, "zombies", winners, counted, needed, starting, losses)


def start_next(campaign: Campaign, seed: int, **options: Any) -> Game:
    """The campaign's next scenario ready to play: the living band, carrying its wounds,
    uses left and spent once-per-game skills (D30), against zombie points that follow the
    band's cost now. `options` go to `scenarios.play.start_scenario`."""
    from scenarios.play import start_scenario

    scenario = campaign.next_scenario
    if scenario is None:
        raise CampaignError(Message("campaign.error.no_next"), "next")
    return start_scenario(scenario, campaign.current_roster(), seed,
                          settings=campaign.settings,
                          prepare=lambda figures: apply_campaign_state(campaign, figures),
                          **options)

