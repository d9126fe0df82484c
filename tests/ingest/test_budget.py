"""ingest.budget: pure work in a forked child under a wall-clock budget (issue 21):
its answer and its errors come back; work that outruns the budget is killed at it,
however it spends the time (a Python loop, a regular expression backtracking in C)."""

from __future__ import annotations

import os
import re
import time

import pytest

from ingest.budget import ANSWERING, STARTING, BudgetExceeded, Clock, Stage, run_within
from ingest.parsers.types import ParseError


def test_the_answer_comes_back() -> None:
    assert run_within(5, lambda stage: sorted({3, 1, 2})) == [1, 2, 3]


def test_the_work_runs_in_another_process() -> None:
    assert run_within(5, lambda stage: os.getpid()) != os.getpid()


def test_an_error_is_raised_again_with_its_fields() -> None:
    def work(stage: Stage) -> None:
        raise ParseError("odd", path="page.txt", field="claims")

    with pytest.raises(ParseError) as err:
        run_within(5, work)
    assert (err.value.reason, err.value.field) == ("odd", "claims")


def test_a_loop_is_killed_at_the_budget_and_the_stage_reached_is_named() -> None:
    def work(stage: Stage) -> None:
        stage("reading")
        stage("looping")
        while True:
            pass

    t0 = time.perf_counter()
    with pytest.raises(BudgetExceeded) as err:
        run_within(0.5, work)
    assert 0.5 <= time.perf_counter() - t0 < 1.5
    assert err.value.stage == "looping" and err.value.seconds == 0.5


def test_a_backtracking_regex_is_killed_though_it_never_returns_to_python() -> None:
    t0 = time.perf_counter()
    with pytest.raises(BudgetExceeded):
        run_within(0.5, lambda stage: re.match(r"(a+)+$", "a" * 64 + "b"))
    assert time.perf_counter() - t0 < 1.5


def test_no_child_is_left_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    pids: list[int] = []
    fork = os.fork

    def recording_fork() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording_fork)
    with pytest.raises(BudgetExceeded):
        run_within(0.1, lambda stage: time.sleep(10))
    assert run_within(1, lambda stage: 1) == 1
    for pid in pids:  # killed (the first) or finished, and reaped: no such child now
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_clock_times_the_child_stages_wall_clock_and_cpu_apart() -> None:
    """A stage that sleeps spends wall-clock time and no CPU; one that computes spends
    both: the clock tells waiting from work, the child's start and answer included."""
    clock = Clock(10)
    clock.stage("before the child")

    def work(stage: Stage) -> int:
        stage("sleeping")
        time.sleep(0.3)
        stage("computing")
        _burn(0.3)
        return 7

    assert run_within(clock, work) == 7
    clock.stop()
    assert list(clock.walls) == [
        "before the child",
        STARTING,
        "sleeping",
        "computing",
        ANSWERING,
    ]
    assert clock.walls["sleeping"] >= 0.3 and clock.cpus["sleeping"] < 0.1
    assert clock.walls["computing"] >= 0.3 and clock.cpus["computing"] >= 0.29
    assert sum(clock.walls.values()) <= time.monotonic() - clock.started
    assert clock.timings()["sleeping"]["wall"] == round(clock.walls["sleeping"], 3)


def test_the_child_gets_what_is_left_of_the_clock() -> None:
    """A clock of 1 s with 0.6 s spent before the fork: the child is cut at the 1 s,
    not 1 s after its start, and the stage cut is named."""
    clock = Clock(1.0)
    clock.stage("reading before")
    time.sleep(0.6)

    def work(stage: Stage) -> None:
        stage("looping")
        while True:
            pass

    with pytest.raises(BudgetExceeded) as err:
        run_within(clock, work)
    assert err.value.stage == "looping"
    assert 1.0 <= time.monotonic() - clock.started < 1.6


def test_a_clock_already_spent_starts_no_child(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("a child was started")

    monkeypatch.setattr(os, "fork", no_fork)
    clock = Clock(0.05)
    clock.stage("waiting")
    time.sleep(0.1)
    with pytest.raises(BudgetExceeded) as err:
        run_within(clock, lambda stage: 1)
    assert err.value.stage == "waiting"
