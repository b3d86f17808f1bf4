"""`engine llm-log`: the latest model calls of a run, readable: who asked, which tier and model, tokens,
cost, latency, breaker state, whether the answer validated, and the start of the prompt and answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.errors import UserInputError
from engine.jsonl import JsonLines, read_objects, skipped_note

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


def read_entries(path: Path, last: int) -> JsonLines:
    """The last `last` readable entries, and how many lines of the whole file could not be read (a line
    torn by a killed run, one edited by hand): those are skipped, not fatal."""
    try:
        return read_objects(path, last=last)
    except OSError as exc:
        raise UserInputError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _scalar(entry: dict[str, Any], key: str, default: str = "?") -> str:
    # A field that should be a name or a number but holds a list or an object is shown as "?": printing it
    # whole would bury the line.
    value = entry.get(key)
    if value is None:
        return default
    return str(value) if isinstance(value, str | int | float) else "?"


def _number(entry: dict[str, Any], key: str, spec: str) -> str:
    """Formatted when it is a number; a missing one counts as 0, anything else is shown as "?"."""
    value = entry.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?"
    return format(value, spec)


def _clock(entry: dict[str, Any]) -> str:
    at = entry.get("at", "")
    return at[11:19] if isinstance(at, str) else "?"


def _prompt(entry: dict[str, Any]) -> str | None:
    messages = entry.get("messages")
    if not isinstance(messages, list) or not messages:
        return None
    last = messages[-1]
    return last.get("text") if isinstance(last, dict) else None


def _preview(text: object, full: bool) -> str:
    if text is None:
        return "-"
    if not isinstance(text, str):
        return "?"
    flat = " ".join(text.split())
    return flat if full or len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def render_entry(entry: dict[str, Any], full: bool = False) -> str:
    """One entry as text; a field of the wrong type is shown as "?", never a reason to fail."""
    head = f"#{_scalar(entry, 'seq')} {_clock(entry)} {_scalar(entry, 'role')} {_scalar(entry, 'tier')}"
    attempt = _scalar(entry, "attempt", "")
    if entry.get("event") == "validation":
        return f"{head} {attempt} answer: {_scalar(entry, 'validation')}"
    battle = _scalar(entry, "battle_id", "")
    lines = [
        f"{head} {_scalar(entry, 'provider')}:{_scalar(entry, 'model')} {attempt} "
        f"{_number(entry, 'tokens_in', '')}+{_number(entry, 'tokens_out', '')} tokens "
        f"${_number(entry, 'cost_usd', '.5f')} {_number(entry, 'latency_s', '.2f')} s "
        f"breaker {_scalar(entry, 'breaker')}" + (f" battle {battle}" if battle else "")
    ]
    lines.append(f"    prompt: {_preview(_prompt(entry), full)}")
    if entry.get("error"):
        lines.append(f"    error:  {_scalar(entry, 'error')}")
    else:
        lines.append(f"    answer: {_preview(entry.get('response'), full)}")
    return "\n".join(lines)


def _json_line(entry: dict[str, Any]) -> str | None:
    # An entry nested almost as deep as the parser allows may not serialise again from a deeper stack.
    try:
        return json.dumps(entry, ensure_ascii=False)
    except RecursionError:
        return None


def _write_json(found: JsonLines, out: TextIO) -> int:
    """The entries as JSON lines; returns how many could not be written back."""
    failed = 0
    for entry in found.entries:
        line = _json_line(entry)
        if line is None:
            failed += 1
        else:
            out.write(line + "\n")
    return failed


def _write_text(folder: Path, found: JsonLines, full: bool, out: TextIO) -> None:
    path = folder / "llm.jsonl"
    note = f" ({skipped_note(found.skipped)})" if found.skipped else ""
    if found.lines:
        out.write(f"run {folder.name}: the last {len(found.lines)} entries of {path}{note}\n")
        out.write("\n".join(render_entry(entry, full) for entry in found.entries) + "\n")
    elif found.skipped:
        out.write(f"run {folder.name}: no readable entries in {path}{note}\n")
    else:
        out.write(f"run {folder.name}: no model calls (every decision was rule-based)\n")


def show_llm_log(
    data_dir: Path,
    run_id: str | None,
    last: int,
    full: bool,
    as_json: bool,
    out: TextIO,
    err: TextIO | None = None,
) -> int:
    """Prints the entries; the count of unreadable lines goes into the text, or to `err` (stderr) with
    --json so that the output stays JSON lines a program can read."""
    folder = run_dir(data_dir, run_id)
    found = read_entries(folder / "llm.jsonl", last)
    if not as_json:
        _write_text(folder, found, full, out)
        return 0
    skipped = found.skipped + _write_json(found, out)
    if skipped:
        (err or sys.stderr).write(f"engine llm-log: {folder / 'llm.jsonl'}: {skipped_note(skipped)}\n")
    return 0
