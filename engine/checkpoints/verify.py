"""Checking a checkpoint folder: the seal against the manifest, then every part against the manifest.

The seal holds the manifest's sha256 and the manifest holds every part's size and sha256, so a change to
any byte of any file of a checkpoint is found. Files the manifest does not name are not looked at: loading
never reads them, so they cannot change what a checkpoint restores (an editor's backup or a note a person
left there must not turn a good checkpoint into a broken one).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.checkpoints.layout import is_simple_name
from engine.checkpoints.models import MANIFEST, READ_SCHEMAS, SEAL, Manifest, schemas_read


@dataclass(frozen=True)
class Inspection:
    manifest: Manifest | None
    problems: tuple[str, ...]
    schema_version: int | None = None  # what the manifest says, even when it is not ours
    contents: dict[str, bytes] = field(default_factory=dict)  # the verified parts' bytes

    @property
    def other_schema(self) -> bool:
        return self.schema_version is not None and self.schema_version not in READ_SCHEMAS


def seal_for(manifest: bytes) -> bytes:
    """The seal of a manifest's exact bytes."""
    return f"{hashlib.sha256(manifest).hexdigest()}  {MANIFEST}\n".encode("ascii")


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(item) for item in error["loc"]) or "manifest"
    return f"{where}: {error['msg']}"


def _read_bytes(path: Path, missing: str = "missing") -> tuple[bytes | None, str | None]:
    try:
        return path.read_bytes(), None
    except FileNotFoundError:
        return None, f"{path.name}: {missing}"
    except OSError as exc:
        return None, f"{path.name}: unreadable ({exc.strerror or exc})"


def _parse_manifest(data: bytes) -> tuple[Any, str | None]:
    try:
        return json.loads(data.decode("utf-8")), None
    # ValueError: bad UTF-8, bad JSON, or a number too long to convert.
    except ValueError as exc:
        return None, f"{MANIFEST}: not valid JSON ({exc})"
    except RecursionError:
        # The parser recurses once per nesting level; no manifest of ours is nested more than 3 deep.
        return None, f"{MANIFEST}: not valid JSON (nested too deeply)"


def _seal_problem(folder: Path, manifest: bytes) -> str | None:
    seal, problem = _read_bytes(folder / SEAL, missing="seal missing")
    if seal is None:
        return problem
    if seal != seal_for(manifest):
        return f"{SEAL}: the seal does not match {MANIFEST} (one of them was changed)"
    return None


def read_manifest(path: Path) -> tuple[Manifest | None, int | None, str | None]:
    """(manifest, schema version it claims, problem); the manifest only if its seal matches. A manifest
    of another schema is neither checked nor parsed: its fields, and its seal, may mean something else,
    and an older engine's checkpoint (v1 had no seal) is refused by its version, not called damaged."""
    raw, problem = _read_bytes(path / MANIFEST)
    if raw is None:
        return None, None, problem
    data, problem = _parse_manifest(raw)
    if problem is not None:
        return None, None, problem
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and version not in READ_SCHEMAS:
        return None, version, f"schema v{version}, this engine reads {schemas_read()}"
    problem = _seal_problem(path, raw)
    if problem is not None:
        return None, version, problem
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
