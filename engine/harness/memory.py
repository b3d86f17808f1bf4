"""What the buttons and vision levels need of the procedural memory (notes and skills kept per
(level, model), engine.procedural): the prompt's texts and the verdicts on what the model writes."""

from __future__ import annotations

from typing import Protocol


class NotesAndSkills(Protocol):
    def notes(self) -> str: ...
    def rewrite_notes(self, text: str) -> str: ...  # one line: kept, or why not
    def skills_for(self, screen: str, map_name: str) -> str: ...
    def skill_names_for(self, screen: str, map_name: str) -> list[str]: ...
    def credit(self, name: str, success: bool) -> str: ...  # one line: the skill's record now
    def propose_skill_markdown(self, text: str) -> str: ...  # one line: kept, or why not
