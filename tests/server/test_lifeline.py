"""A node killed outright takes every process of its physics pools with it: the forkserver,
the workers it forked and multiprocessing's resource tracker (`server.ops.lifeline`).

Nothing of a node runs after a kill -9, so these used to stay behind for good; a suite that
kills nodes on purpose leaked gigabytes of them. Every process a node starts inherits its
environment, so each test marks its node's with a variable of its own and finds them all —
those born after the last look included — whatever their parent has become. Survivors are
killed before the test ends, pass or fail."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
MARK = "LIFELINE_TEST_MARK"
FREEZE = "LIFELINE_TEST_FREEZE"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process table from /proc"
)

#: Imported by every interpreter of a frozen test's node as it starts. It stops, as a
#: machine too busy to schedule them would, either the forkserver before it runs a line of
#: its own, or each worker as soon as the forkserver has forked it, before it runs any code
#: of the pool's; the test kills the node meanwhile, then lets them go on.
FREEZER = f'''
import os
import signal

FROZEN = os.environ.get("{FREEZE}")
if FROZEN:
    with open("/proc/self/cmdline", "rb") as cmdline:
        FORKSERVER = b"multiprocessing.forkserver" in cmdline.read()
    if FORKSERVER and FROZEN == "forkserver":
        os.kill(os.getpid(), signal.SIGSTOP)
    elif FORKSERVER and FROZEN == "worker":
        os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGSTOP))
'''

#: A program whose physics pool is started, and first used, from a thread that then ends.
#: Python's `join` returns before the thread's last steps in the kernel, so the program
#: waits for the kernel to list the thread no more, and gives a signal sent then time to
#: land, before it takes a shot.
FROM_A_THREAD = """
import asyncio, os, sys, threading, time
from server import physics
from server.rooms.simulation import PhysicsPool

pools = []

def start():
    pool = PhysicsPool(workers=1, thinkers=1)
    asyncio.run(pool.start())
    pools.append((pool, threading.get_native_id()))
    print("started", flush=True)
    sys.stdin.readline()

thread = threading.Thread(target=start)
thread.start()
thread.join()
pool, task = pools[0]
while os.path.exists(f"/proc/self/task/{task}"):
    time.sleep(0.01)
time.sleep(0.5)
shot = physics.Shot(angle=0.0, speed=2.0)
result = asyncio.run(pool.simulate({0: (0.5, 0.6), 1: (1.905, 0.635)}, shot))
print("shot", result.first, flush=True)
sys.stdin.readline()
"""


def _marked(mark: str, root: int) -> list[psutil.Process]:
    """Every running process carrying `mark` but `root`, the one the test started (a zombie
    holds nothing and is not counted)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.pid == root:
                continue
            if proc.environ().get(MARK) == mark and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def _kind(proc: psutil.Process, forkserver: int | None) -> str:
    command = " ".join(proc.cmdline())
    if "multiprocessing.resource_tracker" in command:
        return "resource tracker"
    if "multiprocessing.forkserver" in command:
        return "worker" if proc.ppid() == forkserver else "forkserver"
    return command[:60]


def _kinds(procs: list[psutil.Process], sort: bool = True) -> list[str]:
    """What each of a node's processes is (sorted, or in the order of `procs`); the
    forkserver is the one whose parent is not another forkserver."""
    forkservers = [p.pid for p in procs if _kind(p, None) == "forkserver"]
    forkservers = [p.pid for p in procs if p.pid in forkservers and p.ppid() not in forkservers]
    assert len(forkservers) == 1, _describe(procs)
    kinds = [_kind(p, forkservers[0]) for p in procs]
    return sorted(kinds) if sort else kinds


def _alive(proc: psutil.Process) -> bool:
    try:
        return bool(proc.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def _describe(procs: list[psutil.Process]) -> list[tuple[int, int, str]]:
    shown = []
    for proc in procs:
        try:
            shown.append((proc.pid, proc.ppid(), " ".join(proc.cmdline())[:80]))
        except psutil.Error:
            continue
    return shown


def _environment(mark: str, freezer: Path | None = None, frozen: str = "") -> dict[str, str]:
    """A node's environment, marked; with `FREEZER` installed in `freezer` if given, to
    stop the `frozen` ("forkserver" or "worker")."""
    env = {
        **os.environ,
        "NINEPOOL_PORT": "0",
        "NINEPOOL_WORKERS": "2",
        "NINEPOOL_BOT_WORKERS": "1",
        "NINEPOOL_SECRET": "s",
        "NINEPOOL_STORE": "memory://",
        MARK: mark,
    }
    if freezer is not None:
        (freezer / "sitecustomize.py").write_text(FREEZER)
        inherited = env.get("PYTHONPATH")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(freezer), inherited) if p)
        env[FREEZE] = frozen
    return env


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _wait_for_line(proc: subprocess.Popen[str], word: str, timeout: float = 60) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            pytest.fail(f"the process ended (status {proc.wait()}) before printing {word!r}")
        if word in line:
            return line
    pytest.fail(f"no {word!r} within {timeout} s")


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def _expect_nothing_left(proc: subprocess.Popen[str], mark: str) -> None:
    """Every process `proc` started ends soon after it (they need no more than their own
    scheduling: a second is plenty; fifteen leave room for a loaded machine)."""
    deadline = time.monotonic() + 15
    left = _marked(mark, proc.pid)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = _marked(mark, proc.pid)
    assert not left, f"left behind: {_describe(left)}"


def _clean_up(proc: subprocess.Popen[str], mark: str) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)
    for survivor in _marked(mark, proc.pid):
        survivor.kill()


def test_a_node_killed_while_serving_leaves_no_process_behind() -> None:
    mark = uuid.uuid4().hex
    node = _start([sys.executable, "-m", "server"], _environment(mark))
    try:
        _wait_for_line(node, "ready")  # every worker started and warmed up
        helpers = _marked(mark, node.pid)
        # Two physics workers and one thinking worker, all from the one forkserver.
        assert _kinds(helpers) == ["forkserver", "resource tracker", "worker", "worker", "worker"]
        _kill(node)
        _expect_nothing_left(node, mark)
    finally:
        _clean_up(node, mark)


def _waits_on_a_pipe(pid: int) -> bool:
    """The process's main thread sleeps reading a pipe (True too where the kernel hides
    what a thread waits on: then the test can only give the node time)."""
    try:
        waiting = Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return True
    return waiting in ("", "0") or waiting.endswith("pipe_read")


@pytest.mark.parametrize("frozen", ["forkserver", "worker"])
def test_a_node_killed_before_its_pool_runs_leaves_no_process_behind(
    tmp_path: Path, frozen: str
) -> None:
    """The load of a parallel test run, made certain. "forkserver": the node's first fork
    request is queued, and the node killed, before its new forkserver has run any code.
    "worker": the node is killed after the forkserver forked its three workers but before
    any of them has run a line of the pool's. A process that arranged to die with its
    parent only then found it already gone, could not tell, and stayed for good — and kept
    the forkserver and the resource tracker with it through their pipes."""
    mark = uuid.uuid4().hex
    env = _environment(mark, freezer=tmp_path, frozen=frozen)
    node = _start([sys.executable, "-m", "server"], env)
    try:
        deadline = time.monotonic() + 60
        stopped: list[psutil.Process] = []
        # Three workers: each one's request, data included, was sent before the next's.
        while len(stopped) < (1 if frozen == "forkserver" else 3):
            assert time.monotonic() < deadline, f"not stopped: {_describe(_marked(mark, node.pid))}"
            time.sleep(0.01)
            helpers = _marked(mark, node.pid)
            with contextlib.suppress(AssertionError, psutil.Error):
                stopped = [
                    p
                    for p, kind in zip(helpers, _kinds(helpers, sort=False), strict=True)
                    if kind == frozen and p.status() == psutil.STATUS_STOPPED
                ]
        if frozen == "forkserver":  # the node sent its request and waits for the answer
            while not _waits_on_a_pipe(node.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert _waits_on_a_pipe(node.pid)
        _kill(node)
        for proc in stopped:
            proc.send_signal(signal.SIGCONT)
        _expect_nothing_left(node, mark)
    finally:
        _clean_up(node, mark)


def test_a_pool_started_from_a_thread_outlives_the_thread_not_the_process() -> None:
    """The kernel's death signal for a parent (`PR_SET_PDEATHSIG`) fires when the *thread*
    that forked ends; the pool's processes must follow the process instead."""
    mark = uuid.uuid4().hex
    program = _start([sys.executable, "-c", FROM_A_THREAD], _environment(mark))
    try:
        _wait_for_line(program, "started")
        helpers = _marked(mark, program.pid)
        assert _kinds(helpers) == ["forkserver", "resource tracker", "worker", "worker"]
        assert program.stdin is not None
        program.stdin.write("\n")  # the thread that started the pool ends
        program.stdin.flush()
        assert _wait_for_line(program, "shot").split() == ["shot", "1"]
        gone = [p for p in helpers if not _alive(p)]
        assert not gone, f"ended with the thread: {[p.pid for p in gone]}"
        _kill(program)
        _expect_nothing_left(program, mark)
    finally:
        _clean_up(program, mark)
