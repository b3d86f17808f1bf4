"""The shipped Grafana board and Prometheus configuration: every query names a metric the engine
records, with labels it records, and the board is a dashboard Grafana can import."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from engine.telemetry.metrics import METRICS

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {"counter": ("_total",), "gauge": ("",), "histogram": ("_bucket", "_sum", "_count")}


def exported() -> dict[str, tuple[str, ...]]:
    """The series names on Ray's endpoint, each with the labels the engine gives it."""
    return {f"ray_{spec.name}{suffix}": (*spec.tag_keys, "run_id", "le")
            for spec in METRICS for suffix in SUFFIXES[spec.kind]}  # fmt: skip


def test_every_panel_queries_a_series_the_engine_exports() -> None:
    board = json.loads((ROOT / "deploy/grafana/engine-dashboard.json").read_text(encoding="utf-8"))
    assert board["uid"] and board["panels"]
    series = exported()
    used = set()
    for panel in board["panels"]:
        for target in panel["targets"]:
            names = re.findall(r"\bray_engine_[a-z_]+", target["expr"])
            assert names, panel["title"]
            for name in names:
                assert name in series, (panel["title"], name)
                used.add(name)
            for group in re.findall(r"by \(([^)]*)\)", target["expr"]):
                labels = {label.strip() for label in group.split(",")}
                assert labels <= set(series[names[0]]), (panel["title"], labels)
    shown = {
        name.removesuffix(suffix)
        for name in used
        for suffix in ("_total", "_bucket")
        if name.endswith(suffix)
    }
    shown |= used
    assert {f"ray_{spec.name}" for spec in METRICS} <= shown  # every metric the engine records has a panel


def test_prometheus_reads_rays_service_discovery_file() -> None:
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text(encoding="utf-8"))
    (job,) = config["scrape_configs"]
    assert job["file_sd_configs"][0]["files"] == ["/tmp/ray/prom_metrics_service_discovery.json"]
