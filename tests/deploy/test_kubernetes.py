"""deploy/k8s, checked offline: every manifest against Kubernetes' own schemas (the JSON
schemas that the `kubernetes-validate` package ships, strict: an unknown or misspelt
field fails), as deploy/k8s/release.sh would apply them, and held to what production
needs. release.sh itself runs with stand-ins for docker and kubectl that record what they
are asked."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
#: The oldest Kubernetes these manifests are for, and the newest the package knows.
VERSIONS = ("1.29.0", kubernetes_validate.latest_version())
#: Kinds that live in a namespace (everything here but the Namespace).
CLUSTER_KINDS = {"Namespace"}


def load(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def kustomization(folder: Path) -> dict[str, Any]:
    document = yaml.safe_load((folder / "kustomization.yaml").read_text())
    assert isinstance(document, dict)
    return document


def build(folder: Path, overlay: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """What `kubectl kustomize` makes of deploy/k8s (and of an overlay on top of it), for
    the features used here: resources, namespace, images, configMapGenerator literals.
    (Generated names get no hash suffix here; the schemas do not care.)"""
    base = kustomization(folder)
    docs: list[dict[str, Any]] = []
    for resource in base["resources"]:
        docs += load(folder / resource)
    images = {image["name"]: image for image in base.get("images", [])}
    generators = {gen["name"]: gen for gen in base.get("configMapGenerator", [])}
    if overlay is not None:
        images.update({image["name"]: image for image in overlay.get("images", [])})
        for gen in overlay.get("configMapGenerator", []):
            assert gen.get("behavior") in ("replace", "merge") and gen["name"] in generators
            generators[gen["name"]] = gen
    for name, gen in generators.items():
        data = dict(literal.split("=", 1) for literal in gen["literals"])
        docs.append(
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}
        )
    namespace = (overlay or {}).get("namespace", base.get("namespace"))
    out = []
    for doc in copy.deepcopy(docs):
        if doc["kind"] not in CLUSTER_KINDS and namespace:
            doc["metadata"]["namespace"] = namespace
        for container in containers(doc):
            image = images.get(container["image"])
            if image is not None:
                container["image"] = f"{image['newName']}:{image['newTag']}"
        out.append(doc)
    return out


def pod_spec(doc: dict[str, Any]) -> dict[str, Any] | None:
    if doc["kind"] in ("Deployment", "StatefulSet"):
        return dict(doc["spec"]["template"]["spec"])
    if doc["kind"] == "CronJob":
        return dict(doc["spec"]["jobTemplate"]["spec"]["template"]["spec"])
    return None


def containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = pod_spec(doc)
    return [] if spec is None else list(spec["containers"])


def find(docs: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    matches = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(matches) == 1, f"{kind}/{name}: {len(matches)} found"
    return matches[0]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_follows_the_kubernetes_schemas(version: str) -> None:
    docs = build(K8S)
    assert {d["kind"] for d in docs} >= {
        "Namespace",
        "Deployment",
        "Service",
        "PodDisruptionBudget",
        "Ingress",
        "StatefulSet",
        "NetworkPolicy",
        "CronJob",
        "PersistentVolumeClaim",
        "ConfigMap",
    }
    for doc in docs:
        where = f"{doc['kind']}/{doc['metadata']['name']}"
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"{where} (Kubernetes {version}): {exc.message} at {list(exc.path)}")


def test_the_schemas_catch_a_misspelt_field() -> None:
    doc = copy.deepcopy(find(build(K8S), "Deployment", "ninepool"))
    doc["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(doc, VERSIONS[0], strict=True)


def test_every_container_runs_unprivileged() -> None:
    for doc in build(K8S):
        spec = pod_spec(doc)
        if spec is None:
            continue
        where = f"{doc['kind']}/{doc['metadata']['name']}"
        assert spec["securityContext"]["runAsNonRoot"] is True, where
        assert spec["automountServiceAccountToken"] is False, where
        for container in spec["containers"]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, where
            assert context["readOnlyRootFilesystem"] is True, where
            assert context["capabilities"]["drop"] == ["ALL"], where
            assert container["resources"]["limits"]["memory"], where


def env_of(container: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in container["env"]}


def test_the_nodes_drain_and_stay_in_service_through_a_short_redis_outage() -> None:
    deployment = find(build(K8S), "Deployment", "ninepool")
    spec = deployment["spec"]
    assert spec["strategy"]["rollingUpdate"] == {"maxSurge": 1, "maxUnavailable": 0}
    pod = spec["template"]["spec"]
    (server,) = pod["containers"]
    pre_stop = server["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    # preStop, then the drain (up to ~15 s), inside the grace period.
    assert pod["terminationGracePeriodSeconds"] >= int(pre_stop[1]) + 30
    readiness, liveness = server["readinessProbe"], server["livenessProbe"]
    # Not /readyz: it says 503 on every node at once while Redis is away.
    for probe in (readiness, liveness, server["startupProbe"]):
        assert probe["httpGet"]["path"] == "/healthz"
    assert readiness["periodSeconds"] * readiness["failureThreshold"] >= 30
    assert liveness["periodSeconds"] * liveness["failureThreshold"] >= 60


def test_secrets_come_from_the_secret_and_the_redis_url_carries_the_password() -> None:
    docs = build(K8S)
    for name in ("ninepool",):
        (server,) = containers(find(docs, "Deployment", name))
        env = env_of(server)
        assert env["NINEPOOL_SECRET"]["valueFrom"]["secretKeyRef"]["key"] == "session-secret"
        previous = env["NINEPOOL_SECRET_PREVIOUS"]["valueFrom"]["secretKeyRef"]
        assert previous["key"] == "session-secret-previous" and previous["optional"] is True
    for doc in (find(docs, "Deployment", "ninepool"), find(docs, "CronJob", "ninepool-backup")):
        (container,) = containers(doc)
        names = [item["name"] for item in container["env"]]
        url = env_of(container)["NINEPOOL_REDIS_URL"]["value"]
        assert url == "redis://:$(REDIS_PASSWORD)@ninepool-redis:6379/0"
        # Kubernetes expands $(VAR) only from variables defined before it.
        assert names.index("REDIS_PASSWORD") < names.index("NINEPOOL_REDIS_URL")
        password = env_of(container)["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"]
        assert password == {"name": "ninepool", "key": "redis-password"}


def test_redis_is_durable_bounded_and_password_protected() -> None:
    docs = build(K8S)
    redis = find(docs, "StatefulSet", "ninepool-redis")
    (container,) = containers(redis)
    args = container["args"]
    options = dict(zip(args[1::2], args[2::2], strict=True))
    assert options["--appendonly"] == "yes" and options["--appendfsync"] == "always"
    assert options["--maxmemory-policy"] == "noeviction"
    assert options["--requirepass"] == "$(REDIS_PASSWORD)"
    maxmemory = int(options["--maxmemory"].removesuffix("mb"))
    limit = int(container["resources"]["limits"]["memory"].removesuffix("Gi")) * 1024
    assert maxmemory <= 0.8 * limit
    assert (
        container["resources"]["requests"]["memory"] == container["resources"]["limits"]["memory"]
    )
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    storage = int(claim["spec"]["resources"]["requests"]["storage"].removesuffix("Gi")) * 1024
    assert storage >= 3 * maxmemory  # the AOF before a rewrite, and during one


def test_the_websocket_ingress_has_long_timeouts_and_the_edge_limits_of_nginx_conf() -> None:
    docs = build(K8S)
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    rate = int(re.search(r"zone=websocket_opens:\S+ rate=(\d+)r/s", nginx).group(1))  # type: ignore[union-attr]
    burst = int(re.search(r"limit_req zone=websocket_opens burst=(\d+)", nginx).group(1))  # type: ignore[union-attr]
    ws = find(docs, "Ingress", "ninepool-ws")
    notes = ws["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert int(notes[prefix + "proxy-read-timeout"]) >= 3600
    assert int(notes[prefix + "proxy-send-timeout"]) >= 3600
    assert int(notes[prefix + "limit-rps"]) == rate
    assert int(notes[prefix + "limit-rps"]) * int(notes[prefix + "limit-burst-multiplier"]) == burst
    assert int(notes[prefix + "limit-connections"]) > 0
    (rule,) = ws["spec"]["rules"]
    assert [p["path"] for p in rule["http"]["paths"]] == ["/ws"]
    for doc in docs:
        if doc["kind"] == "Ingress":
            assert "http_50" not in str(doc["metadata"].get("annotations", {}))
        if doc["kind"] == "Service":  # annotations of the ingress belong on the Ingress
            assert not any("ingress" in key for key in doc["metadata"].get("annotations", {}))
    metrics = find(docs, "Ingress", "ninepool-metrics")["metadata"]["annotations"]
    assert metrics[prefix + "allowlist-source-range"] == "127.0.0.1/32"
    assert metrics[prefix + "whitelist-source-range"] == "127.0.0.1/32"


def test_forwarded_addresses_are_believed_from_the_ingress_only() -> None:
    docs = build(K8S)
    text = "\n".join(path.read_text() for path in K8S.glob("*.yaml"))
    assert "10.0.0.0/8" not in text
    (server,) = containers(find(docs, "Deployment", "ninepool"))
    assert "NINEPOOL_TRUSTED_PROXIES" not in env_of(server)
    assert server["envFrom"] == [{"configMapRef": {"name": "ninepool-network"}}]
    policy = find(docs, "NetworkPolicy", "ninepool-server")["spec"]
    assert policy["podSelector"]["matchLabels"] == {"app": "ninepool"}
    (rule,) = policy["ingress"]
    sources = [peer["namespaceSelector"]["matchLabels"] for peer in rule["from"]]
    assert {"kubernetes.io/metadata.name": "ingress-nginx"} in sources
    assert all("podSelector" not in peer and "ipBlock" not in peer for peer in rule["from"])


def test_a_disruption_budget_keeps_all_but_one_node() -> None:
    docs = build(K8S)
    budget = find(docs, "PodDisruptionBudget", "ninepool")["spec"]
    deployment = find(docs, "Deployment", "ninepool")["spec"]
    assert budget["maxUnavailable"] == 1
    assert budget["selector"] == deployment["selector"]


# --- release.sh ---------------------------------------------------------------------------

STUB = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "$STUB_LOG"
if [ "$(basename "$0")" = kubectl ] && [ "$1" = apply ]; then
  cp "$3/kustomization.yaml" "$STUB_OUT/kustomization.yaml"
  echo "$3" > "$STUB_OUT/overlay"
fi
"""


def test_release_builds_pushes_and_applies_with_the_registry_and_pod_network(
    tmp_path: Path,
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("docker", "kubectl"):
        (bin_dir / tool).write_text(STUB)
        (bin_dir / tool).chmod(0o755)
    log = tmp_path / "calls.log"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "STUB_LOG": str(log),
        "STUB_OUT": str(tmp_path),
        "REGISTRY": "registry.test/games",
        "POD_CIDR": "10.42.0.0/16",
        "TAG": "v1.2.3",
    }
    done = subprocess.run(
        ["bash", str(K8S / "release.sh")], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    image = "registry.test/games/ninepool:v1.2.3"
    calls = log.read_text().splitlines()
    assert calls[0] == f"docker build -f {ROOT}/deploy/Dockerfile -t {image} {ROOT}"
    assert calls[1] == f"docker push {image}"
    assert calls[2].startswith("kubectl apply -k ")
    assert calls[3] == "kubectl -n ninepool rollout status deployment/ninepool --timeout=15m"
    overlay = yaml.safe_load((tmp_path / "kustomization.yaml").read_text())
    (base,) = overlay["resources"]
    folder = Path((tmp_path / "overlay").read_text().strip())
    assert os.path.normpath(folder / base) == str(K8S)
    assert not folder.exists()  # the script cleans up after itself
    docs = build(K8S, overlay)
    for doc in docs:
        for container in containers(doc):
            if container["name"] in ("server", "backup"):
                assert container["image"] == image
        kubernetes_validate.validate(doc, VERSIONS[-1], strict=True)
    network = find(docs, "ConfigMap", "ninepool-network")
    assert network["data"] == {"NINEPOOL_TRUSTED_PROXIES": "10.42.0.0/16"}
    assert network["metadata"]["namespace"] == "ninepool"


def test_release_refuses_to_guess_the_registry_or_the_pod_network(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REGISTRY", "POD_CIDR")}
    for missing, given in (
        ("REGISTRY", {"POD_CIDR": "10.42.0.0/16"}),
        ("POD_CIDR", {"REGISTRY": "r"}),
    ):
        done = subprocess.run(
            ["bash", str(K8S / "release.sh")],
            env={**env, **given},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0 and missing in done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck (make test)")
def test_the_scripts_pass_shellcheck() -> None:
    done = subprocess.run(
        ["shellcheck", str(K8S / "release.sh")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout
