"""The emulator role's checkpoint verbs on a real cartridge: a snapshot taken mid-battle, restored into the
same role after playing on and into a role just opened (as Ray re-creates a crashed emulator actor), plays
the rest of the battle frame for frame as the first time; a truncated state is refused and changes
nothing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import EmulatorConfig, PlayerConfig
from engine.emulator.errors import SaveStateError
from engine.game.buttons import Button
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.role import EmulatorRole
from engine.mechanics.snapshot import EmulatorSnapshot
from engine.tactician.rule_based import RuleBasedPolicy
from tests.support.scenarios import set_party, start_battle

pytestmark = pytest.mark.rom

MAX_DECISIONS = 40
# What one decision left behind: the frame counter, the RAM digest, the game's next state, the battle text
# read meanwhile and the executor's last look inside the battle.
Look = tuple[int, str, GameState, tuple[str, ...], GameState | None]


def open_role(rom: Path) -> EmulatorRole:
    return EmulatorRole(rom, EmulatorConfig(), PlayerConfig())


@pytest.fixture
def battle(rom_path: Path, boot_record: tuple[bytes, list]) -> Iterator[tuple[EmulatorRole, GameState]]:
    """SQUIRTLE L8 against a wild RATTATA L6 (several turns, with damage rolls and misses), at its first
    choice, as the conductor begins a battle."""
    role, first = at_first_choice(rom_path, boot_record[0])
    try:
        role.begin_battle(first)
        yield role, first
    finally:
        role.close()


def at_first_choice(rom: Path, boot_state: bytes) -> tuple[EmulatorRole, GameState]:
    """A role whose game is at that battle's first choice, the battle not begun yet."""
    role = open_role(rom)
    role.session.load_state(boot_state)
    set_party(role.session, [("SQUIRTLE", 8)])
    start_battle(role.session, "RATTATA", 6)
    return role, role.advance()


def play(role: EmulatorRole, state: GameState, decisions: int = MAX_DECISIONS) -> list[Look]:
    """Up to `decisions` choices of the free policy (deterministic), or until the battle is over."""
    policy, looks = RuleBasedPolicy(), []
    for _ in range(decisions):
        if state.decision_point is DecisionPoint.OVERWORLD_FREE:
            break
        decision = policy.decide(state)
        assert decision is not None
        text = role.act(decision.action).text
        state = role.advance()
        looks.append((role.frame_count(), role.frame().digest, state, text, role.end_battle().final))
    return looks


def test_a_restored_battle_plays_on_frame_for_frame(
    battle: tuple[EmulatorRole, GameState], rom_path: Path
) -> None:
    role, first = battle
    ((_, _, state, _, _),) = play(role, first, decisions=1)
    assert state.decision_point is DecisionPoint.BATTLE_MAIN_MENU  # mid-battle
    at_snapshot = role.frame()
    taken = role.snapshot()
    assert taken.frames == role.frame_count() and taken.last_in_battle == role.end_battle().final
    # As a checkpoint stores it: JSON beside the raw state bytes.
    snapshot = EmulatorSnapshot.from_parts(json.loads(json.dumps(taken.to_json())), taken.state)
    assert snapshot == taken

    expected = play(role, state)
    assert expected[-1][2].decision_point is DecisionPoint.OVERWORLD_FREE and len(expected) >= 3
    assert expected[-1][0] > snapshot.frames

    role.restore(snapshot)
    assert (role.frame(), role.end_battle().final) == (at_snapshot, snapshot.last_in_battle)
    assert play(role, state) == expected
    # Rolled back again after a decision whose battle text was never taken: none of it comes back.
    role.restore(snapshot)
    decision = RuleBasedPolicy().decide(state)
    assert decision is not None
    role.act(decision.action)
    role.restore(snapshot)
    assert play(role, state) == expected

    fresh = open_role(rom_path)  # just opened: booted, no intro played, nothing tracked yet
    try:
        fresh.restore(snapshot)
        assert (fresh.frame(), fresh.end_battle().final) == (at_snapshot, snapshot.last_in_battle)
        assert play(fresh, state) == expected
        assert fresh.cartridge_sha256() == role.cartridge_sha256()
        assert fresh.cartridge_sha256() == hashlib.sha256(rom_path.read_bytes()).hexdigest()
    finally:
        fresh.close()


def test_a_truncated_state_is_refused_and_the_role_plays_on(battle: tuple[EmulatorRole, GameState]) -> None:
    role, first = battle
    ((_, _, state, _, _),) = play(role, first, decisions=1)
    snapshot = role.snapshot()
    before = (role.frame_count(), role.frame(), role.end_battle().final)
    truncated = snapshot.model_copy(update={"state": snapshot.state[: len(snapshot.state) // 2]})
    for bad in (truncated, snapshot.model_copy(update={"state": b"not a save state"})):
        with pytest.raises(SaveStateError):
            role.restore(bad)
        assert (role.frame_count(), role.frame(), role.end_battle().final) == before
    played = play(role, state)
    assert played and played[-1][2].decision_point is DecisionPoint.OVERWORLD_FREE
    role.restore(snapshot)
    assert play(role, state) == played  # the refused restores left nothing behind


def test_a_snapshot_right_after_a_kept_battle_start_shares_its_save(
    rom_path: Path, boot_record: tuple[bytes, list]
) -> None:
    """A trainer battle's checkpoint is taken at its first decision, just after the start state was kept:
    it reuses that save state; once the game moves (a frame, or an input) a snapshot saves afresh."""
    role, first = at_first_choice(rom_path, boot_record[0])
    try:
        saves: list[bytes] = []
        save_state = role.session.save_state

        def counted() -> bytes:
            saves.append(save_state())
            return saves[-1]

        role.session.save_state = counted  # type: ignore[method-assign]
        start = role.begin_battle(first, keep_state=True)
        shared = role.snapshot()
        assert len(saves) == 1 and shared.state == saves[0]
        assert start.state is not None and role.session.export_state(shared.state) == start.state
        role.session.tick(1)
        moved = role.snapshot()
        assert len(saves) == 2 and moved.state != shared.state
        role.begin_battle(first, keep_state=True)
        role.session.hold(Button.A)  # an input changes the machine without a frame
        role.snapshot()
        role.session.release(Button.A)
        assert len(saves) == 4
    finally:
        role.close()


def test_a_state_saved_with_a_release_still_queued_does_not_walk_on_by_itself(rom_path: Path) -> None:
    """PyBoy applies input at the next frame: a save right after a release keeps the direction down. Loaded
    again, the session lets go of every button it does not hold, so the player stands still."""
    from engine.emulator.session import EmulatorSession
    from tests.support.scenarios import boot_to_overworld

    with EmulatorSession(rom_path) as session:
        boot_to_overworld(session)
        ram = session.ram_map
        start = (session.read_u8(ram.wXCoord), session.read_u8(ram.wYCoord))
        session.hold(Button.LEFT)
        # One step to the left (the room goes on that way), held until the frame the step ends on.
        session.run_until(lambda memory: memory[ram.wXCoord] == start[0] - 1, 60, check_every=1)
        session.release(Button.LEFT)  # queued: no frame has run since
        saved = session.save_state()
        before = (session.read_u8(ram.wXCoord), session.read_u8(ram.wYCoord))
    with EmulatorSession(rom_path) as fresh:
        fresh.load_state(saved)
        fresh.tick(120)
        after = (fresh.read_u8(ram.wXCoord), fresh.read_u8(ram.wYCoord))
    assert before == (start[0] - 1, start[1]) and after == before
