"""The live page as a person uses it: a scripted run played with `--watch`, its page loaded in headless
Chromium, and what the page shows checked against the run's own state; the JSON and PNG endpoints and the
event stream for other tools. The browser test skips where no Chromium is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.actors.factory import build_roles
from engine.cli import main
from engine.commands.arguments import watch_address
from engine.config import EngineConfig
from engine.layout import RunPaths
from engine.runtime.conductor import Conductor
from engine.runtime.live import PUBLISH_SECONDS, LivePublisher, WatchError, check_can_listen
from engine.runtime.options import RunOptions
from engine.story.graph import story_graph
from engine.watch.view import LiveView
from tests.conftest import GEN1_FIXTURES
from tests.support.chaos import LONG_BATTLE, LONG_BATTLE_DECISIONS
from tests.support.fake_emulator import FAKE_CARTRIDGE_SHA256, FakeEmulator

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


class CountingEmulator(FakeEmulator):
    """The scripted emulator, counting its screenshots (each would draw a frame of a real game)."""

    shots = 0

    def screenshot(self) -> bytes:
        CountingEmulator.shots += 1
        return super().screenshot()


def watched_run(tmp_path: Path, decisions_after_battle: int | None = None) -> Conductor:
    """A scripted battle played to its end with the page on (and, when asked, that many decisions in the
    overworld after it); the page keeps the run's last view."""
    paths = RunPaths(tmp_path, "r1")
    paths.create()
    limit = {"max_battles": 1} if decisions_after_battle is None else {
        "max_decisions": LONG_BATTLE_DECISIONS + decisions_after_battle}  # fmt: skip
    options = RunOptions(rom=Path("scripted.gb"), watch=("127.0.0.1", 0), **limit)  # type: ignore[arg-type]
    CountingEmulator.shots = 0
    emulator = partial(CountingEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE)
    roles = build_roles(EngineConfig(), options.role_build(paths), "local", emulator)
    conductor = Conductor(roles, options, paths)
    conductor.run()
    return conductor


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        body: bytes = answer.read()
        return body


def test_the_page_in_a_browser_shows_the_runs_state(tmp_path: Path) -> None:
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if browser is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium)")
    conductor = watched_run(tmp_path)
    try:
        assert conductor.live is not None
        url = conductor.live.server.url
        state = json.loads(fetch(url + "api/state"))
        dom = subprocess.run(
            # The polling page: an open event stream would keep the headless browser's virtual time still.
            [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'b'}",
             "--virtual-time-budget=5000", "--dump-dom", url + "?poll=3"],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout  # fmt: skip
    finally:
        conductor.stop_watching()
    view: dict[str, Any] = state["view"]
    progress = conductor.progress
    assert view["decisions"] == progress.decisions > 0 and view["phase"] == "stopped"
    assert f'data-version="{state["version"]}"' in dom  # the page shows the newest view
    assert _text(dom, "decisions") == str(progress.decisions)
    assert _text(dom, "battles") == str(progress.battles_ended) == "1"
    assert progress.directive is not None and _text(dom, "objective") == progress.directive.objective
    recent = re.search(r'<table id="recent">(.*?)</table>', dom, re.S)
    assert recent is not None and recent.group(1).count("<tr>") == min(20, progress.decisions)
    assert "SQUIRTLE" in dom  # the party, from the last look
    assert _text(dom, "harness") == view["harness"] == "engine"
    assert f'src="/screen.png?v={state["version"]}"' in dom


def test_the_state_the_screen_and_the_event_stream_for_other_tools(tmp_path: Path) -> None:
    conductor = watched_run(tmp_path)
    try:
        assert conductor.live is not None
        url = conductor.live.server.url
        screen = fetch(url + "screen.png")
        with urllib.request.urlopen(url + "events", timeout=10) as stream:
            first = stream.readline()
        page = fetch(url).decode()
        with pytest.raises(urllib.error.HTTPError):
            fetch(url + "nothing-here")
    finally:
        conductor.stop_watching()
    assert screen[:8] == b"\x89PNG\r\n\x1a\n" and screen[16:24] == (160).to_bytes(4, "big") + (144).to_bytes(
        4, "big"
    )
    assert (
        first.startswith(b"data: ")
        and json.loads(first[6:])["view"]["decisions"] == conductor.progress.decisions
    )
    assert (
        'new EventSource("/events")' in page and "http" not in page.split("<script>")[1]
    )  # nothing fetched from elsewhere


def test_watch_addresses_and_a_taken_port(tmp_path: Path) -> None:
    assert watch_address("8080") == ("127.0.0.1", 8080)
    assert watch_address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert watch_address("[::1]:9000") == ("::1", 9000)
    for bad in ("http", "host:99999"):
        with pytest.raises(Exception, match=r"PORT|port"):
            watch_address(bad)
    with pytest.raises(SystemExit):  # argparse's one line and exit code 2, no traceback
        main(["watch", "--port", "99999"])
    # A free port passes the check and is free again afterwards (the check's server is never started, and
    # closing it must not wait for a loop that never ran).
    checked = threading.Thread(target=check_can_listen, args=("127.0.0.1", 0), daemon=True)
    checked.start()
    checked.join(timeout=10)
    assert not checked.is_alive(), "checking a free port hung"
    conductor = watched_run(tmp_path)
    try:
        assert conductor.live is not None and conductor.live.server is not None
        taken = conductor.live.server.httpd.server_address[1]
        with pytest.raises(WatchError, match="cannot serve the live page"):
            check_can_listen("127.0.0.1", taken)  # `engine run` checks before anything starts
        with pytest.raises(WatchError, match="cannot serve the live page"):
            Conductor(conductor.roles, RunOptions(rom=Path("scripted.gb"), watch=("127.0.0.1", taken)),
                      conductor.paths)  # fmt: skip
    finally:
        conductor.stop_watching()


def _text(dom: str, element: str) -> str:
    found = re.search(rf'id="{element}"[^>]*>([^<]*)<', dom)
    assert found is not None, element
    return found.group(1)


VIEW = LiveView(run_id="r", game="red", phase="running", frame=0, decisions=0, battles=0, where="")


def test_a_paced_runs_screen_moves_on_the_page_between_views() -> None:
    screens = iter(bytes([n]) * 10 for n in range(1, 1000))
    served = LivePublisher(Path("scripted.gb"), ("127.0.0.1", 0))
    served.board.publish(VIEW, b"first")
    served.start()
    served.follow_screens(lambda: next(screens))
    try:
        time.sleep(4 * PUBLISH_SECONDS)
        assert served.board.latest()[2] == b"first"  # served, but nobody has looked: nothing read
        assert served.server is not None
        with urllib.request.urlopen(served.server.url + "api/state", timeout=10) as answer:
            assert json.load(answer)["view"]["run_id"] == "r"  # someone looks
        version = served.board.version
        assert served.board.wait_newer(version + 1, timeout=10) >= version + 2  # moved twice, same view
        _, view, screen = served.board.latest()
        assert view is not None and view.run_id == "r" and screen != b"first"
    finally:
        served.stop()

    unserved = LivePublisher(Path("scripted.gb"))  # on Ray, for `engine watch`: only while someone asks
    unserved.board.publish(VIEW, b"first")
    unserved.follow_screens(lambda: next(screens))
    try:
        time.sleep(4 * PUBLISH_SECONDS)
        assert unserved.board.latest()[2] == b"first"  # nobody watched: the source was never read
        version = unserved.wanted()[0]
        assert unserved.board.wait_newer(version, timeout=10) > version
    finally:
        unserved.stop()


def test_with_nobody_looking_the_run_takes_no_screenshot_but_its_last(tmp_path: Path) -> None:
    conductor = watched_run(tmp_path)  # --watch on, but no page, poller or stream ever connected
    try:
        assert conductor.live is not None
        version, view, screen = conductor.live.board.latest()
        # The "starting" view, one every UNWATCHED_SECONDS without a screen, and the run's last view: one
        # screenshot in all.
        assert version >= 2 and view is not None and view.phase == "stopped" and screen[:4] == b"\x89PNG"
        assert CountingEmulator.shots == 1
    finally:
        conductor.stop_watching()


def earlier_run(data: Path, run_id: str, splits: dict[str, int], rom: str) -> None:
    """A finished run kept in the data folder, as far as the splits comparison reads it."""
    graph = story_graph()
    milestones = [{"name": name, "title": graph.named(name).title, "frame": frame, "decision": 1,
                   "number": graph.named(name).milestone or 0, "seconds": frame / 1000}
                  for name, frame in splits.items()]  # fmt: skip
    summary = {"run_id": run_id, "game": "red", "rom_sha256": rom, "start": {"kind": "power_on"},
               "milestones": milestones}  # fmt: skip
    (data / "runs" / run_id).mkdir(parents=True)
    (data / "runs" / run_id / "summary.json").write_text(json.dumps(summary), encoding="utf-8")


def browse(browser: str, url: str, profile: Path) -> str:
    return subprocess.run(
        # The polling page: an open event stream would keep the headless browser's virtual time still.
        [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         "--virtual-time-budget=5000", "--dump-dom", url + "?poll=3"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip


def test_the_page_shows_the_splits_against_the_personal_best(tmp_path: Path) -> None:
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if browser is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium)")
    # The scripted run reaches these at its first look after its battle, all at one frame (a few thousand
    # in); the PB took longer to each, and went on to Brock.
    pb = {"leave_house": 100_000, "meet_oak": 100_000, "get_starter": 200_000, "rival_battle": 250_000,
          "reach_viridian": 300_000, "beat_brock": 900_000}  # fmt: skip
    earlier_run(tmp_path, "20260101-000000-pbpb", pb, FAKE_CARTRIDGE_SHA256)
    earlier_run(tmp_path, "20260101-000001-othr", dict.fromkeys(pb, 1), "0" * 64)  # another cartridge
    conductor = watched_run(tmp_path, decisions_after_battle=1)
    try:
        assert conductor.live is not None and conductor.live.server is not None
        url = conductor.live.server.url
        state = json.loads(fetch(url + "api/state"))
        final = browse(browser, url, tmp_path / "b1")
        # The same page while the run plays: the segment under way, already behind the PB's split.
        reached = conductor.milestones.reached
        assert conductor.splits is not None
        playing = conductor.splits.table(reached, now=reached[-1].frame + 1_000_000)
        _, view, _ = conductor.live.board.latest()
        assert view is not None
        conductor.live.board.publish(view.model_copy(update={"splits": playing, "phase": "running"}))
        running = browse(browser, url, tmp_path / "b2")
    finally:
        conductor.stop_watching()
    summary = json.loads((tmp_path / "runs" / "r1" / "summary.json").read_text(encoding="utf-8"))
    assert summary["rom_sha256"] == FAKE_CARTRIDGE_SHA256 and summary["start"]["kind"] == "power_on"
    own = [split for split in summary["milestones"] if not split["at_start"]]
    splits = state["view"]["splits"]
    assert splits["comparison"] == "20260101-000000-pbpb" and splits["comparable_runs"] == 1
    assert [row["name"] for row in splits["rows"]] == [split["name"] for split in own]
    assert {"leave_house", "get_starter", "reach_viridian"} <= {row["name"] for row in splits["rows"]}
    first = splits["rows"][0]
    assert first["name"] == "leave_house" and first["frame"] == own[0]["frame"] < 100_000
    assert first["delta_frames"] == own[0]["frame"] - 100_000 and first["gold"]
    assert [ahead["name"] for ahead in splits["ahead"]] == ["beat_brock"] and splits["running"] is None
    table = re.search(r'<table id="splits">(.*?)</table>', final, re.S)
    assert table is not None
    assert table.group(1).count("<tr") == 1 + len(own) + 1  # the heading, each split, the PB's beat_brock
    assert graph_title("leave_house") in table.group(1)
    assert 'class="time gold"' in table.group(1) and "\u2605" in table.group(1)
    assert "PB 4:11:08" in table.group(1)  # beat_brock: 900,000 frames, 15,068 s of game time
    assert "against the personal best, run 20260101-000000-pbpb" in final
    assert "sum of best" in _text(final, "splits-best")
    shown = re.search(r'<tr class="running">(.*?)</tr>', running, re.S)
    assert shown is not None and graph_title("beat_brock") in shown.group(1)
    assert 'class="time behind"' in shown.group(1)  # past the PB's frame at the milestone under way


def graph_title(name: str) -> str:
    return story_graph().named(name).title
