"""The actor runtime's parts that need no Ray: errors that cross process boundaries, the factory's local
path with the fixture-backed emulator, `--address` and `engine status` failing in one line, the status text,
and the summary rebuilt from a run's files."""

from __future__ import annotations

import json
import pickle
import socket
import time
from functools import partial
from pathlib import Path

import pytest

from engine.actors.errors import ClusterUnavailableError, RoleDiedError
from engine.actors.factory import RoleBuild, build_roles
from engine.actors.handles import LocalHandle
from engine.actors.roles import ROLE_NAMES
from engine.battles.models import BattleLog, BattleSummary
from engine.checkpoints.models import CheckpointHeader
from engine.checkpoints.store import CheckpointStore
from engine.cli import main
from engine.commands.status import print_status, render
from engine.config import EngineConfig
from engine.emulator.errors import FrameBudgetExceeded, SaveStateError
from engine.files import append_json_line, write_json_atomic
from engine.game.models import DecisionPoint
from engine.layout import RunPaths
from engine.mechanics.errors import ExecutionError
from engine.messages import RoleReport, RunStatus
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.summary import summary_from_files
from tests.conftest import GEN1_FIXTURES
from tests.support.fake_emulator import FakeEmulator
from tests.support.romgen import write_rom


def assert_one_line_error(code: int, err: str, fragment: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("engine: error: ") and fragment in lines[0]


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    "error",
    [
        ExecutionError("no menu", DecisionPoint.BATTLE_MAIN_MENU, ["a", "down"], "abc123"),
        FrameBudgetExceeded(3600, 12345),
        RoleDiedError("vision", "killed"),
        ClusterUnavailableError("no Ray cluster answers at 10.0.0.1:6379"),
        SaveStateError("truncated"),
    ],
)
def test_engine_errors_cross_process_boundaries_with_their_class_and_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error) and copy.args == error.args
    assert vars(copy) == vars(error)


def test_the_factory_builds_seven_local_roles() -> None:
    roles = build_roles(EngineConfig(), RoleBuild(rom=Path("scripted.gb"), run_id="r1"), "local",
                        partial(FakeEmulator, fixtures=GEN1_FIXTURES))  # fmt: skip
    handles = roles.all()
    assert [handle.role for handle in handles] == list(ROLE_NAMES)
    assert all(isinstance(handle, LocalHandle) for handle in handles)
    assert [handle.call.report().role for handle in handles] == list(ROLE_NAMES)
    for handle in handles:
        handle.close()


def test_a_scripted_wild_battle_in_process(tmp_path: Path) -> None:
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    summary = run_local(EngineConfig(), RunOptions(rom=Path("scripted.gb"), max_decisions=6), paths,
                        emulator_factory=partial(FakeEmulator, fixtures=GEN1_FIXTURES))  # fmt: skip
    assert (summary.stopped, summary.decisions, summary.overworld_steps) == ("max_decisions", 6, 4)
    (battle,) = summary.battles
    assert (battle.outcome, battle.opponent, battle.turns, battle.decisions) == ("victory", "PIDGEY", 1, 2)
    assert battle.frames == 360 and summary.frames == 544  # the fake's fixed frames per verb


def test_a_wrong_address_fails_in_one_line_without_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rom = write_rom(tmp_path, title=b"POKEMON RED")  # passes the cartridge check, which comes first
    address = f"127.0.0.1:{closed_port()}"
    started = time.monotonic()
    code = main(["run", "--rom", str(rom), "--address", address, "--data-dir", str(tmp_path / "data")])
    assert time.monotonic() - started < 10
    assert_one_line_error(code, capsys.readouterr().err, f"no Ray cluster answers at {address}")
    assert not (tmp_path / "data").exists()


def test_a_malformed_address_fails_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    code = main(["run", "--rom", str(rom), "--address", "nowhere", "--data-dir", str(tmp_path)])
    assert_one_line_error(code, capsys.readouterr().err, "expected 'auto' or HOST:PORT")


def test_local_and_address_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", "--rom", "x.gb", "--local", "--address", "auto"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_status_at_an_address_that_answers_nothing_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    """As for every other command that takes --address: exit code 2 and one line."""
    address = f"127.0.0.1:{closed_port()}"
    assert main(["status", "--address", address]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [f"engine: error: no Ray cluster answers at {address} "
                                        "(Connection refused)"]  # fmt: skip


def status_example() -> RunStatus:
    return RunStatus(
        run_id="20261122-101500-3fa9",
        state="running",
        game="red",
        where="battle 2: wild PIDGEY",
        battles=1,
        decisions=17,
        frames=40210,
        seconds_since_checkpoint=12.34,
        roles=(
            RoleReport(role="emulator", healthy=True, counters={"frames": 40210}),
            RoleReport(
                role="checkpoint",
                healthy=True,
                counters={"written": 4, "failed": 0, "restored": 0, "seconds_since_checkpoint": 12.34},
                detail="last: 20261122-101500-3fa9/000004-battle_end (battle_end)",
            ),
            RoleReport(role="tactician", healthy=False, detail="the tactician actor died: killed"),
            RoleReport(
                role="gateway",
                healthy=True,
                counters={
                    "llm_calls": 3,
                    "tokens_in": 2400,
                    "tokens_out": 180,
                    "cost_usd": 0.0033,
                    "fallbacks": 1,
                },
                detail="tiers: acting",
            ),
        ),
    )


def test_status_text_names_every_field() -> None:
    assert render(status_example()).splitlines() == [
        "run 20261122-101500-3fa9 (red): running",
        "  where        battle 2: wild PIDGEY",
        "  battles      1",
        "  decisions    17",
        "  frames       40210",
        "  checkpoint   12.3 s ago",
        "  models       3 calls, 2400 tokens in, 180 out, $0.0033, 1 fallbacks to rule_based (tiers: acting)",
        "  roles",
        "    emulator    ok    frames=40210",
        "    checkpoint  ok    written=4 failed=0 restored=0 seconds_since_checkpoint=12.34  "
        "last: 20261122-101500-3fa9/000004-battle_end (battle_end)",
        "    tactician   DOWN    the tactician actor died: killed",
        "    gateway     ok    llm_calls=3 tokens_in=2400 tokens_out=180 cost_usd=0.0033 fallbacks=1  "
        "tiers: acting",
    ]


def test_status_json_is_the_run_status(tmp_path: Path) -> None:
    out = tmp_path / "status.json"
    with out.open("w", encoding="utf-8") as handle:
        print_status([status_example()], True, "engine", handle)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["namespace"] == "engine"
    assert data["runs"] == [status_example().model_dump(mode="json")]


def test_a_summary_rebuilt_from_the_run_files(tmp_path: Path) -> None:
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    battle = BattleSummary(battle_id="r1-b001", outcome="victory", battle_type="wild", opponent="PIDGEY",
                           turns=2, decisions=3, frames=900, wall_seconds=0.5)  # fmt: skip
    log = BattleLog(summary=battle, run_id="r1", start_frame=10, decisions=())
    write_json_atomic(paths.battle_log(battle.battle_id), log.model_dump(mode="json"))
    for kind in ("battle", "battle", "battle"):
        append_json_line(paths.decisions, {"kind": kind})
    for steps in (4, 7):  # overworld decisions are legs of several steps
        append_json_line(paths.decisions, {"kind": "overworld", "steps": steps})
    summary = summary_from_files(paths, "interrupted", None, time.monotonic())
    assert (summary.stopped, summary.decisions, summary.overworld_steps) == ("interrupted", 5, 11)
    assert summary.battles == (battle,)
    assert (summary.game, summary.frames) == ("?", 0)  # no checkpoint yet: nothing says how far it got


def test_a_rebuilt_summary_counts_the_frames_of_the_newest_intact_checkpoint(tmp_path: Path) -> None:
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    store = CheckpointStore(paths.checkpoints, keep=5)
    for frames in (1_000, 2_500, 4_000):
        store.write(checkpoint_header(frames), {"conductor": {}}, {"emulator.state": b"state"})
    newest = store.entries("r1")[0].path
    (newest / "emulator.state").write_bytes(b"torn")  # a crash mid-write: its digest no longer matches
    summary = summary_from_files(paths, "error", "boom", time.monotonic())
    assert (summary.game, summary.frames) == ("POKEMON RED", 2_500)


def checkpoint_header(frames: int) -> CheckpointHeader:
    return CheckpointHeader(run_id="r1", reason="periodic", game="POKEMON RED", rom_sha256="0" * 64,
                            config_hash="cfg", frames=frames, decisions=1, decisions_offset=0, battles=0,
                            play_frames=frames)  # fmt: skip


class CrashingTactician(Exception):
    """Stands for a bug: not an EngineError."""


def test_a_bug_mid_run_still_writes_the_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.tactician.tactician import Tactician

    def crash(*_: object) -> None:
        raise CrashingTactician("boom")

    monkeypatch.setattr(Tactician, "choose_battle", crash)
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    summary = run_local(EngineConfig(), RunOptions(rom=Path("scripted.gb"), max_decisions=6), paths,
                        emulator_factory=partial(FakeEmulator, fixtures=GEN1_FIXTURES))  # fmt: skip
    assert summary.stopped == "error"
    assert summary.error == "internal error: CrashingTactician: boom"
    assert summary.decisions == 0 and summary.frames > 0  # the frames played before the crash are kept
    assert json.loads(paths.summary.read_text(encoding="utf-8"))["stopped"] == "error"
