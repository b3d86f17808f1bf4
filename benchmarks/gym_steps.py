"""Steps per second of the Gymnasium environment (engine/gym): one environment, then two in Gymnasium's
sync and async vector envs, with random buttons; and the decisions action set on one environment.

    .venv/bin/python -m benchmarks.gym_steps [--rom ROM] [--steps 2000] [--decisions 60] [--ram] [--seed 0]

The cartridge is --rom, else POKEMON_ROM; the environment's id follows its game. Every environment starts
at power-on with the intro played (not timed: each reset happens before the clock starts). A button step
is the harness's 40 frames (hold 8, release 8, settle 24), the screen rendered at its last two. Printed per
setup: steps a second over all environments, the emulated frames a second, and the speed-up over one. The
decisions figure plays option 0 (the engine's own choice) from the bedroom: legs of walking, battle actions.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import engine.gym  # noqa: F401  (registers the ids)
from engine.emulator.rom import check_rom_file
from engine.gym.cartridge import ENV_IDS, ROM_VARIABLE

Maker = Callable[[], gymnasium.Env[Any, Any]]


def main() -> None:
    args = parse()
    rom = args.rom or (Path(os.environ[ROM_VARIABLE]) if os.environ.get(ROM_VARIABLE) else None)
    if rom is None:
        raise SystemExit(f"give --rom ROM or set {ROM_VARIABLE}")
    env_id = ENV_IDS[check_rom_file(rom).game]
    print(f"{env_id}, {args.steps} button steps per environment, ram={args.ram}, {os.cpu_count()} cores")

    def maker(**settings: Any) -> Maker:
        return lambda: gymnasium.make(env_id, rom=str(rom), ram=args.ram, **settings)

    single = one_env(maker()(), args.steps, args.seed)
    report("1 env", single, single)
    report("2 envs, SyncVectorEnv", vector(gymnasium.vector.SyncVectorEnv, maker(), args), single)
    report("2 envs, AsyncVectorEnv", vector(gymnasium.vector.AsyncVectorEnv, maker(), args), single)
    if args.decisions:
        seconds = decisions(maker(actions="decisions")(), args.decisions, args.seed)
        rate = args.decisions / seconds
        print(f"decisions, 1 env: {rate:,.1f} decisions/s ({args.decisions} in {seconds:.1f} s)")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path, help=f"the cartridge (default: ${ROM_VARIABLE})")
    parser.add_argument("--steps", type=int, default=2000, help="button steps per environment")
    parser.add_argument(
        "--decisions", type=int, default=60, help="decisions for the decisions figure (0: none)"
    )
    parser.add_argument("--ram", action="store_true", help="observe the RAM vector too")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def one_env(env: gymnasium.Env[Any, Any], steps: int, seed: int) -> tuple[int, int, float]:
    """(steps, frames, seconds) of `steps` random buttons on one environment, reset not timed."""
    env.reset(seed=seed)
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(steps)]
    frames = 0
    started = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, info = env.step(action)
        frames = info["frames"]
        if terminated or truncated:
            raise SystemExit("an episode ended during the benchmark: lower --steps")
    seconds = time.perf_counter() - started
    env.close()
    return steps, frames, seconds


def vector(kind: Callable[..., gymnasium.vector.VectorEnv[Any, Any, Any]], make: Maker,
           args: argparse.Namespace) -> tuple[int, int, float]:  # fmt: skip
    envs = kind([make, make])
    try:
        envs.reset(seed=args.seed)
        envs.action_space.seed(args.seed)
        actions = [envs.action_space.sample() for _ in range(args.steps)]
        infos: dict[str, Any] = {}
        started = time.perf_counter()
        for action in actions:
            _, _, _, _, infos = envs.step(action)
        seconds = time.perf_counter() - started
    finally:
        envs.close()
    return 2 * args.steps, int(np.sum(infos["frames"])), seconds


def decisions(env: gymnasium.Env[Any, Any], count: int, seed: int) -> float:
    env.reset(seed=seed)
    started = time.perf_counter()
    for _ in range(count):
        env.step(0)
    seconds = time.perf_counter() - started
    env.close()
    return seconds


def report(label: str, measured: tuple[int, int, float], single: tuple[int, int, float]) -> None:
    steps, frames, seconds = measured
    rate = steps / seconds
    print(f"{label}: {rate:,.0f} steps/s, {frames / seconds:,.0f} frames/s, "
          f"x{rate / (single[0] / single[2]):.2f} of one env")  # fmt: skip


if __name__ == "__main__":
    main()
