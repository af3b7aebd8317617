"""Deployment tests: configs checked offline, nginx and redis-server on loopback."""

from __future__ import annotations

from tests.redis_server import own_redis

__all__ = ["own_redis"]
