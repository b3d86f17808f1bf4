"""Counterfactual replays of a battle lost to a trainer, inside the run that lost it: its latest choices
tried again with every other legal action, the rest played by the rule-based policy. Their regrets become
lessons (engine/replay/lessons.py) that the next try follows where the search rates them as well
(engine/tactician/lookahead.py `PREFER_MARGIN`).

The replays are the command a user types (`engine replay --counterfactuals --max-rollouts N --local
--no-learn --json`), in a process of their own: beside the run's emulator in one process they would share
its interpreter lock and slow the game down, and a process can be given a deadline. MAX_ROLLOUTS bounds
the work: every decision of a boss battle tried would cost many minutes of a core for each loss (a rollout
plays the battle to its end).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from engine.memory.lessons import Lesson
from engine.replay.errors import ReplayError
from engine.replay.models import ReplayReport

REPLAY_SECONDS = 900.0  # wall seconds the replays of one battle may take before they are given up
# The latest eight to twelve decisions of a battle with four to six choices each: 19-41 s of a core beside a
# run for four losses to trainers (LASS, BEAUTY, GIOVANNI twice), each a rollout to the battle's end.
MAX_ROLLOUTS = 48
ENGINE = str(Path(sys.executable).parent / "engine")


class LossReplays:
    """What Reflection calls with a lost battle's log path (DATA_DIR/runs/<run id>/battles/<id>.json); the
    lessons its rollouts teach. `config` is the run's configuration (EngineConfig.model_dump), so that the
    replays press the buttons as the run did. `stop` ends a replay still running (the run is over)."""

    def __init__(self, rom: Path, config: dict[str, object], seconds: float = REPLAY_SECONDS) -> None:
        self.rom = rom
        self.config = config
        self.seconds = seconds
        self._running: subprocess.Popen[str] | None = None
        self._stopped = False
        self._lock = threading.Lock()

    def __call__(self, log_path: Path) -> tuple[Lesson, ...]:
        if not self.rom.is_file():
            raise ReplayError(f"the cartridge {self.rom} cannot be read where reflection runs")
        data_dir = log_path.parent.parent.parent.parent
        with tempfile.TemporaryDirectory(prefix="engine-replays-") as folder:
            config = Path(folder) / "config.yaml"
            config.write_text(json.dumps(self.config))  # JSON is YAML
            command = [ENGINE, "replay", "--battle", log_path.stem, "--rom", str(self.rom), "--data-dir",
                       str(data_dir), "--config", str(config), "--counterfactuals", "--max-rollouts",
                       str(MAX_ROLLOUTS), "--local", "--no-learn", "--json"]  # fmt: skip
            code, out, err = self._run(command)
        if code not in (0, 1):  # 1: the replay diverged from the log, its rollouts still count
            last = (err.strip().splitlines() or ["no message"])[-1]
            raise ReplayError(f"engine replay exited with {code}: {last}")
        return ReplayReport.model_validate_json(out).lessons

    def __reduce__(self) -> tuple[type[LossReplays], tuple[Path, dict[str, object], float]]:
        """Sent to a Ray actor as its recipe: a lock and a running process stay where they are."""
        return type(self), (self.rom, self.config, self.seconds)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._running is not None:
                self._running.kill()

    def _run(self, command: list[str]) -> tuple[int, str, str]:
        with self._lock:
            if self._stopped:
                raise ReplayError("the run is over")
            self._running = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        try:
            out, err = self._running.communicate(timeout=self.seconds)
        except subprocess.TimeoutExpired as exc:
            self._running.kill()
            self._running.communicate()
            raise ReplayError(f"the replays took over {self.seconds:.0f} s and were given up") from exc
        finally:
            with self._lock:
                code, self._running = self._running.returncode, None
        if self._stopped:
            raise ReplayError("the run ended before its replays did")
        return code, out, err
