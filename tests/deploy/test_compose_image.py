"""deploy/docker-compose.yml and the image's build context, checked offline.

The compose file is validated against the Compose Specification's JSON schema (the copy
that the `check-jsonschema` package ships, `vendor.compose-spec`), then held to what
production needs: a restart policy for every service, a drain time for the nodes, Redis
that neither loses acknowledged writes nor evicts keys, and X-Forwarded-For believed from
nginx's own address only. The build context is worked out from
`deploy/Dockerfile.dockerignore` with Docker's matching rules.
"""

from __future__ import annotations

import importlib.resources
import ipaddress
import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict[str, Any]:
    document = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    assert isinstance(document, dict)
    return document


def compose_schema() -> dict[str, Any]:
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads((vendor / "compose-spec.json").read_text())
    assert isinstance(schema, dict)
    return schema


def test_the_compose_file_follows_the_compose_specification() -> None:
    schema = compose_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(compose())]
    assert errors == []


def test_every_service_restarts_and_nodes_have_time_to_drain() -> None:
    services = compose()["services"]
    assert set(services) == {"redis", "node1", "node2", "node3", "nginx"}
    for name, service in services.items():
        assert service.get("restart") in ("unless-stopped", "always"), name
    for name in ("node1", "node2", "node3", "redis"):
        assert services[name]["stop_grace_period"] == "30s", name
    for name in ("node1", "node2", "node3"):
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_redis_keeps_every_acknowledged_write_and_evicts_nothing() -> None:
    command = compose()["services"]["redis"]["command"]
    options = dict(zip(command[1::2], command[2::2], strict=True))
    assert options["--appendonly"] == "yes"
    assert options["--appendfsync"] == "always"
    assert options["--maxmemory-policy"] == "noeviction"
    assert options["--maxmemory"]


def test_forwarded_addresses_are_believed_from_nginx_alone() -> None:
    document = compose()
    network = document["networks"]["ninepool"]["ipam"]["config"][0]
    subnet = ipaddress.ip_network(network["subnet"])
    dynamic = ipaddress.ip_network(network["ip_range"])
    nginx = document["services"]["nginx"]
    address = ipaddress.ip_address(nginx["networks"]["ninepool"]["ipv4_address"])
    assert address in subnet and dynamic.subnet_of(subnet)  # type: ignore[arg-type]
    assert address not in dynamic, "another container could be given nginx's address"
    assert address != ipaddress.ip_address(network["gateway"])
    for name in ("node1", "node2", "node3"):
        service = document["services"][name]
        trusted = service["environment"]["NINEPOOL_TRUSTED_PROXIES"].split(",")
        assert trusted == [str(address)], name
        assert service["networks"] == ["ninepool"]
    text = (DEPLOY / "docker-compose.yml").read_text()
    assert "172.16.0.0/12" not in text


def test_nginx_image_can_re_resolve_node_names() -> None:
    """deploy/nginx.conf uses `server … resolve` in its upstream: nginx 1.27.3 or later."""
    image = compose()["services"]["nginx"]["image"]
    found = re.fullmatch(r"nginx:(\d+)\.(\d+)(?:\.(\d+))?-alpine", image)
    assert found, image
    version = tuple(int(part or 0) for part in found.groups())
    assert version >= (1, 27, 3)


# --- the build context ---------------------------------------------------------------------


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regular expression over a relative path (Go's
    filepath.Match per segment, plus `**` for any number of segments)."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out += "[" + pattern[i + 1 : end].replace("\\", "\\\\") + "]"
            i = end + 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


def dockerignore_rules(path: Path) -> list[tuple[bool, re.Pattern[str]]]:
    rules: list[tuple[bool, re.Pattern[str]]] = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
        rules.append((keep, _pattern_regex(pattern)))
    return rules


def excluded(relative: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker's rule: the last pattern that matches the path or one of its parent folders
    decides; `!` patterns bring a path back."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for keep, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            verdict = not keep
    return verdict


def build_context() -> dict[str, int]:
    """Relative path → size of every file the image build would be sent."""
    rules = dockerignore_rules(DEPLOY / "Dockerfile.dockerignore")
    files: dict[str, int] = {}
    for folder, folders, names in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix()
        base = "" if base == "." else base + "/"
        # A folder left out whole, with no exception below it, need not be walked.
        folders[:] = [
            name
            for name in folders
            if not (excluded(base + name, rules) and not _exception_below(base + name, rules))
        ]
        for name in names:
            relative = base + name
            if not excluded(relative, rules):
                files[relative] = (Path(folder) / name).lstat().st_size
    return files


def _exception_below(folder: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    return any(keep and regex.pattern.startswith(re.escape(folder + "/")) for keep, regex in rules)


def copied_sources() -> list[str]:
    """The build-context paths the Dockerfile's COPY lines read (not `--from=` stages)."""
    sources: list[str] = []
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        words = line.split()
        if not words or words[0] != "COPY" or any(w.startswith("--from") for w in words):
            continue
        sources += [w.rstrip("*") for w in words[1:-1] if not w.startswith("--")]
    return sources


def test_the_build_context_has_what_the_dockerfile_copies_and_nothing_heavy() -> None:
    context = build_context()
    for source in copied_sources():
        assert any(
            path == source or path.startswith(source.rstrip("/") + "/") for path in context
        ), f"COPY {source}: not in the build context"
    for path in context:
        top = path.split("/")[0]
        assert top in {"pyproject.toml", "README.md", "server", "protocol", "client_web", "deploy"}
        assert "/node_modules/" not in f"/{path}" and "__pycache__" not in path, path
        assert not path.startswith(("client_web/tests/", "deploy/k8s")), path
    assert "deploy/backup.py" in context
    assert "client_web/index.html" in context and "server/__main__.py" in context
    # The repository's .venv alone is hundreds of MB; the sources are a few.
    assert sum(context.values()) < 20 * 1024 * 1024, sum(context.values())


def test_the_dockerignore_matcher_follows_dockers_rules() -> None:
    rules = dockerignore_rules(DEPLOY / "Dockerfile.dockerignore")
    for path in (
        ".venv/bin/python",
        ".git/HEAD",
        "var/rooms.db",
        "var/session-secret",
        "client_web/node_modules/@msgpack/msgpack/package.json",
        "server/__pycache__/app.cpython-311.pyc",
        ".mypy_cache/x",
        "tests/deploy/test_compose_image.py",
        "bench/load.py",
        "deploy/k8s/server.yaml",
        "ninepool.egg-info/PKG-INFO",
    ):
        assert excluded(path, rules), path
    for path in ("server/app.py", "protocol/messages.py", "client_web/app.mjs", "README.md"):
        assert not excluded(path, rules), path
