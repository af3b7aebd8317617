"""Preloaded by the physics pool's forkserver, and nowhere else: importing this module asks
the kernel to kill the importing process when its parent ends (`server.ops.lifeline`)."""

from __future__ import annotations

from server.ops.lifeline import die_with_parent

die_with_parent()
