"""The zombie players: `random`, `greedy` and the `tactician` (easy, normal, hard).

- random: any legal action, uniformly.
- greedy: the activatable zombie nearest a human goes for its nearest human: it attacks with
  every die when in contact, contaminates when offered, otherwise walks toward; it reacts
  when offered.
- tactician: scores every legal action with the exact odds of the attack dice
  (`rules.combat.odds` on `rules.attacks.attack_spec`): the chance to put the target down
  with the AP spent, keeping one AP to contaminate; which survivor is worth it (wounded, low
  D, alone, a hero, a civilian the survivors' objective needs); the card's clock (a
  survivor near its objective is a runner; pinning one is written but off); the card's
  places to guard (`ai.guard`: a landing zone, a square to hold; a narrow exit is written
  but off), with the last AP kept for the end of the turn where the zone is judged then,
  and a lone zombie waiting just outside such a zone while the survivors can still shoot
  it; moves that bring a zombie into contact now or next
  time, gangs on a target already engaged, and never walks a zombie out of a melee.
  Cover from shooters (`ai.cover`: stop out of every loaded shooter's reach instead of at
  the end of an exposed walk) is written but off (`Tactician.COVER`): it lost games on the
  route cards, where a zombie shot at costs the survivors an AP they would have walked with.
  `hard` then plays its best few candidates on clones of the game over sampled dice and
  scores the results; `easy` plays a random legal action one time in three.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from typing import TYPE_CHECKING

import shapely
import shapely.ops
from shapely.geometry import Point

from ai.cover import covered_spot, exposed, shooters
from ai.features import goal_target
from ai.guard import Guard, guard_spot, guards
from ai.policy import Choice, action_message, explained, legal_now, level_error, register, who
from geometry.units import CONTACT_INCHES
from i18n import Message, Name
from rules import legal
from rules.actions import (
    Action,
    Contaminate,
    Decline,
    EndActivations,
    Melee,
    Move,
    Pass,
    actor,
)
from rules.activity import activatable, nearest_human
from rules.attacks import attack_spec, defence_of, finished_off
from rules.combat import AttackDie, odds
from rules.errors import IllegalActionError
from rules.movement import plan_move

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["IdleZombies", "RandomZombies", "GreedyZombies", "Tactician", "unsaved_chance",
           "down_chance", "canonical",
           "window_default"]

CONTACT = CONTACT_INCHES
ALONE = 5.0
Why = tuple[Message, ...]  # an action's reasons, said one after the other


@functools.lru_cache(maxsize=4096)
def _unsaved(die: AttackDie) -> float:
    return float(odds(die)["unsaved"])


def unsaved_chance(game: Game, attacker: Fig, target: Fig, mode: str = "melee",
                   weapon: str | None = None) -> float:
    """Exact chance that one attack die wounds the target (hit and not saved)."""
    spec = attack_spec(game, attacker, target, "shoot" if mode == "shoot" else "melee", weapon)
    return _unsaved(dataclasses.replace(spec, attacker="", target=""))


def down_chance(p: float, dice: int, need: int) -> float:
    """P(at least `need` successes in `dice` tries of chance `p`)."""
    if need <= 0:
        return 1.0
    if need > dice:
        return 0.0
    return sum(math.comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(need, dice + 1))


def _humans(game: Game) -> list[Fig]:
    return [f for f in game.figures.values() if f.is_human and f.on_table]


def _nearest_human(game: Game, z: Fig) -> tuple[float, Fig] | None:
    """The human nearest the zombie and its distance (the first such in the figures'
    order): the arbitration's own answer, measured once for every zombie of the state."""
    near = nearest_human(game, z)
    return None if near is None else (near[1], game.figures[near[0]])


def window_default(game: Game, offered: list[Action]) -> Choice:
    """A window that is not a reaction: take a contamination, else let it pass."""
    for act in offered:
        if isinstance(act, Contaminate):
            return explained(act, _bite(game, act))
    decline = next((a for a in offered if isinstance(a, Decline)), offered[0])
    return explained(decline, action_message(game, decline))


def _bite(game: Game, act: Action) -> Message:
    return Message("ai.why.bite", {"action": action_message(game, act)})


class IdleZombies:
    """Never acts: declines every window, ends its activations, passes. Not an opponent but
    a baseline for studies: a card's zombie win rate against idle zombies shows how much
    of its result the zombies' play decides at all (docs/ai.md, Matchups)."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        pass

    def choose(self, game: Game) -> Choice:
        offered = legal_now(game)
        for kind in (Decline, EndActivations, Pass):
            act = next((a for a in offered if isinstance(a, kind)), None)
            if act is not None:
                return explained(act, _idle(game, act))
        held = next((a for a in offered if legal.is_hold(game, a)), None)
        if held is not None:  # R1: the AP must be spent, so they are spent standing still
            return explained(held, _idle(game, held))
        return explained(offered[0], Message("ai.why.only", {
            "action": action_message(game, offered[0])}))


def _idle(game: Game, act: Action) -> Message:
    return Message("ai.why.idle", {"action": action_message(game, act)})


def random_choice(game: Game, act: Action) -> Choice:
    """An action picked at random, saying so."""
    return explained(act, Message("ai.why.random", {"action": action_message(game, act)}))


class RandomZombies:
    """Any legal action, uniformly."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, game: Game) -> Choice:
        act = self.rng.choice(legal_now(game))
        return random_choice(game, act)


class GreedyZombies:
    """The zombie nearest a human goes for that human; see the module docstring."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, game: Game) -> Choice:
        if game.pending and game.pending[0].kind != "reaction":
            return window_default(game, legal_now(game))
        # each zombie's own actions, asked nearest-to-a-human first (no one else's listed)
        ranked = []
        for z in activatable(game, "zombies"):
            near = _nearest_human(game, z)
            if near is not None:
                ranked.append((near[0], z.id, near[1]))
        for _d, fid, h in sorted(ranked, key=lambda r: (r[0], r[1])):
            acts = legal.actions_of(game, game.figures[fid])
            melees = [a for a in acts if isinstance(a, Melee)]
            if melees:
                standing = [a for a in melees if game.figures[a.target].standing] or melees
                best = max(standing, key=lambda a: (a.ap, a.target == h.id))
                return explained(best, Message("ai.why.every_die", {
                    "action": action_message(game, best)}))
            moves = [a for a in acts if isinstance(a, Move) and a.toward == h.id]
            if moves:
                return explained(moves[0], Message("ai.why.nearest", {
                    "action": action_message(game, moves[0])}))
        offered = legal_now(game)
        rest = [a for a in offered if isinstance(a, Decline | Pass | EndActivations)
                or legal.is_hold(game, a)]
        act = rest[0] if rest else offered[0]
        return explained(act, Message("ai.why.out_of_reach", {
            "action": action_message(game, act)}))


@dataclasses.dataclass(frozen=True)
class _Near:
    """A human as the moves toward it see it: worth (and why), the zombies that can reach
    contact this activation, those in contact, the card's clock on it."""

    value: tuple[float, Why]
    reachers: tuple[str, ...]
    touching: tuple[str, ...]
    urgent: float


class Tactician:
    """Exact odds, target choice, AP economy and (hard) a look-ahead over dice."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        level = level or "normal"
        if level not in ("easy", "normal"):
            raise level_error("heuristic", level, ["easy", "normal"])
        self.level = level
        self.rng = rng or random.Random(0)
        self._goals: dict[tuple[int, str], float | None] = {}
        self._goals_game: object = None
        self._near_game: object = None
        self._near_key: object = None
        self._needed_game: object = None
        self._needed_key: object = None
        self._needed_ids: frozenset[str] = frozenset()
        self._near_cache: dict[str, _Near] = {}
        self._nearest_cache: dict[str, tuple[float, Fig] | None] = {}
        # worth of a survivor near its objective, per inch closer than 12 in (in `value`):
        # off, because at 1.0 it lowered the casualties and the win rate on escorte
        self.objective = 0.0

    # the card's clock: a survivor this close to its objective (inches) is a runner, and a
    # zombie reaching contact with it scores URGENCY per inch closer; a runner no zombie
    # touches yet is worth PIN more to engage (it must fight it off before going on):
    # off, because on escorte (60 paired seeds) pins at 6 with URGENCY 0.5 cut the survivor
    # casualties from 0.17 to 0.08 for no clear gain in wins (the pinning zombies die to
    # the survivors' answer before they strike; docs/ai.md, Matchups)
    RUNNER = 20.0
    URGENCY = 0.2
    PIN = 0.0
    SPREAD = 3.0
    # a zombie on a place the card lets it guard (ai.guard) does not walk off it while the
    # place has no zombie to spare (GUARD points off such a move), and free zombies walk
    # onto it while it is short
    GUARD = 30.0
    RESERVE = 2
    # a zone judged at the end of the turn: stepped on during the survivors' turn only when
    # at least HOLDERS zombies can be on it; otherwise a zombie waits STAGE in outside
    HOLDERS = 2
    STAGE = 2.0
    # a walk that ends short of contact where a survivor could shoot the zombie stops in
    # cover instead when a covered spot keeps half the progress (`ai.cover`): off, because
    # on the route cards it lost games (100 paired seeds: evacuation 77% to 73%, convoi 69%
    # to 63%, escorte 72% to 65%) and changed nothing on nuit, nettoyage and helico; a
    # zombie shot at costs the survivors an AP they would have walked with (docs/ai.md)
    COVER = False
    # narrow exits (the refuge's camp gate) guarded too: off, because on refuge (400 paired
    # seeds) the zombies sent to hold the gate cost games: 83% with them against 85% without
    # (greedy 86%; docs/ai.md, Matchups)
    GATES = False

    # --- deciding -----------------------------------------------------------------------

    def choose(self, game: Game) -> Choice:
        offered = legal_now(game)
        if game.pending and game.pending[0].kind != "reaction":
            return window_default(game, offered)
        if self.level == "easy" and self.rng.random() < 1 / 3:
            act = self.rng.choice(sorted(offered, key=lambda a: canonical(game, a)))
            return explained(act, Message("ai.why.whim", {"action": action_message(game, act)}))
        scored = self.ranked(game, offered)
        while len(scored) > 1 and not self._listed(game, scored[0][2], offered):
            scored.pop(0)  # a guard move the rules refuse (no way there): the next best
        best, _, act, why = scored[0]
        wait = self._wait(game, offered, best)
        if wait is not None:
            return wait
        if game.pending and best < 10:  # a reaction costs an AP the activations need
            decline = next(a for a in offered if isinstance(a, Decline))
            return explained(decline, Message("ai.why.reaction_not_worth"))
        covered = self._in_cover(game, act, why)
        if covered is not None:
            return covered
        return explained(act, *_checked_contact(game, act, why))

    def ranked(self, game: Game, offered: list[Action]) -> list[tuple[float, int, Action, Why]]:
        """Every offered action (and the guard moves) with its score and why, best first;
        ties go by `canonical`, so the order the figures are listed in decides nothing. The
        second item is the rank."""
        scored = [(s, a, why) for a in offered for s, why in [self.score(game, a)]]
        if not game.pending and self.GUARD:
            scored += self._guard_moves(game, offered)
        scored.sort(key=lambda t: (-t[0], canonical(game, t[1])))
        return [(s, i, a, why) for i, (s, a, why) in enumerate(scored)]

    def _in_cover(self, game: Game, act: Action, why: Why) -> Choice | None:
        """A walk toward a human that ends short of contact where a survivor could shoot
        the zombie (`ai.cover`): stop at a covered spot instead, if one keeps at least half
        the progress. None: the walk stands as chosen."""
        if not (self.COVER and isinstance(act, Move) and isinstance(act.toward, str)):
            return None
        z, h = game.figures[act.figure], game.figures[act.toward]
        d = game.distance(z.id, h.id)
        if d <= z.move + CONTACT or not h.is_human:
            return None  # a charge into contact goes on: it strikes next
        who_shoots = shooters(game)
        if not who_shoots:
            return None
        try:
            end, _ = plan_move(game, z, None, h.id, z.move)
        except IllegalActionError:
            return None
        hit = exposed(game, z, [end], who_shoots)[0]
        if not hit:
            return None
        found = covered_spot(game, z, h, end, who_shoots)
        if found is None:
            return None
        spot, gap = found
        move = Move(z.id, to=spot)
        if not self._listed(game, move, []):
            return None
        text = Message("ai.why.cover", {"zombie": who(game, z.id), "target": who(game, h.id),
                                        "d": round(d, 1), "gap": round(gap, 1),
                                        "shooters": [who(game, i) for i in hit]})
        return explained(move, text, *why[1:])

    def _wait(self, game: Game, offered: list[Action], best: float) -> Choice | None:
        """Keep the last RESERVE AP for after the survivors' last activation, on a card
        whose guarded zone is judged at the end of the turn (a landing zone, a square to
        hold): a zombie then steps back onto it with no survivor left to answer."""
        if game.pending or not self.RESERVE or best >= 90:
            return None
        pool, theirs = game.pools.get("zombies", 0), game.pools.get("survivors", 0)
        if pool > self.RESERVE or theirs <= 0:
            return None
        zones = [g for g in guards(game) if g.end_of_turn]
        if not zones or any(g.count(game) == 0 for g in zones):
            # an empty zone is not waited on: if the survivors pass too, the turn ends
            # (D16) and the helicopter lands with the zombies' AP unspent
            return None
        wait = next((a for a in offered if isinstance(a, Pass)), None)
        if wait is None:
            return None
        return explained(wait, Message("ai.why.keep_ap", {"ap": pool, "theirs": theirs,
                                                          "place": zones[0].name}))

    @staticmethod
    def _listed(game: Game, act: Action, offered: list[Action]) -> bool:
        """Offered by the engine, or (a move to a point) accepted by the rules."""
        if not isinstance(act, Move) or isinstance(act.toward, str):
            return True
        return legal.is_legal(game, act)

    def _places(self, game: Game) -> tuple[Guard, ...]:
        """The card's places this tactician guards: narrow exits only when GATES."""
        return tuple(g for g in guards(game) if self.GATES or not g.exit)

    def _guard_moves(self, game: Game, offered: list[Action]
                     ) -> list[tuple[float, Action, Why]]:
        """Moves that bring zombies onto the card's places to guard still short of zombies:
        the two nearest free zombies for each (not in contact, not guarding already)."""
        places = self._places(game)
        if not places:
            return []
        movers = {a.figure for a in offered if isinstance(a, Move)}
        free = [game.figures[i] for i in sorted(movers)
                if not any(g.holds(game.figures[i]) for g in places)
                and not any(game.in_contact(i, h.id) for h in _humans(game))]
        out: list[tuple[float, Action, Why]] = []
        theirs = game.pools.get("survivors", 0)
        for g in places:
            have = g.count(game)
            if have >= g.keep:
                continue
            near = sorted(free, key=lambda z: (g.area.distance(Point(z.x, z.y)), z.id))[:2]
            able = have + sum(1 for z in free if g.area.distance(Point(z.x, z.y)) <= z.move)
            for z in near:
                far = g.area.distance(Point(z.x, z.y))
                if g.end_of_turn and theirs > 0 and able < self.HOLDERS and far <= z.move:
                    staged = self._stage(game, g, z, far, have, able, theirs)
                    if staged is not None:
                        out.append(staged)
                    continue
                spot = guard_spot(g, z)
                s = 38 + 6 * (g.keep - have) - far + (5 if far <= z.move else 0)
                s -= self.SPREAD * min(z.moves, 3)
                words = {"zombie": who(game, z.id), "place": g.name, "d": round(far, 1),
                         "have": have, "keep": g.keep}
                why = (Message("ai.why.guard_onto", words) if far <= z.move
                       else Message("ai.why.guard_toward", words), g.why)
                out.append((s, Move(z.id, toward=spot), why))
        return out

    def _stage(self, game: Game, g: Guard, z: Fig, far: float, have: int, able: int,
               theirs: int) -> tuple[float, Action, Why] | None:
        """A zone judged at the end of the turn, the survivors still acting, fewer than
        HOLDERS zombies able to stand on it: a lone zombie stepping on now is every
        shooter's nearest target. It waits STAGE in outside the edge instead (none if it
        is there already), and steps on with the last AP, kept for after the survivors'
        last activation (`_wait`), or with others."""
        if far <= self.STAGE + 0.5:
            return None
        ring = g.area.buffer(self.STAGE).exterior
        _, spot = shapely.ops.nearest_points(Point(z.x, z.y), ring)
        s = 34 + 6 * (g.keep - have) - far - self.SPREAD * min(z.moves, 3)
        why = Message("ai.why.stage", {"zombie": who(game, z.id), "out": self.STAGE,
                                       "place": g.name, "d": round(far, 1), "have": have,
                                       "able": able, "theirs": theirs})
        return s, Move(z.id, toward=(round(float(spot.x), 3), round(float(spot.y), 3))), (why,)

    # --- scoring ------------------------------------------------------------------------

    def value(self, game: Game, h: Fig) -> tuple[float, Why]:
        """How much the zombies want this human, and why (as messages)."""
        v, why = 10.0, []
        if h.side == "civilians":
            if h.id in self._needed(game):
                v += 4
                why.append(Message("ai.worth.needed"))
            else:
                v -= 3
        if h.status == "down":
            why.append(Message("ai.worth.down"))
        elif h.pv < h.wounds:
            v += 6
            why.append(Message("ai.worth.wounded", {"pv": h.pv, "wounds": h.wounds}))
        d = defence_of(h, game.settings)
        if d <= 3:
            v += 3
            why.append(Message("ai.worth.defence", {"d": d}))
        if h.standing and not any(
                f.id != h.id and f.side == h.side and f.standing
                and game.distance(h.id, f.id) < ALONE for f in _humans(game)):
            v += 4
            why.append(Message("ai.worth.alone", {"d": ALONE}))
        if h.cls == "hero":
            v += 2
        if game.referee is not None and h.standing and h.side == "survivors":
            near = self._to_goal(game, h) if self.objective > 0 else None
            if near is not None and near < 12:
                v += self.objective * (12 - near)
                why.append(Message("ai.worth.near_goal", {"d": round(near, 1)}))
        return v, tuple(why)

    def _fresh(self, game: Game) -> None:
        # the game itself, not its id(): the look-ahead's copies come and go, and a new
        # one may get a freed one's id (a stale answer, and a game that does not replay)
        key = (game.version(), len(game.log), game.pools.get("zombies", 0))
        if self._near_game is not game or self._near_key != key:
            self._near_game = game
            self._near_key, self._near_cache, self._nearest_cache = key, {}, {}

    def _nearest(self, game: Game, z: Fig) -> tuple[float, Fig] | None:
        """The human nearest the zombie, once per position."""
        self._fresh(game)
        if z.id not in self._nearest_cache:
            self._nearest_cache[z.id] = _nearest_human(game, z)
        return self._nearest_cache[z.id]

    def _near(self, game: Game, h: Fig) -> _Near:
        """What every move toward `h` asks about it, once per position."""
        self._fresh(game)
        if h.id not in self._near_cache:
            zombies = [f for f in game.figures.values() if f.is_zombie and f.on_table]
            self._near_cache[h.id] = _Near(
                value=self.value(game, h),
                reachers=tuple(f.id for f in zombies
                               if game.distance(f.id, h.id) <= f.move + CONTACT),
                touching=tuple(f.id for f in zombies if game.in_contact(f.id, h.id)),
                urgent=self._urgency(game, h))
        return self._near_cache[h.id]

    def _post_left(self, game: Game, z: Fig, h: Fig, d: float) -> Name | None:
        """The guarded place this move walks the zombie off (one it holds with no zombie
        to spare), judged on the straight line toward the human."""
        if not self.GUARD:
            return None
        for g in self._places(game):
            if not g.holds(z) or g.count(game) > g.keep:
                continue
            step = min(z.move, d)
            gap = math.dist(z.centre, h.centre) or 1.0
            end = (z.x + (h.x - z.x) * step / gap, z.y + (h.y - z.y) * step / gap)
            if not shapely.intersects_xy(g.area, *end):
                return g.name
        return None

    def _needed(self, game: Game) -> frozenset[str]:
        """The civilians the survivors' objective needs (to escort, free, treat): each one
        the zombies take is one the survivors cannot count."""
        from scenarios.play import ScenarioReferee
        from scenarios.play_policy import protected_civilians

        ref = game.referee
        if not isinstance(ref, ScenarioReferee):
            return frozenset()
        key = len(game.log)
        if self._needed_game is not game or self._needed_key != key:
            self._needed_game, self._needed_key = game, key
            self._needed_ids = frozenset(protected_civilians(game, ref))
        return self._needed_ids

    def _urgency(self, game: Game, h: Fig) -> float:
        """How much the card's clock makes this survivor worth stopping now."""
        if not self.URGENCY or game.referee is None or not h.standing or h.side != "survivors":
            return 0.0
        near = self._to_goal(game, h)
        if near is None or near >= self.RUNNER:
            return 0.0
        return self.URGENCY * (self.RUNNER - near)

    def _to_goal(self, game: Game, h: Fig) -> float | None:
        """How far the survivor is from where the card's objective takes it (None: no
        objective it can walk to), as the scenario bots read the card; kept until
        something moves."""
        key = (game.version(), h.id)
        if self._goals_game is not game:  # the version counts within one game only
            self._goals_game, self._goals = game, {}
        if key not in self._goals:
            if len(self._goals) > 256:
                self._goals.clear()
            self._goals[key] = _goal_distance(game, h)
        return self._goals[key]

    def score(self, game: Game, act: Action) -> tuple[float, Why]:
        if isinstance(act, Contaminate):
            return 1000.0, (_bite(game, act),)
        if isinstance(act, Melee):
            return self._melee(game, act)
        if isinstance(act, Move) and isinstance(act.toward, str):
            return self._move(game, act)
        if isinstance(act, Decline):
            return 0.0, (Message("ai.decline"),)
        if isinstance(act, Pass | EndActivations) or legal.is_hold(game, act):
            return -1.0, (Message("ai.why.nothing_worth", {
                "action": action_message(game, act)}),)
        return -5.0, (action_message(game, act),)

    def _melee(self, game: Game, act: Melee) -> tuple[float, Why]:
        z, h = game.figures[act.figure], game.figures[act.target]
        p = unsaved_chance(game, z, h)
        value, why = self.value(game, h)
        pool_after = game.pools.get("zombies", 0) - (0 if game.pending else act.ap)
        if game.pending:  # a reaction is paid from the pool too
            pool_after = game.pools.get("zombies", 0) - 1
        if h.status == "down":
            kill = 1 - (1 - p) ** act.ap
            if not finished_off(game, h):
                kill = 0.0
            s = 40 + 35 * kill + value - 4 * act.ap
            return s, (Message("ai.why.finish", {"action": action_message(game, act),
                                                 "target": who(game, h.id), "p": kill}),)
        need = h.pv + (1 if h.has("robuste") and h.wounds_ignored == 0 else 0)
        pd = down_chance(p, act.ap, need)
        contaminate = pool_after >= 1
        # a zombie in contact strikes (40): wounds count more on a target close to going
        # down, putting it down most, with an AP kept to contaminate
        s = 40 + value + p * act.ap * (20 + 40 / need)
        s += pd * (60 + 3 * value) * (1.5 if contaminate else 1.0) - 4 * act.ap
        ganged = sum(1 for f in game.figures.values()
                     if f.is_zombie and f.on_table and f.id != z.id
                     and game.in_contact(f.id, h.id))
        target = who(game, h.id)
        words: list[Message] = [Message("ai.why.strike", {
            "action": action_message(game, act), "p_die": p, "p_down": pd, "target": target,
            "ap": act.ap})]
        if contaminate and pd > 0:
            words.append(Message("ai.why.bite_kept"))
        if ganged:
            words.append(Message("ai.why.ganged", {"n": ganged}))
        if why:
            words.append(Message("ai.worth", {"target": target, "why": list(why)}))
        return s + 2 * ganged, tuple(words)

    def _move(self, game: Game, act: Move) -> tuple[float, Why]:
        z = game.figures[act.figure]
        assert isinstance(act.toward, str)
        h = game.figures[act.toward]
        if not h.is_human:
            return -5.0, (action_message(game, act),)
        d = game.distance(z.id, h.id)
        facts = self._near(game, h)
        nearest = self._nearest(game, z)
        engaged = nearest is not None and nearest[0] <= CONTACT + 1e-9
        value, why = facts.value
        reach = d <= z.move + CONTACT
        others = sum(1 for i in facts.reachers if i != z.id)
        urgent = facts.urgent
        pinned = any(i != z.id for i in facts.touching)
        target = who(game, h.id)
        if reach:
            s = 25 + 1.2 * value + 2 * min(others, 3) + urgent
            plan = Message("ai.plan.contact")
            if h.standing and not pinned and self.PIN and urgent > 0:
                s += self.PIN
                plan = Message("ai.plan.pin", {"target": target})
        else:
            s = 10 + 0.6 * value - 0.8 * (d - z.move) + 0.5 * urgent
            plan = Message("ai.plan.short", {"short": round(max(d - z.move, 0), 1)})
        runner: list[Message] = []
        if urgent > 0:
            goal = self._to_goal(game, h)
            runner.append(Message("ai.why.runner", {"target": target,
                                                    "d": round(goal or 0.0, 1)}))
        if nearest is not None and nearest[1].id != h.id:
            s -= 2 + (d - nearest[0])  # another human is nearer: worth the detour?
        s -= self.SPREAD * min(z.moves, 3)  # a zombie already moved gets less out of it
        post = self._post_left(game, z, h, d)
        if post is not None:
            s -= self.GUARD
        if engaged:
            s -= 40
        if game.pending:
            s -= 5
        walk = {"zombie": who(game, z.id), "step": round(min(d, z.move), 1), "target": target,
                "d": round(d, 1), "plan": plan}
        text = [Message("ai.why.walk_join", {**walk, "others": others}) if others
                else Message("ai.why.walk", walk), *runner]
        if why:
            text.append(Message("ai.worth", {"target": target, "why": list(why)}))
        if post is not None:
            text.append(Message("ai.why.leaves", {"place": post}))
        return s, tuple(text)


def canonical(game: Game, act: Action) -> tuple[float, float, float, float, str]:
    """A key that orders actions the same whatever order the figures are listed in: the
    acting figure's place, its target's, then the action's own words."""
    fig = game.figures.get(actor(act))
    target = getattr(act, "target", None) or getattr(act, "toward", None)
    other = game.figures.get(target) if isinstance(target, str) else None
    at = (fig.x, fig.y) if fig is not None else (-1.0, -1.0)
    to = (other.x, other.y) if other is not None else (
        (float(target[0]), float(target[1])) if isinstance(target, tuple) else (-1.0, -1.0))
    return (round(at[0], 3), round(at[1], 3), round(to[0], 3), round(to[1], 3),
            _written(act))


@functools.lru_cache(maxsize=1 << 14)
def _written(act: Action) -> str:
    """The action's JSON, keys sorted (actions are frozen values: written once each)."""
    return json.dumps(act.to_json(), sort_keys=True)


def _checked_contact(game: Game, act: Action, why: Why) -> Why:
    """The scores judge contact by the straight distance; the words must match the real
    walk, which goes round terrain and bases: say how far short it really ends."""
    head = why[0] if why else None
    plan = head.params.get("plan") if head is not None else None
    if not (isinstance(act, Move) and isinstance(act.toward, str) and isinstance(plan, Message)
            and plan.code in ("ai.plan.contact", "ai.plan.pin")):
        return why
    z, h = game.figures[act.figure], game.figures[act.toward]
    try:
        end, _ = plan_move(game, z, None, act.toward, z.move)
    except IllegalActionError:
        return why
    gap = math.dist(end, h.centre) - z.radius - h.radius
    if gap <= CONTACT + 1e-6:
        return why
    assert head is not None
    walk = {k: v for k, v in head.params.items() if k != "others"}
    walk["plan"] = Message("ai.plan.round", {"gap": round(gap, 1)})
    return (Message("ai.why.walk", walk), *why[1:])


def _goal_distance(game: Game, h: Fig) -> float | None:
    """How far a survivor is from its objective on the card: edge to edge to a figure it
    must reach, straight to a point."""
    goal = goal_target(game, h)
    if isinstance(goal, str):
        return game.distance(h.id, goal)
    return None if goal is None else math.dist(h.centre, goal)


register("zombies", "idle", lambda level, rng: IdleZombies(level, rng))
register("zombies", "random", lambda level, rng: RandomZombies(level, rng))
register("zombies", "greedy", lambda level, rng: GreedyZombies(level, rng))
# the tactician's scores alone, no look-ahead, no whims: what the look-ahead starts from,
# and a player for the evaluation's training games that needs no trained model
register("zombies", "heuristic", lambda level, rng: Tactician(level or "normal", rng))
