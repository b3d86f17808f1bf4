"""What a game session's verbs answer: frozen models, each with the short text an agent reads."""

from __future__ import annotations

from typing import Literal

from engine.frozen import Frozen

ObjectiveStatus = Literal["done", "open", "waiting"]


class Member(Frozen):
    """One party member as the agent sees it."""

    slot: int
    species: str
    nickname: str
    level: int
    hp: int
    max_hp: int
    status: str
    moves: tuple[str, ...]

    def as_text(self) -> str:
        status = "" if self.status == "OK" else f" {self.status}"
        moves = ", ".join(self.moves)
        return f"{self.slot}: {self.species} L{self.level} {self.hp}/{self.max_hp} HP{status} [{moves}]"


class BattleView(Frozen):
    kind: Literal["wild", "trainer"]
    trainer: str | None  # the trainer class, None in a wild battle
    ours: str  # "SQUIRTLE L6 20/22 HP"
    enemy: str  # "PIDGEY L3 75% HP"

    def as_text(self) -> str:
        who = self.trainer or "wild"
        return f"battle ({self.kind}, {who}): ours {self.ours}; enemy {self.enemy}"


class Observation(Frozen):
    """The text state: what RAM says of the game now, the map around the player and the story."""

    map: str
    map_id: int
    x: int
    y: int
    facing: str
    mode: str  # walk, bike, surf
    screen: str  # the screen's kind (overworld, dialog, battle, menu, ...)
    waiting_for: str  # the decision point the game waits at
    party: tuple[Member, ...]
    battle: BattleView | None
    dialog: tuple[str, ...]  # the text on screen, line by line
    menu: str | None  # "item 1 of 4" when a menu's cursor is shown
    people: tuple[
        str, ...
    ]  # the map's people in sight, by their number for `talk`: "3: trainer at (x 5, y 2)"
    minimap: str  # the map around the player as glyphs (empty in a battle or on an unknown map)
    legend: str
    objective: str | None  # the next story objective and its next step
    milestones: tuple[str, ...]  # the twelve milestones done, in order
    badges: int
    money: int
    frame: int

    def as_text(self) -> str:
        lines = [
            f"map: {self.map} at (x {self.x}, y {self.y}), facing {self.facing}, {self.mode}",
            f"screen: {self.screen}; waiting for: {self.waiting_for}; frame {self.frame}",
        ]
        lines += ["party:", *(f"  {member.as_text()}" for member in self.party)] if self.party else []
        lines += [self.battle.as_text()] if self.battle is not None else []
        lines += ["text on screen: " + " / ".join(self.dialog)] if self.dialog else []
        lines += [f"menu cursor on {self.menu}"] if self.menu else []
        lines += ["people (talk takes their number): " + "; ".join(self.people)] if self.people else []
        lines.append(f"badges: {self.badges}; money: ¥{self.money}")
        lines.append(f"next objective: {self.objective or 'none'}")
        lines.append(f"milestones done: {', '.join(self.milestones) or 'none'}")
        if self.minimap:
            lines += ["map around you:", self.minimap, f"legend: {self.legend}"]
        return "\n".join(lines)


class ScreenText(Frozen):
    """The screen read from its pixels alone (no RAM): what the vision level may be shown."""

    text: str

    def as_text(self) -> str:
        return self.text


class Pressed(Frozen):
    buttons: tuple[str, ...]
    frames: int  # emulated for the presses and the settle after them

    def as_text(self) -> str:
        return f"pressed {', '.join(self.buttons)} ({self.frames} frames)"


class Walked(Frozen):
    """Where a goto ended and what happened on the way."""

    place: str
    arrived: bool
    outcome: str  # arrived, blocked, no_path, max_steps, battle (a battle to play), out_of_time
    reason: str
    map: str
    x: int
    y: int
    steps: int
    frames: int
    battles: tuple[str, ...]  # each battle fought on the way by the rule-based policy: its outcome
    seconds: float

    def as_text(self) -> str:
        verdict = (
            f"arrived at {self.place}" if self.arrived else f"did not reach {self.place} ({self.reason})"
        )
        fought = f", {len(self.battles)} battles ({', '.join(self.battles)})" if self.battles else ""
        return (
            f"{verdict}; now at {self.map} (x {self.x}, y {self.y}) after {self.steps} steps, "
            f"{self.frames} frames{fought}, {self.seconds:.1f} s"
        )


class Talked(Frozen):
    outcome: str  # arrived (talked), battle (the talk began one), no_path, blocked, dialog, script
    reason: str
    text: tuple[str, ...]  # what was read, screen by screen
    in_battle: bool

    def as_text(self) -> str:
        said = "\n".join(self.text) if self.text else "(nothing was said)"
        battle = "\na battle began: use legal_actions and act" if self.in_battle else ""
        return f"{said}\n({self.outcome}: {self.reason}){battle}"


class Option(Frozen):
    """One legal battle action: its id for `act`, and what it does."""

    id: int
    label: str
    kind: str

    def as_text(self) -> str:
        return f"{self.id}: {self.label}"


class BattleTurn(Frozen):
    """A battle at its next decision (the options to choose from), or over (its outcome)."""

    over: bool
    outcome: str | None  # once over: won, lost, fled, caught, ...
    waiting_for: str  # the decision point ("overworld_free" once over)
    options: tuple[Option, ...]
    text: tuple[str, ...]  # the battle's messages since the last answer
    battle: BattleView | None

    def as_text(self) -> str:
        lines = list(self.text)
        if self.over:
            lines.append(f"the battle is over: {self.outcome}")
            return "\n".join(lines)
        lines += [self.battle.as_text()] if self.battle is not None else []
        lines.append(f"waiting for: {self.waiting_for}; legal actions:")
        lines += [f"  {option.as_text()}" for option in self.options]
        return "\n".join(lines)


class ObjectiveView(Frozen):
    name: str
    title: str
    milestone: int | None  # its number among the twelve, or None
    status: ObjectiveStatus
    next_step: str | None  # the first step of its plan not done yet (open objectives)

    def as_text(self) -> str:
        number = f" (milestone {self.milestone})" if self.milestone else ""
        step = f": next {self.next_step}" if self.next_step else ""
        return f"{self.name} - {self.title}{number}{step}"


class Objectives(Frozen):
    done: tuple[str, ...]
    open: tuple[ObjectiveView, ...]  # the first is the rule-based choice
    waiting: int  # objectives after ones not done yet

    def as_text(self) -> str:
        lines = ["open now:", *(f"  {objective.as_text()}" for objective in self.open)]
        lines.append(f"done: {len(self.done)}; waiting for an earlier objective: {self.waiting}")
        return "\n".join(lines)


class MilestoneView(Frozen):
    number: int
    name: str
    title: str
    done: bool  # as the game shows it now
    at_start: bool  # done before this session began (the save state was past it)
    frame: int | None  # this session's frame where it was first seen done (None: never, or at the start)

    def as_text(self) -> str:
        when = (
            " (before this session)"
            if self.at_start
            else f" (first at frame {self.frame})"
            if self.frame
            else ""
        )
        return f"[{'x' if self.done else ' '}] {self.number:>2} {self.name} - {self.title}{when}"


class Milestones(Frozen):
    milestones: tuple[MilestoneView, ...]

    def as_text(self) -> str:
        done = sum(milestone.done for milestone in self.milestones)
        return "\n".join(
            [f"{done}/{len(self.milestones)} milestones", *(m.as_text() for m in self.milestones)]
        )
