"""What a battle log says each decision led to: from the visible sides at consecutive decisions, and from
the battle messages shown in between."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.battles.models import BattleSummary, DecisionRecord, SideView
from engine.battles.tracker import enemy_side, move_used, our_side, turn_outcomes
from engine.game.actions import Run, Struggle, UseMove
from engine.game.capture import load_capture
from engine.game.models import DecisionPoint
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.mechanics.executor import BattleText, message_lines
from engine.runtime.summary import RunSummary
from tests.conftest import GEN1_FIXTURES


def side(species: str, percent: float, status: str = "OK", hp: int | None = None) -> SideView:
    return SideView(species=species, level=10, hp=hp, max_hp=40 if hp is not None else None,
                    hp_percent=percent, status=status)  # fmt: skip


def record(action: str, ours: SideView, enemy: SideView) -> DecisionRecord:
    return DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action=action, reason="r", ours=ours,
                          enemy=enemy)  # fmt: skip


def test_sides_show_our_hp_exactly_and_the_enemys_as_its_bar() -> None:
    state = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    ours, enemy = our_side(state), enemy_side(state)
    assert ours is not None and enemy is not None
    assert (ours.species, ours.hp, ours.max_hp) == (
        "PIKACHU",
        state.battle.player.hp,
        state.battle.player.max_hp,
    )
    assert enemy.hp is None and enemy.max_hp is None and enemy.status == "PAR"
    assert 0 < enemy.hp_percent <= 100


def test_turn_outcomes_from_consecutive_looks() -> None:
    records = [
        record("use BUBBLE", side("SQUIRTLE", 100, hp=40), side("GEODUDE", 100)),
        record("use BUBBLE", side("SQUIRTLE", 80, hp=32), side("GEODUDE", 37.5, status="OK")),
        record("use TACKLE", side("SQUIRTLE", 80, hp=32), side("ONIX", 100)),
    ]
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, second, third = turn_outcomes(records, final)
    assert (first.hp_lost_percent, first.enemy_hp_lost_percent) == (20, 62.5)
    assert not first.fainted and not first.enemy_fainted
    # GEODUDE went down and ONIX came out: no difference can be taken across a change of Pokémon.
    assert second.enemy_hp_lost_percent is None and second.hp_lost_percent == 0
    # The last look is another battle entirely (PIKACHU vs ODDISH): nothing to compare either.
    assert (third.hp_lost_percent, third.enemy_hp_lost_percent) == (None, None)
    assert [t.action for t in (first, second, third)] == ["use BUBBLE", "use BUBBLE", "use TACKLE"]


def test_faints_and_status_changes_are_named() -> None:
    records = [
        record("use TACKLE", side("PIKACHU", 50, hp=14), side("ODDISH", 20)),
        record("use TACKLE", side("PIKACHU", 0, status="PSN", hp=0), side("ODDISH", 0)),
    ]
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, _ = turn_outcomes(records, final)
    assert first.fainted and first.enemy_fainted
    assert first.status_change == "OK->PSN" and first.enemy_status_change is None


# -- battle messages ---------------------------------------------------------------------------------
def box(name: str) -> list[str]:
    """The text box's lines in one of the shared captures."""
    return message_lines(load_capture(GEN1_FIXTURES / name), RED_BLUE.wTileMap)


def test_messages_are_read_from_the_text_box_only() -> None:
    assert box("red_brock_used_move_text") == ["WARTORTLE", "used BUBBLE!"]
    assert box("red_brock_super_effective_text") == ["It's super", "effective!"]
    assert box("red_wild_use_next_mon_prompt") == ["Use next POKéMON?"]  # the HUD above is left out


def test_looks_while_printing_make_one_message_each() -> None:
    """What the executor's looks pass through in a real turn: lines half printed, then complete, then
    the next message; each message's two lines are joined."""
    text = BattleText()
    used, effective = box("red_brock_used_move_text"), box("red_brock_super_effective_text")
    for lines in (["WA"], ["WARTORTLE"], ["WARTORTLE", "used BUB"], used, used, [], ["It's supe"], effective):
        text.see(lines)
    assert text.take() == ("WARTORTLE used BUBBLE!", "It's super effective!")
    assert text.take() == ()


def test_scrolled_lines_are_not_repeated_and_repeats_are_kept_once() -> None:
    text = BattleText()
    for lines in (
        ["Enemy ONIX's", "paralyzed! It may"],
        ["paralyzed! It may", "not at"],  # the box scrolled up one line and goes on printing
        ["paralyzed! It may", "not attack!"],
        ["Enemy ONIX", "used TACKLE!"],
        [],
        ["Enemy ONIX", "used TACKLE!"],
        ["SQUIRTLE's", "attack missed!"],
    ):
        text.see(lines)
    assert text.take() == (
        "Enemy ONIX's paralyzed! It may not attack!",
        "Enemy ONIX used TACKLE!",
        "SQUIRTLE's attack missed!",
    )


def test_a_message_still_on_screen_at_a_take_is_not_taken_twice() -> None:
    text = BattleText()
    text.see(["What? SQUIRTLE", "is evolving"])
    assert text.take() == ("What? SQUIRTLE is evolving",)
    text.see(["What? SQUIRTLE", "is evolving!"])  # printed further, after the take
    text.see(["SQUIRTLE evolved", "into WARTORTLE!"])
    assert text.take() == ("SQUIRTLE evolved into WARTORTLE!",)


def test_messages_are_capped_at_the_first_ones() -> None:
    text = BattleText(limit=3)
    for n in range(6):
        text.see([f"message {n}"])
    assert text.take() == ("message 0", "message 1", "message 2")


def test_a_turn_read_from_two_real_captures() -> None:
    """WARTORTLE's BUBBLE against BROCK's GEODUDE: the look at "used BUBBLE!" and the one at "It's super
    effective!" (BUBBLE 30 PP, then 29; GEODUDE's bar empty)."""
    before = decode_state(load_capture(GEN1_FIXTURES / "red_brock_used_move_text"), RED_BLUE)
    after = decode_state(load_capture(GEN1_FIXTURES / "red_brock_super_effective_text"), RED_BLUE)
    text = BattleText()
    text.see(box("red_brock_used_move_text"))
    text.see(box("red_brock_super_effective_text"))
    decision = DecisionRecord(
        point=DecisionPoint.BATTLE_MAIN_MENU, action="use BUBBLE", reason="r", ours=our_side(before),
        enemy=enemy_side(before), move=move_used(UseMove(slot=2), before), text=text.take(),
    )  # fmt: skip
    (turn,) = turn_outcomes([decision], after)
    assert (turn.move, turn.text) == ("BUBBLE", ("WARTORTLE used BUBBLE!", "It's super effective!"))
    assert (turn.effectiveness, turn.enemy_effectiveness, turn.missed, turn.enemy_missed) == (
        "super",
        None,
        False,
        False,
    )
    assert turn.pp_used == 1 and turn.enemy_hp_lost_percent == 100 and turn.enemy_fainted


def test_our_side_lists_our_moves_and_pp_the_enemys_none() -> None:
    state = decode_state(load_capture(GEN1_FIXTURES / "red_brock_used_move_text"), RED_BLUE)
    ours, enemy = our_side(state), enemy_side(state)
    assert ours is not None and enemy is not None
    assert ours.moves == ("TACKLE", "TAIL_WHIP", "BUBBLE", "WATER_GUN") and ours.pp == (35, 30, 30, 25)
    assert enemy.moves == () and enemy.pp == ()
    assert move_used(Struggle(), state) == "STRUGGLE" and move_used(Run(), state) is None


def with_text(action: str, move: str | None, text: tuple[str, ...], pp: int = 20) -> DecisionRecord:
    ours = side("SQUIRTLE", 100, hp=40).model_copy(update={"moves": ("TACKLE", "BUBBLE"), "pp": (35, pp)})
    return DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action=action, reason="r", ours=ours,
                          enemy=side("ONIX", 100), move=move, text=text)  # fmt: skip


def test_effectiveness_and_misses_go_to_the_side_that_moved() -> None:
    records = [
        with_text(
            "use BUBBLE",
            "BUBBLE",
            (
                "Enemy ONIX used TACKLE!",
                "It's not very effective...",  # the enemy moved first: its TACKLE
                "SQUIRTLE used BUBBLE!",
                "It's super effective!",
            ),
        ),
        with_text(
            "use TACKLE",
            "TACKLE",
            (
                "SQUIRTLE used TACKLE!",
                "SQUIRTLE's attack missed!",
                "Enemy ONIX used BIND!",
                "Enemy ONIX's attack missed!",
            ),
            pp=19,
        ),
        with_text(
            "use BUBBLE",
            "BUBBLE",
            ("BROCK used X DEFEND on ONIX!", "It doesn't affect SQUIRTLE!", "Enemy RAICHU used THUNDER"),
            pp=19,
        ),
        with_text(
            "use POTION on SQUIRTLE", None, ("SQUIRTLE recovered by 20!", "It doesn't affect Enemy ONIX!")
        ),
    ]
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, second, third, fourth = turn_outcomes(records, final)
    assert (first.effectiveness, first.enemy_effectiveness) == ("super", "not_very")
    assert not first.missed and not first.enemy_missed and first.pp_used == 1  # BUBBLE 20 -> 19
    assert second.missed and second.enemy_missed and second.effectiveness is None
    assert second.move == "TACKLE" and second.pp_used == 0  # its PP stayed 35 in this made-up log
    # An item a trainer uses is no move; "It doesn't affect <target>" names the side that was hit.
    assert (third.effectiveness, third.enemy_effectiveness) == (None, "no_effect")
    assert (fourth.move, fourth.effectiveness, fourth.pp_used) == (None, "no_effect", None)
    assert fourth.text == ("SQUIRTLE recovered by 20!", "It doesn't affect Enemy ONIX!")


def test_pp_used_is_unknown_across_a_switch() -> None:
    record = with_text("use BUBBLE", "BUBBLE", ())
    after = side("PIKACHU", 100, hp=30)
    later = DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action="use TACKLE", reason="r", ours=after,
                           enemy=side("ONIX", 100))  # fmt: skip
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    assert turn_outcomes([record, later], final)[0].pp_used is None


def test_the_run_summary_lists_its_battle_ids() -> None:
    battles = tuple(
        BattleSummary(
            battle_id=f"r-b00{n}",
            outcome="victory",
            battle_type="wild",
            opponent="PIDGEY",
            turns=1,
            decisions=1,
            frames=10,
            wall_seconds=0.1,
        )
        for n in (1, 2)
    )
    fields = dict(run_id="r", game="red", stopped="max_battles", battles=battles, decisions=2,
                  overworld_steps=0, llm_calls=0, cost_usd=0.0, frames=20, wall_seconds=1.0)  # fmt: skip
    summary = RunSummary(**fields)
    assert summary.battle_ids == ("r-b001", "r-b002")
    assert RunSummary.model_validate_json(summary.model_dump_json()) == summary
    with pytest.raises(ValidationError):
        RunSummary(**fields, battle_ids=("r-b002",))


def test_a_faint_is_read_from_the_text_when_the_next_pokemon_is_already_out() -> None:
    records = [
        with_text("use BUBBLE", "BUBBLE", ("SQUIRTLE used BUBBLE!", "Enemy GEODUDE fainted!")),
        with_text(
            "use BUBBLE", "BUBBLE", ("Enemy ONIX used TACKLE!", "SQUIRTLE fainted!", "Use next POKéMON?")
        ),
    ]
    records[0] = records[0].model_copy(update={"enemy": side("GEODUDE", 30)})
    final = decode_state(load_capture(GEN1_FIXTURES / "red_wild_enemy_paralyzed"), RED_BLUE)
    first, second = turn_outcomes(records, final)
    assert first.enemy_fainted and first.enemy_hp_lost_percent is None and not first.fainted
    assert second.fainted and not second.enemy_fainted
