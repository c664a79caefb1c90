"""The operator's files agree with the code: the Grafana dashboard asks only for metrics the
server exposes, Prometheus scrapes every app process, and monitoring stays optional."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from prometheus_client import REGISTRY

import app.ops.metrics  # noqa: F401  registers the metrics

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
ROOT = DEPLOY.parent


def _exposed() -> set[str]:
    """Every sample name the server's registry can expose (`_total`, `_bucket`… included)."""
    names: set[str] = set()
    for family in REGISTRY.collect():
        names.add(family.name)
        names.update(sample.name for sample in family.samples)
        if family.type == "histogram":
            names.update(f"{family.name}{end}" for end in ("_bucket", "_count", "_sum"))
        if family.type == "counter":
            names.add(f"{family.name}_total")
    return names


def test_the_dashboard_reads_only_metrics_the_server_exposes() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "ziggurat.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {name for expr in exprs for name in re.findall(r"\b(?:ziggurat|process)_\w+", expr)}
    assert len(used) >= 10
    assert used - _exposed() == set()
    assert len({panel["id"] for panel in dashboard["panels"]}) == len(dashboard["panels"])


def test_prometheus_scrapes_every_app_process_and_monitoring_is_optional() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    apps = {name for name, service in compose["services"].items()
            if "uvicorn" in " ".join(service.get("command", []))}
    scrape = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = {t.split(":")[0] for job in scrape["scrape_configs"]
               for group in job["static_configs"] for t in group["targets"]}
    assert apps == targets == {"app1", "app2"}
    haproxy = (DEPLOY / "haproxy.cfg").read_text()
    assert all(f"server {app} {app}:8000" in haproxy for app in apps)
    for optional in ("prometheus", "grafana"):
        assert compose["services"][optional]["profiles"] == ["monitoring"]
    assert "profiles" not in compose["services"]["backup"]
    assert "pg_dump" in compose["services"]["backup"]["command"][0]
