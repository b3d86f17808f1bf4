"""The Reflection role, first stage: receives every finished battle without holding up the game loop and
keeps the record. (Reflecting on the records is the lesson memory's job.)"""

from __future__ import annotations

from engine.messages import BattleRecord, RoleReport


class Reflection:
    def __init__(self) -> None:
        self.received: list[BattleRecord] = []

    def receive(self, record: BattleRecord) -> str:
        """Acknowledge with the battle id."""
        self.received.append(record)
        return record.battle_id

    def report(self) -> RoleReport:
        return RoleReport(
            role="reflection", healthy=True, counters={"battles_received": float(len(self.received))}
        )
