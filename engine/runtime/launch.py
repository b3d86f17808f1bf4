"""From parsed `engine run` arguments to a finished run and its exit code."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from engine.config import EngineConfig
from engine.errors import UserInputError
from engine.runtime.conductor import RunOptions
from engine.runtime.layout import RunPaths, new_run_id, write_json_atomic
from engine.runtime.local import run_local
from engine.runtime.summary import RunSummary

log = logging.getLogger("engine.run")
EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130


def _check_inputs(args: argparse.Namespace) -> None:
    """Refuse bad paths before any emulation, so a typo never costs a long run its summary."""
    if not args.rom.is_file():
        raise UserInputError(f"ROM not found: {args.rom}")
    if args.state is not None and not args.state.is_file():
        raise UserInputError(f"save state not found: {args.state}")
    if args.summary is not None and not args.summary.parent.resolve().is_dir():
        raise UserInputError(f"--summary {args.summary}: the folder {args.summary.parent} does not exist")


def _log_to_file(path: Path, level: str) -> logging.Handler:
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    handler.setLevel(level)
    logging.getLogger("engine").addHandler(handler)
    return handler


def exit_code(summary: RunSummary) -> int:
    if summary.stopped == "error":
        return EXIT_FAILED
    if summary.stopped == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_OK


def run_engine(config: EngineConfig, args: argparse.Namespace) -> int:
    _check_inputs(args)
    paths = RunPaths(data_dir=args.data_dir, run_id=new_run_id())
    paths.create()
    logging.getLogger("engine").setLevel(config.logging.level)
    handler = _log_to_file(paths.log, config.logging.level)
    try:
        log.info("run %s: data in %s", paths.run_id, paths.run_dir)
        if not args.local:
            log.info("no actor runtime requested: every role runs in this process (as with --local)")
        options = RunOptions(
            rom=args.rom,
            state=args.state,
            max_battles=args.max_battles,
            max_decisions=args.max_decisions,
            seed=args.seed,
        )
        summary = run_local(config, options, paths)
        if args.summary is not None:
            write_json_atomic(args.summary, summary.model_dump(mode="json"))
        log.info(
            "run %s %s: %d battles, %d decisions, %d frames, %.1f s",
            summary.run_id,
            "failed" if summary.error else "done",
            len(summary.battles),
            summary.decisions,
            summary.frames,
            summary.wall_seconds,
        )
        return exit_code(summary)
    finally:
        logging.getLogger("engine").removeHandler(handler)
        handler.close()
