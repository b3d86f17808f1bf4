"""Battle choices by the search (engine/combat): the rule-based tier's default way to fight."""

from __future__ import annotations

from engine.combat.chance import percent
from engine.combat.collector import collector_paused
from engine.combat.enemy import BOSS_CLASSES
from engine.combat.fighter import Action, Duel, moves_of
from engine.combat.judge import Judge
from engine.combat.pace import move_pace
from engine.combat.position import duel_of, model_action
from engine.combat.search import Verdict, search
from engine.game.actions import BattleAction, SendNext, SwitchTo, UseItem, describe
from engine.game.assessment import Fairness
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.models import GameState
from engine.memory.lessons import LESSON_MARK, Lesson, Measurement

SEEN_KEPT = 64  # enemies whose used moves are remembered
# The enemy in front: the opponent, the trainer's number, its place in the party, species and level.
Front = tuple[int, int | None, int | None, str | None, int]
# Observed damage from lesson memory replaces the calculator's estimate gradually: after n observed uses
# it weighs n / (n + PRIOR_USES). The calculator is exact for a plain hit but blind to what only shows in
# play (moves that fail, the enemy's hidden stat boosts), and two uses are too few to overrule it.
PRIOR_USES = 2
MIN_OBSERVED_USES = 2
# A replay's regret is followed where the search rates the action it prefers within this much of winning
# of its own choice: the rollouts that found it followed one path of the game's random numbers, the search
# weighs them all, and a lesson is never a reason to take a clearly worse line.
PREFER_MARGIN = 0.1


class Lookahead:
    """Searches the position on screen. Under visible_only it remembers the moves each enemy was seen to
    use, as a player would."""

    def __init__(self, fairness: Fairness, boss_plies: int = 1) -> None:
        self.fairness = fairness
        self.boss_plies = boss_plies
        self.seen: dict[Front, set[int]] = {}
        # Our members switched out while this enemy was in front: none goes back in against it (a member
        # sent after a faint still may). One turn's search judges each switch afresh, and each side of a
        # pair looked better from the other: Red seed 31 switched PIDGEY and VILEPLUME in and out in front
        # of SABRINA's KADABRA four times, each taking a free PSYCHIC, and lost the battle it said was 92%.
        self.withdrawn: tuple[Front | None, frozenset[int]] = (None, frozenset())
        # The enemy in front at the last look, and the move RAM held when it came out (None once it has
        # moved since). wEnemyMoveNum is zeroed only when a fainted foe's successor comes out (pret
        # engine/battle/core.asm), so a battle's first foe shows the last battle's move: Red 57's ERIKA's
        # VICTREEBEL was taken to know REFLECT in place of RAZOR LEAF ("DIG: 100% to win"; 16% without it),
        # and RAZOR LEAF knocked the WARTORTLE out.
        self._front_then: Front | None = None
        self._stale: int | None = None

    @staticmethod
    def _front(state: GameState) -> Front:
        battle = state.battle
        assert battle is not None and battle.enemy is not None
        enemy = battle.enemy
        return (
            battle.cur_opponent,
            battle.trainer_number,
            battle.enemy_party_pos,
            enemy.species_name,
            enemy.level,
        )

    def _seen_moves(self, state: GameState) -> set[int]:
        key = self._front(state)
        battle = state.battle
        assert battle is not None
        if key not in self.seen and len(self.seen) >= SEEN_KEPT:
            self.seen.pop(next(iter(self.seen)))
        moves = self.seen.setdefault(key, set())
        move = battle.enemy_move_id
        if key != self._front_then:
            self._front_then, self._stale = key, move  # it has just come out: the move is its forerunner's
        elif move != self._stale:
            self._stale = None  # it has moved: from now on the move in RAM is its own
        if move and self._stale is None:
            moves.add(move)
        return moves

    def duel(self, state: GameState) -> Duel | None:
        if state.battle is None or state.battle.enemy is None:
            return None
        return duel_of(state, self.fairness, self._seen_moves(state))

    def choose(
        self,
        state: GameState,
        legal: list[BattleAction],
        observed: dict[str, Measurement] | None = None,
        preferred: tuple[Lesson, ...] = (),
    ) -> tuple[BattleAction, str] | None:
        """The best menu action and why; None when the search has nothing to weigh. `observed`: what lesson
        memory measured our moves doing to this enemy species, by move name; `preferred`: replays' regrets
        against it (see PREFER_MARGIN)."""
        duel = self.duel(state)
        if duel is None:
            return None
        duel, notes = with_lessons(duel, observed or {})
        front = self._front(state)
        barred = self.withdrawn[1] if self.withdrawn[0] == front else frozenset()
        offered = [a for a in legal if not (isinstance(a, SwitchTo) and a.slot in barred)] or legal
        offered = [a for a in offered if not spends_boss_stock(state, a)] or offered
        offered = [a for a in offered if not wasted_in_the_wild(state, a)] or offered
        pairs: list[tuple[BattleAction, Action]] = [
            (action, model) for action in offered if (model := model_action(action)) is not None
        ]
        if not pairs:
            return None
        verdict = search(duel, [model for _, model in pairs], boss_plies=self.boss_plies)
        index, reason = verdict.index, verdict.reason + notes
        followed = _lesson_followed(state, [action for action, _ in pairs], verdict, preferred)
        if followed is not None:
            index, reason = followed
        chosen = pairs[index][0]
        if isinstance(chosen, SwitchTo) and state.battle is not None:
            self.withdrawn = (front, barred | {state.battle.player_active_slot})
        return chosen, reason

    @collector_paused
    def send_next(self, state: GameState, senders: list[SendNext]) -> tuple[SendNext, str] | None:
        """After a faint: the member with the best chance of winning the rest of the battle."""
        duel = self.duel(state)
        if duel is None or not senders:
            return None
        judge = Judge()
        scored = []
        for action in senders:
            sent = duel._replace(us=duel.us._replace(active=action.slot))
            scored.append((judge.battle(sent), action))
        win, best = max(scored, key=lambda item: item[0])
        return best, f"{describe(best, state)}: {percent(win)} to win the battle from here"


def _lesson_followed(
    state: GameState, actions: list[BattleAction], verdict: Verdict, preferred: tuple[Lesson, ...]
) -> tuple[int, str] | None:
    """The place and reason of the action a replay's regret prefers to the search's choice, for the member
    in front, when the search rates it within PREFER_MARGIN (of several regrets, the one it rates best);
    None otherwise."""
    ours = state.battle.player.species_name if state.battle and state.battle.player else None
    labels = [describe(action, state) for action in actions]
    chosen = labels[verdict.index]
    found = [
        (labels.index(lesson.prefer), lesson)
        for lesson in preferred
        if lesson.species[:1] == (ours,) and lesson.instead_of == chosen and lesson.prefer in labels
    ]
    least = verdict.best.win - PREFER_MARGIN
    close = [
        (at, lesson)
        for at, lesson in found
        if verdict.scored[at].searched and verdict.scored[at].win >= least
    ]
    if not close:
        return None
    at, lesson = max(close, key=lambda pair: verdict.scored[pair[0]].win)
    return at, f"{labels[at]}: {percent(verdict.scored[at].win)} to win{LESSON_MARK}{lesson.text}"


def spends_boss_stock(state: GameState, action: BattleAction) -> bool:
    """An X item (or GUARD SPEC., DIRE HIT) against anyone but a boss: the bag's stock of them is bought for
    the gym leaders, the rival and the Elite Four, whose forecasts count on it. A run's HAUNTER, whose
    moves could not touch a wild DODUO, drank six X SPECIALs and six X ATTACKs in one battle, and the
    gauntlet's forecast fell from 38% to 0% until the Mart had been walked to again."""
    if not isinstance(action, UseItem) or state.battle is None:
        return False
    item = BATTLE_ITEMS.get(action.item)
    if item is None or item.kind is not ItemKind.STAT_BOOST:
        return False
    return state.battle.kind == "wild" or state.battle.trainer_class_name not in BOSS_CLASSES


# A member in front above this share of its HP drinks nothing in a wild battle (as DANGER in the search).
WILD_HEAL_BELOW = 0.4


def wasted_in_the_wild(state: GameState, action: BattleAction) -> bool:
    """A potion, a cure or a revive in a wild battle while the member in front is not in danger: the bag's
    heals are the gauntlet's stock, and a wild battle can be run from. A run's BLASTOISE, with only FISSURE
    left against faster wild DODUOs, drank nine FULL RESTOREs at 195-205 of 200-208 HP ("keeps 61% of the
    party's HP against 61% with FISSURE"); the chain's forecast fell from 94% to 64% with the money gone, and
    the team trained 200,000 frames before it entered again."""
    if not isinstance(action, UseItem) or state.battle is None or state.battle.kind != "wild":
        return False
    item = BATTLE_ITEMS.get(action.item)
    if item is None or item.kind not in (ItemKind.HEAL_HP, ItemKind.CURE_STATUS, ItemKind.REVIVE):
        return False
    front = state.battle.player
    return front is None or front.hp >= WILD_HEAL_BELOW * max(1, front.max_hp)


def with_lessons(duel: Duel, observed: dict[str, Measurement]) -> tuple[Duel, str]:
    """Our active member with each move's damage scaled down towards what lessons saw it do, and a note.
    Never up: a lesson is kept per species, not per level, and TACKLE "seen to do 37% a use in 5" against
    RATTATAs read as 98% to win against YOUNGSTER #1's RATTATA L11 (70% without it); three Blue runs lost
    that battle four times in a row. What only play shows (misses, moves that fail, hidden boosts) only
    ever lowers a move."""
    me, foe = duel.us.fighter, duel.them.fighter
    scales, notes = [], []
    for slot, move in enumerate(moves_of(me)):
        seen = observed.get(move.name)
        expected = move_pace(me, foe._replace(hp=foe.max_hp), slot)[0]
        if seen is None or seen.damage_percent is None or seen.uses < MIN_OBSERVED_USES or expected <= 0:
            scales.append(1.0)
            continue
        taken = seen.damage_percent / 100 * foe.max_hp
        if taken >= expected:
            scales.append(1.0)  # lessons only ever lower a move (see the docstring)
            continue
        weight = seen.uses / (seen.uses + PRIOR_USES)
        scales.append(((1 - weight) * expected + weight * taken) / expected)
        notes.append(f"; seen {move.name} do {seen.damage_percent:.0f}% a use in {seen.uses}")
    if not notes:
        return duel, ""
    fighter = me._replace(scales=tuple(scales))
    return duel._replace(us=duel.us.with_fighter(fighter)), "".join(notes)
