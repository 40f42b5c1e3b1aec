"""A figure's JSON form: every field, its containers copied."""

from __future__ import annotations

from dataclasses import asdict

from golden_helpers import survivor

from rules.figures import Fig


def test_figure_json_is_asdict_with_copied_containers() -> None:
    fig = survivor("s1", "ex_flic_h", 3, 4)
    fig.items["pistolet"] = 1
    fig.used_turn["sprinter"] = 1
    data = fig.to_json()
    assert data == asdict(fig)
    data["skills"].append("robuste")
    data["items"]["pistolet"] = 9
    data["used_turn"].clear()
    assert "robuste" not in fig.skills and fig.items["pistolet"] == 1 and fig.used_turn
    assert Fig.from_json(fig.to_json()) == fig
