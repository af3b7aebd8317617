"""Worker processes end with the process that started them.

A node's physics pools are three kinds of process: a forkserver, the workers it forks, and
multiprocessing's resource tracker. When a node is killed outright (kill -9, the
out-of-memory killer) nothing of it runs to stop them, and on a machine that is not a
container — a developer's, CI's, a bare host — they would stay behind for good, each holding
tens of megabytes (a test suite that kills nodes on purpose leaked gigabytes).

Each worker watches the node itself. multiprocessing gives every child it starts the read
end of a pipe whose only write end the parent keeps for as long as it keeps the child
(`multiprocessing.parent_process().sentinel`); when the node ends, however it ends, the
kernel closes that write end and the read end reaches end of file. `exit_with_parent`, the
pools' initializer, waits for that on a thread and ends the worker. The forkserver and the
resource tracker need nothing of their own: each leaves at the end of file of a pipe whose
write ends only the node and the workers hold (multiprocessing's own design), that is once
the node and its last worker are gone.

This replaces `prctl(PR_SET_PDEATHSIG)`, which could not be made to hold:
- the request only covers a parent that dies *after* it is made. A forkserver still starting
  its interpreter on a loaded machine, or a worker whose forkserver had just been killed,
  asked once its parent was already gone, could not tell, and stayed for good — and kept
  the forkserver and the tracker alive with it through their pipes;
- the kernel's "parent" is the thread that forked, not the process: a pool first used from a
  thread that later ends had its forkserver, and so its workers, killed under it;
- the resource tracker runs no code of ours and could never ask.
An end of file has none of these faults: it belongs to the process, and it stays readable,
so a watcher that starts after the node died sees it at once.
"""

from __future__ import annotations

import multiprocessing
import os
import threading

#: A worker's exit status when its node is gone (nobody is left to read it).
ORPHANED = 70


def exit_with_parent() -> None:
    """End this process as soon as the process that started it ends (a pool initializer).

    Does nothing in a process multiprocessing did not start."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()  # returns at the end of file of the parent's pipe: the parent has ended
        os._exit(ORPHANED)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()
