"""Password hashing with argon2id (argon2-cffi), never on the event loop.

A hash costs tens of milliseconds of one core and 19 MiB on purpose; on the loop it
would stall every room of the process for that long. So hashing and verifying run on a
small thread pool of their own (argon2-cffi's C code runs without the GIL, so the loop
goes on meanwhile), and at most `queue` of them wait at once: past that `HashersBusy`
(the API answers 503), so a flood of sign-ins costs bounded memory and CPU rather than a
queue that grows for as long as the flood lasts.

The parameters and why they are these: docs/ACCOUNTS.md. They are written into every
hash (`$argon2id$v=19$m=19456,t=2,p=1$…`), so raising them later leaves old hashes
valid; `needs_rehash` tells the service to store a fresh hash at the next sign-in.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

#: argon2id, 19 MiB, two passes, one lane: OWASP's first recommended configuration
#: (see docs/ACCOUNTS.md for the measurements behind the choice).
TIME_COST: Final = 2
MEMORY_COST_KIB: Final = 19 * 1024
PARALLELISM: Final = 1
HASH_LENGTH: Final = 32
SALT_LENGTH: Final = 16
#: Longest password accepted (bytes of UTF-8): hashing cost should not grow with input.
MAX_PASSWORD_BYTES: Final = 1024
MIN_PASSWORD_LENGTH: Final = 8

T = TypeVar("T")


def default_hasher() -> PasswordHasher:
    return PasswordHasher(
        time_cost=TIME_COST,
        memory_cost=MEMORY_COST_KIB,
        parallelism=PARALLELISM,
        hash_len=HASH_LENGTH,
        salt_len=SALT_LENGTH,
        type=Type.ID,
    )


class HashersBusy(Exception):
    """Too many hashes are waiting already; try again shortly."""


class Passwords:
    """Hashes and checks passwords on `workers` threads, `queue` at most waiting."""

    def __init__(
        self, workers: int = 1, queue: int = 32, hasher: PasswordHasher | None = None
    ) -> None:
        self.hasher = hasher if hasher is not None else default_hasher()
        self.queue = queue
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="argon2"
        )
        self._waiting = 0
        self._lock = threading.Lock()
        # Checked against for names with no account, so a wrong name costs what a wrong
        # password does and the answer's timing tells nobody which names exist.
        self._decoy = self.hasher.hash("decoy password, never anybody's")

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        with self._lock:
            if self._waiting >= self.queue:
                raise HashersBusy
            self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, work, *args)
        finally:
            with self._lock:
                self._waiting -= 1

    async def hash(self, password: str) -> str:
        return str(await self._run(self.hasher.hash, password))

    def _check(self, stored: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, password))
        except (VerificationError, InvalidHashError):
            return False

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` is the one `stored` was made from; with `stored` None (no
        such account) the same work is done and the answer is False."""
        if stored is None:
            await self._run(self._check, self._decoy, password)
            return False
        return await self._run(self._check, stored, password)

    def needs_rehash(self, stored: str) -> bool:
        try:
            return bool(self.hasher.check_needs_rehash(stored))
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
