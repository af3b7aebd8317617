"""A page's script is served as its bundle only while the bundle is fresh
(server/edge/bundle.py): every file it was built from as the build hashed it. A file
edited since (whatever its time says), a bundle missing or its manifest broken, or the
setting off, and the module itself is served, as it stands."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from server.ops.config import CLIENT_DIR
from tests.server.conftest import ServerFactory
from tests.server.test_http import fetch

ENTRY = b"import { x } from './part.mjs'; console.log(x);\n"
PART = b"export const x = 1;\n"
BUNDLED = b"const x = 1; console.log(x);\n//# sourceMappingURL=app.mjs.map\n"
MAP = b'{"version":3,"sources":["app.mjs","part.mjs"]}'


def client(tmp_path: Path, manifest: object | None = None) -> Path:
    """A client folder: a page script importing a part, and its bundle built from both."""
    (tmp_path / "app.mjs").write_bytes(ENTRY)
    (tmp_path / "part.mjs").write_bytes(PART)
    (tmp_path / "index.html").write_bytes(b"<script type=module src=app.mjs></script>")
    folder = tmp_path / ".bundle"
    folder.mkdir()
    (folder / "app.mjs").write_bytes(BUNDLED)
    (folder / "app.mjs.map").write_bytes(MAP)
    built = {
        name: hashlib.sha256(body).hexdigest()
        for name, body in (("app.mjs", ENTRY), ("part.mjs", PART))
    }
    text = json.dumps({"scripts": {"app.mjs": built}} if manifest is None else manifest)
    (folder / "manifest.json").write_text(text)
    return tmp_path


async def test_a_fresh_bundle_is_served_for_its_page_script(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(client_dir=client(tmp_path))
    status, headers, body = await fetch(server, "/app.mjs")
    assert status == 200 and body == BUNDLED
    assert headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache"
    # Revalidated against the bundle's own tag.
    status, _, _ = await fetch(server, "/app.mjs", {"If-None-Match": headers["etag"]})
    assert status == 304
    status, _, body = await fetch(server, "/app.mjs.map")
    assert status == 200 and body == MAP
    # The modules it holds are still there by their own paths (a stale bundle needs them).
    assert (await fetch(server, "/part.mjs"))[2] == PART
    # The bundle's folder is not served by its own path.
    for hidden in ("/.bundle/app.mjs", "/.bundle/manifest.json", "/part.mjs.map"):
        assert (await fetch(server, hidden))[0] == 404, hidden


async def test_an_edit_since_the_build_serves_the_modules_until_it_is_built_again(
    make_server: ServerFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = client(tmp_path)
    server = await make_server(client_dir=folder)
    assert (await fetch(server, "/app.mjs"))[2] == BUNDLED
    # An imported file edited, its time put back before the bundle's (as a copy that
    # keeps times, or a save while the bundle was being built, leaves it): the page
    # script as it stands all the same.
    bundle_time = (folder / ".bundle" / "app.mjs").stat().st_mtime
    (folder / "part.mjs").write_bytes(b"export const x = 2;\n")
    os.utime(folder / "part.mjs", (bundle_time - 3600, bundle_time - 3600))
    status, _, body = await fetch(server, "/app.mjs")
    assert status == 200 and body == ENTRY
    assert (await fetch(server, "/app.mjs.map"))[0] == 404
    assert (await fetch(server, "/part.mjs"))[2] == b"export const x = 2;\n"
    assert any("built from another part.mjs" in r.getMessage() for r in caplog.records)
    # The same words again (a file saved unchanged): the bundle once more.
    (folder / "part.mjs").write_bytes(PART)
    assert (await fetch(server, "/app.mjs"))[2] == BUNDLED
    # A file it was built from gone: the modules.
    (folder / "part.mjs").unlink()
    assert (await fetch(server, "/app.mjs"))[2] == ENTRY


@pytest.mark.parametrize(
    "manifest",
    [
        "not json at all",
        {"scripts": "a list"},
        {"scripts": {"app.mjs": ["app.mjs"]}},
        {"scripts": {"app.mjs": {"app.mjs": 7}}},
        {"scripts": {"app.mjs": {}}},
        {"scripts": {"app.mjs": {"../outside.mjs": "0" * 64}}},
        {"nothing": {}},
    ],
)
async def test_a_broken_manifest_serves_the_modules(
    make_server: ServerFactory, tmp_path: Path, manifest: object
) -> None:
    server = await make_server(client_dir=client(tmp_path, manifest))
    status, _, body = await fetch(server, "/app.mjs")
    assert status == 200 and body == ENTRY


async def test_with_the_setting_off_the_modules_are_served(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(client_dir=client(tmp_path), client_bundle=False)
    assert (await fetch(server, "/app.mjs"))[2] == ENTRY
    assert (await fetch(server, "/app.mjs.map"))[0] == 404


async def test_the_clients_own_bundles_are_fresh_after_setup(make_server: ServerFactory) -> None:
    """`make setup` (and so `make run` and `make test`) builds every page's bundle from
    the client as it is: each is served for its page script."""
    manifest = CLIENT_DIR / ".bundle" / "manifest.json"
    if not manifest.exists():
        pytest.skip("no bundle built: `make setup` builds it")
    server = await make_server()
    for script in ("app.mjs", "tournament.mjs", "rules.mjs", "overlay.mjs"):
        status, _, body = await fetch(server, f"/{script}")
        assert status == 200
        assert body == (CLIENT_DIR / ".bundle" / script).read_bytes(), f"{script}: not fresh"
