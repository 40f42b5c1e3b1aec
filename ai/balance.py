"""The balance report: at how many zombie points does a zombie player win half the games?

For each scenario card the sweep plays the same seeded games (game i from seed S + i, so
every level meets the same set-ups and dice streams: common random numbers make the levels'
differences less noisy) at several zombie point levels, with the card's own mix buying the
horde (`scenarios.setup.buy_zombies`; the card's free reinforcements are unchanged).

The 50% point is estimated two ways:

- **logistic** (the headline): a binomial logistic regression of the zombie wins on the
  points, fitted by maximum likelihood (scipy), uses every game of every level; its 95%
  interval is Fieller's for the ratio -a/b, which is asymmetric and honestly unbounded when
  the slope is not clearly positive (the delta method would give a finite, symmetric and
  wrong interval there).
- **interpolated** (a model-free check): linear interpolation between the two levels whose
  observed rates bracket 50%, with the range where the levels' Wilson intervals cross 50%.

A draw (a game still running after `ai.simulate.MAX_ACTIONS`) counts as not a zombie win.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from babel.numbers import format_decimal

from ai.simulate import Z95, GameResult, Job, play_all, wilson
from i18n import Message, render, render_text

__all__ = ["Level", "HalfPoint", "CardBalance", "BalanceReport", "own_points",
           "levels_for", "sweep", "fit_logistic", "interpolate_half", "half_points",
           "markdown_table", "plot"]

Progress = Callable[[Iterable[Any], int], Iterable[Any]]


@dataclass(frozen=True)
class Level:
    """One card played at one zombie points level."""

    points: int
    games: int
    zombie_wins: int
    draws: int = 0

    @property
    def rate(self) -> float:
        return self.zombie_wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.zombie_wins, self.games)


@dataclass(frozen=True)
class HalfPoint:
    """An estimate of the zombie points giving a 50% zombie win rate, with its 95% interval
    (None where it is open); `points` None when the data give no estimate (`note` says why,
    in English; `note_words` the same as a message, None in a report saved before)."""

    method: str
    points: float | None
    low: float | None = None
    high: float | None = None
    note: str = ""
    note_words: dict[str, Any] | None = None

    def said(self, lang: str) -> str:
        """The note in `lang` (its English when the report has no words for it)."""
        return render(self.note_words, lang) if self.note_words else self.note


def _half(method: str, points: float | None, low: float | None = None,
          high: float | None = None, *notes: Message) -> HalfPoint:
    """A HalfPoint whose notes are messages (and their English)."""
    if not notes:
        return HalfPoint(method, points, low, high)
    words = notes[0] if len(notes) == 1 else Message("ai.balance.two_notes", {
        "a": notes[0], "b": notes[1]})
    return HalfPoint(method, points, low, high, "; ".join(render(n, "en") for n in notes),
                     words.to_json())


@dataclass(frozen=True)
class CardBalance:
    card: str
    own_points: int  # the card's own points for the band
    levels: tuple[Level, ...]
    logistic: HalfPoint
    interpolated: HalfPoint
    fit: tuple[float, float] | None = None  # (intercept, slope per point) of the logistic

    def curve(self, x: float) -> float:
        """The fitted zombie win rate at `x` points."""
        assert self.fit is not None
        return _expit(self.fit[0] + self.fit[1] * x)


@dataclass(frozen=True)
class BalanceReport:
    zombies: str
    survivors: str
    band: str
    seed: int
    games: int
    cards: tuple[CardBalance, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for card, data in zip(self.cards, out["cards"], strict=True):
            for level, shown in zip(card.levels, data["levels"], strict=True):
                shown["zombie_win_rate"] = level.rate
                shown["zombie_win_rate_ci95"] = list(level.ci95)
            data["fit"] = list(card.fit) if card.fit else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BalanceReport:
        """A report saved with `to_json` (the plot and table redrawn without playing)."""
        cards = tuple(CardBalance(
            card=c["card"], own_points=c["own_points"],
            levels=tuple(Level(lv["points"], lv["games"], lv["zombie_wins"], lv["draws"])
                         for lv in c["levels"]),
            logistic=HalfPoint(**c["logistic"]), interpolated=HalfPoint(**c["interpolated"]),
            fit=(c["fit"][0], c["fit"][1]) if c["fit"] else None)
            for c in data["cards"])
        return cls(data["zombies"], data["survivors"], data["band"], data["seed"],
                   data["games"], cards)


def own_points(card: str, band: str | None = None) -> int:
    """The zombie points the card gives the band (the default example band when None)."""
    from ai.simulate import band_roster
    from rules.catalog import load_catalog
    from rules.settings import Settings
    from rules.warband import band_cost
    from scenarios.cards import load_cards

    cost = band_cost(band_roster(band), load_catalog(), Settings())
    return load_cards()[card].zombies.points.points(cost)


def levels_for(own: int, *, points: Sequence[int] = (),
               factors: Sequence[float] = ()) -> list[int]:
    """The point levels of one card: `points` as given, or `factors` of the card's own
    points (rounded); sorted, without repeats."""
    chosen = [int(p) for p in points] + [round(own * f) for f in factors]
    if not chosen:
        raise ValueError("no zombie point levels: give points or factors")
    if min(chosen) < 0:
        raise ValueError(f"zombie points must be at least 0, got {min(chosen)}")
    return sorted(set(chosen))


def sweep(cards: Sequence[str], games: int, seed: int, *, points: Sequence[int] = (),
          factors: Sequence[float] = (), zombies: str = "tactician", survivors: str = "bot",
          band: str | None = None, jobs: int = 1, cluster: str | None = None,
          progress: Progress | None = None) -> BalanceReport:
    """Play every card at every level (`games` games each, seeds `seed`..`seed + games - 1`)
    as one batch (local processes or the Dask cluster), and estimate each card's 50% point."""
    plan = {card: own_points(card, band) for card in cards}
    todo: list[Job] = []
    for card, own in plan.items():
        for level in levels_for(own, points=points, factors=factors):
            todo += [Job(card, seed + i, zombies, survivors, band, level) for i in range(games)]
    results = play_all(todo, jobs=jobs, cluster=cluster, progress=progress)
    by_level: dict[tuple[str, int], list[GameResult]] = {}
    for job, result in zip(todo, results, strict=True):
        assert job.zombie_points is not None
        by_level.setdefault((job.scenario, job.zombie_points), []).append(result)
    out = []
    for card, own in plan.items():
        levels = tuple(
            Level(level, len(rs), sum(r.winner == "zombies" for r in rs),
                  sum(r.winner == "draw" for r in rs))
            for (name, level), rs in sorted(by_level.items()) if name == card)
        out.append(half_points(card, own, levels))
    from scenarios.setup import DEFAULT_BAND

    return BalanceReport(zombies, survivors, band or DEFAULT_BAND, seed, games, tuple(out))


def half_points(card: str, own: int, levels: Sequence[Level]) -> CardBalance:
    """Both 50% estimates of one card's levels."""
    xs = [lv.points for lv in levels]
    wins = [lv.zombie_wins for lv in levels]
    ns = [lv.games for lv in levels]
    fit, logistic = fit_logistic(xs, wins, ns)
    return CardBalance(card, own, tuple(levels), logistic, interpolate_half(levels), fit)


def _expit(t: float) -> float:
    return 1 / (1 + math.exp(-t)) if t >= 0 else math.exp(t) / (1 + math.exp(t))


def fit_logistic(xs: Sequence[float], wins: Sequence[int], games: Sequence[int]
                 ) -> tuple[tuple[float, float] | None, HalfPoint]:
    """Maximum-likelihood logistic fit of wins/games on x; the 50% point -a/b with Fieller's
    95% interval. No estimate when the data cannot fix one (one level, no spread in the
    outcomes: every game won or every game lost, a slope that is not positive)."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit

    x = np.asarray(xs, dtype=float)
    k = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    if len(set(xs)) < 2:
        return None, _half("logistic", None, None, None, Message("ai.balance.few_levels"))
    if k.sum() == 0 or k.sum() == n.sum():
        return None, _half("logistic", None, None, None,
                           Message("ai.balance.never") if k.sum() == 0
                           else Message("ai.balance.always"))
    if _separated(xs, wins, games):
        return None, _half("logistic", None, None, None, Message("ai.balance.separated"))
    centre, scale = float(x.mean()), float(x.std()) or 1.0
    z = (x - centre) / scale

    def nll(theta: Any) -> float:
        t = theta[0] + theta[1] * z
        return float(-(k * log_expit(t) + (n - k) * log_expit(-t)).sum())

    def grad(theta: Any) -> Any:
        r = k - n * expit(theta[0] + theta[1] * z)
        return -np.array([r.sum(), (r * z).sum()])

    found = minimize(nll, np.zeros(2), jac=grad, method="BFGS")
    a, b = (float(v) for v in found.x)
    half = -a / b if b else math.inf
    w = n * expit(a + b * z) * (1 - expit(a + b * z))
    info = np.array([[w.sum(), (w * z).sum()], [(w * z).sum(), (w * z * z).sum()]])
    fit = (a - b * centre / scale, b / scale)  # in points: rate = expit(fit0 + fit1 x)
    if not np.isfinite(info).all() or np.linalg.det(info) <= 1e-12:
        return None, _half("logistic", None, None, None, Message("ai.balance.no_fit"))
    cov = np.linalg.inv(info)
    if b <= 0:
        return fit, _half("logistic", None, None, None, Message("ai.balance.falling"))
    low, high = _fieller(a, b, cov)
    notes = []
    if not min(xs) <= centre + scale * half <= max(xs):
        notes.append(Message("ai.balance.extrapolated"))
    if low is None:
        notes.append(Message("ai.balance.unbounded"))
    return fit, _half("logistic", centre + scale * half,
                      None if low is None else centre + scale * low,
                      None if high is None else centre + scale * high, *notes)


def _separated(xs: Sequence[float], wins: Sequence[int], games: Sequence[int]) -> bool:
    """Every level lost up to some points and won from there (a step the logistic
    likelihood can only approach with an infinite slope)."""
    ordered = sorted(zip(xs, wins, games, strict=True))
    mixed = [0 < k < n for _, k, n in ordered]
    if any(mixed):
        return False
    won = [k == n for _, k, n in ordered]
    return won == sorted(won)


def _fieller(a: float, b: float, cov: Any) -> tuple[float | None, float | None]:
    """Fieller's 95% interval for -a/b: the t with (a + b t)^2 <= z^2 var(a + b t)."""
    z2 = Z95 ** 2
    qa = b * b - z2 * cov[1][1]
    qb = 2 * (a * b - z2 * cov[0][1])
    qc = a * a - z2 * cov[0][0]
    disc = qb * qb - 4 * qa * qc
    if qa <= 0 or disc < 0:
        return None, None  # the slope is not clearly non-zero: no bounded interval
    root = math.sqrt(disc)
    return float((-qb - root) / (2 * qa)), float((-qb + root) / (2 * qa))


def interpolate_half(levels: Sequence[Level]) -> HalfPoint:
    """Where the observed rate first crosses 50% between two levels, linearly; the range is
    where the Wilson bounds cross 50% (the upper bound gives the low end)."""
    ordered = sorted(levels, key=lambda lv: lv.points)
    xs = [lv.points for lv in ordered]
    centre = _crossing(xs, [lv.rate for lv in ordered])
    low = _crossing(xs, [lv.ci95[1] for lv in ordered])
    high = _crossing(xs, [lv.ci95[0] for lv in ordered])
    if centre is None:
        rates = [lv.rate for lv in ordered]
        return _half("interpolated", None, low, high,
                     Message("ai.balance.above") if rates and min(rates) > 0.5
                     else Message("ai.balance.below"))
    return HalfPoint("interpolated", centre, low, high)


def _crossing(xs: Sequence[int], ys: Sequence[float]) -> float | None:
    """The first x where the piecewise-linear ys reach 0.5 on the way up; the first level
    when it starts at or above 0.5 only if it is exactly 0.5."""
    for (x0, y0), (x1, y1) in zip(zip(xs, ys, strict=True), zip(xs[1:], ys[1:], strict=True),
                                  strict=False):
        if y0 < 0.5 <= y1:
            return x0 + (0.5 - y0) * (x1 - x0) / (y1 - y0)
        if y0 == 0.5:
            return float(x0)
    if ys and ys[-1] == 0.5:
        return float(xs[-1])
    return None


def _fmt(value: float | None, lang: str = "en") -> str:
    if value is None:
        return render_text("ai.balance.open", {}, lang)
    return render_text("ai.balance.points", {"n": round(max(value, 0.0))}, lang)  # none < 0


def _half_cell(h: HalfPoint, levels: Sequence[Level], lang: str = "en") -> str:
    """The estimate in bold with its interval; one outside the levels played is shown as
    a bound ("< 4"), the fitted value beside it only as a hint."""
    if h.points is None:
        return render_text("ai.balance.none", {"note": h.said(lang)}, lang)
    lowest, highest = min(lv.points for lv in levels), max(lv.points for lv in levels)
    p = {"v": _fmt(h.points, lang), "lo": _fmt(h.low, lang), "hi": _fmt(h.high, lang)}
    if h.points < lowest:
        return render_text("ai.balance.under", {**p, "bound": lowest}, lang)
    if h.points > highest:
        return render_text("ai.balance.over", {**p, "bound": highest}, lang)
    cell = render_text("ai.balance.cell", p, lang)
    return render_text("ai.balance.cell_note", {"cell": cell, "note": h.said(lang)}, lang) \
        if h.note else cell


def card_name(card: str) -> Any:
    """A card by its French and English names (the id of a card no longer known)."""
    from scenarios.cards import load_cards

    found = load_cards().get(card)
    return card if found is None else {"fr": found.name.fr, "en": found.name.en}


def markdown_table(report: BalanceReport, lang: str = "en") -> str:
    """One row per card (by its name in `lang`): its own points, the zombie win rate at each
    level (Wilson 95%), and both 50% estimates, in `lang`."""
    lines = [render_text("ai.balance.header", {}, lang), "|---|---|---|---|---|---|"]
    joined = render_text("word.separator", {}, lang)
    for c in report.cards:
        rates = joined.join(render_text("ai.balance.rate", {
            "points": lv.points, "p": lv.rate, "low": lv.ci95[0], "high": lv.ci95[1]}, lang)
            for lv in c.levels)
        half, xs = c.logistic.points, [lv.points for lv in c.levels]
        inside = half is not None and min(xs) <= half <= max(xs)
        share = str(format_decimal(half / c.own_points, format="0.00", locale=lang)) \
            if inside and half and c.own_points else "–"
        name = render(Message("ai.things", {"things": [card_name(c.card)]}), lang)
        lines.append(f"| {name} | {c.own_points} | {rates} | "
                     f"{_half_cell(c.logistic, c.levels, lang)} | {share} | "
                     f"{_half_cell(c.interpolated, c.levels, lang)} |")
    return "\n".join(lines) + "\n"


def plot(report: BalanceReport, path: str, lang: str = "en") -> None:
    """Zombie win rate against zombie points, one panel per card (Wilson bars, the logistic
    fit, 50% and the card's own points marked), as SVG or PNG (by the file's suffix), its
    words in `lang`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "survive-us-balance"  # the same file for the same report
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    cols = min(5, len(report.cards)) or 1
    rows = math.ceil(len(report.cards) / cols) or 1
    fig, axes = plt.subplots(rows, cols, figsize=(3.0 * cols, 2.6 * rows), squeeze=False,
                             sharey=True)
    for ax in axes.flat[len(report.cards):]:
        ax.set_visible(False)
    for ax, c in zip(axes.flat, report.cards, strict=False):
        xs = [lv.points for lv in c.levels]
        rates = [lv.rate for lv in c.levels]
        lows = [lv.rate - lv.ci95[0] for lv in c.levels]
        highs = [lv.ci95[1] - lv.rate for lv in c.levels]
        ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", ms=4, capsize=2, color="C0",
                    label=render_text("ai.balance.observed", {}, lang))
        top = max([*xs, c.own_points]) * 1.08 + 1  # an extrapolated 50% is in the table only
        if c.fit is not None:
            grid = [top * i / 100 for i in range(101)]
            ax.plot(grid, [c.curve(g) for g in grid], color="C1",
                    label=render_text("ai.balance.fit", {}, lang))
        half = c.logistic
        if half.points is not None:
            if half.low is not None and half.high is not None:
                ax.axvspan(half.low, half.high, color="C1", alpha=0.15, lw=0)
            ax.axvline(half.points, color="C1", ls="--", lw=1)
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.axvline(c.own_points, color="C2", lw=1, ls="-.",
                   label=render_text("ai.balance.own", {}, lang))
        ax.set_title(render(Message("ai.things", {"things": [card_name(c.card)]}), lang),
                     fontsize=10)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlim(0, top)
        ax.tick_params(labelsize=8)
    for ax in axes[-1]:
        ax.set_xlabel(render_text("ai.balance.x", {}, lang), fontsize=9)
    for ax in axes[:, 0]:
        ax.set_ylabel(render_text("ai.balance.y", {}, lang), fontsize=9)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(render_text("ai.balance.title", {
        "zombies": report.zombies, "survivors": report.survivors, "band": report.band,
        "games": report.games, "first": report.seed,
        "last": report.seed + report.games - 1}, lang), fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 0.97))
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
