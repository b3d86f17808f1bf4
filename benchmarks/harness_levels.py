"""Cost and steps per harness level on one fixed scenario, with a local stub model (no key, no network).

    .venv/bin/python -m benchmarks.harness_levels --rom ROM [--until leave_house] [--max-decisions 300]

Each level plays from power-on to the objective `--until` through the real engine, SDKs and gateway:
`engine` with the rule-based tier, `decisions` with a stub that takes the engine's first option, `buttons`
with a scripted walker that reads the position from the RAM text, and `vision` with a stub that replays
the buttons run's presses (it sees no RAM, so it cannot steer). Tokens are the stub's count (prompt
characters / 4 + 100), priced at $1 / $5 per million tokens in and out: the figures compare the levels,
they do not quote a provider. Prints one row per level.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from engine.cli import main as engine
from tests.support.button_model import button_answer, walker
from tests.support.sensible_model import sensible
from tests.support.stub_llm import Responder, StubLLMServer, StubReply, StubRequest

KEY_ENV = "ENGINE_BENCH_STUB_KEY"
LEVELS = ("engine", "decisions", "buttons", "vision")


def replaying(presses: list[str]) -> Responder:
    """The buttons run's presses, one a step, in order (then nothing)."""
    queue: Iterator[str] = iter(presses)

    def respond(request: StubRequest) -> StubReply:
        pressed = next(queue, "")
        answer = button_answer([pressed] if pressed else [], reasoning="replayed")
        return StubReply(text=answer, input_tokens=len(request.last_user_text) // 4 + 100, output_tokens=30)

    return respond


def play(rom: Path, level: str, responder: Responder, until: str, limit: int, folder: Path) -> dict[str, Any]:
    with StubLLMServer(responder) as server:
        prices = {"price_input_per_mtok": 1.0, "price_output_per_mtok": 5.0}
        tier = {"provider": "anthropic", "model": "stub", "base_url": server.anthropic_base_url,
                "api_key_env": KEY_ENV, **prices}  # fmt: skip
        config = folder / f"{level}.yaml"
        config.write_text(yaml.safe_dump({"models": {"acting": tier, "thinking": None}}), encoding="utf-8")
        summary_path = folder / f"{level}.json"
        started = time.perf_counter()
        code = engine(["run", "--local", "--rom", str(rom), "--config", str(config), "--harness", level,
                       "--until", until, "--max-decisions", str(limit), "--data-dir", str(folder / level),
                       "--summary", str(summary_path)])  # fmt: skip
        wall = time.perf_counter() - started
    summary: dict[str, Any] = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["exit"], summary["process_wall"] = code, wall
    return summary


def presses_of(folder: Path) -> list[str]:
    (run,) = (folder / "buttons" / "runs").iterdir()
    lines = (run / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    return [entry["action"] for entry in map(json.loads, lines) if entry["action"] != "no-op"]


def row(level: str, summary: dict[str, Any], until: str) -> str:
    llm = summary["llm"]
    reached = next((split for split in summary["milestones"] if split["name"] == until), None)
    split = f"frame {reached['frame']}" if reached else "not reached"
    return (f"| {level} | {split} | {summary['decisions']} | {llm['calls']} | {llm['tokens_in']:,} + "
            f"{llm['tokens_out']:,} | ${summary['cost_usd']:.4f} | {summary['harness_fallbacks']} | "
            f"{summary['wall_seconds']:.1f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True)
    parser.add_argument("--until", default="leave_house")
    parser.add_argument("--max-decisions", type=int, default=300)
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated (vision needs buttons)")
    args = parser.parse_args(argv)
    os.environ[KEY_ENV] = "sk-bench-stub-not-a-real-key"
    print(f"| level | {args.until} | steps | model calls | tokens in + out | cost | fallbacks | wall s |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for level in args.levels.split(","):
            print(f"playing the {level} level ...", file=sys.stderr)
            if level == "vision":
                responder = replaying(presses_of(folder))
            else:
                responder = walker() if level == "buttons" else sensible
            summary = play(args.rom, level, responder, args.until, args.max_decisions, folder)
            print(row(level, summary, args.until), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
