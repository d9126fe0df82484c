"""The fuzz targets' shared Hypothesis settings and tally.

``FUZZ_EXAMPLES`` cases per target (``make fuzz`` sets 10,000; 200 by default), no
deadline, no example database. :func:`timed_cases` (or :func:`record`, for a target
that times itself) counts each target's cases, uncaught exceptions and cases over
:data:`SLOW_SECONDS` of wall-clock and of CPU time (:func:`cpu_seconds`), and the same
per stage: a target names its stages as it goes (:func:`stage`; a check API answer
gives its own, ``ingest.budget.Clock``), so a case over 2 s says where the time went
(work, or waiting for a CPU on a shared machine: wall-clock far over CPU). Printed at
the end of the run by ``tests/fuzz/conftest.py``.
"""

from __future__ import annotations

import functools
import gc
import os
import resource
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import HealthCheck, event, settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: A case (or one of its stages) over this many seconds is counted as slow (issue 21:
#: none may be).
SLOW_SECONDS = 2.0
#: The stage of a target that names none: the whole case.
WHOLE = "case"
#: target name -> Counter of "cases", "uncaught", "slow" (wall-clock), "slow_cpu",
#: "max_ms" (the slowest case, wall-clock) and "max_cpu_ms".
STATS: dict[str, Counter[str]] = {}
#: target name -> stage -> Counter of "cases" (reaching it), "slow", "slow_cpu",
#: "max_ms", "max_cpu_ms", "worst" (the cases over 2 s whose longest stage it was), and
#: "wall_ms"/"cpu_ms" summed over the cases (their ratio: how much the machine's load
#: stretched the stage). The pseudo-stage :data:`GC` is the garbage collector's pauses
#: within the other stages (this process only).
STAGES: dict[str, dict[str, Counter[str]]] = {}
#: The pseudo-stage of the garbage collector's pauses.
GC = "(of which garbage collection, this process)"
_gc = {"total": 0.0, "start": 0.0}


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _gc["start"] = time.monotonic()
    else:
        _gc["total"] += time.monotonic() - _gc["start"]


gc.callbacks.append(_gc_timer)


def cpu_seconds() -> float:
    """CPU seconds of this process and its waited-for children (a budget's child): a
    case's own work, which other jobs on a shared machine do not stretch."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class Stages:
    """One case's stages: ``walls``/``cpus`` stage -> seconds, in the order reached."""

    def __init__(self) -> None:
        self.walls: dict[str, float] = {}
        self.cpus: dict[str, float] = {}
        self._name, self._at, self._cpu = "", time.monotonic(), cpu_seconds()
        self.gc_at = _gc["total"]

    def __call__(self, name: str) -> None:
        """End the current stage and start ``name`` ("" ends it only)."""
        now, cpu = time.monotonic(), cpu_seconds()
        if self._name:
            self.add(self._name, now - self._at, cpu - self._cpu)
        self._name, self._at, self._cpu = name, now, cpu

    def add(self, name: str, wall: float, cpu: float) -> None:
        self.walls[name] = self.walls.get(name, 0.0) + wall
        self.cpus[name] = self.cpus.get(name, 0.0) + cpu

    def merge(self, timings: Mapping[str, Mapping[str, float]], prefix: str = "") -> None:
        """Add stages timed elsewhere (a check answer's ``stages``: {"wall", "cpu"})."""
        for name, t in timings.items():
            self.add(prefix + name, float(t["wall"]), float(t["cpu"]))


_current: Stages | None = None


def stage(name: str) -> None:
    """Start stage ``name`` of the case running under :func:`timed_cases`."""
    if _current is not None:
        _current(name)


def record(target: str, wall: float, cpu: float, stages: Stages, uncaught: bool = False) -> None:
    """Count one case of ``target``: ``wall``/``cpu`` seconds in all, its ``stages``
    (none timed: the whole case is one stage, :data:`WHOLE`)."""
    stats = STATS.setdefault(target, Counter())
    stats["cases"] += 1
    stats["uncaught"] += uncaught
    stats["max_ms"] = max(stats["max_ms"], int(wall * 1000))
    stats["max_cpu_ms"] = max(stats["max_cpu_ms"], int(cpu * 1000))
    slow = wall > SLOW_SECONDS
    stats["slow"] += slow
    stats["slow_cpu"] += cpu > SLOW_SECONDS
    if slow:
        event(f"case over {SLOW_SECONDS:g} s")
    walls, cpus = (stages.walls, stages.cpus) if stages.walls else ({WHOLE: wall}, {WHOLE: cpu})
    per = STAGES.setdefault(target, {})
    for name, w in walls.items():
        c = per.setdefault(name, Counter())
        c["cases"] += 1
        c["slow"] += w > SLOW_SECONDS
        c["slow_cpu"] += cpus[name] > SLOW_SECONDS
        c["max_ms"] = max(c["max_ms"], int(w * 1000))
        c["max_cpu_ms"] = max(c["max_cpu_ms"], int(cpus[name] * 1000))
        c["wall_ms"] += int(w * 1000)
        c["cpu_ms"] += int(cpus[name] * 1000)
    if slow:
        per[max(walls, key=lambda k: walls[k])]["worst"] += 1
    paused = _gc["total"] - stages.gc_at
    g = per.setdefault(GC, Counter())
    g["cases"] += paused > 0
    g["slow"] += paused > SLOW_SECONDS
    g["max_ms"] = max(g["max_ms"], int(paused * 1000))
    g["wall_ms"] += int(paused * 1000)


def timed_cases(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a target's body (under ``@given``): count its cases, the exceptions it lets
    escape, and the cases and stages (:func:`stage`) over :data:`SLOW_SECONDS`."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        global _current
        stages = _current = Stages()
        started, cpu = time.monotonic(), cpu_seconds()
        uncaught = False
        try:
            return fn(*args, **kwargs)
        except BaseException:
            uncaught = True
            raise
        finally:
            stages("")
            _current = None
            wall, cpu = time.monotonic() - started, cpu_seconds() - cpu
            record(fn.__name__, wall, cpu, stages, uncaught)

    return run
