"""`engine` on the scripted game, for tests that run it as a process and send it signals: the real command
line (signal handlers, exit codes, the summary), with FakeEmulator standing in for the Emulator role.

    python -m tests.support.fake_run '{"delay": 0.05}' run --local --rom ROM --data-dir DIR ...

The first argument holds FakeEmulator's options as JSON (`stall` as a dict of Stall's fields); the rest
is the `engine` command line. The ROM only has to pass the cartridge check: a generated one titled
POKEMON RED (tests.support.romgen.write_titled) does.
"""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import Any


def fake_factory(options: dict[str, Any]) -> Any:
    from tests.conftest import GEN1_FIXTURES
    from tests.support.fake_emulator import FakeEmulator, Stall

    if "stall" in options:
        stall = options["stall"]
        options = {**options, "stall": Stall(**{**stall, "once": Path(stall["once"])})}
    if "script" in options:
        options = {**options, "script": tuple(options["script"])}
    return partial(FakeEmulator, fixtures=GEN1_FIXTURES, **options)


def main(argv: list[str]) -> int:
    import engine.runtime.local as local
    import engine.runtime.ray_run as ray_run
    from engine.cli import main as engine

    factory = fake_factory(json.loads(argv[0]))
    local.run_local = partial(local.run_local, emulator_factory=factory)  # type: ignore[assignment]
    ray_run.run_on_ray = partial(ray_run.run_on_ray, emulator_factory=factory)  # type: ignore[assignment]
    return engine(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
