"""Coverage-guided fuzz targets for atheris, one `TestOneInput(data)` per target.

The hypothesis tests next to this file sample inputs from strategies someone wrote; these
targets let libFuzzer grow inputs from the coverage they reach, so they find the branches
nobody thought to write a strategy for. Each target accepts any bytes and must return
normally: any exception that escapes (a refusal with the wrong type or code, a failed
assertion) is a finding, which atheris reports with the input that caused it.

- `decoder`: `protocol.codec.decode_client` on the bytes as one binary frame (and as a
  text frame): a client message, or `ProtocolError` with `bad_frame` / `bad_message`. An
  accepted message re-encodes to a frame that decodes to the same message, and the
  reference `msgpack` codec agrees with the decoder (see `test_fuzz_decoder.py`).
- `trajectory`: `protocol.trajectory.decode_tracks` on the bytes as sent and on the bytes
  with a correct checksum appended (so the fuzzer gets past the CRC into the structure):
  sane tracks, or `TrajectoryError`. Decoded tracks read back at any time and re-encode to
  the same tracks unless a value lies in the decoder's documented slack.
- `referee`: a match played from a fresh rack with actions read from the bytes
  (`atheris.FuzzedDataProvider`), against `server.rules.apply`: every action is applied
  or refused with `RuleError` and a stable code; a refused action leaves the state's
  encoding unchanged; an applied one keeps every invariant of the property tests
  (`tests/rules/test_referee_properties.py`), the state round-trips through MessagePack
  and the action through the replay log's encoding.
- `table`: the room's pure layer (`server/rooms/table.py`) driven as a room drives it, with
  schema-checked placements and shots simulated by the real physics worker function:
  every step is applied or refused with `TableError` carrying a documented protocol error
  code; a refusal changes nothing; after every step the balls agree with the referee and
  the frames the room would send decode with the server schema.

The corpus in `corpus/` (client frames) seeds every target; `seed_files` adds inputs of
a target's own (trajectory bodies from `protocol/vectors/trajectory.json`). Run a target
with `python -m tests.fuzz.atheris_run TARGET` (see README.md).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import atheris
import msgpack.fallback
import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import ProtocolError, decode_client, decode_server, encode
from protocol.trajectory import (
    MAX_TIME,
    TICK,
    Segment,
    TrajectoryError,
    decode_tracks,
    duration,
    encode_tracks,
    position_at,
    state_at,
)
from server import physics, rules
from server.rooms.simulation import run_shot
from server.rooms.table import PLAYERS as SEATS
from server.rooms.table import (
    Table,
    TableError,
    apply_action,
    complete_shot,
    decide_lag,
    new_table,
    place_cue_ball,
    player_seat,
    prepare_shot,
)
from server.rooms.views import final_view, shot_report_view, table_view, verdict_view
from server.rules import (
    Choose,
    ClockExpired,
    Concede,
    Forfeit,
    LagResult,
    MatchState,
    RuleError,
    Settings,
    ShotAction,
    Stalemate,
    apply,
    decode_state,
    encode_state,
    new_match,
)
from server.rules.actions import Action
from server.rules.errors import ALL_CODES
from server.rules.state import check_state
from tests.fuzz.test_fuzz_decoder import assert_reference_agrees
from tests.rules.test_referee_properties import PLAYERS, check_invariants

REPO: Final = Path(__file__).resolve().parents[2]
VECTORS: Final = REPO / "protocol" / "vectors" / "trajectory.json"

# --- decoder --------------------------------------------------------------------------------

DECODE_CODES: Final = frozenset({errors.BAD_FRAME, errors.BAD_MESSAGE})
MAX_REQUEST_ID: Final = 2**31 - 1


def _check_refusal(exc: ProtocolError) -> None:
    assert exc.code in DECODE_CODES, f"decoder refused with {exc.code!r}"
    assert exc.code in errors.ERROR_CODES
    assert isinstance(exc.message, str) and exc.message, "a refusal must say why"
    assert exc.request_id is None or 0 <= exc.request_id <= MAX_REQUEST_ID, exc.request_id


def _reference_parse(data: bytes) -> None:
    """The frame through the reference codec's pure-Python reader, result unused.

    The decoder under test is compiled code, invisible to coverage; the reference reader's
    branches show libFuzzer the frame's structure (maps, arrays, each type of value), so
    inputs that reach new shapes of MessagePack are kept and mutated further.
    """
    try:
        msgpack.fallback.unpackb(data, raw=False, strict_map_key=False)
    except Exception:  # any refusal: here the reference codec is only a guide
        return


def decoder_input(data: bytes) -> None:
    """One client frame: decoded and equal after a round trip, or refused as documented."""
    _reference_parse(data)
    try:
        message = decode_client(data)
    except ProtocolError as exc:
        _check_refusal(exc)
    else:
        frame = encode(message)
        again = decode_client(frame)
        assert again == message, f"{message!r} re-decoded as {again!r}"
        assert encode(again) == frame, "re-encoding is not stable"
        assert_reference_agrees(data, message)
    # The same bytes as a text frame (when they are UTF-8) are always bad_frame.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    try:
        decode_client(text)
    except ProtocolError as exc:
        _check_refusal(exc)
        assert exc.code == errors.BAD_FRAME
    else:
        raise AssertionError("a text frame was accepted")


# --- trajectory -----------------------------------------------------------------------------

#: The encoder's accepted input (protocol/TRAJECTORY.md); the decoder allows 1 more.
POSITION_LIMIT: Final = 100.0
VELOCITY_LIMIT: Final = 100.0
ACCELERATION_LIMIT: Final = 1000.0
SPIN_LIMIT: Final = 1.0e4
SPIN_RATE_LIMIT: Final = 1.0e5
DECODE_SLACK: Final = 1.0


def _within(segment: Segment, slack: float) -> bool:
    """Every value of the segment inside the accepted input limits plus `slack`."""
    bounds = (
        ((segment.x, segment.y, segment.z), POSITION_LIMIT),
        ((segment.vx, segment.vy, segment.vz), VELOCITY_LIMIT),
        ((segment.ax, segment.ay, segment.az), ACCELERATION_LIMIT),
        ((segment.wx, segment.wy, segment.wz), SPIN_LIMIT),
        ((segment.dwx, segment.dwy, segment.dwz), SPIN_RATE_LIMIT),
    )
    return all(abs(value) <= limit + slack for values, limit in bounds for value in values)


def _check_tracks(tracks: dict[int, list[Segment]]) -> None:
    balls = list(tracks)
    assert balls == sorted(set(balls)) and all(0 <= b <= 255 for b in balls), balls
    for ball, track in tracks.items():
        assert track, f"ball {ball} has no segments"
        starts = [segment.t0 for segment in track]
        assert all(a < b for a, b in itertools.pairwise(starts)), starts
        for segment in track:
            assert all(math.isfinite(value) for value in segment), segment
            assert 0.0 <= segment.t0 < MAX_TIME and (segment.t0 / TICK).is_integer(), segment
            assert segment.state in range(7), segment
            assert _within(segment, DECODE_SLACK), segment
        # Reading the track at any time works; positions stay finite.
        for t in (-1.0, 0.0, *starts, starts[-1] + TICK / 2, duration(tracks) + 1.0, MAX_TIME):
            state = state_at(tracks, ball, t)
            assert all(math.isfinite(value) for value in state), (t, state)
            position = position_at(tracks, ball, t)
            assert position is None or all(map(math.isfinite, position)), (t, position)
    # Re-encoding gives back the very same tracks, unless a value lies in the decoder's
    # slack past the encoder's limits, which the encoder then refuses.
    try:
        again = encode_tracks(tracks)
    except TrajectoryError:
        assert not all(_within(s, 0.0) for track in tracks.values() for s in track)
        return
    assert decode_tracks(again) == tracks, "decoded tracks do not re-encode to themselves"


def _check_trajectory(data: bytes) -> None:
    try:
        tracks = decode_tracks(data)
    except TrajectoryError as exc:
        assert str(exc), "a refusal must say why"
        return
    _check_tracks(tracks)


def trajectory_input(data: bytes) -> None:
    """The bytes as sent (the checksum guards), then sealed with their own checksum."""
    _check_trajectory(data)
    _check_trajectory(data + zlib.crc32(data).to_bytes(4, "little"))


def trajectory_seeds() -> dict[str, bytes]:
    """Bodies (without their checksum: the target appends one) of the stored vectors."""
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    seeds = {}
    for index, case in enumerate(vectors["cases"]):
        seeds[f"vector-{index}"] = bytes.fromhex(case["hex"])[:-4]
    for index, case in enumerate(vectors["errors"]):
        seeds[f"error-{index}"] = bytes.fromhex(case["hex"])
    return seeds


# --- referee --------------------------------------------------------------------------------

#: Who may be named as acting: both players, a stranger, an empty name, and names that
#: are not text at all.
ACTORS: Final[tuple[Any, ...]] = (*PLAYERS, "C", "", None, 0)
#: Values a ball list may hold: every ball, numbers that are no ball, and wrong types.
BALL_VALUES: Final[list[Any]] = [*range(10), 10, -1, 99, True, 1.0, "1", None]
#: Ball "lists" that are no list of balls at all.
NOT_BALL_LISTS: Final[list[Any]] = [3, "123", b"\x01", {1, 2}, None]


def _pick(fdp: atheris.FuzzedDataProvider, values: Sequence[Any]) -> Any:
    return fdp.PickValueInList(list(values))


def _settings(fdp: atheris.FuzzedDataProvider) -> Settings:
    """Mostly short races; the last value of each list is out of range (refused)."""
    return Settings(
        race_to=_pick(fdp, [1, 2, 3, 5, 21, 0, 22]),
        break_order=_pick(fdp, ["winner", "alternate", "loser", "trailing", "random"]),
        stalemate_innings=_pick(fdp, [0, 1, 2, 3, 20, 1000, -1]),
        forfeit=_pick(fdp, ["game", "match", "set"]),
    )


def _balls(fdp: atheris.FuzzedDataProvider, state: MatchState, most: int) -> Any:
    """A ball list: usually balls on the table (and the cue ball), sometimes anything."""
    style = fdp.ConsumeIntInRange(0, 15)
    if style == 0:
        return _pick(fdp, NOT_BALL_LISTS)
    pool: list[Any] = [0, *state.on_table] if style > 1 else BALL_VALUES
    return tuple(_pick(fdp, pool) for _ in range(fdp.ConsumeIntInRange(0, most)))


def _actor(fdp: atheris.FuzzedDataProvider, state: MatchState) -> Any:
    if state.turn is not None and fdp.ConsumeIntInRange(0, 3):
        return state.turn
    return _pick(fdp, ACTORS)


def _shot(fdp: atheris.FuzzedDataProvider, state: MatchState) -> ShotAction:
    by = _actor(fdp, state)
    lowest = state.on_table[0] if state.on_table else None
    push_out = fdp.ConsumeBool()
    style = fdp.ConsumeIntInRange(0, 3)
    if style == 0:  # a legal miss: the lowest ball first, the cue ball to a rail
        return ShotAction(by, lowest, (0,), (), (), push_out)
    if style == 1 and state.on_table:  # a legal pot of one ball
        return ShotAction(by, lowest, (), (_pick(fdp, state.on_table),), (), push_out)
    first = _pick(fdp, [lowest, *BALL_VALUES])
    odd: Any = _pick(fdp, [push_out, 1, None])  # push_out must be a bool
    return ShotAction(
        by, first, _balls(fdp, state, 6), _balls(fdp, state, 3), _balls(fdp, state, 2), odd
    )


def _action(fdp: atheris.FuzzedDataProvider, state: MatchState) -> Action:
    kind = fdp.ConsumeIntInRange(0, 9)
    any_: Any  # values outside an action's declared types are the referee's to refuse
    if kind <= 3:
        return _shot(fdp, state)
    if kind == 4:
        any_ = _pick(fdp, ["shoot", "pass", "skip"])
        return Choose(_actor(fdp, state), any_)
    if kind == 5:
        return ClockExpired(_actor(fdp, state))
    if kind == 6:
        any_ = _pick(fdp, ["propose", "accept", "reject"])
        return Stalemate(_actor(fdp, state), any_)
    if kind == 7:
        any_ = _pick(fdp, ["game", "match", "set"])
        return Concede(_actor(fdp, state), any_)
    if kind == 8:
        return Forfeit(_actor(fdp, state))
    return LagResult(_pick(fdp, ACTORS), _pick(fdp, [None, *ACTORS]))


def _logged(action: Action) -> Action:
    """The action as a replay log gives it back: MessagePack, decoded by its tag."""
    logged: Action = msgspec.msgpack.decode(msgspec.msgpack.encode(action), type=Action)
    assert logged == action, f"{action!r} was logged as {logged!r}"
    return logged


MAX_ACTIONS: Final = 200


def referee_input(data: bytes) -> None:
    """A match from a fresh rack, one action after another, as far as the bytes go."""
    fdp = atheris.FuzzedDataProvider(data)
    try:
        settings = _settings(fdp)
    except RuleError as exc:
        assert exc.code == rules.errors.INVALID_SETTINGS, exc.code
        return
    state = new_match(settings, PLAYERS, _pick(fdp, [None, *PLAYERS]))
    check_state(state)
    for _ in range(MAX_ACTIONS):
        if fdp.remaining_bytes() == 0:
            break
        action = _action(fdp, state)
        before = encode_state(state)
        try:
            outcome = apply(state, action)
        except RuleError as exc:
            assert exc.code in ALL_CODES, f"unknown rule error code {exc.code!r}"
            assert exc.message, "a refusal must say why"
            assert encode_state(state) == before, f"refused {action!r} changed the state"
            continue
        assert encode_state(state) == before, f"apply changed its input state ({action!r})"
        assert apply(state, action) == outcome, "apply is not deterministic"
        check_invariants(state, action, outcome.state, outcome.verdict)
        # A match is resumed from a snapshot and replayed from the log of its actions.
        replayed = apply(decode_state(before), _logged(action))
        assert replayed == outcome, "replaying the logged action gave another outcome"
        state = outcome.state


# --- table ----------------------------------------------------------------------------------

MAX_TABLE_STEPS: Final = 12
#: Shots are simulated for real (a few milliseconds each): a handful per input.
MAX_TABLE_SHOTS: Final = 4


@dataclass
class _Match:
    """A table and how the room would announce each step."""

    table: Table
    seq: int = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq


def _table_encoding(table: Table) -> bytes:
    return msgspec.msgpack.encode(table)


def _check_table(table: Table) -> None:
    """The balls agree with the referee, and the state is a valid snapshot."""
    state = table.state
    check_state(state)
    assert decode_state(encode_state(state)) == state
    assert len(table.balls) == 10
    for ball in range(1, 10):
        placed = table.balls[ball] is not None
        assert placed == (ball in state.on_table), (ball, table.balls, state.on_table)
    assert table.balls[0] is not None, "the cue ball has no place on the table"


def _check_frame(message: m.ServerMessage) -> None:
    """A frame the room sends decodes with the server schema to the same message."""
    frame = encode(message)
    try:
        decoded = decode_server(frame)
    except msgspec.ValidationError as exc:
        raise AssertionError(f"the server schema refuses its own {message!r}: {exc}") from exc
    assert encode(decoded) == frame


def _check_refused(exc: TableError, before: bytes, table: Table) -> None:
    assert exc.code in errors.ERROR_CODES, f"undocumented table error code {exc.code!r}"
    assert exc.message, "a refusal must say why"
    assert _table_encoding(table) == before, "a refused step changed the table"


def _client_message(message: m.ClientMessage) -> m.ClientMessage | None:
    """The message as the room would get it, or None where the schema refuses it."""
    try:
        return decode_client(encode(message))
    except ProtocolError:
        return None


def _place(fdp: atheris.FuzzedDataProvider, match: _Match, seat: int) -> None:
    x = fdp.ConsumeFloatInRange(-0.1, 2.64) if fdp.ConsumeBool() else fdp.ConsumeRegularFloat()
    y = fdp.ConsumeFloatInRange(-0.1, 1.37) if fdp.ConsumeBool() else fdp.ConsumeRegularFloat()
    place = _client_message(m.Place(id=1, pos=(x, y)))
    if not isinstance(place, m.Place):
        return
    before = _table_encoding(match.table)
    try:
        match.table = place_cue_ball(match.table, SEATS[seat], place.pos)
    except TableError as exc:
        _check_refused(exc, before, match.table)
        return
    _check_table(match.table)
    _check_frame(m.Placed(room="fuzz", seq=match.next_seq(), seat=seat, pos=place.pos))


def _strike(fdp: atheris.FuzzedDataProvider, match: _Match, seat: int) -> None:
    shot = _client_message(
        m.Shot(
            id=1,
            angle=fdp.ConsumeFloatInRange(-360.0, 360.0),
            speed=fdp.ConsumeFloatInRange(0.0, 12.5),
            tip=(fdp.ConsumeFloatInRange(-0.03, 0.03), fdp.ConsumeFloatInRange(-0.03, 0.03)),
            elevation=fdp.ConsumeFloatInRange(0.0, 89.0) if fdp.ConsumeBool() else 0.0,
            push_out=fdp.ConsumeBool(),
        )
    )
    if not isinstance(shot, m.Shot):
        return
    by = SEATS[seat]
    before = _table_encoding(match.table)
    struck = physics.Shot(
        angle=shot.angle, speed=shot.speed, tip=shot.tip, elevation=shot.elevation
    )
    try:
        balls, struck = prepare_shot(match.table, by, struck, shot.push_out)
    except TableError as exc:
        _check_refused(exc, before, match.table)
        return
    # The function the room's physics worker runs: simulate, then encode the trajectory.
    result = run_shot(balls, struck.angle, struck.speed, struck.tip, struck.elevation)
    _check_tracks(decode_tracks(result.traj))
    step = complete_shot(match.table, by, shot.push_out, result.final, result.report)
    match.table = step.table
    _check_table(match.table)
    _check_frame(
        m.ShotResult(
            room="fuzz",
            seq=match.next_seq(),
            shooter=seat,
            shot=m.ShotInput(shot.angle, shot.speed, shot.tip, shot.elevation, shot.push_out),
            traj=result.traj,
            duration=result.duration,
            miscue=result.miscue,
            report=shot_report_view(result),
            verdict=verdict_view(step.verdict),
            table=table_view(match.table, None),
            final=final_view(result),
        )
    )


def _referee_step(match: _Match, seat: int, action: rules.Action, name: str) -> None:
    """A referee action through the table, announced as the room does (`name`)."""
    before = _table_encoding(match.table)
    try:
        if isinstance(action, LagResult):
            step = decide_lag(match.table, action.winner, action.breaker)
        else:
            step = apply_action(match.table, action)
    except TableError as exc:
        _check_refused(exc, before, match.table)
        return
    match.table = step.table
    _check_table(match.table)
    _check_frame(
        m.Ruling(
            room="fuzz",
            seq=match.next_seq(),
            by=seat,
            action=name,  # type: ignore[arg-type]
            verdict=verdict_view(step.verdict),
            table=table_view(match.table, None),
        )
    )


def table_input(data: bytes) -> None:
    """A room's match at the pure table layer, one seated player's request after another."""
    fdp = atheris.FuzzedDataProvider(data)
    settings = Settings(
        race_to=_pick(fdp, [1, 2, 3]),
        break_order=_pick(fdp, ["winner", "alternate", "loser", "trailing"]),
        stalemate_innings=_pick(fdp, [0, 1, 2, 20]),
        forfeit=_pick(fdp, ["game", "match"]),
    )
    breaker = _pick(fdp, [None, *SEATS])
    match = _Match(new_table(settings, fdp.ConsumeIntInRange(0, 2**32), 1, breaker))
    _check_table(match.table)
    shots = 0
    for _ in range(MAX_TABLE_STEPS):
        if fdp.remaining_bytes() == 0:
            break
        # A seated player; usually the one to act.
        turn = player_seat(match.table.state.turn)
        if turn is None or not fdp.ConsumeIntInRange(0, 3):
            turn = fdp.ConsumeIntInRange(0, 1)
        seat = turn
        by = SEATS[seat]
        kind = fdp.ConsumeIntInRange(0, 9)
        if kind <= 1:
            _place(fdp, match, seat)
        elif kind <= 3:
            if shots < MAX_TABLE_SHOTS:
                shots += 1
                _strike(fdp, match, seat)
        elif kind == 4:
            choice = _pick(fdp, ["shoot", "pass"])
            _referee_step(match, seat, Choose(by, choice), f"choose_{choice}")
        elif kind == 5:
            what = _pick(fdp, ["game", "match"])
            _referee_step(match, seat, Concede(by, what), f"concede_{what}")
        elif kind == 6:
            proposal = _pick(fdp, ["propose", "accept"])
            _referee_step(match, seat, Stalemate(by, proposal), f"stalemate_{proposal}")
        elif kind == 7:
            _referee_step(match, seat, ClockExpired(by), "clock_expired")
        elif kind == 8:  # the seat's grace period after a disconnect ran out (O5)
            _referee_step(match, seat, Forfeit(by), "forfeit")
        else:
            # (The room asks only while the lag is undecided; any other time it is refused.)
            lag = LagResult(by, _pick(fdp, [None, *SEATS]))
            _referee_step(match, seat, lag, "lag_choice")


# --- the targets ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A fuzz target and how to run it."""

    test_one_input: Callable[[bytes], None]
    #: libFuzzer's `-max_len`: the largest input worth trying.
    max_len: int
    #: Inputs of the target's own, beyond the shared corpus (name -> bytes).
    seeds: Callable[[], dict[str, bytes]]
    #: Byte strings worth splicing into inputs (libFuzzer's `-dict`).
    dictionary: Callable[[], list[bytes]]
    about: str


def _no_seeds() -> dict[str, bytes]:
    return {}


def _no_words() -> list[bytes]:
    return []


def decoder_words() -> list[bytes]:
    """Every tag, field name and enumerated value of the client schema, as MessagePack.

    The decoder is compiled code, so libFuzzer cannot watch it compare strings; these
    let it build frames that get past the tag into each message's fields.
    """
    words: set[str] = {"t", "id"}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    words.update(value)
                elif key == "enum" and isinstance(value, list):
                    words.update(v for v in value if isinstance(v, str))
                elif key == "const" and isinstance(value, str):
                    words.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(msgspec.json.schema(m.AnyClientMessage))
    return sorted(msgspec.msgpack.encode(word) for word in words)


def _random_seeds(count: int, size: int) -> Callable[[], dict[str, bytes]]:
    """Fixed random inputs: a FuzzedDataProvider reads any bytes as a long action script."""

    def seeds() -> dict[str, bytes]:
        rng = random.Random(9)
        return {f"random-{i}": rng.randbytes(size) for i in range(count)}

    return seeds


TARGETS: Final[dict[str, Target]] = {
    "decoder": Target(
        decoder_input, m.MAX_CLIENT_FRAME + 64, _no_seeds, decoder_words, "client frames"
    ),
    "trajectory": Target(trajectory_input, 8192, trajectory_seeds, _no_words, "trajectories"),
    "referee": Target(
        referee_input, 1024, _random_seeds(8, 512), _no_words, "referee action scripts"
    ),
    "table": Target(
        table_input, 256, _random_seeds(8, 200), _no_words, "table-layer request scripts"
    ),
}
