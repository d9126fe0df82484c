"""Prints, after a fuzz run, each target's cases, uncaught exceptions (failing cases,
shrinking included) and cases over 2 s of wall-clock and of CPU time, then the same
for each of its stages, with the number of slow cases whose longest stage it was and
the stage's wall-clock over CPU seconds (near 1: work; far over: waiting for a CPU, a
child or the database) (``tests/fuzz/budget.py``)."""

from __future__ import annotations

import os
from typing import Any

from tests.fuzz.budget import SLOW_SECONDS, STAGES, STATS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    ran = {name: c for name, c in STATS.items() if c["cases"]}
    if not ran:
        return
    w = terminalreporter
    over = f">{SLOW_SECONDS:g}s"
    w.section(f"fuzz cases (load average {os.getloadavg()[0]:.1f})")
    w.write_line(
        f"{'target / stage':<72} {'cases':>7} {'uncaught':>8} {over:>6} {over + ' CPU':>9}"
        f" {'max ms':>7} {'max CPU':>7} {'longest':>7} {'wall/CPU':>8}"
    )
    for name, c in sorted(ran.items()):
        w.write_line(
            f"{name:<72} {c['cases']:>7} {c['uncaught']:>8} {c['slow']:>6} {c['slow_cpu']:>9}"
            f" {c['max_ms']:>7} {c['max_cpu_ms']:>7}"
        )
        for stage, s in STAGES.get(name, {}).items():
            stretch = f"{s['wall_ms'] / s['cpu_ms']:.1f}" if s["cpu_ms"] else "-"
            w.write_line(
                f"  {stage[:70]:<70} {s['cases']:>7} {'':>8} {s['slow']:>6} {s['slow_cpu']:>9}"
                f" {s['max_ms']:>7} {s['max_cpu_ms']:>7} {s['worst']:>7} {stretch:>8}"
            )
