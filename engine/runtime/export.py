"""A run's records as a table: decisions (rolled-back ones left out), battles, or model calls, written as
CSV, JSON Lines or Parquet for a notebook or a spreadsheet.

Decisions come through `read_decisions`, which knows which lines a rollback undid; a plain JSON Lines
reader of decisions.jsonl would count those twice. Battles are the battle logs' summaries (a battle played
again after a rollback keeps only its last playing). Nested fields are flattened with dots
(`model.cost_usd`); lists and deeper objects stay JSON text.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from engine.battles.files import read_battle_log
from engine.errors import UserInputError
from engine.jsonl import read_objects
from engine.runtime.decision_log import RESTART_KINDS, read_decisions

What = Literal["decisions", "battles", "llm"]
Format = Literal["csv", "jsonl", "parquet"]
ROLLED_BACK_MARK = ".rolled-back-"


def rows(run_dir: Path, what: What) -> list[dict[str, Any]]:
    if what == "decisions":
        entries = read_decisions(run_dir / "decisions.jsonl")
        kept = (e for e in entries if e.get("kind") not in RESTART_KINDS and not e.get("rolled_back"))
        return [flatten(entry) for entry in kept]
    if what == "battles":
        paths = sorted(p for p in (run_dir / "battles").glob("*.json") if ROLLED_BACK_MARK not in p.name)
        return [flatten(read_battle_log(path).summary.model_dump(mode="json")) for path in paths]
    return [flatten(line.entry) for line in read_objects(run_dir / "llm.jsonl").lines]


def flatten(entry: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in entry.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not prefix:
            flat |= flatten(value, f"{name}.")
        elif isinstance(value, dict | list):
            flat[name] = json.dumps(value, ensure_ascii=False)
        else:
            flat[name] = value
    return flat


def columns(table: Iterable[dict[str, Any]]) -> list[str]:
    """Every key, in the order first seen."""
    return list(dict.fromkeys(key for row in table for key in row))


def encode(table: list[dict[str, Any]], form: Format) -> bytes:
    if form == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in table).encode()
    if form == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns(table), lineterminator="\n")
        writer.writeheader()
        writer.writerows(table)
        return out.getvalue().encode()
    return _parquet(table)


def _parquet(table: list[dict[str, Any]]) -> bytes:
    try:
        import pyarrow as pa  # type: ignore[import-not-found,import-untyped,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        raise UserInputError("--format parquet needs pyarrow (.venv/bin/pip install pyarrow)") from None
    names = columns(table)
    arrow = pa.Table.from_pylist([{name: row.get(name) for name in names} for row in table])
    out = pa.BufferOutputStream()
    pq.write_table(arrow, out)
    data: bytes = out.getvalue().to_pybytes()
    return data
