"""Live fuzzing at full size: 100,000 random and mutated frames against a real server.

    .venv/bin/python bench/fuzz_live.py                       # 100,000 frames, 12 connections
    .venv/bin/python bench/fuzz_live.py --frames 20000 --seed 7 --connections 16

Starts `python -m server` on a free loopback port (its own process, real physics pool),
runs the storm of `tests/fuzz/storm.py` against it while a quiet room plays real shots,
then checks that the server is still up, that its log holds no traceback or error, and
prints the storm's accounting. Exit status 1 on any violation. Frames that were involved
in a violation are written to `bench/.scratch/fuzz-suspects/` to be added to the corpus
(`tests/fuzz/corpus/`) once understood.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz.liveserver import LiveServer  # noqa: E402
from tests.fuzz.storm import run_storm  # noqa: E402

SUSPECTS = ROOT / "bench" / ".scratch" / "fuzz-suspects"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shot-budget", type=int, default=300, help="real shots in fuzzed rooms")
    parser.add_argument(
        "--tolerate-drops",
        action="store_true",
        help="do not count requests dropped behind a closing room's last leave (a bug fixed "
        "in f6f353d) as violations",
    )
    parser.add_argument(
        "--server-args",
        # The storm sends far past the default message rate and guesses invite codes all
        # the time (as the suite's main storm does).
        default="--workers 1 --rate 0 --abuse-limit 0 --abuse-cooldown 0 --handshake-rate 0 "
        "--invite-guesses 0 --invite-guesses-per-address 0",
        help="extra flags for python -m server",
    )
    args = parser.parse_args(argv)
    server = LiveServer(args.server_args.split()).start()
    print(f"server pid {server.pid} on 127.0.0.1:{server.port}, log {server.stderr_path}")
    try:
        report = asyncio.run(
            run_storm(
                server.ws_url,
                args.frames,
                connections=args.connections,
                seed=args.seed,
                shot_budget=args.shot_budget,
                tolerate_drops_behind_leave=args.tolerate_drops,
            )
        )
        alive = server.alive()
        with urllib.request.urlopen(f"{server.http_url}/healthz", timeout=10) as response:
            healthy = response.status == 200
    finally:
        server.stop()
    trouble = server.trouble()
    print(report.summary())
    print(f"server alive after the storm: {alive}, /healthz 200: {healthy}")
    print(f"server log lines with a traceback or an error: {len(trouble)}")
    for line in trouble[:20]:
        print(f"    {line}")
    for history in report.histories[:3]:
        print("last frames of a connection with unanswered requests:")
        print(history)
    if report.suspects:
        SUSPECTS.mkdir(parents=True, exist_ok=True)
        for index, frame in enumerate(report.suspects):
            suffix = ".txt" if isinstance(frame, str) else ".bin"
            data = frame.encode() if isinstance(frame, str) else frame
            (SUSPECTS / f"suspect-{args.seed}-{index:03d}{suffix}").write_bytes(data)
        print(f"{len(report.suspects)} suspect frames written to {SUSPECTS}")
    failed = bool(report.violations or trouble or not alive or not healthy)
    print("verdict:", "FAIL" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
