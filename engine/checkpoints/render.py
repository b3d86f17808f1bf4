"""How `engine checkpoints` shows checkpoints to a person (one line each, or a block) or to a program."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from engine.checkpoints.disk import folder_bytes
from engine.checkpoints.models import CheckpointEntry

SHA_SHOWN = 12


def status(entry: CheckpointEntry) -> str:
    return "OK" if entry.ok else f"BROKEN: {entry.problems[0]}"


def as_json(entry: CheckpointEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "path": str(entry.path),
        "ok": entry.ok,
        "problems": list(entry.problems),
        "bytes": folder_bytes(entry.path),
        "manifest": entry.manifest.model_dump(mode="json") if entry.manifest is not None else None,
    }


def write_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def list_line(entry: CheckpointEntry) -> str:
    size = f"{folder_bytes(entry.path) / 1024:.1f} KB"
    manifest = entry.manifest
    if manifest is None:
        return f"{entry.name}  ?  ?  {size}  {status(entry)}"
    return (
        f"{entry.name}  {manifest.reason}  {manifest.created_at}  frames {manifest.frames}  "
        f"decisions {manifest.decisions}  battles {manifest.battles}  {size}  {status(entry)}"
    )


def show_block(entry: CheckpointEntry) -> str:
    lines = [
        f"checkpoint {entry.name}",
        f"  path: {entry.path}",
        f"  status: {'OK' if entry.ok else 'BROKEN'}",
    ]
    lines += [f"    {problem}" for problem in entry.problems]
    if entry.manifest is not None:
        fields = entry.manifest.model_dump(mode="json", exclude={"parts"})
        lines += [f"  {key}: {value}" for key, value in fields.items()]
        lines.append("  parts:")
        for name, part in sorted(entry.manifest.parts.items()):
            lines.append(f"    {name:<24} {part.bytes:>10} bytes  sha256 {part.sha256[:SHA_SHOWN]}")
    return "\n".join(lines)


def verify_lines(entries: Sequence[CheckpointEntry]) -> str:
    lines = []
    for entry in entries:
        lines.append(f"{'OK' if entry.ok else 'BROKEN':<6}  {entry.name}")
        lines += [f"        {problem}" for problem in entry.problems]
    broken = sum(not entry.ok for entry in entries)
    lines.append(f"{len(entries)} checkpoint{'' if len(entries) == 1 else 's'}, {broken} broken")
    return "\n".join(lines)
