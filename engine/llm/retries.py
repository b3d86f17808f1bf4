"""The one retry policy for model calls: transient failures only, exponential backoff with jitter, bounded
by attempts and by time (so a slow provider cannot hold a decision for long)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from tenacity import (
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential_jitter,
)

from engine.config import LLMConfig
from engine.llm.errors import TransientModelError

T = TypeVar("T")


def retrying(llm: LLMConfig, deadline_s: float, sleep: Callable[[float], None] = time.sleep) -> Retrying:
    return Retrying(
        retry=retry_if_exception_type(TransientModelError),
        stop=stop_after_attempt(llm.retry_attempts) | stop_after_delay(deadline_s),
        wait=wait_exponential_jitter(
            multiplier=llm.retry_initial_seconds, max=llm.retry_max_seconds, jitter=llm.retry_initial_seconds
        ),
        sleep=sleep,
        reraise=True,
    )


def with_retries(call: Callable[[], T], llm: LLMConfig, deadline_s: float) -> T:
    return retrying(llm, deadline_s)(call)
