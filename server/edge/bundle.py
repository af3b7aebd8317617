"""The client's pages as one script each: the bundle `make setup` builds, while it is fresh.

Why: a page of the client is some 80 ES modules, seven imports deep, and every HTTP answer
on the game port closes its connection (websockets answers plain HTTP from
`process_request`), so a browser, six connections to a host at a time, fetched them in
about fourteen rounds. Measured with Chromium (`bench/page_load.py`): a page was online
in 738 ms on loopback and 1,435 ms at 60 ms of latency; served its bundle, in 376 and
586 ms.

What: `make setup` runs esbuild (`client_web/build/bundle.mjs`, `npm run bundle`), which
writes one file per page script — `app.mjs`, `tournament.mjs`, `rules.mjs`,
`overlay.mjs` — with its source map into `client_web/.bundle/` (a dot folder: never
served by its own path), and a manifest naming every file each bundle was built from with
its SHA-256 as it was when the build began. A request for a page script gets its bundle,
same name, same headers, only while every one of those files still has that hash;
otherwise — a file edited since (or during the build), no bundle built, the setting
off — it gets the module as it stands, which imports the rest one by one as before. So an
edit is served at once, bundled again by the next `make run` or `make setup`, a checkout
without node runs as it always did, and no copy that keeps or changes file times (a
checkout, `rsync -a`, an image's layers) can pass an old bundle for new sources.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

#: The folder of the client the bundles are written to, and the build's manifest in it.
BUNDLE_DIR = ".bundle"
MANIFEST = "manifest.json"


@dataclass
class ClientBundles:
    """Which page scripts have a fresh bundle, checked on each request for one: a `stat`
    of each file it was built from (a few dozen a page load), a file hashed again only
    when its time or size changed."""

    client_dir: Path
    enabled: bool = True
    #: Bundles found stale, said once each in the log.
    _said_stale: set[str] = field(default_factory=set)
    #: The manifest's modification time and what it says, read again when it changes.
    _manifest: tuple[int, dict[str, dict[str, str]]] | None = None
    #: A client file's SHA-256, with the modification time and size it was taken at.
    _hashes: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return self.client_dir / BUNDLE_DIR

    def _scripts(self) -> dict[str, dict[str, str]]:
        """Each bundle's file name and the client files it was built from (relative to the
        client folder) with their hashes then; none if the manifest is missing or broken."""
        file = self.folder / MANIFEST
        try:
            stamp = file.stat().st_mtime_ns
            if self._manifest is not None and self._manifest[0] == stamp:
                return self._manifest[1]
            scripts = json.loads(file.read_text(encoding="utf-8"))["scripts"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        found: dict[str, dict[str, str]] = {}
        if isinstance(scripts, dict):
            for name, inputs in scripts.items():
                if isinstance(inputs, dict) and all(isinstance(v, str) for v in inputs.values()):
                    found[str(name)] = {str(path): digest for path, digest in inputs.items()}
        self._manifest = (stamp, found)
        return found

    def _sha256(self, source: str) -> str | None:
        """The client file's hash now (None: it is gone or unreadable)."""
        path = self.client_dir / source
        try:
            info = path.stat()
            kept = self._hashes.get(source)
            if kept is not None and kept[:2] == (info.st_mtime_ns, info.st_size):
                return kept[2]
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return None
        self._hashes[source] = (info.st_mtime_ns, info.st_size, digest)
        return digest

    def script(self, relative: str) -> Path | None:
        """The bundle to serve for the page script `relative` (`app.mjs`), or None: not a
        page script, or no fresh bundle of it."""
        if not self.enabled or "/" in relative or not relative.endswith((".mjs", ".mjs.map")):
            return None
        if relative.endswith(".mjs.map"):
            # (the source map of a bundle, asked for by a browser's developer tools)
            bundle = self.folder / relative
            fresh = self.script(relative.removesuffix(".map")) is not None
            return bundle if fresh and bundle.is_file() else None
        sources = self._scripts().get(relative)
        bundle = self.folder / relative
        if not sources or not bundle.is_file():
            return None
        for source, built_from in sources.items():
            if ".." in source.split("/") or self._sha256(source) != built_from:
                if relative not in self._said_stale:
                    self._said_stale.add(relative)
                    log.warning(
                        "client bundle %s was built from another %s: serving the modules one "
                        "by one until `make bundle` builds it again",
                        relative,
                        source,
                    )
                return None
        self._said_stale.discard(relative)
        return bundle
