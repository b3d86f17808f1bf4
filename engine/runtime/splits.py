"""Splits against a personal best, as a speedrun timer keeps them.

Runs compare only with runs of the same cartridge (its sha256) from the same start (power-on, or the same
save state's bytes); milestones a start state had already done (`Split.at_start`) are listed apart and
never compared. Times are game-clock frames (engine/watch/splits.py).

- A **segment** runs from one of a run's own splits to its next (the first from the run's start). It is
  known by both ends: a run that took an optional objective on the way (the Town Map) played other
  segments than one that did not, and they are not compared.
- The **personal best** is, of the earlier comparable runs, the one furthest along the story (the latest
  objective in the story graph's order, optional ones aside, that it reached itself; the Hall of Fame is
  the furthest there is), then the one with the fewest frames there, then the earliest.
- A split's **delta** is its frame minus the personal best's at the same milestone.
- A **gold** segment is faster than the same segment of every earlier comparable run that played it.
- The **sum of best** is the fewest frames from the start to the furthest milestone of this run or the
  personal best, along any chain of segments, each at the best any comparable run (this one too) played.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from functools import cache

from engine.frozen import Frozen
from engine.runtime.milestones import Split
from engine.runtime.run_start import RunStart
from engine.story.graph import story_graph
from engine.watch.splits import SplitAhead, SplitRow, SplitRunning, SplitsTable

START = "(start)"  # the first end of a run's first segment
Segment = tuple[str, str]  # (the split it starts at, or START; the split it ends at)


class RunSplits(Frozen):
    """What the comparison needs of one run: its identity, cartridge, start and milestones."""

    run_id: str
    rom_sha256: str | None = None
    start: RunStart | None = None
    splits: tuple[Split, ...] = ()

    @property
    def own(self) -> tuple[Split, ...]:
        return tuple(split for split in self.splits if not split.at_start)

    def comparable_with(self, other: RunSplits) -> bool:
        """Same cartridge, same start; a run that does not say which it had is comparable with none."""
        if self.rom_sha256 is None or self.start is None or other.start is None:
            return False
        return self.rom_sha256 == other.rom_sha256 and self.start.same_as(other.start)


class SegmentTime(Frozen):
    segment: Segment
    frames: int
    seconds: float


def segments(own: Sequence[Split]) -> list[SegmentTime]:
    """Each split's segment, in the order of `own` (a run's own splits)."""
    found, previous, frame, seconds = [], START, 0, 0.0
    for split in own:
        found.append(SegmentTime(segment=(previous, split.name), frames=split.frame - frame,
                                 seconds=round(split.seconds - seconds, 3)))  # fmt: skip
        previous, frame, seconds = split.name, split.frame, split.seconds
    return found


@cache
def _story_order() -> dict[str, int]:
    """Each objective the story cannot do without, by its place in the graph; optional ones are left out,
    so a detour never counts as being further along."""
    objectives = story_graph().objectives
    return {objective.name: index for index, objective in enumerate(objectives) if not objective.optional}


def furthest(own: Sequence[Split]) -> Split | None:
    """The split furthest along the story; with only optional ones, the last of them."""
    order = _story_order()
    counted = [split for split in own if split.name in order]
    if not counted:
        return own[-1] if own else None
    return max(counted, key=lambda split: order[split.name])


def standing(own: Sequence[Split]) -> tuple[int, int] | None:
    """How good a run is, higher better: how far along, then minus the frames it took to get there."""
    split = furthest(own)
    if split is None:
        return None
    return _story_order().get(split.name, -1), -split.frame


def personal_best(earlier: Iterable[RunSplits]) -> RunSplits | None:
    """The best of `earlier` (oldest first); a tie goes to the earliest."""
    best, best_standing = None, None
    for run in earlier:
        found = standing(run.own)
        if found is not None and (best_standing is None or found > best_standing):
            best, best_standing = run, found
    return best


def best_segments(runs: Iterable[Sequence[Split]]) -> dict[Segment, int]:
    best: dict[Segment, int] = {}
    for own in runs:
        for time in segments(own):
            best[time.segment] = min(time.frames, best.get(time.segment, time.frames))
    return best


def sum_of_best(best: dict[Segment, int], target: str) -> int | None:
    """The fewest frames from START to `target` along best segments (a shortest path: runs may have
    reached milestones in other orders); None when no chain of segments gets there."""
    onward: dict[str, list[tuple[str, int]]] = {}
    for (first, last), frames in best.items():
        onward.setdefault(first, []).append((last, frames))
    queue, settled = [(0, START)], set[str]()
    while queue:
        frames, name = heapq.heappop(queue)
        if name == target:
            return frames
        if name in settled:
            continue
        settled.add(name)
        for after, more in onward.get(name, ()):
            if after not in settled:
                heapq.heappush(queue, (frames + more, after))
    return None


class SplitComparison:
    """The earlier comparable runs, worked out once (the personal best, each segment's best), and this
    run's table against them, as often as a view wants it."""

    def __init__(self, start: RunStart | None, earlier: Sequence[RunSplits]) -> None:
        self.start_words = start.words() if start is not None else "an unknown start"
        self.earlier = tuple(earlier)
        self.pb = personal_best(self.earlier)
        self.best = best_segments(run.own for run in self.earlier)

    def table(self, splits: Sequence[Split], now: int | None = None,
              heading: tuple[str, str] | None = None) -> SplitsTable:  # fmt: skip
        """This run's table; `now` (the game clock) while it plays, for the segment under way, which is
        `heading` (an objective's name and title) when the personal best does not say what comes next."""
        own = [split for split in splits if not split.at_start]
        pb_own = self.pb.own if self.pb is not None else ()
        pb_last = furthest(pb_own)
        ahead = self._ahead(own, pb_own)
        table = SplitsTable(
            start=self.start_words, comparison=self.pb.run_id if self.pb is not None else None,
            comparable_runs=len(self.earlier), pb_name=pb_last.name if pb_last else None,
            pb_frame=pb_last.frame if pb_last else None, rows=self._rows(own, pb_own), ahead=ahead,
            at_start=tuple(split.title for split in splits if split.at_start),
        )  # fmt: skip
        target = self._target(own, pb_own)
        if target is not None:
            own_best = best_segments([own])
            merged = {key: min(frames, self.best.get(key, frames)) for key, frames in own_best.items()}
            table = table.model_copy(update={"sum_of_best_frames": sum_of_best(self.best | merged, target),
                                             "sum_of_best_to": target})  # fmt: skip
        if now is not None:
            table = table.model_copy(update={"running": _running(own, pb_own, ahead, now, heading)})
        return table

    def _rows(self, own: Sequence[Split], pb_own: Sequence[Split]) -> tuple[SplitRow, ...]:
        pb_frames = {split.name: split.frame for split in pb_own}
        rows = []
        for split, time in zip(own, segments(own), strict=True):
            best = self.best.get(time.segment)
            delta = split.frame - pb_frames[split.name] if split.name in pb_frames else None
            rows.append(SplitRow(name=split.name, title=split.title, number=split.number, frame=split.frame,
                                 segment_frames=time.frames, seconds=split.seconds,
                                 segment_seconds=time.seconds, delta_frames=delta,
                                 gold=best is not None and time.frames < best,
                                 best_segment_frames=best))  # fmt: skip
        return tuple(rows)

    @staticmethod
    def _ahead(own: Sequence[Split], pb_own: Sequence[Split]) -> tuple[SplitAhead, ...]:
        reached = {split.name for split in own}
        return tuple(SplitAhead(name=split.name, title=split.title, number=split.number, pb_frame=split.frame)
                     for split in pb_own if split.name not in reached)  # fmt: skip

    @staticmethod
    def _target(own: Sequence[Split], pb_own: Sequence[Split]) -> str | None:
        """Where the sum of best runs to: the furthest milestone of this run or the personal best."""
        mine, theirs = standing(own), standing(pb_own)
        if theirs is not None and (mine is None or theirs[0] > mine[0]):
            found = furthest(pb_own)
        else:
            found = furthest(own)
        return found.name if found is not None else None


def _running(own: Sequence[Split], pb_own: Sequence[Split], ahead: Sequence[SplitAhead], now: int,
             heading: tuple[str, str] | None) -> SplitRunning:  # fmt: skip
    """The segment under way: towards the objective pursued when the personal best reached it, else the
    personal best's next milestone, else the objective pursued."""
    since = own[-1].frame if own else 0
    expected = next((split for split in ahead if heading is not None and split.name == heading[0]), None)
    expected = expected or (ahead[0] if ahead else None)
    name, title = (expected.name, expected.title) if expected else (heading or (None, "the next milestone"))
    pb_frame = {split.name: split.frame for split in pb_own}.get(name) if name is not None else None
    behind = now - pb_frame if pb_frame is not None and now > pb_frame else None
    return SplitRunning(name=name, title=title, frame=now, segment_frames=max(0, now - since),
                        delta_frames=behind)  # fmt: skip
