"""A cell's folder names the machine and the process that made it, and the next cell on the machine removes
the folders of its processes that are gone (a killed worker never reaches the end of its `with`)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from engine.arena.cell import FOLDER_PREFIX, folder_prefix, sweep_orphans


def gone_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)  # fmt: skip
    return int(done.stdout)


def test_the_folders_of_cells_whose_process_is_gone_are_removed_and_no_other(tmp_path: Path) -> None:
    host = socket.gethostname()
    dead = gone_pid()
    orphan = tmp_path / f"{FOLDER_PREFIX}{host}-{dead}-abc123"
    (orphan / "data").mkdir(parents=True)
    (orphan / "start.state").write_bytes(b"\0" * 1024)
    playing = tmp_path / f"{folder_prefix()}def456"
    elsewhere = tmp_path / f"{FOLDER_PREFIX}another-machine-{dead}-ghi789"  # its processes are not ours
    elsewhere.mkdir()
    playing.mkdir()
    unnamed = tmp_path / f"{FOLDER_PREFIX}q7x9zz1k"  # made before folders named their process: left alone
    unnamed.mkdir()
    other = tmp_path / "something-else-1"
    other.mkdir()
    assert sweep_orphans(tmp_path) == 1
    assert not orphan.exists()
    assert playing.exists() and elsewhere.exists() and unnamed.exists() and other.exists()
    assert folder_prefix().endswith(f"-{os.getpid()}-")
    assert sweep_orphans(tmp_path) == 0
