"""MLPerf Inference v6.1 endpoints (LoadGen++) results: the checker's rules for them. Pure.

A folder without LoadGen logs is read by the v6.1 checker (mlcommons/inference
``tools/submission/submission_checker/`` at 2af078ba) through
``parsers/endpoints_parser.py`` (here: ``ingest/inference/parsers/endpoints.py``, which gives
LoadGen keys) and judged with ``is_endpoints_submission`` set:
``PerformanceCheck`` skips the sample-count, min-query and early-stopping checks and
the QSL seed, checks the p99 latency against ``latency-constraint`` (LLMs: TTFT/TPOT
only) and ``endpoints_model_check`` (``ENDPOINTS_ALLOWED_MODELS``); the value is
``RESULT_FIELD_ENDPOINTS``; ``AccuracyCheck`` only needs a score (no target is
compared), the sample count and the extra files; ``ComplianceCheck`` reads
``audit/audit_<test>.json`` (``ENDPOINTS_COMPLIANCE_MAPPING``) and, for TEST09, the mean
output length (``TEST09_LOW``..``TEST09_HIGH``); ``MeasurementsCheck`` skips user.conf.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchdb.mlperf.inference.evidence import Finding, LogLike, ResultLike, finding_at, number
from benchdb.mlperf.inference.rounds_v6 import (
    LLM_MODELS_V6,
    SEEDS_V6,
    SERVER_LATENCY,
    RoundKey,
    accuracy_sample_count,
    compliance_tests_v6,
)

#: ``ENDPOINTS_ALLOWED_MODELS``.
ALLOWED_MODELS = frozenset(
    {"wan-2.2-t2v-a14b", "qwen3-vl-235b-a22b", "qwen3.6-27b", "llama3.1-8b"}
    | {"llama3.1-8b-edge", "gpt-oss-120b", "deepseek-r1"}
)
#: ``RESULT_FIELD_ENDPOINTS["v6.1"]`` (by the lower-cased scenario).
RESULT_FIELD = {
    "offline": "result_samples_per_second",
    "singlestream": "result_mean_latency_ns",
    "multistream": "result_mean_latency_ns",
    "server": "result_completed_samples_per_sec",
    "interactive": "result_completed_samples_per_sec",
}
#: ``ENDPOINTS_COMPLIANCE_MAPPING``: test -> the audit's name.
AUDITS = {
    "TEST01": "accuracy_in_performance_test",
    "TEST04": "output_caching_test",
    "TEST06": "consistency_output_test",
    "TEST07": "accuracy_in_performance_full_test",
    "TEST08": "accuracy_in_performance_dlrmv3_test",
}
TEST09_LOW, TEST09_HIGH = 1150.38, 1406.02


def log_scenario(log: LogLike, folder_scenario: str) -> str:
    """``map_endpoints_scenario()``: a SingleStream folder's run is SingleStream; the
    config's ``online`` is Server; otherwise the config's ``type`` as written."""
    if folder_scenario.lower() == "singlestream":
        return "SingleStream"
    scen = str(log.values.get("effective_scenario", ""))
    return "Server" if scen.lower() == "online" else scen


def run_findings(
    rt: RoundKey, benchmark: str, log_scen: str, log: LogLike, system: Mapping[str, Any]
) -> list[Finding]:
    """``PerformanceCheck`` of an endpoints run: seeds (sample index and schedule),
    p99 latency within ``latency-constraint`` (not for LLMs), min duration, the LLM
    TTFT/TPOT bounds (``inference_rules_v6``'s, called by the caller), allowed model."""
    out = []
    keys = ("effective_sample_index_rng_seed", "effective_schedule_rng_seed")
    for key, want in zip(keys, SEEDS_V6[rt][1:], strict=True):
        if log.values.get(key) != want:
            msg = f"{key} is {log.values.get(key)}, expected {want}"
            out.append(finding_at(log, key, "seeds", msg, True))
    target = SERVER_LATENCY[rt].get(benchmark) if log_scen == "Server" else None
    p99 = number(log, "result_99.00_percentile_latency_ns")
    if benchmark not in LLM_MODELS_V6[rt] and target and p99 is not None and p99 > target:
        msg = f"latency constraint not met: p99 {p99:g} ns > {target}"
        out.append(finding_at(log, "result_99.00_percentile_latency_ns", "latency", msg, True))
    duration = number(log, "effective_min_duration_ms")
    if duration is None or duration < 600_000:
        msg = f"min_duration_ms {duration} < 600000"
        out.append(finding_at(log, "effective_min_duration_ms", "min_duration", msg, True))
    if benchmark not in ALLOWED_MODELS:
        msg = f"endpoints submission uses disallowed model {benchmark!r}"
        out.append(Finding("endpoints_model", log.path, None, msg, True))
    return out


def value_key(log_scen: str) -> str:
    """``RESULT_FIELD_ENDPOINTS[version][scenario.lower()]``."""
    return RESULT_FIELD.get(log_scen.lower(), "")


def accuracy_findings(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike
) -> tuple[dict[str, float], list[Finding]]:
    """``AccuracyCheck`` of an endpoints folder: a score in ``accuracy_results.json``
    (reported, not compared with a target), no failed sample, the round's sample
    count."""
    log = result.accuracy_detail
    path = f"{result.folder.path}/accuracy/accuracy_results.json"
    if log is None or log.values.get("accuracy_score") is None:
        return {}, [Finding("accuracy_missing", path, None, "accuracy score not found", True)]
    score = number(log, "accuracy_score")
    msg = f"score {score} reported; the v6.1 checker compares no target for endpoints results"
    out = [Finding("accuracy_not_compared", path, None, msg, False)]
    if number(log, "num_errors"):
        out.append(Finding("loadgen_error", path, None, "failed samples in accuracy run", True))
    got, need = (
        log.values.get("effective_accuracy_sample_count"),
        accuracy_sample_count(rt, benchmark, scenario),
    )
    if got != need:
        msg = f"accuracy run does not cover all dataset: {got} samples, expected {need}"
        out.append(Finding("accuracy_samples", path, None, msg, True))
    return ({"score": score} if score is not None else {}), out


def compliance_findings(rt: RoundKey, benchmark: str, result: ResultLike) -> list[Finding]:
    """``compliance_endpoints_check``: each test's ``audit/audit_<name>.json`` names its
    test and passed (a missing one fails only for TEST04 of an allowed model,
    ``endpoint_audit_file_required``); TEST09: mean output tokens in
    [``TEST09_LOW``, ``TEST09_HIGH``]."""
    audits = {name: (test, passed) for name, test, passed in result.endpoint_audits}
    where = f"{result.folder.path}/audit"
    out = []
    for test in compliance_tests_v6(rt, benchmark):
        name = AUDITS.get(test)
        if name is not None:
            got = audits.get(f"audit_{name}.json")
            if got is None and test == "TEST04" and benchmark in ALLOWED_MODELS:
                msg = f"{test}: audit_{name}.json missing"
                out.append(Finding("compliance_missing", where, None, msg, True))
            elif got is not None and got != (name, True):
                msg = f"{test}: audit_{name}.json does not pass ({got})"
                out.append(Finding("compliance_accuracy", where, None, msg, True))
        run = result.runs[0].detail if result.runs else None
        tokens = number(run, "mean_output_tokens") if run is not None else None
        if test == "TEST09" and (tokens is None or not TEST09_LOW <= tokens <= TEST09_HIGH):
            msg = f"TEST09: mean output tokens {tokens} outside [{TEST09_LOW}, {TEST09_HIGH}]"
            out.append(Finding("compliance_accuracy", where, None, msg, True))
    return out
