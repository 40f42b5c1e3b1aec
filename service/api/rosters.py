"""Rosters (warbands): create, read, update, validate, delete.

Validation lists every problem at once with its fix and prices the band, exactly as
`survive-us band check --json` does (rules/warband.py). Changing or deleting a stored roster
needs the token handed out when it was created.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from apiflask import APIBlueprint
from flask import Response

from i18n import Message
from rules.catalog import load_catalog
from rules.settings import Settings
from rules.warband import Roster, validate
from service.app import services
from service.cli.band import costs
from service.errors import NotFound
from service.language import request_lang
from service.schemas import CreatedRosterOut, RosterIn, RosterOut, ValidationOut
from service.storage import records
from service.tokens import new_token, require_token
from service.words import localized, stored

bp = APIBlueprint("rosters", __name__, tag="Rosters")


def check(roster: Roster, settings: Settings) -> dict[str, Any]:
    """`band check --json`'s body: legal or not, every problem (in the request's language
    where it has words), the costs."""
    catalog = load_catalog()
    problems = validate(roster, catalog, settings)
    errors = sum(p.severity == "error" for p in problems)
    lang = request_lang()
    return {"name": roster.name, "legal": errors == 0, "errors": errors,
            "warnings": len(problems) - errors,
            "problems": [localized(p.to_json(), lang) for p in problems],
            "cost": costs(roster, catalog, settings)}


def parse(body: RosterIn) -> tuple[Roster, Settings]:
    roster = Roster.from_json(body.roster, "roster")
    settings = Settings.from_json(body.settings) if body.settings else Settings()
    return roster, settings


def out(row: sa.Row[Any], token: str | None = None) -> dict[str, Any]:
    roster = Roster.from_json(row.data)
    settings = Settings.from_json(row.settings) if row.settings else Settings()
    body = {"id": row.id, "version": row.version, "roster": row.data,
            "settings": row.settings, "validation": check(roster, settings)}
    if token is not None:
        body["token"] = token
    return body


@bp.post("/rosters/validate")
@bp.input(RosterIn, arg_name="body")
@bp.output(ValidationOut)
@bp.doc(summary="Check a band without storing it: every problem, and the costs")
def post_validate(body: RosterIn) -> dict[str, Any]:
    return check(*parse(body))


@bp.post("/rosters")
@bp.input(RosterIn, arg_name="body")
@bp.output(CreatedRosterOut, status_code=201)
@bp.doc(summary="Store a band (legal or not); answers its id, its token and its check")
def post_roster(body: RosterIn) -> dict[str, Any]:
    roster, settings = parse(body)
    token, digest = new_token()
    db = services().db
    with db.write() as conn:
        roster_id = records.insert_roster(conn, digest, roster.to_json(), settings.to_json())
    with db.read() as conn:
        return out(records.get_roster(conn, roster_id), token)


@bp.get("/rosters/<id:roster_id>")
@bp.output(RosterOut)
@bp.doc(summary="A stored band, with its check")
def get_roster(roster_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        return out(records.get_roster(conn, roster_id))


@bp.get("/rosters/<id:roster_id>/validation")
@bp.output(ValidationOut)
@bp.doc(summary="A stored band's problems and costs")
def get_validation(roster_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        row = records.get_roster(conn, roster_id)
    return check(Roster.from_json(row.data),
                 Settings.from_json(row.settings) if row.settings else Settings())


@bp.put("/rosters/<id:roster_id>")
@bp.input(RosterIn, arg_name="body")
@bp.output(RosterOut)
@bp.doc(summary="Replace a stored band (token needed)", security="Bearer")
def put_roster(roster_id: str, body: RosterIn) -> dict[str, Any]:
    db = services().db
    with db.write() as conn:
        _owned(conn, roster_id)
        roster, settings = parse(body)
        records.update_roster(conn, roster_id, roster.to_json(), settings.to_json())
    with db.read() as conn:
        return out(records.get_roster(conn, roster_id))


@bp.delete("/rosters/<id:roster_id>")
@bp.output({}, status_code=204)
@bp.doc(summary="Delete a stored band (token needed)", security="Bearer")
def delete_roster(roster_id: str) -> Response:
    with services().db.write() as conn:
        row = _owned(conn, roster_id)
        records.delete_roster(conn, roster_id, row.token_hash)
    return Response(status=204)


def _owned(conn: sa.Connection, roster_id: str) -> sa.Row[Any]:
    """The roster, locked, once the request's token opens it. A deleted roster's token is
    kept: a wrong one is refused (403) as it was, the right one hears that it was deleted
    (404), so a change replayed without its owner's token never reads as a missing band."""
    try:
        row = records.get_roster(conn, roster_id, lock=True)
    except NotFound:
        kept = records.deleted_token(conn, roster_id)
        if kept is None:
            raise
        require_token(kept, stored("roster", roster_id))
        raise NotFound(Message("service.roster.deleted", {"what": stored("roster", roster_id)}),
                       "id") from None
    require_token(row.token_hash, stored("roster", roster_id))
    return row
