"""MLPerf Automotive: a performance run's value and validity. Pure: no Django.

``check_performance_dir()`` of mlcommons/mlperf_automotive
``tools/submission/submission_checker.py`` at ``rules.CHECKER_COMMIT``, on the detail
log of ``performance/run_1`` (LoadGen 5.0.15, the MLPerf Inference LoadGen; its keys are
written by ``loadgen/results.cc`` ``PerformanceSummary::LogDetail()``). The value is
``RESULT_FIELD_NEW[version][effective_scenario]``: SingleStream
``early_stopping_latency_ss`` (the early-stopping 99.9th percentile estimate),
ConstantStream ``result_99.90_percentile_latency_ns`` (the measured 99.9th percentile,
not the estimate), each ns / 10^6 -> ms.
"""

from __future__ import annotations

from benchdb.mlperf.automotive.rules import INFERENCE_PEER, MS_TO_NS, AutomotiveRound
from benchdb.mlperf.inference.evidence import Finding, LogLike, error_findings, finding_at, number
from benchdb.mlperf.inference.value import Value

#: What ``check_performance_dir()`` reads with ``mlperf_log[...]``: a key absent makes
#: a comparison with None raise, which the caller turns into "caused exception".
_REQUIRED_KEYS = (
    "effective_performance_sample_count",
    "effective_scenario",
    "effective_target_latency_percentile",
    "effective_min_duration_ms",
)


def run_value(rnd: AutomotiveRound, log: LogLike) -> Value:
    """The run's value in the unit of its log's scenario (``check_performance_dir()``:
    ``res = float(mlperf_log[RESULT_FIELD_NEW[version][scenario]])``, divided by
    ``MS_TO_NS`` for SingleStream, MultiStream and ConstantStream). ``value`` is None
    when the scenario or its key is absent or not a finite number."""
    scenario = str(log.values.get("effective_scenario", ""))
    key = rnd.result_field.get(scenario, "")
    raw = number(log, key) if key else None
    if raw is not None and scenario in rnd.ns_to_ms:
        raw /= MS_TO_NS
    return Value(raw, key, rnd.units.get(scenario, ""), False, log.path)


def _setting_findings(rnd: AutomotiveRound, model: str, log: LogLike) -> list[Finding]:
    """Performance sample count, seeds, constant generation (ConstantStream), grouped QSL
    (bevformer), target-latency percentile 0.999 and the 600 s minimum duration."""
    out = []
    psc, need = number(log, "effective_performance_sample_count"), rnd.performance_sample_count
    if psc is not None and model in need and psc < need[model]:
        msg = f"performance_sample_count, found {psc:.0f}, needs to be >= {need[model]}"
        out.append(finding_at(log, "effective_performance_sample_count", "psc", msg, True))
    for seed, want in rnd.seeds.items():
        found = log.values.get(f"effective_{seed}")
        if found != want:
            msg = f"{seed} is wrong, expected={want}, found={found}"
            out.append(finding_at(log, f"effective_{seed}", "seed", msg, True))
    scenario = log.values.get("effective_scenario")
    if scenario == "ConstantStream" and not log.values.get("effective_server_constant_gen"):
        msg = "constant_gen is set to false, expected=True"
        out.append(finding_at(log, "effective_server_constant_gen", "constant_gen", msg, True))
    if model in rnd.grouped_qsl_models and not log.values.get("effective_use_grouped_qsl"):
        msg = "grouped_qsl is required but not used"
        out.append(finding_at(log, "effective_use_grouped_qsl", "grouped_qsl", msg, True))
    pct = log.values.get("effective_target_latency_percentile")
    if pct != rnd.target_latency_percentile:
        msg = f"target_latency_percentile must be {rnd.target_latency_percentile}, found={pct}"
        out.append(finding_at(log, "effective_target_latency_percentile", "percentile", msg, True))
    duration = number(log, "effective_min_duration_ms")
    if duration is not None and duration < rnd.min_duration_ms:
        msg = f"Test duration less than {rnd.min_duration_ms} ms, found={duration:.0f}"
        out.append(finding_at(log, "effective_min_duration_ms", "min_duration", msg, True))
    return out


def run_findings(rnd: AutomotiveRound, model: str, log: LogLike) -> list[Finding]:
    """Every rule of ``check_performance_dir()`` the run fails, in its order.

    Invalidating: ``result_validity`` not VALID; a line that is not JSON (``MLPerfLog``
    raises: "caused exception"); a key it reads absent; a LoadGen ERROR
    (``find_error_in_detail_log()``, nothing ignored); the settings of
    :func:`_setting_findings`; the value's key absent (``float(None)`` raises).
    Logged only: early stopping not met (no ``is_valid = False`` follows it). Never
    checked: the min query count (only for scenarios without early stopping: none),
    equal-issue mode (``requires_equal_issue`` lists no model). The network-mode check it
    repeats is ``checks.network_findings`` (same outcome as ``check_system_desc_id()``'s).
    """
    out = [Finding("log_unreadable", p.path, p.line, p.message, True) for p in log.problems]
    if log.values.get("result_validity") != "VALID":
        found = log.values.get("result_validity", "absent (log cut short?)")
        out.append(
            finding_at(
                log, "result_validity", "result_validity", f"result_validity is {found}", True
            )
        )
    for key in _REQUIRED_KEYS:
        if key not in log.values:
            out.append(finding_at(log, key, "key_missing", f"no {key}: the checker raises", True))
    out += error_findings(INFERENCE_PEER, log)
    out += _setting_findings(rnd, model, log)
    if log.values.get("effective_scenario") in rnd.early_stopping_scenarios and not log.values.get(
        "early_stopping_met"
    ):
        msg = f"Early stopping condition was not met, msg={log.values.get('early_stopping_result')}"
        out.append(finding_at(log, "early_stopping_met", "early_stopping", msg, False))
    if run_value(rnd, log).value is None:
        key = rnd.result_field.get(str(log.values.get("effective_scenario")), "the value")
        out.append(finding_at(log, key, "value_missing", f"no {key}: the checker raises", True))
    return out
