"""The tools: each one verb of the game session (engine/play/session.py), run on the game's thread within
the call's time. What an agent gets back is the verb's short text, and its fields as structured content;
`screenshot` answers with a PNG image. A failure is a tool error (isError) with one line, never a crash:
the session plays on after it."""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable
from typing import Annotated, Any, Protocol, TypeVar, cast

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from engine.config import HarnessLevel
from engine.errors import EngineError
from engine.mcp_server.slots import START, Slots
from engine.mcp_server.worker import GameWorker
from engine.play.buttons import BUTTON_NAMES
from engine.play.session import DEFAULT_GOTO_STEPS, GameSession
from engine.world.goals import Answer

log = logging.getLogger(__name__)
Result = TypeVar("Result")

VISION_TOOLS = ("observe", "screenshot", "press_buttons")
BUTTON_TOOLS = VISION_TOOLS
DECISION_TOOLS = (*BUTTON_TOOLS, "goto", "talk", "legal_actions", "act", "objectives", "milestones",
                  "save_state", "load_state")  # fmt: skip
TOOLS: dict[HarnessLevel, tuple[str, ...]] = {
    "vision": VISION_TOOLS,
    "buttons": BUTTON_TOOLS,
    "decisions": DECISION_TOOLS,
    "engine": DECISION_TOOLS,
}

BUTTONS_SCHEMA = {"items": {"type": "string", "enum": list(BUTTON_NAMES)}, "minItems": 1, "maxItems": 3}
Buttons = Annotated[
    list[str],
    Field(
        description="1 to 3 buttons pressed in order, each one of: " + ", ".join(BUTTON_NAMES),
        json_schema_extra=BUTTONS_SCHEMA,
    ),
]
Scale = Annotated[
    int | None,
    Field(description="the 160 x 144 screen scaled by this, 1 to 8 (default: the config's screen_scale)"),
]
Place = Annotated[
    str,
    Field(
        description="a map as pret spells it (REDS_HOUSE_1F, VIRIDIAN_MART) or a square on one "
        "(PEWTER_CITY:16,17)"
    ),
]
Steps = Annotated[int, Field(description="give up after this many steps (1 to 20000)")]
Person = Annotated[
    int | None,
    Field(
        description="the number of a person on this map to walk to and talk to (observe lists them); "
        "leave out to talk to whoever you face"
    ),
]
YesNo = Annotated[
    str,
    Field(
        description="the answer to a YES/NO question on the way", json_schema_extra={"enum": ["yes", "no"]}
    ),
]
ActionId = Annotated[int, Field(description="the id of one of the legal actions legal_actions listed")]
SlotName = Annotated[str, Field(description="the state's name (letters, digits, '_', '.', '-')")]


class Described(Protocol):
    def as_text(self) -> str: ...
    def model_dump(self, *, mode: str) -> dict[str, Any]: ...


class GameTools:
    """The tools of one game; `tool_functions` gives those of its harness level (server.py serves them)."""

    def __init__(self, game: GameSession, worker: GameWorker, level: HarnessLevel, scale: int) -> None:
        self.game = game
        self.worker = worker
        self.level = level
        self.default_scale = scale
        self.slots = Slots()

    async def observe(self) -> CallToolResult:
        """The game's state as text: map, position, party, battle, the text on screen, the map around you,
        the next story objective and the milestones done. At the vision level: only what the screen's
        pixels show (no memory is read)."""
        if self.level == "vision":
            return _described(await self._run(self.game.read_screen, "observe"))
        return _described(await self._run(self.game.observe, "observe"))

    async def screenshot(self, scale: Scale = None) -> CallToolResult:
        """The Game Boy screen as a PNG image (160 x 144 pixels times `scale`)."""
        times = self.default_scale if scale is None else scale
        png = await self._run(lambda: self.game.screenshot(times), "screenshot")
        image = ImageContent(data=base64.b64encode(png).decode("ascii"), mime_type="image/png")
        return CallToolResult(content=[image])

    async def press_buttons(self, buttons: Buttons) -> CallToolResult:
        """Press 1 to 3 buttons in order (each held and let go), then wait a moment for the game."""
        return _described(await self._run(lambda: self.game.press(buttons), "press_buttons"))

    async def goto(self, place: Place, max_steps: Steps = DEFAULT_GOTO_STEPS) -> CallToolResult:
        """Walk to a place, every step checked; dialogs on the way are read to their end. At the engine
        level battles on the way are fought by the engine's rule-based policy; at the decisions level the
        walk stops where a battle begins, for you to play it with legal_actions and act."""
        fight = self.level == "engine"
        return _described(await self._run(lambda: self.game.goto(place, max_steps, fight), "goto"))

    async def talk(self, person: Person = None, answer: YesNo = "yes") -> CallToolResult:
        """Talk to whoever you face, or walk to a person of this map and talk to them; the text is read to
        its end and returned."""
        said = cast(Answer, answer)  # the session checks it: a word other than yes or no is a tool error
        return _described(await self._run(lambda: self.game.talk(person, said), "talk"))

    async def legal_actions(self) -> CallToolResult:
        """In a battle: what the game waits for and the legal actions, each with its id for act."""
        return _described(await self._run(self.game.legal_actions, "legal_actions"))

    async def act(self, action_id: ActionId) -> CallToolResult:
        """In a battle: carry out one legal action by its id; answers with the battle's messages and the
        next decision's legal actions, or the battle's outcome."""
        return _described(await self._run(lambda: self.game.act(action_id), "act"))

    async def objectives(self) -> CallToolResult:
        """The story's objectives open now, each with its next step, and how many are done."""
        return _described(await self._run(self.game.objectives, "objectives"))

    async def milestones(self) -> CallToolResult:
        """The twelve milestones of the story, done or not, and when each was first seen done."""
        return _described(await self._run(self.game.milestones, "milestones"))

    async def save_state(self, name: SlotName = "quick") -> CallToolResult:
        """Keep the game as it is now under a name, for load_state (kept while the server runs)."""

        def save() -> str:
            self.slots.keep(name, self.game.save_state())
            return f"saved as {name!r} at frame {self.game.role.frame_count()}"

        return _text(await self._run(save, "save_state"))

    async def load_state(self, name: SlotName = "quick") -> CallToolResult:
        """Go back to a state kept with save_state ("start": where this session began)."""

        def load() -> str:
            self.game.load_state(self.slots.get(name))
            return f"loaded {name!r}"

        return _text(await self._run(load, "load_state"))

    # -- plumbing -----------------------------------------------------------------------------------
    def keep_start(self) -> None:
        """The game as the session began, as the state "start" (on the game's thread: before serving)."""
        self.slots.keep(START, self.game.save_state())

    def tool_functions(self) -> dict[str, Callable[..., Any]]:
        return {name: getattr(self, name) for name in TOOLS[self.level]}

    async def _run(self, verb: Callable[[], Result], what: str) -> Result:
        try:
            return await self.worker.run(verb, what)
        except EngineError as exc:
            raise ToolError(str(exc)) from exc
        except Exception as exc:  # a bug of ours: the session must not die of it
            log.exception("%s failed", what)
            raise ToolError(f"{what} failed: {type(exc).__name__}: {exc}") from exc


def _described(answer: Described) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=answer.as_text())],
                          structured_content=answer.model_dump(mode="json"))  # fmt: skip


def _text(line: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=line)])
