"""A scope's skill library: short markdown how-tos, one file each, `DIR/<name>.md`, with a front matter
saying where a skill applies and how often it worked:

    ---
    name: leave-a-menu
    screen: menu        overworld, battle, menu, dialog, transition or any
    map: any            a map of the game (PALLET_TOWN) or any
    successes: 3
    uses: 5
    ---
    Press b until the menu closes.

`matching` gives the skills for a screen and map, most successful first, bounded in count and characters.
`propose` checks a new skill as reflection checks a lesson (the injection screen, a length bound, a name
pattern, no second skill of the same name) and keeps it with no uses yet; a model never sets the counts.
`credit` counts a use (and a success) in the skill's file, replaced atomically. A new library starts with
the starter skills (package data, engine/procedural/data/), copied once: a starter the user deletes stays
deleted.
"""

from __future__ import annotations

import fcntl
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

from pydantic import Field, ValidationError

from engine.files import StorageError, write_bytes_atomic
from engine.frozen import Frozen
from engine.game.tables import game_data
from engine.procedural.errors import ProceduralError
from engine.procedural.matter import FrontMatterError, parse, render
from engine.procedural.screening import screen as screen_text
from engine.procedural.verdict import Verdict

log = logging.getLogger("engine.procedural")

ScreenName = Literal["overworld", "battle", "menu", "dialog", "transition", "any"]
SCREENS: tuple[str, ...] = get_args(ScreenName)
ANY: Literal["any"] = "any"
NAME_RULE = "3 to 48 of a-z, 0-9, '-' and '_', starting with a letter"
_NAME = re.compile(r"[a-z][a-z0-9_-]{2,47}")
_MAP = re.compile(r"[A-Z][A-Z0-9_]{0,39}")
BODY_LIMIT = 1_200  # characters of a skill's text
MARKDOWN_LIMIT = BODY_LIMIT + 400  # a proposal as markdown: the text and its front matter
LIBRARY_LIMIT = 200  # skills in one library; a proposal beyond is refused
SHOWN = 5  # skills `matching` gives at most
SHOWN_CHARS = 3_000  # and their texts' characters together
STARTERS_PACKAGE = "engine.procedural.data"
STARTERS_MARK = ".starters"  # written once the starters were copied: they are not copied again
LOCK_FILE = ".lock"


class SkillFileError(ProceduralError):
    """A skill file that cannot be read as a skill; the message says which and why."""


class Skill(Frozen):
    name: str = Field(pattern=rf"^{_NAME.pattern}$")
    screen: ScreenName = "any"
    map_name: str = Field(ANY, pattern=rf"^(?:{ANY}|{_MAP.pattern})$")
    successes: int = Field(0, ge=0)
    uses: int = Field(0, ge=0)
    body: str = Field(min_length=1)

    def applies(self, screen: str, map_name: str) -> bool:
        """Whether the skill is for this screen and map. An unknown screen or map ("any": the vision
        level knows no map) does not narrow the choice."""
        screen_fits = ANY in (self.screen, screen) or self.screen == screen
        map_fits = ANY in (self.map_name, map_name) or self.map_name == map_name
        return screen_fits and map_fits

    def markdown(self) -> str:
        fields: list[tuple[str, str | int]] = [
            ("name", self.name), ("screen", self.screen), ("map", self.map_name),
            ("successes", self.successes), ("uses", self.uses),
        ]  # fmt: skip
        return render(fields, self.body)

    def counted(self, success: bool) -> Skill:
        return self.model_copy(update={"uses": self.uses + 1, "successes": self.successes + int(success)})


def skill_from_markdown(text: str, source: str) -> Skill:
    """A skill as its file holds it; SkillFileError names `source` and what is wrong."""
    try:
        fields, body = parse(text)
        unknown = set(fields) - {"name", "screen", "map", "successes", "uses"}
        if unknown:
            raise SkillFileError(f"{source}: unknown keys {', '.join(sorted(unknown))}")
        return Skill.model_validate({
            "name": fields.get("name", ""), "screen": fields.get("screen", ANY).lower(),
            "map_name": _map_name(fields.get("map", ANY)), "successes": fields.get("successes", "0"),
            "uses": fields.get("uses", "0"), "body": body,
        })  # fmt: skip
    except FrontMatterError as exc:
        raise SkillFileError(f"{source}: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise SkillFileError(f"{source}: {where}: {first['msg']}") from exc


def skill_name(name: str) -> str:
    """The name as the library spells it: lower case, spaces as hyphens ("Leave a menu" → leave-a-menu)."""
    return "-".join(name.strip().lower().split())


def _map_name(name: str) -> str:
    stripped = name.strip()
    return ANY if stripped.lower() == ANY else stripped.upper()


def _screen_name(screen: str) -> str:
    """A screen kind as skills name it; what is none of them (a reading's guess) counts as unknown."""
    lowered = screen.strip().lower()
    return lowered if lowered in SCREENS else ANY


@cache
def game_maps() -> frozenset[str]:
    return frozenset(entry.name for entry in game_data().maps.values())


def rank(skill: Skill) -> tuple[int, float, str]:
    """Most successful first; then the more reliable (successes per use); then by name."""
    rate = skill.successes / skill.uses if skill.uses else 0.0
    return (-skill.successes, -rate, skill.name)


class SkillLibrary:
    def __init__(self, directory: Path) -> None:
        """Opens (and makes) the library; a new one gets the starter skills."""
        self.directory = directory
        self._unreadable: set[str] = set()  # files already said to be unreadable
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ProceduralError(f"cannot make the skill library {directory}: {exc.strerror}") from exc
        self._seed()

    # -- reading -----------------------------------------------------------------------------------
    def path(self, name: str) -> Path:
        return self.directory / f"{name}.md"

    def read(self, name: str) -> Skill | None:
        """The skill of that name, None if there is none (or its file is unreadable: said once)."""
        path = self.path(name)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._say_unreadable(path, exc.strerror or str(exc))
            return None
        try:
            skill = skill_from_markdown(text, path.name)
        except SkillFileError as exc:
            self._say_unreadable(path, str(exc))
            return None
        if skill.name != name:
            self._say_unreadable(path, f"its name is {skill.name!r}, not the file's {name!r}")
            return None
        return skill

    def names(self) -> list[str]:
        return sorted(
            path.stem
            for path in self.directory.glob("*.md")
            if not path.name.startswith(".") and _NAME.fullmatch(path.stem)
        )

    def all(self) -> list[Skill]:
        """Every readable skill, best first."""
        return sorted((s for name in self.names() if (s := self.read(name)) is not None), key=rank)

    def matching(
        self, screen: str, map_name: str, *, limit: int = SHOWN, chars: int = SHOWN_CHARS
    ) -> list[Skill]:
        """The skills for this screen and map, most successful first: at most `limit`, their texts at most
        `chars` characters together (a skill that would overflow is left out, a shorter one may follow)."""
        wanted_screen, wanted_map = _screen_name(screen), _map_name(map_name or ANY)
        chosen: list[Skill] = []
        total = 0
        for skill in self.all():
            if len(chosen) >= limit:
                break
            if skill.applies(wanted_screen, wanted_map) and total + len(skill.body) <= chars:
                chosen.append(skill)
                total += len(skill.body)
        return chosen

    # -- writing -----------------------------------------------------------------------------------
    def propose(self, name: str, screen: str, map_name: str, body: str) -> Verdict:
        """Keep a new skill (no uses yet) if it passes the checks; the verdict says why not."""
        spelled = skill_name(name)
        if reason := self.check(spelled, screen, map_name, body):
            return Verdict.no(f"skill not kept: {reason}")
        skill = Skill.model_validate(
            {"name": spelled, "screen": screen.strip().lower(), "map_name": _map_name(map_name),
             "body": body.strip()}
        )  # fmt: skip
        with self._locked():
            if self.path(spelled).exists():
                return Verdict.no(f"skill not kept: a skill named {spelled!r} exists already")
            if len(self.names()) >= LIBRARY_LIMIT:
                return Verdict.no(f"skill not kept: the library holds {LIBRARY_LIMIT} skills already")
            try:
                write_bytes_atomic(self.path(spelled), skill.markdown().encode("utf-8"))
            except StorageError as exc:
                return Verdict.no(f"skill not kept: {exc.reason}")
        return Verdict.yes(f"skill {spelled!r} kept (screen {skill.screen}, map {skill.map_name})")

    def propose_markdown(self, text: str) -> Verdict:
        """A proposal written as a skill file: front matter (name, screen, map) and the text. Counts in it
        are ignored: a new skill starts unused."""
        if len(text) > MARKDOWN_LIMIT:
            return Verdict.no(f"skill not kept: {len(text):,} characters, over the {MARKDOWN_LIMIT:,} limit")
        try:
            fields, body = parse(text)
        except FrontMatterError as exc:
            return Verdict.no(f"skill not kept: {exc}")
        if not fields.get("name"):
            return Verdict.no("skill not kept: the front matter names no skill (name: ...)")
        return self.propose(fields["name"], fields.get("screen", ANY), fields.get("map", ANY), body)

    def check(self, name: str, screen: str, map_name: str, body: str) -> str | None:
        """Why a proposed skill may not be kept, or None."""
        if reason := screen_all(name, screen, map_name, body):
            return reason
        if not _NAME.fullmatch(name):
            return f"the name {name[:60]!r} is not {NAME_RULE}"
        if screen.strip().lower() not in SCREENS:
            return f"screen {screen[:30]!r} is not one of {', '.join(SCREENS)}"
        spelled_map = _map_name(map_name)
        if spelled_map != ANY and spelled_map not in game_maps():
            return f"map {map_name[:40]!r} is not a map of the game (e.g. PALLET_TOWN) nor any"
        text = body.strip()
        if not text:
            return "the skill has no text"
        if len(text) > BODY_LIMIT:
            return f"its text is {len(text):,} characters, over the {BODY_LIMIT:,} limit"
        return None

    def credit(self, name: str, success: bool) -> Verdict:
        """Count one use of the skill, and a success if it worked; the file is replaced atomically."""
        spelled = skill_name(name)
        if not _NAME.fullmatch(spelled):
            return Verdict.no(f"no skill named {name[:60]!r}")
        with self._locked():
            skill = self.read(spelled)
            if skill is None:
                return Verdict.no(f"no skill named {spelled!r}")
            counted = skill.counted(success)
            try:
                write_bytes_atomic(self.path(spelled), counted.markdown().encode("utf-8"))
            except StorageError as exc:
                return Verdict.no(f"skill {spelled!r} not credited: {exc.reason}")
        return Verdict.yes(f"skill {spelled!r}: {record(counted)}")

    # -- inside ------------------------------------------------------------------------------------
    def _seed(self) -> None:
        """Copy the starter skills into a library that never had them; mark that it had them."""
        mark = self.directory / STARTERS_MARK
        if mark.exists():
            return
        with self._locked():
            if mark.exists():
                return
            copied = []
            try:
                for starter in starter_skills():
                    if not self.path(starter.name).exists():
                        write_bytes_atomic(self.path(starter.name), starter.markdown().encode("utf-8"))
                        copied.append(starter.name)
                write_bytes_atomic(mark, ("\n".join(copied) + "\n").encode("utf-8"))
            except StorageError as exc:
                raise ProceduralError(f"cannot copy the starter skills into {self.directory}: {exc}") from exc

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer at a time, across threads and processes (a flock belongs to the open file)."""
        with (self.directory / LOCK_FILE).open("a", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _say_unreadable(self, path: Path, why: str) -> None:
        if path.name not in self._unreadable:
            log.warning("skill file %s left out: %s", path, why)
            self._unreadable.add(path.name)


def screen_all(*texts: str) -> str | None:
    for text in texts:
        if reason := screen_text(text):
            return reason
    return None


@cache
def starter_skills() -> tuple[Skill, ...]:
    """The starter skills shipped with the engine (package data)."""
    folder = resources.files(STARTERS_PACKAGE)
    found = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".md"):
            found.append(skill_from_markdown(entry.read_text(encoding="utf-8"), entry.name))
    return tuple(found)


def record(skill: Skill) -> str:
    """ "3 successes in 5 uses", "1 success in 1 use"."""
    successes = f"{skill.successes} success{'' if skill.successes == 1 else 'es'}"
    return f"{successes} in {skill.uses} use{'' if skill.uses == 1 else 's'}"


def render_skills(skills: list[Skill]) -> str:
    """The skills as a prompt shows them, each with its record; '' when there are none."""
    if not skills:
        return ""
    parts = ["Skills from your library that may apply here (successes in uses):"]
    for skill in skills:
        where = f"screen {skill.screen}, map {skill.map_name}"
        parts.append(f"### {skill.name} ({where}; {record(skill)})")
        parts.append(skill.body)
    return "\n".join(parts)
