import random
import time
from typing import Callable, TypeVar

T = TypeVar("T")


def retry(fn: Callable[[], T], attempts: int = 3, base: float = 0.1) -> T:
    """Call fn until it succeeds, sleeping with jittered exponential backoff."""
    for i in range(attempts):
        try:
            return fn()
        except Exception:
            if i == attempts - 1:
                raise
            time.sleep(base * (2**i) * random.uniform(0.5, 1.5))
    raise AssertionError("unreachable")


class RetryBudget:
    """Caps retries across calls to a fraction of requests."""

    def __init__(self, ratio: float = 0.1):
        self.ratio = ratio
        self.requests = 0
        self.retries = 0

    def allow(self) -> bool:
        return self.retries < self.ratio * max(self.requests, 10)
