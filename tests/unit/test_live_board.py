"""The live view is current on the first answer: a run makes views four a second only while someone watches,
so a request that finds the views slowed waits (bounded) for the run's next one instead of answering with an
old view; a run nobody watches still makes one every UNWATCHED_SECONDS, without a screenshot (it would draw
a frame); a finished run answers at once."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

from engine.runtime.live import PUBLISH_SECONDS, UNWATCHED_SECONDS, LivePublisher
from engine.watch.view import FRESH_SECONDS, WANTED_SECONDS, LiveView

STARTING = LiveView(run_id="r", game="red", phase="starting", frame=0, decisions=0, battles=0, where="")


def playing(
    publisher: LivePublisher, stop: threading.Event, shots: list[int] | None = None
) -> threading.Thread:
    """A run as the conductor plays it: its frames move on every cycle, and it makes a view when one is due,
    with a screenshot (noted in `shots`) when someone watches."""

    def cycles() -> None:
        frame = 0
        while not stop.wait(0.02):
            frame += 100
            if publisher.due():
                view = STARTING.model_copy(
                    update={"phase": "running", "frame": frame, "decisions": frame // 100}
                )
                shot = publisher.wants_screen()
                if shot and shots is not None:
                    shots.append(frame)
                publisher.publish(view, None, b"screen" if shot else None)

    thread = threading.Thread(target=cycles, daemon=True)
    thread.start()
    return thread


def ask(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url + "api/state", timeout=10) as answer:
        found: dict[str, object] = json.load(answer)
        return found


def test_one_late_request_sees_the_run_as_it_is_now() -> None:
    served = LivePublisher(Path("scripted.gb"), ("127.0.0.1", 0))
    served.board.publish(STARTING)  # the view made while the intro ran, before anyone looked
    served.start()
    stop = threading.Event()
    playing(served, stop)
    try:
        time.sleep(10 * PUBLISH_SECONDS)  # the run plays on; nobody asks, so it makes one view and no more
        made = served.board.latest()[1]
        assert made is not None and made.phase == "running" and made.frame <= 300
        assert served.server is not None
        view = ask(served.server.url)["view"]
        assert isinstance(view, dict) and view["phase"] == "running" and view["frame"] > 0
        # Later, after nobody asked for longer than views are made for: current again on the first answer.
        served.board._asked_at = time.monotonic() - WANTED_SECONDS - 1
        before = served.board.latest()[1]
        again = ask(served.server.url)["view"]
        assert isinstance(again, dict) and before is not None and again["frame"] > before.frame
    finally:
        stop.set()
        served.stop()


def test_a_finished_run_answers_at_once_with_its_last_view() -> None:
    served = LivePublisher(Path("scripted.gb"), ("127.0.0.1", 0))
    served.board.publish(STARTING.model_copy(update={"phase": "stopped", "frame": 500}))
    served.start()
    try:
        assert served.server is not None
        started = time.monotonic()
        view = ask(served.server.url)["view"]
        waited = time.monotonic() - started
        assert isinstance(view, dict) and view["phase"] == "stopped" and view["frame"] == 500
        assert waited < FRESH_SECONDS  # no newer view will come: nothing to wait for
    finally:
        served.stop()


def test_a_run_that_makes_no_view_costs_a_request_at_most_the_bounded_wait() -> None:
    served = LivePublisher(Path("scripted.gb"), ("127.0.0.1", 0))
    served.board.publish(STARTING)
    served.start()
    try:
        assert served.server is not None
        started = time.monotonic()
        view = ask(served.server.url)["view"]  # a run stuck in one long cycle: the newest view it has
        assert isinstance(view, dict) and view["phase"] == "starting"
        assert FRESH_SECONDS - 0.5 <= time.monotonic() - started < FRESH_SECONDS + 5
    finally:
        served.stop()


def test_a_run_nobody_watches_keeps_a_recent_view_without_drawing_screens() -> None:
    publisher = LivePublisher(Path("scripted.gb"))
    stop = threading.Event()
    shots: list[int] = []
    playing(publisher, stop, shots)
    try:
        time.sleep(UNWATCHED_SECONDS * 2.5)
        version, view, screen = publisher.board.latest()
        assert version >= 2 and view is not None  # the first view at once, then one every UNWATCHED_SECONDS
        assert version <= 4  # not four a second
        assert shots == [] and screen == b""  # nobody watched: no screenshot drew a frame
        publisher.wanted()  # `engine watch` asks
        time.sleep(4 * PUBLISH_SECONDS)
        assert shots and publisher.board.latest()[2] == b"screen"
    finally:
        stop.set()
        publisher.stop()
