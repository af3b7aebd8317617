"""What nodes say to each other over the bus: MessagePack envelopes, all declared here.

- `Action`   a node → a room's owner (`room:<id>:actions`): what a client connected to
             that node asked of the room (enter, a request, reattach, rejoin, gone).
- `Batch`    an owner → one node (`node:<id>`): frames for that node's clients and the
             membership changes that go with them, in the order the room made them.
- `DirOp`    any node → every node (the directory channel): the cluster-wide lobby list,
             invite codes, seated players and room owners changed.

A relaying node reads only what it needs of a frame from an owner (`Peek`, `Delivery`:
its type, seq and answered request, and who a snapshot seats), once per frame.

A client's own frames (its `ok`, `error`, `joined`, the `snapshot` sent to it alone) and
the room events broadcast to it travel in one `Batch` stream per node, so they arrive in
the order the room produced them, exactly as on a lone node.
"""

from __future__ import annotations

from typing import Literal

import msgspec

ActionKind = Literal["enter", "request", "reattach", "rejoin", "gone"]


class Action(msgspec.Struct, array_like=True, frozen=True):
    kind: ActionKind
    #: The node the client is connected to, and the connection's number there.
    node: str
    conn: int
    player: str
    name: str
    request_id: int = 0
    role: Literal["player", "spectator"] = "player"
    #: `enter` of a private room: the joiner gave the room's invite code.
    invited: bool = False
    #: `request`: the client's message as it sent it (validated again by the owner).
    frame: bytes = b""


ItemKind = Literal["frame", "event", "member", "left", "close", "rehome"]


class Item(msgspec.Struct, array_like=True, frozen=True):
    """One thing for some of a node's connections.

    - `frame`  send `frame` to every connection in `conns` (a reply, a snapshot of its own);
    - `event`  the same for a room event broadcast to them (skipped for a connection that
               is behind: the snapshot it gets when it has caught up replaces it);
    - `member` `conns[0]` is now in `room`, having every event up to `seq`;
    - `left`   `conns[0]` is no longer in `room`;
    - `close`  close `conns[0]` with `code` and `reason`;
    - `rehome` the owner of `room` is going away, or has let `conns[0]` go (its node was
               found dead, perhaps only paused): find the room's owner for it again."""

    kind: ItemKind
    conns: list[int]
    #: The sender's fencing epoch for the room the item is about: a node keeps the
    #: highest it has seen per room and drops what comes from an older owner (one that
    #: was paused, say, and speaks up late).
    epoch: int = 0
    room: str = ""
    seq: int = 0
    frame: bytes = b""
    code: int = 0
    reason: str = ""


class Batch(msgspec.Struct, array_like=True, frozen=True):
    #: The node that sent it (the owner of the rooms it speaks of).
    node: str
    items: list[Item]


DirKind = Literal["info", "gone", "seat", "unseat", "owner"]


class DirOp(msgspec.Struct, array_like=True, frozen=True):
    """One change of the directory.

    - `info`   `room` is open; `info` is its lobby entry (empty for a private room) and
               `key` its invite code (empty for a public room);
    - `gone`   `room` has closed;
    - `seat` / `unseat`  player `key` sits / no longer sits in `room`;
    - `owner`  node `key` owns `room` now, at fencing epoch `epoch`."""

    kind: DirKind
    origin: str
    room: str
    key: str = ""
    info: bytes = b""
    epoch: int = 0


class Peek(msgspec.Struct):
    """The fields of a server frame a relaying node needs to keep a client's events
    in order (decoding skips everything else, trajectories included)."""

    t: str
    seq: int | None = None
    role: str | None = None
    #: The request a reply answers (`ok`, `error`, `joined`, a `snapshot` asked for).
    id: int | None = None


_encoder = msgspec.msgpack.Encoder()
_action_decoder = msgspec.msgpack.Decoder(Action)
_batch_decoder = msgspec.msgpack.Decoder(Batch)
_dir_decoder = msgspec.msgpack.Decoder(DirOp)
_peek_decoder = msgspec.msgpack.Decoder(Peek)


def encode(value: Action | Batch | DirOp) -> bytes:
    return _encoder.encode(value)


def decode_action(data: bytes) -> Action:
    return _action_decoder.decode(data)


def decode_batch(data: bytes) -> Batch:
    return _batch_decoder.decode(data)


def decode_dir_op(data: bytes) -> DirOp:
    return _dir_decoder.decode(data)


def peek(frame: bytes) -> Peek:
    return _peek_decoder.decode(frame)


class _SeatPeek(msgspec.Struct):
    player: str


class _ViewPeek(msgspec.Struct):
    seats: list[_SeatPeek | None]


class _SnapshotPeek(msgspec.Struct):
    """The part of a `snapshot` frame that says who is seated (the rest is skipped)."""

    view: _ViewPeek


_snapshot_peek = msgspec.msgpack.Decoder(_SnapshotPeek)


def seated_players(snapshot: bytes) -> frozenset[str] | None:
    """The players seated in the room a `snapshot` frame shows (None: unreadable): a member
    of the room whose player is not among them is a spectator."""
    try:
        view = _snapshot_peek.decode(snapshot).view
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return frozenset(seat.player for seat in view.seats if seat is not None)


class Delivery:
    """A frame from an owner for some of this node's clients, read at most once however
    many of them get it: its type and seq, and (for a snapshot) who is seated."""

    def __init__(self, frame: bytes) -> None:
        self.frame = frame
        self._peeked: Peek | None = None
        self._seated: frozenset[str] | None = None
        self._seats_read = False

    @property
    def peeked(self) -> Peek:
        if self._peeked is None:
            try:
                self._peeked = peek(self.frame)
            except (msgspec.DecodeError, msgspec.ValidationError):
                self._peeked = Peek(t="")
        return self._peeked

    @property
    def seated(self) -> frozenset[str] | None:
        if not self._seats_read:
            self._seated, self._seats_read = seated_players(self.frame), True
        return self._seated
