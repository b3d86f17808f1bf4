"""Checking a checkpoint folder against its manifest: every part present, of the right size and sha256."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.checkpoints.layout import is_simple_name
from engine.checkpoints.models import MANIFEST, SCHEMA_VERSION, Manifest


@dataclass(frozen=True)
class Inspection:
    manifest: Manifest | None
    problems: tuple[str, ...]
    schema_version: int | None = None  # what the manifest says, even when it is not ours
    contents: dict[str, bytes] = field(default_factory=dict)  # the verified parts' bytes

    @property
    def other_schema(self) -> bool:
        return self.schema_version is not None and self.schema_version != SCHEMA_VERSION


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(item) for item in error["loc"]) or "manifest"
    return f"{where}: {error['msg']}"


def _read_json(path: Path) -> tuple[Any, str | None]:
    try:
        return json.loads(path.read_bytes().decode("utf-8")), None
    except FileNotFoundError:
        return None, f"{MANIFEST}: missing"
    except OSError as exc:
        return None, f"{MANIFEST}: unreadable ({exc.strerror or exc})"
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{MANIFEST}: not valid JSON ({exc})"


def read_manifest(path: Path) -> tuple[Manifest | None, int | None, str | None]:
    """(manifest, schema version it claims, problem). A manifest of another schema is not parsed: its
    fields may mean something else."""
    data, problem = _read_json(path / MANIFEST)
    if problem is not None:
        return None, None, problem
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and version != SCHEMA_VERSION:
        return None, version, f"schema v{version}, this engine reads v{SCHEMA_VERSION}"
    try:
        return Manifest.model_validate(data), version, None
    except ValidationError as exc:
        return None, version, f"{MANIFEST}: invalid ({_first_error(exc)})"


def _check_part(folder: Path, name: str, expected_size: int, expected_sha: str) -> tuple[bytes | None, str]:
    if not is_simple_name(name):
        return None, f"{name!r}: not a part name"
    try:
        data = (folder / name).read_bytes()
    except FileNotFoundError:
        return None, f"{name}: missing"
    except OSError as exc:
        return None, f"{name}: unreadable ({exc.strerror or exc})"
    if len(data) != expected_size:
        return None, f"{name}: {len(data)} bytes, the manifest says {expected_size}"
    if hashlib.sha256(data).hexdigest() != expected_sha.lower():
        return None, f"{name}: sha256 mismatch"
    return data, ""


def inspect_checkpoint(folder: Path) -> Inspection:
    manifest, version, problem = read_manifest(folder)
    if manifest is None:
        return Inspection(None, (problem or f"{MANIFEST}: unreadable",), version)
    problems: list[str] = []
    contents: dict[str, bytes] = {}
    for name, digest in sorted(manifest.parts.items()):
        data, part_problem = _check_part(folder, name, digest.bytes, digest.sha256)
        if data is None:
            problems.append(part_problem)
        else:
            contents[name] = data
    return Inspection(manifest, tuple(problems), version, contents if not problems else {})
