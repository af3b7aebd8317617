"""How long a fresh browser takes to open the game: the page scripts bundled or as modules.

Two servers in one run, one serving each page's script as its bundle
(`--client-bundle on`, the default), the other the modules one by one
(`--client-bundle off`); Chromium opens the lobby in a fresh context from each in turn,
alternating which goes first, and the time from `goto` to the page being online (its
WebSocket welcomed: `#conn.conn-online`) is taken for each. `--latency` adds that many
milliseconds to every request (Chromium's network emulation), as a player's network
would. Needs the bundle (`make setup`) and Chromium (`make system-deps`).

    .venv/bin/python bench/page_load.py --loads 16 --latency 0
    .venv/bin/python bench/page_load.py --loads 8 --latency 60
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def start(bundle: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--store", "memory://", "--bot-tables", "0", "--handshake-rate", "0"]
    command += ["--client-bundle", bundle]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"ready: open (http://\S+?)/?$", line.strip())
        if found:
            # (kept draining: a full pipe would stall the server's logging)
            threading.Thread(target=proc.stdout.readlines, daemon=True).start()
            return proc, found.group(1).replace("localhost", "127.0.0.1")
    raise SystemExit("the server did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=16, help="page loads for each variant")
    parser.add_argument("--latency", type=float, default=0.0, help="added latency (ms)")
    args = parser.parse_args()
    servers = {name: start(flag) for name, flag in (("bundle", "on"), ("modules", "off"))}
    times: dict[str, list[float]] = {name: [] for name in servers}
    requests: dict[str, list[int]] = {name: [] for name in servers}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for i in range(args.loads):
                order = list(servers) if i % 2 == 0 else list(reversed(servers))
                for name in order:
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    context.add_init_script("localStorage.setItem('ninepool.name', 'Ana');")
                    page = context.new_page()
                    if args.latency:
                        cdp = context.new_cdp_session(page)
                        cdp.send("Network.enable")
                        cdp.send(
                            "Network.emulateNetworkConditions",
                            {
                                "offline": False,
                                "latency": args.latency,
                                "downloadThroughput": -1,
                                "uploadThroughput": -1,
                            },
                        )
                    began = time.perf_counter()
                    page.goto(f"{servers[name][1]}/?lang=en")
                    page.wait_for_selector("#conn.conn-online")
                    times[name].append((time.perf_counter() - began) * 1000)
                    requests[name].append(
                        page.evaluate("performance.getEntriesByType('resource').length")
                    )
                    context.close()
            browser.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
    print(f"page loads: {args.loads} each, added latency {args.latency:g} ms")
    for name, values in times.items():
        print(
            f"{name:8} online after: median {statistics.median(values):6.0f} ms"
            f"  p95 {percentile(values, 0.95):6.0f} ms"
            f"  ({statistics.median(requests[name]):.0f} requests)"
        )
    ratio = statistics.median(times["bundle"]) / statistics.median(times["modules"])
    print(f"ratio bundle / modules (medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
