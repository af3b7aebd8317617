"""Logs: one JSON object per line for machines (the default), plain lines for people.

Every line says where it came from when that is known: the connection (`conn`), its
client address (`address`), the session's player id (`player`) and the room (`room`).
They are found, in order, in the fields a call passes itself (`extra={"room": …}`), the
room whose task is logging (room tasks are named `room-<id>`), and the connection whose
task is logging (`bind_connection`). The connection is looked up per task, not through
context variables, because tasks started by a connection's task (a new room, a lease)
would inherit its context and log under the wrong player.

Session tokens are credentials and must never reach a log: nothing logs one, websockets'
frame dumps (DEBUG) are never switched on, and both formats blank anything shaped like a
token as a last line of defence.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import time
import weakref
from typing import IO, Any, Protocol

#: Two base64url runs joined by a dot, as a session token is (payload.signature).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}")
REDACTED = "[token]"

#: The fields a line may carry about where it came from, in the order they are written.
CONTEXT_FIELDS = ("conn", "address", "player", "room")

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
#: Extras other libraries attach that say nothing in a log line (websockets: the
#: connection object, whose repr is an address in memory).
_DROPPED = {"websocket"}


class Subject(Protocol):
    """What a log line may say about a connection (`server.edge.client.Client`)."""

    @property
    def conn_id(self) -> str: ...

    @property
    def address(self) -> str: ...

    @property
    def player(self) -> str | None: ...

    @property
    def room_id(self) -> str | None: ...


_subjects: weakref.WeakKeyDictionary[asyncio.Task[Any], Subject] = weakref.WeakKeyDictionary()


def bind_connection(subject: Subject) -> None:
    """Lines logged by the current task from now on are about `subject`."""
    task = _current_task()
    if task is not None:
        _subjects[task] = subject


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop (start-up, shutdown, another thread)
        return None


def context_of(record: logging.LogRecord) -> dict[str, str]:
    """Where a record came from: its own fields first, then its task's."""
    found: dict[str, str] = {}
    task = _current_task()
    if task is not None:
        name = task.get_name()
        if name.startswith("room-"):
            found["room"] = name[5:]
        else:
            subject = _subjects.get(task)
            if subject is not None:
                found["conn"] = subject.conn_id
                found["address"] = subject.address
                if subject.player is not None:
                    found["player"] = subject.player
                room = subject.room_id
                if room is not None:
                    found["room"] = room
    for name in CONTEXT_FIELDS:
        value = record.__dict__.get(name)
        if value is not None:
            found[name] = str(value)
    return found


def redact(text: str) -> str:
    return TOKEN_SHAPE.sub(REDACTED, text)


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in record.__dict__.items()
        if key not in _STANDARD
        and key not in CONTEXT_FIELDS
        and key not in _DROPPED
        and not key.startswith("_")
    }


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "msg", conn?, address?, player?, room?, …extras, exc?}`."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(context_of(record))
        for key, value in _extras(record).items():
            line.setdefault(key, _plain(value))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return redact(json.dumps(line, ensure_ascii=False, default=str))


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message [conn=… player=… room=…]`, for a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = {**context_of(record), **_extras(record)}
        if fields:
            tail = " ".join(f"{key}={_plain(value)}" for key, value in fields.items())
            first, newline, rest = text.partition("\n")
            text = f"{first} [{tail}]{newline}{rest}"
        return redact(text)


def configure(level: str, fmt: str, stream: IO[str] | None = None) -> logging.Handler:
    """Send every log line to `stream` (stderr) in `fmt` (`json` or `text`)."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # websockets logs a line per HTTP request and connection at INFO (kept for DEBUG), and
    # every frame's bytes at DEBUG — hellos with their tokens among them: never that.
    quiet = logging.INFO if level == "DEBUG" else logging.WARNING
    logging.getLogger("websockets").setLevel(quiet)
    return handler
