"""A QR code of a text, drawn as SVG by segno: the page shows its hand-off link (which carries
a write token) as a code another device's camera reads.

The text comes in a POST body, never in the URL, so a token stays out of addresses and
server logs; the answer is not cached. Nothing is stored and no token is needed: the code
only says what the client sent.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from apiflask import APIBlueprint
from flask import Response
from pydantic import Field

from i18n import Message
from service.errors import ApiError
from service.schemas import Strict

__all__ = ["bp", "MAX_TEXT", "qr_svg"]

bp = APIBlueprint("qr", __name__, tag="Page")

MAX_TEXT = 2000  # characters; a version-40 code at level M holds 2,331 bytes
QUIET = 4  # modules of light border, as the standard asks, so a camera finds the code

SVG_DOC: Any = {200: {"description": "the QR code as an SVG image (dark modules on white)",
                      "content": {"image/svg+xml": {"schema": {"type": "string"}}}}}


class QrIn(Strict):
    text: str = Field(min_length=1, max_length=MAX_TEXT,
                      description=f"what the code says (a link), at most {MAX_TEXT} characters")


def qr_svg(text: str) -> bytes:
    """The QR code of `text` (error correction M, the smallest version that holds it) as a
    scalable SVG: one unit per module, no fixed size, a white quiet zone around."""
    try:
        code = segno.make(text, error="m", micro=False)
    except segno.DataOverflowError:
        raise ApiError(Message("service.qr.too_long", {"n": MAX_TEXT}), "json.text",
                       code="too_long") from None
    except UnicodeError:  # a lone surrogate: no encoding can write it
        raise ApiError(Message("service.qr.unencodable"), "json.text",
                       code="invalid_text") from None
    out = io.BytesIO()
    code.save(out, kind="svg", border=QUIET, omitsize=True, xmldecl=False,
              dark="#000", light="#fff", svgclass=None, lineclass=None)
    return out.getvalue()


@bp.post("/qr")
@bp.input(QrIn, arg_name="body")
@bp.doc(summary="A QR code of a text (the page's hand-off link) as SVG; the text in the body "
        "keeps a token out of addresses and logs", responses=SVG_DOC)
def post_qr(body: QrIn) -> Response:
    response = Response(qr_svg(body.text), mimetype="image/svg+xml")
    response.cache_control.no_store = True
    return response
