"""Teaching a TM or HM from the bag, closed-loop: START, ITEM, the machine, USE, YES, the member, and, when
its four slots are full, YES to forgetting and the move to forget.

The screens, from pret/pokered: the bag (home/list_menu.asm DisplayListMenuID, ITEMLISTMENU), the USE/TOSS
box (engine/menus/start_sub_menus.asm StartMenu_Item, USE_TOSS_MENU_TEMPLATE), "Booted up an HM!" and
"Teach CUT to a POKéMON?" with YES/NO (engine/items/item_effects.asm ItemUseTMHM), the party menu opened as
TMHM_PARTY_MENU, then engine/pokemon/learn_move.asm LearnMove: "... can't learn more than 4 moves! Delete
an older move to make room?" with YES/NO and the move list (wTopMenuItemY 8, X 5) to pick what goes. The
lesson counts only if RAM shows the member knowing the move afterwards.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.state import decode_state
from engine.game.teaching import Lesson, machine_move
from engine.menus.bag import ITEMLISTMENU, LIST_MENU_BOX, choose_to_use
from engine.menus.errors import MenusError, TeachError
from engine.menus.screens import Driver, MenuPresser, TextSink

TWO_OPTION_MENU = 0x14
TMHM_PARTY_MENU = 0x03
FORGET_MENU_X, FORGET_MENU_Y = 5, 8  # LearnMove's list of the member's moves
YES = 0


class Teacher:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def teach(self, item: str, lesson: Lesson, read: TextSink | None = None) -> str:
        """Teach `item`'s move to the lesson's member; what happened, in words. Raises TeachError (with the
        menus closed) when a screen was not where expected or the member does not know the move after."""
        move = machine_move(item)
        menus = MenuPresser(self.session, self.driver, read)
        try:
            self._to_the_machine(menus, item)
            self._to_the_party_menu(menus)
            menus.choose(lesson.member, f"party member {lesson.member + 1}")
            self._make_room(menus, lesson)
        except MenusError as exc:
            menus.leave()
            raise TeachError(f"teaching {move}: {exc}") from exc
        menus.leave()
        member = decode_state(self.session.memory_image(), self.ram).party[lesson.member]
        if not any(slot.name == move for slot in member.moves):
            raise TeachError(f"{member.species_name} does not know {move} after the lesson")
        return lesson.reason

    def _to_the_machine(self, menus: MenuPresser, item: str) -> None:
        choose_to_use(menus, item)

    def _to_the_party_menu(self, menus: MenuPresser) -> None:
        if menus.advance_to({"yes_no": self._yes_no}) != "yes_no":
            raise MenusError("no question to teach the move")
        menus.choose(YES, "YES")
        menus.wait(lambda memory: menus.party_menu(TMHM_PARTY_MENU, memory), "the party menu")

    def _make_room(self, menus: MenuPresser, lesson: Lesson) -> None:
        """After the member is chosen: it learns at once, or asks to forget a move first."""
        party = lambda memory: menus.party_menu(TMHM_PARTY_MENU, memory)  # noqa: E731
        screens = {"yes_no": self._yes_no, "forget": self._forget_list, "bag": self._bag, "party": party}
        for _ in range(3):
            found = menus.advance_to(screens)
            if found == "bag":
                return  # learned: back in the bag
            if found == "party":
                raise MenusError("the member could not learn it (the party menu asks again)")
            if found == "yes_no":
                if lesson.forget is None:
                    raise MenusError("the member has no free slot after all")
                menus.choose(YES, "YES to forgetting a move")
            elif found == "forget":
                assert lesson.forget is not None
                menus.choose(lesson.forget, f"move slot {lesson.forget + 1}")
        raise MenusError("the lesson did not end in the bag")

    # -- the screens -------------------------------------------------------------------------------
    def _bag(self, memory: LiveMemory) -> bool:
        return memory[self.ram.wTextBoxID] == LIST_MENU_BOX and memory[self.ram.wListMenuID] == ITEMLISTMENU

    def _yes_no(self, memory: LiveMemory) -> bool:
        return memory[self.ram.wTextBoxID] == TWO_OPTION_MENU

    def _forget_list(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (FORGET_MENU_X, FORGET_MENU_Y)
