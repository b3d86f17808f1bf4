"""What the model tiers cost around the model itself: prompt sizes (and so the price per call at the
default tiers' prices), the engine's own overhead per model decision, and how long a decision waits when
a provider dies: before its breaker opens, and after.

    .venv/bin/python -m benchmarks.llm [--fixtures DIR] [--calls 200]

Everything runs against the local stub server with the real SDK clients; no network, no key.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.actors.handles import LocalHandle
from engine.config import LLMConfig, ModelsConfig, ModelTierConfig, RoutingConfig
from engine.game.actions import legal_actions
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.gateway import ModelGateway
from engine.llm.render import action_options, render_strategy, render_tactical
from engine.llm.tasks import ModelTask
from engine.messages import EventName, GameEvent
from engine.tactician.tactician import Tactician
from tests.support.sensible_model import sensible
from tests.support.stub_llm import StubLLMServer, StubReply, always

DEFAULT_FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "gen1"
BATTLES = ("red_brock_main_menu", "red_brock_second_mon_onix", "blue_misty_move_menu", "red_wild_main_menu")
CHARS_PER_TOKEN = 4  # the gateway's own estimate; real tokenizers differ by ±25 %


def _p50_ms(call: Callable[[], object], calls: int) -> float:
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def _state(fixtures: Path, name: str) -> GameState:
    return decode_state(load_capture(fixtures / name), RED_BLUE)


def prompt_sizes(fixtures: Path) -> None:
    print("prompt sizes (system + user), and the price of one call at the default tiers' prices")
    defaults = ModelsConfig()
    assert defaults.acting is not None and defaults.thinking is not None
    for name in BATTLES:
        state = _state(fixtures, name)
        system, user = render_tactical(state, action_options(state, legal_actions(state)), None, ())
        _size_line(f"tactical {name}", system + user, 60, defaults.acting)
    state = _state(fixtures, "red_brock_main_menu")
    trigger = GameEvent(name=EventName.BATTLE_START, frame=0, detail="trainer vs BROCK")
    system, user = render_strategy(state, trigger, None)
    _size_line("strategy red_brock_main_menu", system + user, 80, defaults.thinking)


def _size_line(label: str, text: str, answer_tokens: int, tier: ModelTierConfig) -> None:
    tokens = len(text) // CHARS_PER_TOKEN
    cost = (tokens * tier.price_input_per_mtok + answer_tokens * tier.price_output_per_mtok) / 1e6
    print(f"  {label:<40} {len(text):>6} chars ~{tokens:>5} tokens  ~${cost:.5f} on {tier.model}")


def _tier(base_url: str, provider: str, **changes: object) -> ModelTierConfig:
    values = {"provider": provider, "model": "stub", "base_url": base_url, "api_key_env": "K",
              "timeout_s": 5.0, "price_input_per_mtok": 1.0, "price_output_per_mtok": 5.0}  # fmt: skip
    return ModelTierConfig.model_validate(values | changes)


def overhead(fixtures: Path, calls: int) -> None:
    print("one tactical decision at a boss battle (p50), the stub answering at once")
    state = _state(fixtures, "red_brock_main_menu")
    free = _p50_ms(lambda: Tactician().choose_battle(state, None), calls)
    print(f"  rule_based only                          {free:7.2f} ms")
    with StubLLMServer(sensible) as server:
        for provider in ("anthropic", "openai"):
            base = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
            started = time.perf_counter()
            gateway = ModelGateway(
                ModelsConfig(acting=_tier(base, provider), thinking=None), LLMConfig(), {"K": "k"}
            )
            built = (time.perf_counter() - started) * 1000
            tactician = Tactician(routing=RoutingConfig(), gateway=LocalHandle("gateway", gateway))
            ms = _p50_ms(lambda t=tactician: t.choose_battle(state, None), calls)
            assert gateway.usage().calls >= calls
            label = f"acting via {provider:<9} (render, HTTP, parse)"
            print(f"  {label} {ms:7.2f} ms   client built in {built:6.0f} ms")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dead_provider() -> None:
    print("a dead provider (connection refused), default retry and breaker settings")
    _until_open(_tier(f"http://127.0.0.1:{_closed_port()}/v1", "openai"))
    print("a hanging provider (never answers), default settings but timeout_s 1.0 (the acting default is 15)")
    with StubLLMServer(always(StubReply(text="{}", delay_s=30.0))) as server:
        _until_open(_tier(server.openai_base_url, "openai", timeout_s=1.0))


def _until_open(tier: ModelTierConfig) -> None:
    llm = LLMConfig()
    gateway = ModelGateway(ModelsConfig(acting=tier, thinking=None), llm, {"K": "k"})
    task = ModelTask(role="tactician", answer="tactical", wanted="acting", reason="bench", system="s",
                     user="u", action_ids=(0, 1))  # fmt: skip
    asks = 0
    waited = 0.0
    while next(iter(gateway.breaker_states().values()), "closed") != "open" and asks < 20:
        started = time.perf_counter()
        outcome = gateway.ask(task)
        waited += time.perf_counter() - started
        asks += 1
        assert outcome.answer is None
    print(f"  breaker opened after {asks} decisions ({llm.breaker_failures} failed calls), "
          f"{waited:.2f} s of waiting in all, {waited / asks:.2f} s per decision")  # fmt: skip
    fast = _p50_ms(lambda: gateway.ask(task), 50)
    print(f"  while open, a decision falls back in {fast:.3f} ms (p50)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    prompt_sizes(args.fixtures)
    overhead(args.fixtures, args.calls)
    dead_provider()


if __name__ == "__main__":
    main()
