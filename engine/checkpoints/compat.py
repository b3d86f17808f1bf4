"""Whether a checkpoint may be resumed here: same checkpoint schema, same cartridge."""

from __future__ import annotations

import os
from pathlib import Path

from engine.checkpoints.errors import CheckpointIncompatibleError, CheckpointPathError
from engine.checkpoints.models import READ_SCHEMAS, Manifest, schemas_read

SHA_SHOWN = 12  # enough to tell two cartridges apart in a message


def schema_refusal(name: str, version: int) -> CheckpointIncompatibleError:
    return CheckpointIncompatibleError(
        f"checkpoint {name} was written with checkpoint schema v{version}; this engine reads {schemas_read()}"
    )


def check_compatible(manifest: Manifest, game: str, rom_sha256: str) -> None:
    """Raise CheckpointIncompatibleError unless this engine can resume `manifest` with this cartridge."""
    if manifest.schema_version not in READ_SCHEMAS:
        raise schema_refusal(manifest.name, manifest.schema_version)
    if manifest.rom_sha256.lower() != rom_sha256.lower():
        # The save state would load into another game's memory map: refuse before the emulator sees it.
        raise CheckpointIncompatibleError(
            f"checkpoint {manifest.name} was made with another cartridge ({manifest.game}, sha256 "
            f"{manifest.rom_sha256[:SHA_SHOWN]}); --rom is {game}, sha256 {rom_sha256[:SHA_SHOWN]}"
        )


def data_dir_of(checkpoint: Path) -> Path:
    """The data directory a checkpoint belongs to: DATA_DIR/checkpoints/<run id>/<folder> -> DATA_DIR."""
    # abspath, not resolve: "..", "." go away but a symlinked data directory keeps the name it was given.
    folder = Path(os.path.abspath(checkpoint))
    if folder.parent.parent.name != "checkpoints":
        raise CheckpointPathError(
            f"{checkpoint} is not a checkpoint folder (expected DATA_DIR/checkpoints/<run id>/<checkpoint>)"
        )
    return folder.parent.parent.parent
