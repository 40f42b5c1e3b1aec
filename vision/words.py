"""The camera's words for people (DESIGN.md: messages are codes and parameters, rendered at
the edge; docs/translation.md).

Errors carry an `i18n.Message`. Results stay language-neutral: a field ``K_words`` holds a
message (or a list of them) as JSON, ``{"code", "params"}``, and its sibling ``K`` the same
in English, so an answer read by a program that knows nothing of languages reads as before.
`say(answer, lang)` puts every ``K_words`` into `lang`'s words in its ``K``: the command line
and the HTTP API call it last, with the language they were asked for.

The texts are in the catalog file ``camera.po`` of each language (codes ``camera.*``).
"""

from __future__ import annotations

import errno
import json
import socket
from collections.abc import Iterable, Mapping
from typing import Any

from i18n import Message, render
from i18n.message import is_message

__all__ = ["say", "words", "plain", "corner", "corners", "side", "shown", "os_reason",
           "net_reason", "SUFFIX"]

#: The suffix of a field that holds the message of its sibling (``reason_words``).
SUFFIX = "_words"

#: Corner names in the order of `Layout.corner_ids` (DESIGN.md: 0 bottom-left, 1 bottom-right,
#: 2 top-right, 3 top-left, bottom being the survivors' deployment edge).
_CORNERS = (Message("camera.corner.bottom_left"), Message("camera.corner.bottom_right"),
            Message("camera.corner.top_right"), Message("camera.corner.top_left"))

#: A side's name inside a sentence ("a zombie base"); other sides keep their own name.
_SIDES = {"survivors": Message("camera.side.survivors"),
          "zombies": Message("camera.side.zombies"),
          "civilians": Message("camera.side.civilians")}


def corner(corner_ids: Iterable[int], marker_id: int) -> Message:
    """Which corner a corner marker lies at ("bottom-left"), as the marker sheet names it."""
    return _CORNERS[list(corner_ids).index(marker_id)]


def corners(corner_ids: Iterable[int], ids: Iterable[int]) -> list[Message]:
    known = list(corner_ids)
    return [corner(known, i) for i in ids]


def side(name: str) -> Message | str:
    """A side as a word in a sentence; a side a colour file invents keeps its own name."""
    return _SIDES.get(name, name)


def shown(value: Any, limit: int = 60) -> str:
    """A bad value as its JSON text (what the person wrote in their file), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


_OS = {errno.ENOENT: Message("camera.os.missing"), errno.EACCES: Message("camera.os.denied"),
       errno.EPERM: Message("camera.os.denied"), errno.EISDIR: Message("camera.os.folder"),
       errno.ENOTDIR: Message("camera.os.not_folder"), errno.ENOSPC: Message("camera.os.full"),
       errno.EROFS: Message("camera.os.read_only"),
       errno.ECONNREFUSED: Message("camera.os.refused"),
       errno.ETIMEDOUT: Message("camera.os.timeout"),
       errno.EHOSTUNREACH: Message("camera.os.unreachable"),
       errno.ENETUNREACH: Message("camera.os.unreachable")}


def os_reason(error: OSError) -> Message:
    """Why the system refused a file, in words (the system's own text is in its language)."""
    found = _OS.get(error.errno or 0)
    if found is not None:
        return found
    name = errno.errorcode.get(error.errno or 0, str(error.errno or "?"))
    return Message("camera.os.other", {"name": name})


def net_reason(error: BaseException) -> Message | str:
    """Why a connection failed (`urllib`'s URLError or an OSError), in words; a reason the
    system gives as text only (rare) is passed on as it is."""
    reason: Any = getattr(error, "reason", error)
    if isinstance(reason, socket.gaierror):
        return Message("camera.os.no_host")
    if isinstance(reason, TimeoutError):
        return Message("camera.os.timeout")
    if isinstance(reason, OSError) and reason.errno:
        return os_reason(reason)
    return str(reason)


def plain(error: Exception) -> Message:
    """The message of one of the project's errors; an error that has only English text
    (raised by code not yet speaking in messages) is wrapped as that text."""
    found = getattr(error, "words", None)
    if isinstance(found, Message):
        return found
    return Message("camera.text", {"text": str(getattr(error, "message", error))})


def words(message: Message | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A message as JSON (``{"code", "params"}``), or None."""
    if message is None:
        return None
    return message.to_json() if isinstance(message, Message) else dict(message)


def say(data: Any, lang: str) -> Any:
    """A copy of `data` (JSON) with every ``K_words`` message rendered in `lang` into ``K``.

    A list of messages renders to a list of texts; anything that is not a message is left as
    it is (an answer posted by an older client keeps its own texts)."""
    if isinstance(data, list):
        return [say(v, lang) for v in data]
    if not isinstance(data, dict):
        return data
    out = {k: say(v, lang) for k, v in data.items()}
    for key, value in data.items():
        if not (isinstance(key, str) and key.endswith(SUFFIX)) or key == SUFFIX:
            continue
        base = key[:-len(SUFFIX)]
        if is_message(value):
            out[base] = render(value, lang)
        elif isinstance(value, list) and value and all(is_message(v) for v in value):
            out[base] = [render(v, lang) for v in value]
    return out
