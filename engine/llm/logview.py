"""`engine llm-log`: the latest model calls of a run, readable: who asked, which tier and model, tokens,
cost, latency, breaker state, whether the answer validated, and the start of the prompt and answer."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any, TextIO

from engine.errors import UserInputError

PREVIEW_CHARS = 160


def latest_run(data_dir: Path) -> Path:
    """The newest run directory (run ids sort by start time)."""
    runs = data_dir / "runs"
    found = sorted(path for path in runs.iterdir() if path.is_dir()) if runs.is_dir() else []
    if not found:
        raise UserInputError(f"no runs under {runs}: start one with `engine run`")
    return found[-1]


def run_dir(data_dir: Path, run_id: str | None) -> Path:
    if run_id is None:
        return latest_run(data_dir)
    path = data_dir / "runs" / run_id
    if not path.is_dir():
        raise UserInputError(f"no run {run_id} under {data_dir / 'runs'}")
    return path


def read_entries(path: Path, last: int) -> list[dict[str, Any]]:
    """The last `last` entries; a torn final line (a run killed mid-write) is skipped, not fatal."""
    if not path.is_file():
        return []
    kept: deque[dict[str, Any]] = deque(maxlen=last)
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                kept.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return list(kept)


def _preview(text: str | None, full: bool) -> str:
    if text is None:
        return "-"
    flat = " ".join(text.split())
    return flat if full or len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def render_entry(entry: dict[str, Any], full: bool = False) -> str:
    at = str(entry.get("at", ""))[11:19]
    head = f"#{entry.get('seq', '?')} {at} {entry.get('role', '?')} {entry.get('tier', '?')}"
    if entry.get("event") == "validation":
        return f"{head} {entry.get('attempt', '')} answer: {entry.get('validation', '?')}"
    lines = [
        f"{head} {entry.get('provider', '?')}:{entry.get('model', '?')} {entry.get('attempt', '')} "
        f"{entry.get('tokens_in', 0)}+{entry.get('tokens_out', 0)} tokens ${entry.get('cost_usd', 0):.5f} "
        f"{entry.get('latency_s', 0):.2f} s breaker {entry.get('breaker', '?')}"
        + (f" battle {entry['battle_id']}" if entry.get("battle_id") else "")
    ]
    messages = entry.get("messages") or []
    prompt = messages[-1].get("text") if messages else None
    lines.append(f"    prompt: {_preview(prompt, full)}")
    if entry.get("error"):
        lines.append(f"    error:  {entry['error']}")
    else:
        lines.append(f"    answer: {_preview(entry.get('response'), full)}")
    return "\n".join(lines)


def show_llm_log(
    data_dir: Path, run_id: str | None, last: int, full: bool, as_json: bool, out: TextIO
) -> int:
    folder = run_dir(data_dir, run_id)
    entries = read_entries(folder / "llm.jsonl", last)
    if as_json:
        for entry in entries:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
        return 0
    if not entries:
        out.write(f"run {folder.name}: no model calls (every decision was rule-based)\n")
        return 0
    out.write(f"run {folder.name}: the last {len(entries)} entries of {folder / 'llm.jsonl'}\n")
    out.write("\n".join(render_entry(entry, full) for entry in entries) + "\n")
    return 0
