"""deploy/prometheus/alerts.yml and deploy/grafana/ninepool.json, checked offline.

promtool (Debian's `prometheus` package; tests/install_system_deps.sh puts its promtool
on the machine) checks the rules and runs their unit tests (alerts.test.yml), and parses
every query of the dashboard. Every metric they name is one that a node exposes today
(asked of the server's own `Metrics`) or one of the cluster's metrics listed below.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
ALERT_TESTS = ROOT / "deploy" / "prometheus" / "alerts.test.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "ninepool.json"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool (make test installs it)")

#: The cluster's metrics (server/README.md, "Many nodes").
CLUSTER_METRICS = {
    "ninepool_redis_up",
    "ninepool_store_save_retries_total",
    "ninepool_rooms_owned",
    "ninepool_rooms_relayed",
    "ninepool_adoptions_total",
    "ninepool_leases_lost_total",
    "ninepool_cluster_nodes",
}


def server_metrics() -> set[str]:
    """The sample names of a node's /metrics, from the server's own registry."""
    for module in ("server.ops.metrics", "server.metrics"):
        try:
            metrics = importlib.import_module(module).Metrics()
            break
        except ModuleNotFoundError:
            continue
    else:
        raise AssertionError("no Metrics class in server.ops.metrics or server.metrics")
    names = set()
    for line in metrics.render().decode().splitlines():
        found = re.fullmatch(r"# TYPE (\w+) (\w+)", line)
        if found is None:
            continue
        name, kind = found.groups()
        if kind == "counter":
            names.add(name if name.endswith("_total") else name + "_total")
        elif kind == "histogram":
            names |= {name + suffix for suffix in ("_bucket", "_sum", "_count")}
        else:
            names.add(name)
    return names


def rules() -> list[dict[str, Any]]:
    document = yaml.safe_load(ALERTS.read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def dashboard() -> dict[str, Any]:
    document = json.loads(DASHBOARD.read_text())
    assert isinstance(document, dict)
    return document


def dashboard_queries() -> list[str]:
    return [
        target["expr"]
        for panel in dashboard()["panels"]
        for target in panel.get("targets", [])
        if "expr" in target
    ]


def used_metrics(text: str) -> set[str]:
    return set(re.findall(r"\bninepool_\w+", text))


def test_the_alerts_and_the_dashboard_name_only_metrics_that_exist() -> None:
    known = server_metrics() | CLUSTER_METRICS
    assert "ninepool_shot_seconds_bucket" in known and "ninepool_errors_total" in known
    in_alerts = used_metrics(" ".join(rule["expr"] for rule in rules()))
    in_dashboard = used_metrics(" ".join(dashboard_queries()))
    assert in_alerts - known == set()
    assert in_dashboard - known == set()
    # The dashboard shows every cluster metric; the alerts watch the ones that page.
    assert in_dashboard >= CLUSTER_METRICS
    assert {
        "ninepool_redis_up",
        "ninepool_store_save_retries_total",
        "ninepool_leases_lost_total",
        "ninepool_adoptions_total",
        "ninepool_cluster_nodes",
    } <= in_alerts


def test_every_alert_is_described_and_unit_tested() -> None:
    tested = set(re.findall(r"alertname: (\w+)", ALERT_TESTS.read_text()))
    names = [rule["alert"] for rule in rules()]
    assert len(names) == len(set(names))
    for rule in rules():
        assert rule["labels"]["severity"] in ("critical", "warning", "info"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert "for" in rule, rule["alert"]
        assert rule["alert"] in tested, f"{rule['alert']} has no test in alerts.test.yml"


@needs_promtool
def test_promtool_checks_the_rules_and_runs_their_tests() -> None:
    assert PROMTOOL is not None
    for command in (["check", "rules", ALERTS.name], ["test", "rules", ALERT_TESTS.name]):
        done = subprocess.run(
            [PROMTOOL, *command],
            cwd=ALERTS.parent,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr


@needs_promtool
def test_every_dashboard_query_parses(tmp_path: Path) -> None:
    """Each query as a recording rule, with Grafana's variables filled in, through
    `promtool check rules` (which parses PromQL)."""
    assert PROMTOOL is not None
    queries = dashboard_queries()
    for variable in dashboard()["templating"]["list"]:
        if variable["type"] == "query":  # label_values(<selector>, <label>)
            found = re.fullmatch(r"label_values\((.+),\s*(\w+)\)", variable["definition"])
            assert found, variable["definition"]
            queries.append(f"group by ({found.group(2)}) ({found.group(1)})")
    filled = [q.replace("$__rate_interval", "5m").replace("$instance", ".*") for q in queries]
    assert not any("$" in q for q in filled), filled
    records = [{"record": f"dashboard:query_{n}", "expr": q} for n, q in enumerate(filled)]
    path = tmp_path / "dashboard-queries.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": records}]}))
    done = subprocess.run(
        [PROMTOOL, "check", "rules", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dashboard_is_well_formed() -> None:
    document = dashboard()
    assert document["uid"] == "ninepool" and document["title"]
    names = {v["name"] for v in document["templating"]["list"]}
    assert {"datasource", "instance"} <= names
    panels = document["panels"]
    assert len({panel["id"] for panel in panels}) == len(panels)
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        grid = panel["gridPos"]
        assert grid["x"] >= 0 and grid["x"] + grid["w"] <= 24, panel["title"]
        covered = {
            (x, y)
            for x in range(grid["x"], grid["x"] + grid["w"])
            for y in range(grid["y"], grid["y"] + grid["h"])
        }
        assert not covered & cells, f"{panel['title']} overlaps another panel"
        cells |= covered
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["datasource"] == panel["datasource"]
            assert "instance" not in target["expr"] or '=~"$instance"' in target["expr"]
