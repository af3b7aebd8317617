"""What several nodes share through Redis: room leases with fencing epochs (`lease`) and
the pub/sub fan-out of room events and actions (`bus`). The store itself is
`server.store.redis`; all key and channel names are in `server.store.redis.RedisKeys`."""

from __future__ import annotations

from server.cluster.bus import Bus
from server.cluster.lease import Holder, Lease, LeaseError, LeaseKeeper, Leases
from server.store.redis import connect

__all__ = ["Bus", "Holder", "Lease", "LeaseError", "LeaseKeeper", "Leases", "connect"]
