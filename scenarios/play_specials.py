"""The card's own actions (`Special`), offered and refereed by `scenarios.play`.

- `escort` (rule `escorted`): a survivor in base contact with a civilian of the group takes it
  along as its move, 1 AP: the survivor moves up to the lower M of the two toward `marker`
  (an exit, a zone or a figure) and the civilian is placed in base contact behind it.
- `exit_with` (an exit): a survivor whose base touches the exit leaves the table with a
  civilian of an escorted group or a down friend in base contact, 1 AP: both are evacuated.
- `treat` (rule `treat`): care for one of the group in base contact, the rule's AP, using one
  use of a listed item carried (the card's own items first, then healing items).
- `deliver` (a `carry` condition): 1 AP, the carrier's base centre in the condition's `to`
  zone: one item it carries is delivered (taken off the figure and counted).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from geometry.units import CONTACT_INCHES
from i18n import Message
from rules.actions import Action, Move, Special
from rules.attacks import spend
from rules.errors import IllegalActionError
from rules.movement import do_move, place_carried, plan_move
from scenarios import words
from scenarios.objectives import Carry
from scenarios.play_conditions import carry_key, in_zone
from scenarios.setup import exit_segment
from scenarios.special_rules import Escorted, Treat

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState
    from scenarios.play import ScenarioReferee

__all__ = ["RULES", "actions", "cost", "check", "carry_out", "exit_point", "touches_exit",
           "toward", "destination"]

RULES = ("escort", "exit_with", "treat", "deliver")
CONTACT = CONTACT_INCHES
INSIDE = 0.01  # a base aimed at an edge stops this far inside it: in contact with the edge
EXIT_SPOTS = 64  # spots tried along an exit stretch

Point = tuple[float, float]


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


def _name(game: GameState, fig: Fig) -> words.Words:
    return words.figure(game, fig.id)


def _radius(fig: Fig) -> float:
    return fig.radius


def _segment(game: GameState, ref: ScenarioReferee, exit_id: str) -> tuple[Point, Point]:
    e = ref.card.exit(exit_id)
    a, b = exit_segment(e.edge, e.from_, e.to, game.table.width, game.table.depth)
    return (a[0], a[1]), (b[0], b[1])


def _to_segment(p: Point, a: Point, b: Point) -> tuple[float, Point]:
    """Distance from p to segment ab, and the nearest point of the segment."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                             / length2))
    q = (ax + t * dx, ay + t * dy)
    return math.dist(p, q), q


def touches_exit(game: GameState, ref: ScenarioReferee, fig: Fig, exit_id: str) -> bool:
    """The figure's base touches the exit's stretch of table edge."""
    gap, _ = _to_segment(fig.centre, *_segment(game, ref, exit_id))
    return gap - _radius(fig) <= CONTACT + 1e-9


def exit_point(game: GameState, ref: ScenarioReferee, fig: Fig, exit_id: str) -> Point:
    """Where `fig`'s base centre goes to touch the exit: on its stretch, the whole base on the
    table, the spot nearest the figure that it can reach round the terrain."""
    e = ref.card.exit(exit_id)
    (ax, ay), (bx, by) = _segment(game, ref, exit_id)
    r = _radius(fig)
    w, d = game.table.width, game.table.depth
    if e.edge in ("near", "far"):
        lo, hi = max(min(ax, bx), r), min(max(ax, bx), w - r)
        y = r + INSIDE if e.edge == "near" else d - r - INSIDE
        spots = [(lo + (hi - lo) * k / EXIT_SPOTS, y) for k in range(EXIT_SPOTS + 1)]
        nearest = (min(max(fig.x, lo), hi), y)
    else:
        lo, hi = max(min(ay, by), r), min(max(ay, by), d - r)
        x = r + INSIDE if e.edge == "left" else w - r - INSIDE
        spots = [(x, lo + (hi - lo) * k / EXIT_SPOTS) for k in range(EXIT_SPOTS + 1)]
        nearest = (x, min(max(fig.y, lo), hi))
    space = game.space()
    for p in sorted([nearest, *spots], key=lambda p: math.dist(p, fig.centre)):
        if space.same_region(r, fig.centre, [p]):
            return p
    return nearest


# --- what may be escorted, treated, delivered --------------------------------------------


def _escorted_groups(ref: ScenarioReferee) -> set[str]:
    return {r.civilians for r in ref.card.special_rules if isinstance(r, Escorted)}


def _group_of(ref: ScenarioReferee, fig_id: str) -> str | None:
    for group, ids in ref.state["civilians"].items():
        if fig_id in ids:
            return str(group)
    return None


def _escortable(game: GameState, ref: ScenarioReferee, fig: Fig, target: Fig) -> bool:
    return (target.side == "civilians" and target.standing
            and _group_of(ref, target.id) in _escorted_groups(ref)
            and game.in_contact(fig.id, target.id))


def _treat_rule(ref: ScenarioReferee, target: Fig) -> Treat | None:
    group = _group_of(ref, target.id)
    return next((r for r in ref.card.special_rules
                 if isinstance(r, Treat) and r.civilians == group), None)


def _treat_item(fig: Fig, rule: Treat) -> str | None:
    for item in (*rule.items, *rule.equipment):
        if fig.units.get(item, 0) > 0 or (fig.items.get(item, 0) > 0 and item not in fig.units):
            return item
    return None


def _carry_conditions(ref: ScenarioReferee) -> list[Carry]:
    objectives = ref.card.objectives
    every = (*objectives.survivors.conditions, *objectives.zombies.conditions,
             *objectives.ends_when)
    return [c for c in every if isinstance(c, Carry)]


def _delivery(game: GameState, ref: ScenarioReferee, fig: Fig) -> Carry | None:
    for cond in _carry_conditions(ref):
        if fig.items.get(cond.item, 0) > 0 and in_zone(ref.card, cond.to, fig):
            return cond
    return None


def destination(game: GameState, ref: ScenarioReferee, fig: Fig,
                where: str | None) -> Point | str:
    """Where a figure is led (an escort, a module's lead): an exit's point, a zone's, or a
    figure of the game; refused when the card knows no such place."""
    if where is None:
        raise _fail(Message("scenario.refusal.escort_where"), "action.marker")
    if where in {e.id for e in ref.card.exits}:
        return exit_point(game, ref, fig, where)
    if where in {z.id for z in ref.card.zones}:
        from shapely.geometry import Polygon

        c = Polygon(ref.card.zone(where).polygon).representative_point()
        return (float(c.x), float(c.y))
    other = game.figures.get(where)
    if other is not None and other.on_table:
        return other.id  # into base contact with it
    raise _fail(Message("scenario.refusal.no_destination", {"marker": where}), "action.marker")


# --- the hooks ---------------------------------------------------------------------------


def actions(game: GameState, ref: ScenarioReferee, fig: Fig) -> list[Action]:
    """The card's actions open to a standing survivor now (checked afterwards by the game)."""
    if fig.side != "survivors" or not fig.standing:
        return []
    out: list[Action] = []
    exits = ref.card.exits
    for other in game.figures.values():
        if other.id == fig.id or not other.on_table:
            continue
        if other.side == "civilians" and game.in_contact(fig.id, other.id):
            if _escortable(game, ref, fig, other):
                out += [Special(fig.id, "escort", target=other.id, marker=e.id)
                        for e in exits if "civilians" in e.who]
                out += [Special(fig.id, "exit_with", target=other.id, marker=e.id)
                        for e in exits if "civilians" in e.who
                        and touches_exit(game, ref, fig, e.id)]
            rule = _treat_rule(ref, other)
            if rule is not None and other.id not in ref.state["treated"]:
                out.append(Special(fig.id, "treat", target=other.id))
        elif (other.side == "survivors" and other.band == fig.band and other.status == "down"
              and game.in_contact(fig.id, other.id)):
            out += [Special(fig.id, "exit_with", target=other.id, marker=e.id)
                    for e in exits if "survivors" in e.who
                    and touches_exit(game, ref, fig, e.id)]
    if _delivery(game, ref, fig) is not None:
        out.append(Special(fig.id, "deliver"))
    return out


def cost(game: GameState, ref: ScenarioReferee, act: Special) -> int:
    if act.rule == "treat" and act.target in game.figures:
        rule = _treat_rule(ref, game.figures[act.target])
        if rule is not None:
            return rule.ap
    return 1


def check(game: GameState, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    if act.rule not in RULES:
        raise _fail(Message("scenario.refusal.no_action", {"rule": act.rule,
                                                           "known": list(RULES)}),
                    "action.rule")
    if fig.side != "survivors" or not fig.standing:
        raise _fail(Message("scenario.refusal.not_standing_survivor",
                            {"figure": _name(game, fig)}), "action.figure")
    if act.rule == "deliver":
        if _delivery(game, ref, fig) is None:
            zones = sorted({c.to for c in _carry_conditions(ref)})
            raise _fail(Message("scenario.refusal.deliver", {
                "figure": _name(game, fig),
                "zones": [words.quoted(words.zone(ref.card, z)) for z in zones]}),
                "action.rule")
        return
    target = game.figures.get(act.target or "")
    if target is None or not target.on_table:
        raise _fail(Message("scenario.refusal.no_target", {"target": act.target}),
                    "action.target")
    if not game.in_contact(fig.id, target.id):
        raise _fail(Message("scenario.refusal.not_in_contact", {
            "target": _name(game, target), "figure": _name(game, fig)}), "action.target")
    if act.rule == "escort":
        if not _escortable(game, ref, fig, target):
            raise _fail(Message("scenario.refusal.not_escortable",
                                {"target": _name(game, target)}), "action.target")
        point = destination(game, ref, fig, act.marker)
        plan_move(game, fig, None, point, min(fig.move, target.move), ignore=(target.id,))
    elif act.rule == "exit_with":
        exit_id = act.marker or ""
        if exit_id not in {e.id for e in ref.card.exits}:
            raise _fail(Message("scenario.refusal.no_exit", {"exit": act.marker}),
                        "action.marker")
        who = "civilians" if target.side == "civilians" else "survivors"
        if who == "civilians" and not _escortable(game, ref, fig, target):
            raise _fail(Message("scenario.refusal.cannot_lead_out",
                                {"target": _name(game, target)}), "action.target")
        if who == "survivors" and not (target.band == fig.band and target.status == "down"):
            raise _fail(Message("scenario.refusal.not_down_friend",
                                {"target": _name(game, target)}), "action.target")
        if who not in ref.card.exit(exit_id).who:
            raise _fail(Message("scenario.refusal.exit_closed", {
                "who": words.who(who), "exit": words.exit_(ref.card, exit_id)}),
                "action.marker")
        if not touches_exit(game, ref, fig, exit_id):
            raise _fail(Message("scenario.refusal.touch_exit", {
                "figure": _name(game, fig), "exit": words.exit_(ref.card, exit_id)}),
                "action.marker")
    elif act.rule == "treat":
        rule = _treat_rule(ref, target)
        if rule is None or target.side != "civilians":
            raise _fail(Message("scenario.refusal.no_care_needed",
                                {"target": _name(game, target)}), "action.target")
        if target.id in ref.state["treated"]:
            raise _fail(Message("scenario.refusal.already_cared",
                                {"target": _name(game, target)}), "action.target")
        if _treat_item(fig, rule) is None:
            using = [words.item(ref.card, game.catalog, i)
                     for i in (*rule.items, *rule.equipment)]
            raise _fail(Message("scenario.refusal.nothing_to_care", {
                "figure": _name(game, fig), "items": using}), "action.target")


def carry_out(game: GameState, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    state: dict[str, Any] = ref.state
    if act.rule == "deliver":
        cond = _delivery(game, ref, fig)
        assert cond is not None
        _take_off(game, fig, cond.item)
        key = carry_key(cond.item, cond.to)
        state["delivered"][key] = int(state["delivered"].get(key, 0)) + 1
        game.note(Message("scenario.delivers", {
            "figure": _name(game, fig), "item": words.item(ref.card, game.catalog, cond.item),
            "zone": words.zone(ref.card, cond.to), "n": state["delivered"][key],
            "of": cond.count}))
        return
    target = game.figures[act.target or ""]
    if act.rule == "escort":
        start = fig.centre
        point = destination(game, ref, fig, act.marker)
        game.note(Message("scenario.leads", {
            "figure": _name(game, fig), "target": _name(game, target),
            "toward": toward(game, ref, act.marker)}))
        moved = do_move(game, fig, Move(fig.id, toward=point), min(fig.move, target.move),
                        ignore=(target.id,))
        if moved and fig.centre != start:
            place_carried(game, fig, target, start)
    elif act.rule == "exit_with":
        for who in (target, fig):
            who.status = "evacuated"
            who.exit = act.marker or ""
        game.moved()
        game.note(Message("scenario.leaves_with", {
            "figure": _name(game, fig), "target": _name(game, target),
            "exit": words.exit_(ref.card, act.marker or "")}))
    elif act.rule == "treat":
        rule = _treat_rule(ref, target)
        assert rule is not None
        item = _treat_item(fig, rule)
        assert item is not None
        if item in fig.units:
            spend(game, fig, item)
        else:
            _take_off(game, fig, item)
        state["treated"].append(target.id)
        game.note(Message("scenario.gives_care", {
            "figure": _name(game, fig), "target": _name(game, target),
            "item": words.item(ref.card, game.catalog, item), "n": len(state["treated"])}))


def toward(game: GameState, ref: ScenarioReferee, where: str | None) -> words.Words:
    """Where a figure is led, as a person says it: an exit, a zone, a figure, a point."""
    if where in {e.id for e in ref.card.exits}:
        return words.quoted(words.exit_(ref.card, where or ""))
    if where in {z.id for z in ref.card.zones}:
        return words.quoted(words.zone(ref.card, where or ""))
    if where in game.figures:
        return words.figure(game, where or "")
    return Message("scenario.place.there")


def _take_off(game: GameState, fig: Fig, item: str) -> None:
    """One whole item (with its uses) leaves the figure."""
    per_item = game.catalog.equipment[item].units or 1
    items, units = dict(fig.items), dict(fig.units)
    items[item] -= 1
    if item in units:
        units[item] = max(units[item] - per_item, 0)
    if items[item] <= 0:
        items.pop(item)
        units.pop(item, None)
    elif units.get(item) == 0:
        units.pop(item)
    fig.items, fig.units = items, units
