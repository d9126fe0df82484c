"""ingest.budget: pure work in a forked child under a wall-clock budget (issue 21):
its answer and its errors come back; work that outruns the budget is killed at it,
however it spends the time (a Python loop, a regular expression backtracking in C)."""

from __future__ import annotations

import os
import re
import time

import pytest

from ingest.budget import BudgetExceeded, Stage, run_within
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
