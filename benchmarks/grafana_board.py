"""Ask a Prometheus server every query of the shipped Grafana board and print what each panel would show.

    python benchmarks/grafana_board.py [--prometheus http://127.0.0.1:9090] [--run RUN_ID]

Run it while (or just after) an engine plays on a `ray start --head` cluster that Prometheus scrapes with
deploy/prometheus/prometheus.yml: each panel line gives the number of series its query returns and their
values, so an empty panel shows up here before anyone opens Grafana (a panel of events that did not
happen, such as rollbacks or an open breaker, is rightly empty). `--run` keeps one run's series. Exit
code 1 when no panel has data: Prometheus does not see the engine.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

BOARD = Path(__file__).resolve().parents[1] / "deploy" / "grafana" / "engine-dashboard.json"


def query(prometheus: str, expr: str) -> list[dict[str, Any]]:
    url = f"{prometheus.rstrip('/')}/api/v1/query?{urllib.parse.urlencode({'query': expr})}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        body = json.load(answer)
    if body.get("status") != "success":
        raise RuntimeError(f"{expr}: {body.get('error')}")
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def for_run(expr: str, run_id: str | None) -> str:
    """The query with every engine series narrowed to one run."""
    if run_id is None:
        return expr
    return re.sub(r"\b(ray_engine_[a-z_]+)\b(?!\{)", rf'\1{{run_id="{run_id}"}}', expr)


def shown(series: dict[str, Any]) -> str:
    labels = ",".join(f"{key}={value}" for key, value in series["metric"].items())
    value = float(series["value"][1])
    return f"{labels or '-'}: {value:g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", default="http://127.0.0.1:9090")
    parser.add_argument("--run", metavar="RUN_ID")
    args = parser.parse_args()
    board = json.loads(BOARD.read_text(encoding="utf-8"))
    empty = 0
    for panel in board["panels"]:
        for target in panel["targets"]:
            result = query(args.prometheus, for_run(target["expr"], args.run))
            empty += not result
            values = "; ".join(shown(series) for series in result[:6]) or "NO DATA"
            print(f"{panel['title'][:48]:<48} {len(result):>2} series  {values}")
    panels = len(board["panels"])
    print(f"{panels} panels, {empty} without data")
    return 1 if empty == panels else 0


if __name__ == "__main__":
    sys.exit(main())
