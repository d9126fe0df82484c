"""MLPerf Inference v6.x rules (the checker package, ``inference_rules_v6``) on the real
v6.0 and v6.1 subsets of tests/data/inference-v6 (origin: its README.md), and each rule
on that subset changed one value at a time. Pure: no database."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from benchdb.mlperf.inference.performance_v6 import run_findings_v6
from benchdb.mlperf.inference.rounds_v6 import (
    ACCURACY_SAMPLES,
    COMPLIANCE_MODELS,
    LLM_LIMITS_V6,
    LLM_MODELS_V6,
    PSC,
    SEEDS_V6,
    SERVER_LATENCY,
    TARGETS,
    compliance_tests_v6,
    unit_v6,
)
from benchdb.mlperf.inference.rules import INVALID, UNVERIFIABLE, VALID, evaluate
from benchdb.mlperf.inference.rules_v6 import scenario_set_findings
from ingest.inference.parsers.tree import Tree, find_results, load_result
from ingest.inference.parsers.types import LoadedInferenceResult, LoadgenLog, TextFile

DATA = Path(__file__).resolve().parents[3] / "data" / "inference-v6"
SUBSET = DATA / "inference_results_v6.0"
SYSTEM = "closed/NVIDIA/results/B300-SXM-270GBx8_TRT"

#: What mlcommons/inference's checker at 6d0cf9dc printed for the subset
#: (``python3 -m submission_checker.main --input <that folder> --version v6.0``:
#: "Results <path> <value>" lines and the CSV's unit), and what NVIDIA's own
#: run of the v6.0 checker (104d485a, closed/NVIDIA/results/submission_checker_log.txt
#: of the round, on the whole submission) printed: the same values, but for
#: deepseek-r1 Server, rejected on the subset alone (its Offline folder is not here)
#: and 42721.4 there, and wan SingleStream, 23778912625.0 there (ns: the seconds
#: conversion came in 9d8d4991, 2026-02-19).
OFFICIAL = [
    ("gpt-oss-120b/Offline", VALID, 103961.0, "Tokens/s"),
    ("gpt-oss-120b/Server", VALID, 100328.0, "Tokens/s"),
    ("wan-2.2-t2v-a14b/Offline", VALID, 0.0585234, "Samples/s"),
    ("wan-2.2-t2v-a14b/SingleStream", VALID, 23.778912625, "Latency (s)"),
    ("deepseek-r1/Server", INVALID, 42721.4, "Tokens/s"),
]


@cache
def loaded() -> dict[str, LoadedInferenceResult]:
    tree = Tree(SUBSET)
    return {f.path: load_result(tree, f) for f in find_results(tree)}


def result(where: str) -> LoadedInferenceResult:
    return loaded()[f"{SYSTEM}/{where}"]


def with_values(r: LoadedInferenceResult, **values: object) -> LoadedInferenceResult:
    """The result with its run_1 detail log's values changed."""
    run = r.runs[0]
    assert run.detail is not None
    detail = replace(run.detail, values={**run.detail.values, **values})
    return replace(r, runs=(replace(run, detail=detail),))


def rules(verdict_findings: object) -> set[str]:
    return {f.rule for f in verdict_findings if f.invalidates}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("where", "status", "value", "unit"), OFFICIAL)
def test_it_equals_the_official_checker_on_the_subset(
    where: str, status: str, value: float, unit: str
) -> None:
    """Every result's value, unit and verdict as the round's checker gives them."""
    v = evaluate(result(where), "v6.0")
    assert (v.status, v.value.value, v.value.unit) == (status, value, unit)


def test_it_equals_nvidias_own_checker_log() -> None:
    """The values of NVIDIA's ``submission_checker_log.txt`` (v6.0 checker, 104d485a)
    for the throughput results here ("Results <path> <value>" lines)."""
    log = (SUBSET / "closed/NVIDIA/results/submission_checker_log.txt").read_text()
    printed = dict(re.findall(r"INFO\] Results build/submission/(\S+) ([\d.]+)", log))
    assert len(printed) == 63
    for where, _, _, unit in OFFICIAL:
        if unit == "Latency (s)":
            continue  # printed in ns at 104d485a (see OFFICIAL)
        want = float(printed[f"{SYSTEM}/{where}/performance/run_1/mlperf_log_detail.txt"])
        assert evaluate(result(where), "v6.0").value.value == want


def test_a_model_folder_without_its_required_scenario_is_rejected() -> None:
    """deepseek-r1 requires Offline in a datacenter system: from v6.0 the Server result
    beside it fails (``scenarios_check``), where v5.1 kept it published."""
    v = evaluate(result("deepseek-r1/Server"), "v6.0")
    assert [f.rule for f in v.findings if f.invalidates] == ["required_scenarios"]
    assert "offline" in v.findings[0].message


def test_the_wan_latency_is_in_seconds_and_gpt_oss_in_tokens() -> None:
    """wan-2.2 SingleStream: ``early_stopping_latency_ss`` ns -> s; gpt-oss-120b Server:
    completed tokens per second (``RESULT_FIELD_BENCHMARK_OVERWRITE``)."""
    wan = evaluate(result("wan-2.2-t2v-a14b/SingleStream"), "v6.0").value
    assert wan.metric == "early_stopping_latency_ss / 1e9"
    gpt = evaluate(result("gpt-oss-120b/Server"), "v6.0").value
    assert gpt.metric == "result_completed_tokens_per_second"


def test_accuracy_and_compliance_are_read_from_the_scenario_folder() -> None:
    """gpt-oss-120b: exact_match from accuracy.txt; TEST07 and TEST09 in the folder."""
    r = result("gpt-oss-120b/Server")
    assert sorted(t.name for t in r.compliance or ()) == ["TEST07", "TEST09"]
    v = evaluate(r, "v6.0")
    assert v.accuracy == {"exact_match": 83.582}
    assert v.compliance_valid is True


@pytest.mark.parametrize(
    ("where", "change", "rule"),
    [
        ("gpt-oss-120b/Server", {"effective_min_duration_ms": 599_999}, "min_duration"),
        ("gpt-oss-120b/Server", {"effective_schedule_rng_seed": 1}, "seeds"),
        ("gpt-oss-120b/Server", {"early_stopping_met": False}, "early_stopping"),
        (
            "gpt-oss-120b/Server",
            {"effective_target_latency_ns": 60_000_000_001},
            "latency_constraint",
        ),
        (
            "gpt-oss-120b/Offline",
            {"effective_performance_sample_count": 6395},
            "performance_sample_count",
        ),
        (
            "gpt-oss-120b/Offline",
            {"effective_samples_per_query": 6395},
            "offline_samples_per_query",
        ),
        ("wan-2.2-t2v-a14b/SingleStream", {"early_stopping_met": False}, "early_stopping"),
    ],
)
def test_each_performance_rule_fails_the_result(where: str, change: dict, rule: str) -> None:
    """One value past its bound: the result is invalid for that rule alone."""
    v = evaluate(with_values(result(where), **change), "v6.0")
    assert v.status == INVALID
    assert rules(v.findings) == {rule}


def test_result_validity_and_loadgen_errors_do_not_fail_a_v6_result() -> None:
    """The v6 checker reads neither ``result_validity`` nor (without
    --ignore-uncommitted, which it does not offer) the ERRORs of a performance log."""
    r = with_values(result("gpt-oss-120b/Offline"), result_validity="INVALID")
    run = r.runs[0]
    assert run.detail is not None
    detail = replace(run.detail, errors=((3, "a LoadGen error"),))
    v = evaluate(replace(r, runs=(replace(run, detail=detail),)), "v6.0")
    assert v.status == VALID
    assert {f.rule for f in v.findings} == {"result_validity", "loadgen_error"}


def test_gpt_oss_token_latencies_bind_from_v61_only() -> None:
    """v6.0 (6d0cf9dc) lists gpt-oss-120b's TTFT/TPOT limits but not the model among
    ``get_llm_models()``; v6.1 (2af078ba) does: TPOT 80 ms in Server."""
    log = result("gpt-oss-120b/Server").runs[0].detail
    assert log is not None
    slow = replace(
        log, values={**log.values, "result_time_per_output_token_99.00_percentile_ns": 8e7}
    )
    system = result("gpt-oss-120b/Server").system_json
    assert "ttft_tpot" not in rules(
        run_findings_v6((6, 0), "gpt-oss-120b", "Server", "closed", slow, system)
    )
    assert "ttft_tpot" in rules(
        run_findings_v6((6, 1), "gpt-oss-120b", "Server", "closed", slow, system)
    )


def test_an_interactive_folder_is_judged_by_the_server_bounds_of_its_log() -> None:
    """An Interactive result's LoadGen log says Server: the checker applies Server's
    TTFT/TPOT (deepseek-r1: 2 s / 80 ms, not Interactive's 1.5 s / 15 ms)."""
    log = result("deepseek-r1/Server").runs[0].detail
    assert log is not None
    system = result("deepseek-r1/Server").system_json
    tpot = log.values["result_time_per_output_token_99.00_percentile_ns"]
    assert 15_000_000 < tpot < 80_000_000
    assert not rules(run_findings_v6((6, 0), "deepseek-r1", "Interactive", "closed", log, system))


def test_the_accuracy_run_must_cover_the_rounds_sample_count() -> None:
    """gpt-oss-120b's accuracy run reports 4395 samples (``accuracy-sample-count``)."""
    r = result("gpt-oss-120b/Offline")
    assert r.accuracy_detail is not None
    assert r.accuracy_detail.values["qsl_reported_total_count"] == 4395
    short = replace(r.accuracy_detail, values={"qsl_reported_total_count": 4394})
    v = evaluate(replace(r, accuracy_detail=short), "v6.0")
    assert rules(v.findings) == {"accuracy_samples"}


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"measurements_json": None}, "measurements"),
        ({"src_exists": False}, "measurements"),
        ({"folder_files": ("user.conf",)}, "measurements"),
        ({"compliance": ()}, "compliance_missing"),
    ],
)
def test_measurements_and_compliance_files_are_required(change: dict, rule: str) -> None:
    """``MeasurementsCheck`` and ``ComplianceCheck.dir_exists_check``."""
    v = evaluate(replace(result("gpt-oss-120b/Server"), **change), "v6.0")
    assert rules(v.findings) == {rule}


def test_test09_without_test_pass_fails_the_result() -> None:
    """TEST09 (gpt-oss-120b output length): ``TEST PASS`` in verify_output_len.txt."""
    r = result("gpt-oss-120b/Server")
    tests = []
    for t in r.compliance or ():
        if t.name == "TEST09":
            assert t.verify_output_len is not None
            assert any("TEST PASS" in ln for ln in t.verify_output_len.lines)
            failed = TextFile(t.verify_output_len.path, ("TEST FAIL",))
            t = replace(t, verify_output_len=failed)
        tests.append(t)
    v = evaluate(replace(r, compliance=tuple(tests)), "v6.0")
    assert rules(v.findings) == {"compliance_accuracy"}


def test_test04_runs_are_checked_as_performance_runs() -> None:
    """wan-2.2 TEST04: its run passes ``PerformanceCheck``; a short one fails it."""
    r = result("wan-2.2-t2v-a14b/Offline")
    (t,) = r.compliance or ()
    assert t.name == "TEST04" and t.performance is not None and t.performance.detail is not None
    log = t.performance.detail
    short = replace(log, values={**log.values, "effective_min_duration_ms": 1})
    t = replace(t, performance=replace(t.performance, detail=short))
    v = evaluate(replace(r, compliance=(t,)), "v6.0")
    assert rules(v.findings) == {"compliance_performance"}


def test_missing_extra_accuracy_files_make_a_result_unverifiable() -> None:
    """v6.1's wan-2.2 videos (``REQUIRED_ACC_BENCHMARK``) absent from a published tree:
    unverifiable, naming the folder (here on a v6.0 result judged as v6.1, whose seeds
    then also differ)."""
    v = evaluate(result("wan-2.2-t2v-a14b/Offline"), "v6.1")
    assert v.status == UNVERIFIABLE
    assert v.missing == (f"{SYSTEM}/wan-2.2-t2v-a14b/Offline/accuracy/videos/",)
    assert "seeds" in rules(v.findings)


@pytest.mark.parametrize(
    ("present", "found"),
    [
        (["Offline", "Server"], []),
        (["Offline", "Interactive"], []),
        (["Offline"], ["required_scenarios"]),
        (["Server"], ["required_scenarios"]),
        (["Offline", "Server", "SingleStream"], ["scenario_not_allowed"]),
        (["offline", "server"], []),
    ],
)
def test_scenario_sets_of_a_model_folder(present: list[str], found: list[str]) -> None:
    """deepseek-r1 (datacenter): Offline required, one of Server/Interactive."""
    got = scenario_set_findings((6, 0), "m", "deepseek-r1", "datacenter", present)
    assert [f.rule for f in got] == found


def test_the_tables_hold_the_checkers_values() -> None:
    """Values read in the checkers' constants.py (6d0cf9dc, 2af078ba)."""
    assert TARGETS[(6, 0)][0]["gpt-oss-120b"] == (("exact_match", 83.13 * 0.99),)
    assert TARGETS[(6, 1)][0]["qwen3-vl-235b-a22b"] == (("F1_HIERARCHICAL", 0.7903 * 0.99),)
    assert TARGETS[(6, 0)][0]["wan-2.2-t2v-a14b"] == (("vbench_score", 70.48 * 0.99),)
    assert "mixtral-8x7b" in TARGETS[(6, 0)][0] and "mixtral-8x7b" not in TARGETS[(6, 1)][0]
    assert PSC[(6, 0)]["wan-2.2-t2v-a14b"] == 50 and PSC[(6, 1)]["qwen3.6-27b"] == 995
    assert ACCURACY_SAMPLES[(6, 1)]["qwen3-vl-235b-a22b"] == {
        "Offline": 48289,
        "Interactive": 8000,
        "Server": 48289,
    }
    assert SEEDS_V6[(6, 1)] == (2085463073848966840, 2747215439041700203, 16159082839903944936)
    assert SERVER_LATENCY[(6, 1)]["qwen3-vl-235b-a22b"] == 60_000_000_000
    assert LLM_LIMITS_V6["gpt-oss-120b"]["Interactive"] == (2_000_000_000, 15_000_000)
    assert "qwen3-vl-235b-a22b" not in LLM_MODELS_V6[(6, 1)]
    assert COMPLIANCE_MODELS[(6, 1)]["TEST08"] == frozenset({"dlrm-v3"})
    assert compliance_tests_v6((6, 0), "gpt-oss-120b") == ("TEST07", "TEST09")
    assert compliance_tests_v6((6, 0), "pointpainting") == ("TEST01", "TEST04")
    assert compliance_tests_v6((6, 1), "qwen3-vl-235b-a22b") == ()
    assert unit_v6("whisper", "Offline") == "Samples/s"
    assert unit_v6("deepseek-r1", "Interactive") == "Tokens/s"


def test_a_log_that_is_not_loadgen_is_reported() -> None:
    """A scenario folder without a LoadGen detail log (an endpoints submission of
    v6.1 keeps its own files) is invalid, naming the log the checker needs."""
    r = result("wan-2.2-t2v-a14b/Offline")
    run = replace(r.runs[0], detail=LoadgenLog(path="x", size=0, log_format="text"))
    v = evaluate(replace(r, runs=(run,)), "v6.0")
    assert "performance_missing" in rules(v.findings)


def test_v61_endpoints_results_equal_nvidias_v61_checker_log() -> None:
    """The v6.1 endpoints (LoadGen++) folders of wan-2.2 (config.yaml,
    result_summary.json, accuracy_results.json, audit json): the values NVIDIA's v6.1
    ``submission_checker_log.txt`` printed (2af078ba): "Results ... Offline ...
    0.062188662827408765" and "... SingleStream ... 17.97718330692361"; unverifiable
    here, naming measurements.json (not in the copy) and accuracy/videos/."""
    from ingest.inference.parsers.tree import read_omitted_manifest

    manifest = read_omitted_manifest((DATA / "manifests/v6.1.omitted.tsv").read_bytes())
    tree = Tree(DATA / "inference_results_v6.1", manifest)
    wan = [f for f in find_results(tree) if f.model == "wan-2.2-t2v-a14b"]
    got = {f.scenario: evaluate(load_result(tree, f), "v6.1") for f in wan}
    assert got["Offline"].value.value == 0.062188662827408765
    assert got["SingleStream"].value.value == 17.97718330692361
    assert got["SingleStream"].value.unit == "Latency (s)"
    for v in got.values():
        assert v.status == UNVERIFIABLE and not rules(v.findings)
        assert v.accuracy_valid is None  # no target compared for endpoints results
        assert [f.rule for f in v.findings] == ["accuracy_not_compared"]
        assert any(m.endswith("/accuracy/videos/") for m in v.missing)
        assert any(m.endswith("/measurements.json") for m in v.missing)


def test_a_text_is_network_of_false_still_asks_for_the_network_fields() -> None:
    """v6 ``SystemCheck.required_fields_check``: ``if is_network:`` is true for the text
    "false", so the network-mode fields become required (v5.1's check read "true")."""
    r = result("gpt-oss-120b/Offline")
    v = evaluate(replace(r, system_json={**r.system_json, "is_network": "false"}), "v6.0")
    assert rules(v.findings) == {"system_field_missing"}
    assert any("nic_loadgen" in f.message for f in v.findings)
