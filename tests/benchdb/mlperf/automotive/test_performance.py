"""A performance run's value and the rules of ``check_performance_dir()``, on the real
logs of the subset and on copies with one setting changed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from benchdb.mlperf.automotive.performance import run_findings, run_value
from benchdb.mlperf.automotive.rules import V0_5
from ingest.inference.parsers.types import LoadgenLog
from tests.automotive_data import FOLDERS, NV, published, read_folders

READ = read_folders()


def _log(path: str) -> LoadgenLog:
    detail = READ[path].result.runs[0].detail
    assert detail is not None
    return detail


@pytest.mark.parametrize("path", FOLDERS)
def test_the_value_is_the_published_one(path: str) -> None:
    value = run_value(V0_5, _log(path))
    assert value.value == published()[path]["Performance_Result"]
    assert value.unit == "Latency (ms)"
    assert value.source == f"{path}/performance/run_1/mlperf_log_detail.txt"


@pytest.mark.parametrize("path", FOLDERS)
def test_the_published_runs_fail_no_rule(path: str) -> None:
    model = path.split("/")[-2]
    assert run_findings(V0_5, model, _log(path)) == []


CS = f"{NV}/ConstantStream"
SS = f"{NV}/SingleStream"


@pytest.mark.parametrize(
    ("path", "key", "value", "rule"),
    [
        (CS, "result_validity", "INVALID", "result_validity"),
        (CS, "effective_performance_sample_count", 128, "psc"),
        (SS, "effective_qsl_rng_seed", 1, "seed"),
        (SS, "effective_schedule_rng_seed", "3495234579", "seed"),
        (CS, "effective_server_constant_gen", False, "constant_gen"),
        (SS, "effective_use_grouped_qsl", False, "grouped_qsl"),
        (SS, "effective_target_latency_percentile", 0.99, "percentile"),
        (CS, "effective_min_duration_ms", 60000, "min_duration"),
        (CS, "result_99.90_percentile_latency_ns", "5319681", "value_missing"),
    ],
)
def test_a_changed_setting_invalidates_at_its_line(
    path: str, key: str, value: Any, rule: str
) -> None:
    log = _log(path)
    changed = replace(log, values={**log.values, key: value})
    found = run_findings(V0_5, "bevformer", changed)
    assert [(f.rule, f.line, f.invalidates) for f in found] == [(rule, log.lines[key], True)]


def test_a_key_the_checker_reads_absent_invalidates() -> None:
    log = _log(SS)
    values = {k: v for k, v in log.values.items() if k != "effective_min_duration_ms"}
    found = run_findings(V0_5, "bevformer", replace(log, values=values))
    assert [f.rule for f in found] == ["key_missing"]


def test_early_stopping_not_met_is_logged_only() -> None:
    log = _log(SS)
    changed = replace(log, values={**log.values, "early_stopping_met": False})
    found = run_findings(V0_5, "bevformer", changed)
    assert [(f.rule, f.invalidates) for f in found] == [("early_stopping", False)]


def test_a_loadgen_error_invalidates() -> None:
    log = _log(SS)
    found = run_findings(V0_5, "bevformer", replace(log, errors=((7, "boom"),)))
    assert [(f.rule, f.line) for f in found] == [("loadgen_error", 7)]


def test_deeplab_and_ssd_need_no_grouped_qsl() -> None:
    path = FOLDERS[2]
    log = _log(path)
    assert log.values["effective_use_grouped_qsl"] is False
    assert run_findings(V0_5, "deeplabv3plus", log) == []
