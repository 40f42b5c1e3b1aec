"""Writes the legacy records in this folder (run once, at main f74633f, before the rulings of
issue 12 changed the defaults): finished games played by the AI and bot policies, and
campaigns recorded scenario by scenario. `tests/test_legacy_records.py` checks that today's
code loads them and replays them to exactly the state saved here.

Run from the repository root: `.venv/bin/python tests/legacy/make_records.py`. Re-running it
today would write records under today's defaults: the committed files are the reference.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from ai.policy import make_policy
from rules.game import SURVIVORS, ZOMBIES, Game
from rules.settings import Settings
from rules.warband import example_bands
from scenarios.campaign_record import new_campaign, record_result, result_from_game, start_next
from scenarios.play import start_scenario

HERE = Path(__file__).parent
GAMES = [  # card, band, seed, zombie policy, survivor policy
    ("nettoyage", "the_school", 3, "tactician", "bot"),
    ("nuit", "cops_and_kids", 5, "greedy", "bot"),
    ("escorte", "la_zone", 7, "greedy", "random"),
    ("caisses", "the_school", 11, "random", "bot"),
    ("refuge", "cops_and_kids", 13, "tactician", "random"),
    ("helico", "la_zone", 17, "greedy", "bot"),
]


def play(game: Game, seed: int, zombies: str, survivors: str) -> Game:
    players = {ZOMBIES: make_policy(zombies, ZOMBIES, seed),
               SURVIVORS: make_policy(survivors, SURVIVORS, seed)}
    for _ in range(4000):
        if game.is_terminal:
            break
        side = ZOMBIES if game.current_side() == ZOMBIES else SURVIVORS
        game.apply(players[side].choose(game).action)
    return game


def save(name: str, data: Any) -> None:
    (HERE / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    bands = example_bands()
    for card, band, seed, zombies, survivors in GAMES:
        game = play(start_scenario(card, bands[band], seed), seed, zombies, survivors)
        save(f"game_{card}_{seed}.json", {"commit": commit, "record": game.export(),
                                          "final": game.to_json()})
    for length, seed, settings in ((2, 21, Settings()),
                                   (3, 22, Settings(once_per_game_scope="scenario"))):
        campaign = new_campaign(bands["cops_and_kids"], length, seed=seed, settings=settings)
        steps: list[dict[str, Any]] = [{"campaign": campaign.to_json()}]
        rng = random.Random(seed)
        while not campaign.finished:
            scenario = campaign.next_scenario
            assert scenario is not None
            game_seed = rng.randrange(10_000)
            game = play(start_next(campaign, game_seed), game_seed, "greedy", "bot")
            after_seed = rng.randrange(10_000)
            campaign = record_result(campaign, result_from_game(game, scenario),
                                     random.Random(after_seed))
            steps.append({"scenario": scenario, "game": game.export(),
                          "after_seed": after_seed, "campaign": campaign.to_json()})
        save(f"campaign_{length}_{seed}.json", {"commit": commit, "steps": steps})



def stored() -> None:
    """A service database (SQLite) holding a one-off game part played through the API and a
    campaign with its first scenario played and recorded; the answers saved beside it."""
    import sqlite3
    import sys
    import tempfile

    sys.path.insert(0, str(HERE.parent))
    from api_support import auth, make_app, play_to_end

    folder = Path(tempfile.mkdtemp())
    app = make_app(folder)
    client = app.test_client()
    game = client.post("/api/v1/games", json={"scenario": "escorte", "seed": 4,
                                              "band": "the_school"}).json
    version = game["version"]
    for _ in range(40):
        state = client.get(f"/api/v1/games/{game['id']}").json
        if state["deciding"] == "zombies":
            r = client.post(f"/api/v1/games/{game['id']}/ai/play", json={"version": version},
                            headers=auth(game["token"]))
        else:
            listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
            pick = next((a["action"] for a in listed
                         if a["action"]["type"] in ("melee", "shoot")), listed[0]["action"])
            r = client.post(f"/api/v1/games/{game['id']}/actions",
                            json={"version": version, "action": pick},
                            headers=auth(game["token"]))
        version = r.json["version"]
    campaign = client.post("/api/v1/campaigns", json={"example": "cops_and_kids", "length": 3,
                                                      "seed": 8}).json
    token = campaign["token"]
    played = client.post(f"/api/v1/campaigns/{campaign['id']}/games", json={"seed": 2},
                         headers=auth(token)).json
    play_to_end(client, played["id"], token)
    client.post(f"/api/v1/campaigns/{campaign['id']}/results",
                json={"game_id": played["id"], "seed": 5}, headers=auth(token))
    answers = {
        "game_id": game["id"], "campaign_id": campaign["id"], "campaign_game_id": played["id"],
        "game": client.get(f"/api/v1/games/{game['id']}").json,
        "game_export": client.get(f"/api/v1/games/{game['id']}/export").json,
        "campaign": client.get(f"/api/v1/campaigns/{campaign['id']}").json,
        "campaign_export": client.get(f"/api/v1/campaigns/{campaign['id']}/export").json,
    }
    source = sqlite3.connect(folder / "test.sqlite3")  # WAL: copy through the backup API
    target = sqlite3.connect(HERE / "service.sqlite3")
    source.backup(target)
    target.close()
    source.close()
    save("service_answers.json", answers)


if __name__ == "__main__":
    main()
    stored()
