"""`ProceduralMemory`: what the harness asks of a scope's notes and skills, each answer a prompt's text or
a verdict's one line (engine.harness.memory.NotesAndSkills).

    DATA_DIR/procedural/<scope slug>/notes.md        the model's notes, at most 2,500 characters
    DATA_DIR/procedural/<scope slug>/skills/*.md     its skill library (starters copied in once)

With `notes` or `skills` off (harness.notes, harness.skills) that part shows nothing and refuses writes.
"""

from __future__ import annotations

from pathlib import Path

from engine.config import HarnessConfig, ModelsConfig
from engine.procedural.notes import NOTES_FILE, NOTES_LIMIT, Notes
from engine.procedural.scope import Scope, scope_for
from engine.procedural.skills import SkillLibrary, render_skills
from engine.procedural.verdict import Verdict

SKILLS_DIR = "skills"


def scope_dir(root: Path, scope: Scope) -> Path:
    """The scope's folder under DATA_DIR/procedural."""
    return root / scope.slug


class ProceduralMemory:
    def __init__(self, root: Path, scope: Scope, *, notes: bool = True, skills: bool = True) -> None:
        """`root` is DATA_DIR/procedural (RunPaths.procedural); the scope's folder is made under it and a
        new skill library gets the starter skills."""
        self.scope = scope
        self.directory = scope_dir(root, scope)
        self._notes = Notes(self.directory / NOTES_FILE) if notes else None
        self._skills = SkillLibrary(self.directory / SKILLS_DIR) if skills else None

    @classmethod
    def for_config(cls, root: Path, harness: HarnessConfig, models: ModelsConfig) -> ProceduralMemory:
        """The memory of the configured level's scope (scope.scope_for), with the config's switches."""
        return cls(root, scope_for(harness, models), notes=harness.notes, skills=harness.skills)

    @property
    def library(self) -> SkillLibrary | None:
        return self._skills

    # -- notes -------------------------------------------------------------------------------------
    def notes(self) -> str:
        """The notes as the prompt shows them ('' when none), never more than the limit."""
        return self._notes.read()[:NOTES_LIMIT] if self._notes is not None else ""

    def rewrite_notes(self, text: str) -> str:
        return self.rewrite_notes_verdict(text).line

    def rewrite_notes_verdict(self, text: str) -> Verdict:
        if self._notes is None:
            return Verdict.no("notes are turned off (harness.notes: false)")
        return self._notes.rewrite(text)

    # -- skills ------------------------------------------------------------------------------------
    def skills_for(self, screen: str, map_name: str) -> str:
        """The skills for this screen and map, rendered for a prompt with each one's record."""
        if self._skills is None:
            return ""
        return render_skills(self._skills.matching(screen, map_name))

    def skill_names_for(self, screen: str, map_name: str) -> list[str]:
        """The names of the skills `skills_for` shows, to credit them later."""
        if self._skills is None:
            return []
        return [skill.name for skill in self._skills.matching(screen, map_name)]

    def propose_skill(self, name: str, screen: str, map_name: str, body: str) -> str:
        if self._skills is None:
            return _SKILLS_OFF.line
        return self._skills.propose(name, screen, map_name, body).line

    def propose_skill_markdown(self, text: str) -> str:
        if self._skills is None:
            return _SKILLS_OFF.line
        return self._skills.propose_markdown(text).line

    def credit(self, name: str, success: bool) -> str:
        if self._skills is None:
            return _SKILLS_OFF.line
        return self._skills.credit(name, success).line


_SKILLS_OFF = Verdict.no("skills are turned off (harness.skills: false)")
