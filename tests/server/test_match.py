"""A whole race-to-2 match between two scripted players, watched by two spectators."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break, open_peer


def follow_ups(verdict: m.VerdictView) -> int:
    """How many room events a verdict brings after its own event."""
    return sum(
        (
            verdict.warned is not None,
            verdict.stalemate_warning_given,
            verdict.game_over,
            verdict.match_over,
        )
    )


@dataclass
class Match:
    players: list[Peer]
    watchers: list[Peer]
    pushed_and_passed: bool = False
    fouls_with_ball_in_hand: int = 0
    warnings: list[m.Warning] = field(default_factory=list)
    games: list[m.GameOver] = field(default_factory=list)
    nine_wins: int = 0
    shots: int = 0

    @property
    def everyone(self) -> list[Peer]:
        return self.players + self.watchers

    async def settle(self, seq: int) -> None:
        for peer in self.everyone:
            await peer.catch_up(seq)
        for peer in self.everyone:
            warnings = peer.take(m.Warning)
            games = peer.take(m.GameOver)
            if peer is self.watchers[0]:  # count once, from a spectator's point of view
                self.warnings += warnings
                self.games += games
            peer.inbox.clear()

    def table(self) -> m.TableView:
        table = self.players[0].table
        assert table is not None
        return table

    async def shoot(self, shooter: Peer, message: dict[str, object]) -> m.ShotResult:
        reply = await shooter.request(message)
        assert isinstance(reply, m.Ok), reply
        result = await shooter.expect(m.ShotResult)
        self.shots += 1
        await self.settle(result.seq + follow_ups(result.verdict))
        return result

    async def place(self, shooter: Peer, table: m.TableView) -> None:
        spot = scripting.free_spot(table, kitchen=table.ball_in_hand == "kitchen")
        reply = await shooter.request({"t": "place", "pos": list(spot)})
        assert isinstance(reply, m.Ok), reply
        placed = await shooter.expect(m.Placed)
        await self.settle(placed.seq)
        assert self.table().balls[0] == spot  # R10: the cue ball is where it was put


async def test_r1_race_to_two_with_foul_push_out_pass_and_warning(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    cleo = await open_peer(server, peers, "Cleo")
    created = await ana.request(
        {"t": "create", "settings": {"name": "final", "race_to": 2, "first_break": "draw"}}
    )
    assert isinstance(created, m.Joined) and created.seat == 0
    room = created.room
    joined = await ben.request({"t": "join", "room": room, "role": "player"})
    assert isinstance(joined, m.Joined) and joined.seat == 1
    watching = await cleo.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.seat is None
    await cleo.expect(m.Snapshot)
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await ben.request({"t": "ready"}), m.Ok)
    draw = await cleo.expect(m.LagResult)  # O6: the seeded draw
    assert draw.method == "draw" and draw.winner in (0, 1)
    chosen = await decide_first_break(draw, (ana, ben))  # R3: the winner breaks
    match = Match(players=[ana, ben], watchers=[cleo])
    await match.settle(chosen.seq + 1)

    dana: Peer | None = None
    victim: int | None = None
    fouler: int | None = None  # who plays the three fouls of the first game
    phase = "open"
    for _ in range(200):
        table = match.table()
        if table.match_over:
            break
        turn = table.turn
        assert turn is not None
        shooter = match.players[turn]

        if table.choice_pending:  # R6.4: the incoming player passes the push-out back
            pusher = 1 - turn
            reply = await shooter.request({"t": "choose", "choice": "pass"})
            assert isinstance(reply, m.Ok), reply
            ruling = await shooter.expect(m.Ruling)
            await match.settle(ruling.seq)
            assert ruling.action == "choose_pass"
            assert match.table().turn == pusher and not match.table().choice_pending
            match.pushed_and_passed = True
            continue

        if table.ball_in_hand == "kitchen":  # a break
            result = await match.shoot(shooter, scripting.break_shot(table))
            if dana is None:
                # A spectator arrives while the break is still rolling on screens.
                dana = await open_peer(server, peers, "Dana")
                seen = await dana.request({"t": "join", "room": room, "role": "spectator"})
                assert isinstance(seen, m.Joined)
                snapshot = await dana.expect(m.Snapshot)
                assert snapshot.view.inflight is not None
                assert snapshot.view.inflight.result.seq == result.seq
                assert 0 < snapshot.view.inflight.offset < result.duration
                assert snapshot.view.inflight.result.traj == result.traj
                assert snapshot.view.table == result.table
                assert snapshot.view.spectators == 2
                match.watchers.append(dana)
                await match.settle(snapshot.seq)  # the others see the spectator count
            continue

        if table.push_out_allowed and not match.pushed_and_passed:  # R6
            plan = scripting.plan_push_out(table)
            result = await match.shoot(shooter, plan.message(push_out=True))
            assert not result.verdict.foul, result.verdict
            assert match.table().choice_pending and match.table().turn == 1 - turn
            continue

        if phase == "open":
            phase = "three_fouls" if not match.games else "play"
            victim = turn
            if fouler is None:
                fouler = turn

        if table.ball_in_hand == "table":
            await match.place(shooter, table)
            table = match.table()

        if phase == "three_fouls" and turn == victim:  # R13
            result = await match.shoot(shooter, scripting.plan_foul(table).message())
            assert result.verdict.foul and "R8" in result.verdict.fouls
            after = match.table()
            if not result.verdict.game_over:
                # R7: ball in hand anywhere for the incoming player.
                assert after.ball_in_hand == "table" and after.turn == 1 - turn
                match.fouls_with_ball_in_hand += 1
            else:
                assert result.verdict.game_end == "three_fouls"
                phase = "open"
            continue

        prefer = "miss" if phase == "three_fouls" else "nine"
        if phase == "play" and match.shots > 120:
            prefer = "pocket"
        result = await match.shoot(shooter, scripting.plan_legal(table, prefer).message())
        assert not result.verdict.foul, result.verdict
        if result.verdict.game_over and result.verdict.game_end == "nine":
            match.nine_wins += 1
    else:
        raise AssertionError("the match did not finish")

    final = match.table()
    assert final.match_over and final.match_winner is not None
    assert max(final.score) == 2  # race to 2
    assert match.pushed_and_passed
    assert match.fouls_with_ball_in_hand >= 2
    # R13: the warning after the second consecutive foul, seen by a spectator too.
    assert [w.seat for w in match.warnings if w.kind == "three_fouls"][:1] == [fouler]
    assert match.games[0].reason == "three_fouls"
    assert match.nine_wins >= 1
    print(f"{match.shots} shots, games: {[(g.winner, g.reason) for g in match.games]}")

    # Everyone — players, the spectator from the start, the one who came mid-shot — ends
    # with the same state, and nobody saw a gap in the room's sequence.
    assert dana is not None
    tables = [peer.table for peer in match.everyone]
    assert all(t == final for t in tables)
    assert all(peer.gaps == 0 for peer in match.everyone)
    views = []
    for peer in match.everyone:
        await peer.send({"t": "resync"})
        views.append((await peer.expect(m.Snapshot)).view)
    assert all(v.table == final and v.status == "finished" for v in views)

    # The replay holds every event the spectators saw, in order.
    lobby_replay = await server.lobby.replay(room)
    assert lobby_replay is not None
    document = msgspec.msgpack.decode(lobby_replay, type=m.Replay)
    assert len(document.players) == 2 and document.computer == [None, None]
    seqs = [msgspec.msgpack.decode(event)["seq"] for event in document.events]
    assert seqs and seqs == sorted(set(seqs))
