"""The first minute of a new player, as the server sees it (issue 14): a lag tie broken
by a clear rule and said why, seat invites and `sit`, what a late joiner or a reload is
told of the past, verdicts and results as codes, the clock warning's seat, and no
stalemate proposal right after the break. Real server, real WebSocket clients."""

from __future__ import annotations

from typing import Any

from protocol import errors
from protocol import messages as m
from protocol.verdicts import FOUL_CODES, NOTE_CODES
from server.app import GameServer
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer, watched_table
from tests.server.test_bad_input import error_for, snapshot_of

#: The client's default lag (a straight stroke up the table at the speed it presets).
DEFAULT_LAG: dict[str, Any] = {"t": "lag", "angle": 0.0, "speed": 1.6, "tip": [0.0, 0.0]}


async def _seated_pair(
    server: GameServer, peers: list[Peer], **settings: Any
) -> tuple[Peer, Peer, str]:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": settings})
    assert isinstance(created, m.Joined) and created.invite
    joined = await ben.request({"t": "join", "room": created.room, "code": created.code})
    assert isinstance(joined, m.Joined) and joined.invite == created.invite
    return ana, ben, created.room


async def test_a_lag_tie_at_the_defaults_is_played_again_with_its_reason(
    server: GameServer, peers: list[Peer]
) -> None:
    ana, ben, _ = await _seated_pair(server, peers)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    assert isinstance(await ana.request(DEFAULT_LAG), m.Ok)
    assert isinstance(await ben.request(DEFAULT_LAG), m.Ok)
    tie = await ana.expect(m.LagResult)
    # Both balls stop at the same spot: equal to 0.1 mm, so the lag is played again (O6),
    # and the players are told why.
    assert tie.winner is None and tie.reason == "tie"
    assert tie.lags[0].distance is not None and tie.lags[1].distance is not None
    assert round(tie.lags[0].distance, 4) == round(tie.lags[1].distance, 4)
    assert all(lag.fault_code == "" for lag in tie.lags)
    await ana.catch_up(tie.seq + 1)
    assert (await snapshot_of(ana)).status == "lag"
    # Played again, a little softer by one of them: the nearer ball wins, and says so.
    assert isinstance(await ana.request(DEFAULT_LAG), m.Ok)
    assert isinstance(await ben.request({**DEFAULT_LAG, "speed": 1.5}), m.Ok)
    result = await ana.expect(m.LagResult)
    assert result.winner is not None and result.reason in ("nearer", "fault")
    if result.reason == "nearer":
        won, lost = result.lags[result.winner].distance, result.lags[1 - result.winner].distance
        assert won is not None and lost is not None and won < lost


async def test_a_spectator_sits_in_the_empty_seat_with_the_invite_and_clear_errors_otherwise(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    carl = await open_peer(server, peers, "Carl")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined) and created.role == "player" and created.invite
    invite = created.invite
    # The host's own snapshot (a resync, a reload) carries the invite too; nobody else's.
    own = await ana.request({"t": "resync"})
    assert isinstance(own, m.Snapshot) and own.invite == invite
    for peer in (eve, carl):
        watching = await peer.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(watching, m.Joined) and watching.invite is None
        assert (await peer.request({"t": "resync"})).invite is None  # type: ignore[attr-defined]

    # Not in the room, a wrong invite, the host's own seat: refused, nothing changed.
    outsider = await open_peer(server, peers, "Olga")
    assert (await error_for(outsider, {"t": "sit"})).code == errors.NOT_IN_ROOM
    assert (await error_for(eve, {"t": "sit", "invite": "0" * 20})).code == errors.BAD_SEAT_INVITE
    assert (await error_for(eve, {"t": "sit", "seat": 0})).code == errors.SEAT_TAKEN
    assert (await error_for(ana, {"t": "sit"})).code == errors.ALREADY_SEATED
    assert (await error_for(eve, {"t": "sit", "invite": "NOT HEX"})).code == errors.BAD_MESSAGE
    view = await snapshot_of(carl)
    assert view.seats[1] is None and view.spectators == 2

    # The friend with the invite takes the empty seat: `joined` as a player, seen by all.
    sat = await eve.request({"t": "sit", "invite": invite})
    assert isinstance(sat, m.Joined) and sat.role == "player" and sat.seat == 1
    assert sat.invite == invite
    view = await snapshot_of(carl)
    seat = view.seats[1]
    assert seat is not None and seat.name == "Eve" and view.spectators == 1
    # Both seats taken now.
    assert (await error_for(carl, {"t": "sit"})).code == errors.ROOM_FULL
    # Eve leaves her seat; once both are ready and the match is under way, nobody sits.
    assert isinstance(await eve.request({"t": "leave"}), m.Ok)
    assert isinstance(await carl.request({"t": "sit"}), m.Joined)  # public: no invite needed
    await ana.request({"t": "ready"})
    await carl.request({"t": "ready"})
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    assert (await error_for(eve, {"t": "sit", "invite": invite})).code == errors.MATCH_STARTED


async def test_a_private_rooms_seat_needs_its_code_or_the_invite(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"private": True}})
    assert isinstance(created, m.Joined) and created.code and created.invite
    watching = await eve.request(
        {"t": "join", "room": created.room, "code": created.code, "role": "spectator"}
    )
    assert isinstance(watching, m.Joined)
    assert (await error_for(eve, {"t": "sit"})).code == errors.CODE_REQUIRED
    assert (await error_for(eve, {"t": "sit", "code": "WRONGCODE"})).code == errors.CODE_REQUIRED
    sat = await eve.request({"t": "sit", "code": created.code})
    assert isinstance(sat, m.Joined) and sat.seat == 1


async def test_a_late_joiner_and_a_reload_get_the_log_the_chat_and_the_last_verdict(
    server: GameServer, peers: list[Peer]
) -> None:
    t = await watched_table(server, peers)
    shooter = t.shooter
    assert t.spectator.table is not None
    assert isinstance(await shooter.request({"t": "chat", "text": "good luck"}), m.Ok)
    assert isinstance(await shooter.request(scripting.break_shot(t.spectator.table)), m.Ok)
    result = await t.spectator.expect(m.ShotResult)
    assert result.verdict.note_codes or result.verdict.reason_codes
    assert len(result.verdict.note_codes) == len(result.verdict.notes)
    assert len(result.verdict.reason_codes) == len(result.verdict.reasons)
    for code in result.verdict.reason_codes:
        assert code in FOUL_CODES
    for code in result.verdict.note_codes:
        assert code in NOTE_CODES

    late = await open_peer(server, peers, "Lena")
    watching = await late.request({"t": "join", "room": t.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    snap = await late.expect(m.Snapshot)
    recent = snap.recent
    assert recent is not None
    assert [c.text for c in recent.chat] == ["good luck"]
    shots = [e for e in recent.log if isinstance(e, m.ShotResult)]
    assert shots and shots[-1].seq == result.seq and shots[-1].traj == b""
    assert shots[-1].verdict == result.verdict and shots[-1].report == result.report
    assert isinstance(recent.verdict, m.ShotResult) and recent.verdict.seq == result.seq
    # The snapshots at which who sat (or the match) changed: each line is named after the
    # players seated when it was written. Slim: no shot in flight, no past of their own.
    seating = recent.seating
    assert [s.seq for s in seating] == sorted({s.seq for s in seating}) and seating
    assert all(s.view.inflight is None and s.recent is None for s in seating)
    names = [[None if seat is None else seat.name for seat in s.view.seats] for s in seating]
    assert names[-1] == [None if seat is None else seat.name for seat in snap.view.seats]
    assert seating[-1].view.match == snap.view.match == 1
    assert all(
        a != b or x.view.match != y.view.match
        for a, b, x, y in zip(names, names[1:], seating, seating[1:], strict=False)
    )
    # A broadcast snapshot carries none of it (nobody pays for it but the newcomer).
    assert snap.invite is None

    # The shooter reloads: its own snapshot has the same past and the seat invite.
    assert shooter.token is not None
    back = await open_peer(server, peers, shooter.name, token=shooter.token)
    snap = await back.expect(m.Snapshot)
    assert snap.recent is not None and snap.recent.verdict is not None
    assert snap.recent.verdict.seq == result.seq and snap.invite


async def test_no_stalemate_right_after_the_break(server: GameServer, peers: list[Peer]) -> None:
    t = await watched_table(server, peers)
    assert t.spectator.table is not None
    assert t.spectator.table.stalemate_open is False
    assert isinstance(await t.shooter.request(scripting.break_shot(t.spectator.table)), m.Ok)
    result = await t.spectator.expect(m.ShotResult)
    assert result.table.stalemate_open is False
    for player in t.players:
        refused = await error_for(player, {"t": "stalemate", "action": "propose"})
        assert refused.code == errors.STALEMATE_TOO_EARLY
    view = await snapshot_of(t.spectator)
    assert view.table is not None and view.table.stalemate_proposed_by is None


async def test_the_clock_warning_names_the_seat_to_shoot(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server()
    ana, ben, _ = await _seated_pair(server, peers, first_break="draw", shot_clock=11)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await ana.expect(m.LagResult)
    assert draw.reason == "draw" and draw.winner is not None
    chooser = (ana, ben)[draw.winner]
    assert isinstance(await chooser.request({"t": "lag_choice", "choice": "break"}), m.Ok)
    warning = await ana.expect(m.Warning)
    assert warning.kind == "clock" and warning.seat == draw.winner
    assert ("Ana", "Ben")[draw.winner] in warning.msg
