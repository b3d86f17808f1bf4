"""The markers declared in pyproject.toml select what they say: `-m rom` is every ROM test, `-m "not rom"`
none of them (CI and a plain clone have no cartridge; a developer with one runs them alone)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO_ROOT


def collected(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_every_rom_test_carries_the_rom_marker() -> None:
    everything = collected("tests/rom")
    assert len(everything) > 20
    assert collected("-m", "rom", "tests/rom") == everything
    assert collected("-m", "not rom", "tests/rom") == []
