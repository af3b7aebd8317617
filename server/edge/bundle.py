"""The client's pages as one script each: the bundle `make setup` builds, while it is fresh.

Why: a page of the client is some 80 ES modules, seven imports deep, and every HTTP answer
on the game port closes its connection (websockets answers plain HTTP from
`process_request`), so a browser, six connections to a host at a time, fetched them in
about fourteen rounds. Measured with Chromium (`bench/page_load.py`): a page was online
in 738 ms on loopback and 1,435 ms at 60 ms of latency; served its bundle, in 376 and
586 ms.

What: esbuild (`make bundle`, part of `make setup`) writes one file per page script —
`app.mjs`, `tournament.mjs`, `rules.mjs`, `overlay.mjs` — with its source map and a
metafile (`meta.json`) that lists every file each bundle was built from, into
`client_web/.bundle/` (a dot folder: never served by its own path). A request for a page
script gets its bundle, same name, same headers, only while the bundle is newer than
every file it was built from; otherwise — a file edited since, no bundle built, the
setting off — it gets the module as it stands, which imports the rest one by one as
before. So an edit is served at once, bundled again by the next `make run` or
`make setup`, and a checkout without node runs as it always did.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

#: The folder of the client the bundles are written to, and the metafile in it.
BUNDLE_DIR = ".bundle"
META_FILE = "meta.json"


@dataclass
class ClientBundles:
    """Which page scripts have a fresh bundle, looked up on each request for one (a few
    dozen `stat` calls a page load), so a file edited while the server runs is served as
    edited."""

    client_dir: Path
    enabled: bool = True
    #: Bundles found stale, said once each in the log.
    _said_stale: set[str] = field(default_factory=set)
    #: The metafile's modification time and what it says, read again when it changes.
    _meta: tuple[float, dict[str, list[str]]] | None = None

    @property
    def folder(self) -> Path:
        return self.client_dir / BUNDLE_DIR

    def _inputs(self) -> dict[str, list[str]]:
        """Each bundle's file name and the client files it was built from (relative to
        the client folder), from esbuild's metafile; none if it is missing or unreadable."""
        file = self.folder / META_FILE
        try:
            stamp = file.stat().st_mtime
            if self._meta is not None and self._meta[0] == stamp:
                return self._meta[1]
            outputs = json.loads(file.read_text(encoding="utf-8"))["outputs"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        found: dict[str, list[str]] = {}
        if not isinstance(outputs, dict):
            return {}
        for output, built in outputs.items():
            if not isinstance(built, dict) or not isinstance(built.get("inputs"), dict):
                continue
            name = Path(str(output)).name
            if name.endswith(".mjs"):
                found[name] = [str(source) for source in built["inputs"]]
        self._meta = (stamp, found)
        return found

    def script(self, relative: str) -> Path | None:
        """The bundle to serve for the page script `relative` (`app.mjs`), or None: not a
        page script, or no fresh bundle of it."""
        if not self.enabled or "/" in relative:
            return None
        if relative.endswith(".mjs.map"):
            # (the source map of a bundle, asked for by a browser's developer tools)
            bundle = self.folder / relative
            fresh = self.script(relative.removesuffix(".map")) is not None
            return bundle if fresh and bundle.is_file() else None
        sources = self._inputs().get(relative)
        bundle = self.folder / relative
        if not sources or not bundle.is_file():
            return None
        built = bundle.stat().st_mtime
        for source in sources:
            path = self.client_dir / source
            try:
                newer = path.stat().st_mtime > built
            except OSError:
                newer = True  # a file it was built from is gone
            if newer:
                if relative not in self._said_stale:
                    self._said_stale.add(relative)
                    log.warning(
                        "client bundle %s is older than %s: serving the modules one by one "
                        "until `make bundle` builds it again",
                        relative,
                        source,
                    )
                return None
        self._said_stale.discard(relative)
        return bundle
