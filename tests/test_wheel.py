"""`pip install` gives a working service (issue 17, finding 12): the wheel is built from a
copy of the sources, installed (not editable) into a fresh virtual environment outside the
checkout, and there `survive-us serve` answers the page, its files, the API and a game, and
`survive-us arbitrate` answers in both languages.

Offline and quick: the wheel is built with this environment's setuptools
(`--no-build-isolation`) and installed with `--no-deps`; the new environment reaches the
dependencies already installed here through a `.pth` line (their folder only: this
checkout's editable install is not seen there, which the test checks)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["pyproject.toml", "README.md", "geometry", "rules", "ai", "scenarios", "vision",
           "service", "i18n", "web"]
PACKAGED_DATA = ("rules/data", "ai/data/evaluation", "ai/data/holdout", "scenarios/data",
                 "scenarios/tables", "i18n/locale", "service/migrations", "web")


def _run(command: list[str], cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The `bin` folder of a fresh virtual environment with the wheel installed."""
    top = tmp_path_factory.mktemp("wheel")
    source = top / "source"
    source.mkdir()
    for name in SOURCES:
        where = ROOT / name
        if where.is_dir():
            shutil.copytree(where, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(where, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", str(top / "dist"), str(source)], top)
    wheel = next((top / "dist").glob("survive_us-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for data in PACKAGED_DATA:
        tracked = [p.relative_to(ROOT).as_posix() for p in ROOT.glob(f"{data}*/**/*")
                   if p.is_file() and "__pycache__" not in p.parts]
        tracked += [p.relative_to(ROOT).as_posix() for p in ROOT.glob(f"{data}*")
                    if p.is_file()]
        missing = sorted(p for p in tracked if p not in names and not p.endswith(".md"))
        assert tracked and not missing, (data, missing)
    venv = top / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], top)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "-q", str(wheel)], top)
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                                            "['purelib'])"], top).stdout.strip())
    (purelib / "_survive_us_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    where = _run([str(python), "-c", "import service, web; print(service.__file__)"], top)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    yield venv / "bin"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_the_installed_service_serves_the_page_the_api_and_a_game(installed: Path,
                                                                   tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen([str(installed / "survive-us"), "serve", "--port", str(port),
                               "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert f":{port}/" in line, line + server.stdout.read()[-3000:]
        base = f"http://127.0.0.1:{port}"
        page = requests.get(f"{base}/", timeout=30)
        assert page.status_code == 200 and "<script" in page.text
        for path in ("/js/main.js", "/css/style.css", "/manifest.webmanifest",
                     "/icons/icon.svg"):
            assert requests.get(f"{base}{path}", timeout=30).status_code == 200, path
        words = requests.get(f"{base}/i18n/fr.json", timeout=30)  # the catalogs
        assert words.status_code == 200 and len(words.json()) > 100
        assert requests.get(f"{base}/api/v1/rules", timeout=30).json()["archetypes"]
        game = requests.post(f"{base}/api/v1/games", json={"scenario": "nettoyage", "seed": 2},
                             timeout=60)
        assert game.status_code == 201, game.text
        gid, token = game.json()["id"], game.json()["token"]
        listed = requests.get(f"{base}/api/v1/games/{gid}/actions", timeout=60).json()
        done = requests.post(f"{base}/api/v1/games/{gid}/actions",
                             json={"version": 0, "action": listed["actions"][0]["action"]},
                             headers={"Authorization": f"Bearer {token}"}, timeout=60)
        assert done.status_code == 200 and done.json()["version"] == 1, done.text
        undone = requests.post(f"{base}/api/v1/games/{gid}/undo", json={"version": 1},
                               headers={"Authorization": f"Bearer {token}"}, timeout=60)
        assert undone.status_code == 200 and undone.json()["game"]["state"] == game.json()[
            "state"], undone.text
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        if server.stdout is not None:
            server.stdout.close()


@pytest.mark.slow
def test_the_installed_command_line_arbitrates(installed: Path, tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    shutil.copy(ROOT / "docs" / "examples" / "arbitrate.json", request)
    started = time.monotonic()
    done = _run([str(installed / "survive-us"), "arbitrate", str(request)], tmp_path)
    answers = json.loads(done.stdout)["answers"]
    assert len(answers) == len(json.loads(request.read_text())["questions"])
    assert answers[0]["explain"] and time.monotonic() - started < 60
    french = _run([str(installed / "survive-us"), "--lang", "fr", "arbitrate", "--explain",
                   str(request)], tmp_path)
    assert "voit" in french.stdout or "ne peut pas" in french.stdout, french.stdout
    help_fr = _run([str(installed / "survive-us"), "--lang", "fr", "--help"], tmp_path)
    assert "arbitrate" in help_fr.stdout and "usage" not in help_fr.stdout.split()[0]
