"""The AI's choices, made in a worker process (service/workers.py, the `ai` pool).

A suggestion of the hard AI takes up to a second of processor, the normal one tens of
milliseconds, all of it Python holding the interpreter lock: made on a request thread, one
client asking again and again kept every other table waiting (issue 17). The game is sent
to the worker as it stands (pickled: `rules.catalog.Catalog` travels as a reference), the
worker chooses and sends the `Choice` back; nothing the AI does to its copy comes back.
"""

from __future__ import annotations

from ai.policy import Choice, make_policy
from rules.game import ZOMBIES, Game

__all__ = ["choose"]


def choose(game: Game, policy: str, seed: str) -> Choice:
    """The zombies' choice of `policy` (a `make_policy` name) in `game`, seeded by `seed`."""
    return make_policy(policy, ZOMBIES, seed).choose(game)
