"""What one screen shows, as a model is told it: the reader's answer from pixels, and the same fields
derived from RAM to score it (engine.vision.screen.truth)."""

from __future__ import annotations

from pydantic import Field

from engine.frozen import Frozen
from engine.game.models import ScreenKind


class ScreenReading(Frozen):
    """`screen`: transition (fading, or one colour), battle (a battle HUD drawn), menu (a ▶ cursor),
    dialog (a text box), overworld otherwise. `text`: every line of text while a text box is drawn, as
    the tile map's `text_lines` reads it. HP shares are 0-100, None outside battle or where that side's
    HUD is not drawn. `menu`: the items of the menu with the ▶ cursor, top to bottom; `cursor`: the one
    it is on. `can_move`: the player can walk (the overworld, no text box, no menu)."""

    screen: ScreenKind
    text: tuple[str, ...] = ()
    player_hp_pct: float | None = Field(None, ge=0.0, le=100.0)
    enemy_hp_pct: float | None = Field(None, ge=0.0, le=100.0)
    menu: tuple[str, ...] = ()
    cursor: int | None = None
    enemy_name: str | None = None
    enemy_level: int | None = None
    can_move: bool = False

    def as_text(self) -> str:
        """A few plain lines for a model's prompt."""
        lines = [f"Screen: {self.screen.value}."]
        if self.enemy_name is not None or self.enemy_hp_pct is not None:
            lines.append(f"Enemy: {_enemy(self)}.")
        if self.player_hp_pct is not None:
            lines.append(f"Your Pokémon: HP {self.player_hp_pct:.0f}%.")
        if self.menu:
            chosen = f' (cursor on "{self.menu[self.cursor]}")' if self.cursor is not None else ""
            lines.append("Menu: " + " | ".join(self.menu) + chosen + ".")
        if self.text:
            lines.append("Text: " + " / ".join(self.text))
        lines.append("You can walk." if self.can_move else "You cannot walk now.")
        return "\n".join(lines)


def _enemy(reading: ScreenReading) -> str:
    parts = [reading.enemy_name or "unnamed"]
    if reading.enemy_level is not None:
        parts.append(f"level {reading.enemy_level}")
    if reading.enemy_hp_pct is not None:
        parts.append(f"HP {reading.enemy_hp_pct:.0f}%")
    return ", ".join(parts)
