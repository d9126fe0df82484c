"""The fuzz targets' shared Hypothesis settings: ``FUZZ_EXAMPLES`` cases per target
(``make fuzz`` sets 10,000; 200 by default), no deadline, no example database; and
:func:`timed_cases`, which counts each target's cases, uncaught exceptions and cases
over :data:`SLOW_SECONDS` (printed at the end of the run by ``tests/fuzz/conftest.py``)."""

from __future__ import annotations

import functools
import os
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: A case over this many seconds is counted as slow (issue 21: none may be).
SLOW_SECONDS = 2.0
#: target name -> Counter of "cases", "uncaught", "slow"; "max_s" the slowest case (ms).
STATS: dict[str, Counter[str]] = {}


def timed_cases(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a target's body (under ``@given``): count its cases, the exceptions it lets
    escape and the cases over :data:`SLOW_SECONDS`."""
    stats = STATS.setdefault(fn.__name__, Counter())

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        stats["cases"] += 1
        try:
            return fn(*args, **kwargs)
        except BaseException:
            stats["uncaught"] += 1
            raise
        finally:
            took = time.monotonic() - started
            stats["max_ms"] = max(stats["max_ms"], int(took * 1000))
            if took > SLOW_SECONDS:
                stats["slow"] += 1
                event(f"case over {SLOW_SECONDS:g} s")

    return run
