"""`survive-us serve [--host 127.0.0.1] [--port 8000] [--db URL]`: the service and the page.

Runs the app under waitress (threads, one process), guarded against slow and malformed
clients (service/httpserver.py; docs/api.md, "Limits" says why this server and these
settings). The database is SQLite in ./data by
default, or `--db` / `DATABASE_URL` (e.g. postgresql://user@host/db). With `--demo` a demo
campaign is created when the database has none, and its link and token are printed. Several
processes on one PostgreSQL database: see docs/api.md (gunicorn).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from service.cli.helptext import HelpText

__all__ = ["register", "run"]


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help=t("help.serve"), description=t("help.serve.description"))
    parser.add_argument("--host", default="127.0.0.1", help=t("help.serve.host"))
    parser.add_argument("--port", type=int, default=8000, help=t("help.serve.port"))
    parser.add_argument("--db", metavar="DATABASE", help=t("help.serve.db"))
    parser.add_argument("--threads", type=int, default=64, metavar="N",
                        help=t("help.serve.threads"))
    parser.add_argument("--client-share", type=float, default=None, metavar="CORES",
                        help=t("help.serve.client_share"))  # service/fair_share.py
    parser.add_argument("--demo", action="store_true", help=t("help.serve.demo"))
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help=t("help.serve.allow_origin"))  # service/request_guard.py
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from geometry.errors import SurviveUsError
    from i18n import render_text
    from service.httpserver import make_server
    from service.jsonio import language, os_reason
    from service.workers import pool
    from service.wsgi import SERVER_DEFAULTS, server_app

    lang = language()
    if not 0 < args.port < 65536:
        print(render_text("cli.serve.port", {"got": args.port}, lang), file=sys.stderr)
        return 2
    share = SERVER_DEFAULTS["CLIENT_SHARE"] if args.client_share is None else args.client_share
    if not 0 <= share <= 64:  # (NaN fails too)
        print(render_text("cli.serve.client_share", {"got": args.client_share}, lang),
              file=sys.stderr)
        return 2
    try:
        # live streams hold a thread each: at most half of them (docs/api.md, "Limits")
        app = server_app({"DATABASE_URL": args.db, "DEMO_CAMPAIGN": args.demo,
                          "ALLOWED_ORIGINS": args.allow_origin, "CLIENT_SHARE": share,
                          "STREAMS_TOTAL": max(1, args.threads // 2)})
    except SurviveUsError as error:
        print(render_text("cli.serve.failed", {"error": error.text(lang)}, lang),
              file=sys.stderr)
        return 2
    try:
        server = make_server(app, args.host, args.port, args.threads)
    except OSError as error:
        print(render_text("cli.serve.listen", {"host": args.host, "port": str(args.port),
                                               "reason": os_reason(error)}, lang),
              file=sys.stderr)
        return 2
    for name in ("ARBITRATE_POOL", "FRAME_POOL", "AI_POOL"):
        if app.config.get(name) is not None:
            pool(app.config[name]).warm()
    base = f"http://{args.host}:{args.port}/"
    print(render_text("cli.serve.started", {"base": base}, lang), flush=True)
    demo = app.config.get("DEMO")
    if demo:
        # one link that opens the demo with write access in the browser it is opened in
        # (the token rides in the fragment, which the browser keeps to itself)
        link = (f"{base}#/campaign/{demo['campaign']}?token={demo['token']}"
                if demo.get("token") else f"{base}?campaign={demo['campaign']}")
        print(render_text("cli.serve.demo", {"link": link}, lang), flush=True)
        if demo.get("game"):
            print(render_text("cli.serve.demo_game", {"link": f"{base}#/game/{demo['game']}"},
                              lang), flush=True)
        if demo.get("token"):
            print(render_text("cli.serve.demo_token", {"token": demo["token"]}, lang),
                  flush=True)
        else:
            print(render_text("cli.serve.demo_no_token", {}, lang), flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
