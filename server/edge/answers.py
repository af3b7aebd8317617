"""Request ids a session has used, and the answers it got: a request sent twice is
carried out once.

A client that is not sure its request arrived — a frame sent twice by a flaky network
stack, a retry after a timeout, a resend after reconnecting — used to have it carried out
twice: the same shot frame sent twice was played twice whenever the shooter kept the
table. Every state-changing request (`STATE_CHANGING`) is therefore looked up by its `id`
before anything is done with it:

- an id already answered gets that first answer again (the same bytes), and nothing is
  carried out;
- an id still being handled (posted to a room, not answered yet) is not carried out
  either: its answer goes out once more when it comes, one for each time it was sent;
- a new id is noted, and the first answer that echoes it (`ok`, `joined` or `error`) is
  kept for it.

Answers that say the request was not handled and may be sent again (`RETRY_CODES`) are
not kept: the repeat is carried out. This lives at the edge, on the connection (and, for a
client that asks in its `hello`, on the session across reconnects), so rooms stay pure:
the answer of a room on another node comes back through the same connection object, and
is kept here like any other.
"""

from __future__ import annotations

from collections import OrderedDict

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.practice import PRACTICE_CHANGES

#: The requests that change something; the others (hello, lobby, ping, resync, aim) are
#: answered every time, as before.
STATE_CHANGING = (
    m.Create,
    m.Join,
    m.Quick,
    m.Computer,
    m.Leave,
    m.Sit,
    m.Ready,
    m.Place,
    m.Shot,
    m.LagShot,
    m.LagChoice,
    m.Choose,
    m.Concede,
    m.Stalemate,
    m.Extend,
    m.Chat,
    m.Rematch,
    *PRACTICE_CHANGES,
)

#: Error codes that mean "not handled, send it again": never kept for the id.
RETRY_CODES = frozenset({errors.RATE_LIMITED, errors.INTERNAL, errors.SHUTTING_DOWN, "room_moving"})

#: Answered ids one session remembers (the oldest forgotten first).
REMEMBERED = 64
#: Seconds an unanswered id is waited for; a repeat after that is carried out (its first
#: sending was lost with a room that moved, say).
WAIT_FOR_ANSWER = 30.0

#: How the answers that can echo an id start: msgspec writes the tag first.
_ANSWER_HEADS = (b"\xa1t\xa2ok", b"\xa1t\xa6joined", b"\xa1t\xa5error")


class _Echo(msgspec.Struct):
    """The fields of an answer that matter here (the tag and the rest are skipped)."""

    id: int | None = None
    code: str | None = None


_decode_echo = msgspec.msgpack.Decoder(_Echo).decode


class Answers:
    """One session's recent request ids and their first answers."""

    def __init__(self, size: int = REMEMBERED, wait: float = WAIT_FOR_ANSWER) -> None:
        self.size = size
        self.wait = wait
        self.answered: OrderedDict[int, bytes] = OrderedDict()
        #: id -> when it was taken on (loop time), and how often it came again meanwhile.
        self.waiting: dict[int, tuple[float, int]] = {}

    def begin(self, request_id: int, now: float) -> bytes | None:
        """Before carrying out request `request_id`: None to go ahead (it is noted), else
        what to do instead — the first answer to send again, or `b""` when the answer is
        still coming (it will go out once more for this repeat)."""
        answer = self.answered.get(request_id)
        if answer is not None:
            self.answered.move_to_end(request_id)
            return answer
        pending = self.waiting.get(request_id)
        if pending is not None and now - pending[0] < self.wait:
            self.waiting[request_id] = (pending[0], pending[1] + 1)
            return b""
        if len(self.waiting) >= self.size:  # never answered: forget the oldest
            del self.waiting[min(self.waiting, key=lambda key: self.waiting[key][0])]
        self.waiting[request_id] = (now, 0)
        return None

    def sent(self, frame: bytes) -> int:
        """A frame for this session alone is going out: keep it if it answers a request
        being handled. Returns how many more times it goes out (the repeats that came
        while it was being handled)."""
        if not self.waiting or not frame[1:12].startswith(_ANSWER_HEADS):
            return 0
        try:
            echo = _decode_echo(frame)
        except msgspec.DecodeError:
            return 0
        pending = self.waiting.pop(echo.id, None) if echo.id is not None else None
        if echo.id is None or pending is None:
            return 0
        if echo.code not in RETRY_CODES:
            self.answered[echo.id] = frame
            while len(self.answered) > self.size:
                self.answered.popitem(last=False)
        return pending[1]
