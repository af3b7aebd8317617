"""A page's script is served as its bundle only while the bundle is fresh
(server/edge/bundle.py): a file edited since, a bundle missing or its metafile broken, or
the setting off, and the module itself is served, as it stands."""

from __future__ import annotations

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


def client(tmp_path: Path, meta: object | None = None) -> Path:
    """A client folder: a page script importing a part, and its bundle built after both."""
    (tmp_path / "app.mjs").write_bytes(ENTRY)
    (tmp_path / "part.mjs").write_bytes(PART)
    (tmp_path / "index.html").write_bytes(b"<script type=module src=app.mjs></script>")
    folder = tmp_path / ".bundle"
    folder.mkdir()
    (folder / "app.mjs").write_bytes(BUNDLED)
    (folder / "app.mjs.map").write_bytes(MAP)
    built = {"inputs": {"app.mjs": {}, "part.mjs": {}}, "entryPoint": "app.mjs"}
    outputs = {".bundle/app.mjs": built, ".bundle/app.mjs.map": {"inputs": {}}}
    text = json.dumps({"outputs": outputs} if meta is None else meta)
    (folder / "meta.json").write_text(text)
    # The sources an hour older than their bundle, as a build leaves them.
    for name in ("app.mjs", "part.mjs"):
        os.utime(tmp_path / name, (1_000_000, 1_000_000))
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
    for hidden in ("/.bundle/app.mjs", "/.bundle/meta.json", "/part.mjs.map"):
        assert (await fetch(server, hidden))[0] == 404, hidden


async def test_an_edit_since_the_build_serves_the_modules_until_it_is_built_again(
    make_server: ServerFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = client(tmp_path)
    server = await make_server(client_dir=folder)
    assert (await fetch(server, "/app.mjs"))[2] == BUNDLED
    # An imported file edited (newer than the bundle): the page script as it stands.
    (folder / "part.mjs").write_bytes(b"export const x = 2;\n")
    status, _, body = await fetch(server, "/app.mjs")
    assert status == 200 and body == ENTRY
    assert (await fetch(server, "/app.mjs.map"))[0] == 404
    assert (await fetch(server, "/part.mjs"))[2] == b"export const x = 2;\n"
    assert any("older than part.mjs" in r.getMessage() for r in caplog.records)
    # Built again (the bundle newer than every file in it): the bundle once more.
    (folder / ".bundle" / "app.mjs").write_bytes(BUNDLED + b"// again\n")
    assert (await fetch(server, "/app.mjs"))[2] == BUNDLED + b"// again\n"
    # A file it was built from gone: the modules.
    (folder / "part.mjs").unlink()
    assert (await fetch(server, "/app.mjs"))[2] == ENTRY


@pytest.mark.parametrize(
    "meta",
    [
        "not json at all",
        {"outputs": "a list"},
        {"outputs": {".bundle/app.mjs": {"inputs": ["app.mjs"]}}},
        {"nothing": {}},
    ],
)
async def test_a_broken_metafile_serves_the_modules(
    make_server: ServerFactory, tmp_path: Path, meta: object
) -> None:
    server = await make_server(client_dir=client(tmp_path, meta))
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
    meta = CLIENT_DIR / ".bundle" / "meta.json"
    if not meta.exists():
        pytest.skip("no bundle built: `make setup` builds it")
    server = await make_server()
    for script in ("app.mjs", "tournament.mjs", "rules.mjs", "overlay.mjs"):
        status, _, body = await fetch(server, f"/{script}")
        assert status == 200
        assert body == (CLIENT_DIR / ".bundle" / script).read_bytes(), f"{script}: not fresh"
