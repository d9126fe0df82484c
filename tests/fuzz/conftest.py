"""Prints, after a fuzz run, each target's cases, uncaught exceptions (failing cases,
shrinking included) and cases over 2 s (``tests/fuzz/budget.py``)."""

from __future__ import annotations

from typing import Any

from tests.fuzz.budget import SLOW_SECONDS, STATS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    ran = {name: c for name, c in STATS.items() if c["cases"]}
    if not ran:
        return
    w = terminalreporter
    w.section("fuzz cases")
    w.write_line(
        f"{'target':<78} {'cases':>7} {'uncaught':>8} {'>' + f'{SLOW_SECONDS:g}s':>5} max ms"
    )
    for name, c in sorted(ran.items()):
        w.write_line(
            f"{name:<78} {c['cases']:>7} {c['uncaught']:>8} {c['slow']:>5} {c['max_ms']:>6}"
        )
