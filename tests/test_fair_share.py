"""Each client's share of the server's processor (service/fair_share.py, issue 17)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service.app import create_app
from service.fair_share import MAX_CLIENTS, FairShare, client_of
from service.wsgi import SERVER_DEFAULTS, server_app


def test_a_client_waits_as_long_as_it_takes_to_earn_back(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    clock = [100.0]
    monkeypatch.setattr("service.fair_share.time.monotonic", lambda: clock[0])
    share = FairShare(share=0.25, burst=2.0)
    assert share.wait("a") == 0
    share.charge("a", 1.5)
    assert share.wait("a") == 0  # 0.5 s left of its burst
    share.charge("a", 1.5)  # one second in debt: four seconds at a quarter of a core
    assert share.wait("a") == 4 and share.wait("b") == 0
    clock[0] += 3.0
    assert share.wait("a") == 1
    clock[0] += 1.0
    assert share.wait("a") == 0
    clock[0] += 1000.0  # never more than the burst
    share.charge("a", 2.0)
    assert share.wait("a") == 0
    share.charge("a", 0.01)
    assert share.wait("a") == 1


def test_accounts_are_bounded() -> None:
    share = FairShare(share=0.25, burst=2.0)
    share.charge("busy", 5.0)
    for n in range(MAX_CLIENTS + 10):
        share.wait(f"10.0.{n // 256}.{n % 256}")
    assert len(share._accounts) <= MAX_CLIENTS
    assert share.wait("busy") > 0  # a client in debt is not forgotten to make room


def test_an_address_over_its_share_is_answered_429_and_the_others_are_not(
        tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/share.sqlite3", "TESTING": True,
                      "CLIENT_SHARE": 1e-6, "CLIENT_BURST": 1e-6})
    greedy = app.test_client()
    greedy.environ_base["REMOTE_ADDR"] = "10.1.1.1"
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.2.2.2"
    assert greedy.get("/api/v1/scenarios").status_code == 200  # costs more than its burst
    refused = greedy.get("/api/v1/scenarios?lang=fr")
    assert refused.status_code == 429
    error = refused.get_json()["error"]
    assert error["code"] == "too_many_requests"
    assert error["words"]["code"] == "service.client_share"
    assert "processeur" in error["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert other.get("/api/v1/scenarios").status_code == 200
    with greedy.get("/") as page:  # the page's own files are not counted
        assert page.status_code == 200


def test_the_share_is_a_server_setting() -> None:
    assert create_app({"DATABASE_URL": "sqlite://", "TESTING": True}).extensions.get(
        "fair_share") is None
    served = server_app({"DATABASE_URL": "sqlite://", "TESTING": True})
    assert served.extensions["fair_share"].share == SERVER_DEFAULTS["CLIENT_SHARE"]
    off = server_app({"DATABASE_URL": "sqlite://", "TESTING": True, "CLIENT_SHARE": 0})
    assert off.extensions.get("fair_share") is None


@pytest.mark.parametrize("value", ["-1", "nan", "100"])
def test_serve_refuses_a_share_out_of_range(value: str) -> None:
    done = subprocess.run([sys.executable, "-m", "service", "serve", "--client-share", value,
                           "--db", "sqlite://"], capture_output=True, text=True, timeout=60,
                          env={"SURVIVE_US_LANG": "en", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert "--client-share must be 0-64" in done.stderr


def test_an_ipv6_network_is_one_client() -> None:
    assert client_of("2001:db8:1:2::5") == client_of("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert client_of("2001:db8:1:3::5") != client_of("2001:db8:1:2::5")
    assert client_of("192.0.2.7") == "192.0.2.7"
    assert client_of("::ffff:192.0.2.7") == "::ffff:192.0.2.7"
    assert client_of("") == ""
