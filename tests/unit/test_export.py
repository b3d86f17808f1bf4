"""`engine export`: decisions a rollback undid are left out, nested fields are flattened, and each format
reads back."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import UserInputError
from engine.runtime.export import encode, rows


def decision(seq: int, action: str) -> dict[str, object]:
    return {"seq": seq, "kind": "battle", "point": "battle_main_menu", "action": action, "reason": "r",
            "model": {"tier": "rule_based", "cost_usd": 0.0}}  # fmt: skip


def a_run(tmp_path: Path) -> Path:
    run = tmp_path / "runs" / "r1"
    (run / "battles").mkdir(parents=True)
    lines = [json.dumps(decision(1, "use TACKLE")), json.dumps(decision(2, "use GROWL"))]
    undone_at = len(lines[0]) + 1  # the byte offset of decision 2: the rollback undoes it and what follows
    lines += [json.dumps({"kind": "rollback", "after_offset": undone_at, "decisions": 1}),
              json.dumps(decision(2, "use BUBBLE")), json.dumps(decision(3, "use BUBBLE"))]  # fmt: skip
    (run / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    (run / "llm.jsonl").write_text(json.dumps({"role": "tactician", "usage": {"in": 10, "out": 2}}) + "\n")
    return run


def test_decisions_a_rollback_undid_are_left_out(tmp_path: Path) -> None:
    table = rows(a_run(tmp_path), "decisions")
    assert [(row["seq"], row["action"]) for row in table] == [
        (1, "use TACKLE"),
        (2, "use BUBBLE"),
        (3, "use BUBBLE"),
    ]
    assert table[0]["model.tier"] == "rule_based" and "model" not in table[0]


def test_csv_and_jsonl_read_back_and_llm_calls_flatten(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    table = rows(run, "decisions")
    back = list(csv.DictReader(io.StringIO(encode(table, "csv").decode())))
    assert [row["action"] for row in back] == [row["action"] for row in table]
    lines = encode(table, "jsonl").decode().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == [1, 2, 3]
    assert rows(run, "llm") == [{"role": "tactician", "usage.in": 10, "usage.out": 2}]


def test_parquet_without_pyarrow_is_one_line(tmp_path: Path) -> None:
    try:
        import pyarrow  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        with pytest.raises(UserInputError, match="needs pyarrow"):
            encode(rows(a_run(tmp_path), "decisions"), "parquet")
    else:
        assert encode(rows(a_run(tmp_path), "decisions"), "parquet")[:4] == b"PAR1"


def test_the_command_writes_a_file(tmp_path: Path) -> None:
    a_run(tmp_path)
    out = tmp_path / "decisions.csv"
    assert main(["export", "--data-dir", str(tmp_path), "--what", "decisions", "--out", str(out)]) == 0
    assert out.read_text().splitlines()[0].startswith("seq,kind,point,action,reason")
    assert len(out.read_text().splitlines()) == 4
