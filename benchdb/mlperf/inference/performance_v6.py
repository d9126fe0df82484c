"""MLPerf Inference v6.x: ``PerformanceCheck`` of the checker package, and the value. Pure.

The performance run of a result as mlcommons/inference
``tools/submission/submission_checker/checks/performance_check.py`` ``PerformanceCheck``
judges it (at :data:`~benchdb.mlperf.inference.rounds_v6.CHECKER`: v6.0 6d0cf9dc, v6.1
2af078ba): sample count, seeds, early stopping and latency, query counts, duration,
network mode, LLM token latencies, inference across scenarios; an endpoints run (v6.1)
through ``rules_endpoints``; and ``get_performance_metric_check``'s value. Split from
``rules_v6`` (which runs every check class of ``main.py`` on a result).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchdb.mlperf.inference import rules_endpoints as endpoints
from benchdb.mlperf.inference.evidence import (
    Finding,
    LogLike,
    ResultLike,
    RunLike,
    error_findings,
    finding_at,
    number,
)
from benchdb.mlperf.inference.rounds_v6 import (
    LLM_LIMITS_V6,
    LLM_MODELS_V6,
    OFFLINE_MIN_QUERIES_61,
    OFFLINE_MIN_SPQ,
    PSC,
    RESULT_OVERWRITE_V6,
    SEEDS_V6,
    SERVER_LATENCY,
    RoundKey,
    unit_v6,
)
from benchdb.mlperf.inference.value import Value, log_scenario, performance_value

_ES = ("Server", "SingleStream", "MultiStream")
_FIELD = {
    "Offline": "result_samples_per_second",
    "SingleStream": "early_stopping_latency_ss",
    "MultiStream": "early_stopping_latency_ms",
    "Server": "result_completed_samples_per_sec",
    "Interactive": "result_completed_samples_per_sec",  # v6.1's RESULT_FIELD_NEW
}
_INFERABLE = {("singlestream", "multistream"), ("multistream", "offline")}
_INFERABLE |= {("singlestream", "offline")}


def run_findings_v6(
    rt: RoundKey,
    benchmark: str,
    scenario: str,
    division: str,
    log: LogLike,
    system: Mapping[str, Any],
) -> list[Finding]:
    """The rules of ``PerformanceCheck`` on one detail log (``scenario`` is the result's
    folder scenario): performance sample count, seeds, early stopping and latency,
    min query count and Offline samples per query, min duration, network mode, the LLM
    token latencies, inference across scenarios; plus, without invalidating,
    ``result_validity`` and LoadGen ERRORs (which this checker does not fail)."""
    log_scen = str(log.values.get("effective_scenario", ""))
    out = _sample_findings(rt, benchmark, log)
    out += _latency_findings(rt, benchmark, division, log_scen, log)
    out += _network_findings(division, log, system)
    out += _llm_findings(rt, benchmark, log_scen, log)
    pair = (log_scen.lower(), scenario.lower())
    if pair[0] != pair[1] and pair != ("server", "interactive"):
        if "edge" not in str(system.get("system_type", "")).lower():
            msg = f"result can not be inferred for a non-edge system ({log_scen} -> {scenario})"
            out.append(Finding("inferred", log.path, None, msg, True))
        elif pair not in _INFERABLE:
            msg = f"{scenario} can not be inferred from {log_scen}"
            out.append(Finding("inferred", log.path, None, msg, True))
    if log.values.get("result_validity") != "VALID":
        found = log.values.get("result_validity", "absent")
        msg = f"result_validity is {found} (not read by the v6 checker)"
        out.append(finding_at(log, "result_validity", "result_validity", msg, False))
    out += [Finding(f.rule, f.path, f.line, f.message, False) for f in error_findings(rt, log)]
    out += [Finding("log_unreadable", p.path, p.line, p.message, True) for p in log.problems]
    return out


def _sample_findings(rt: RoundKey, benchmark: str, log: LogLike) -> list[Finding]:
    """``performance_sample_count_check`` and ``seeds_check``."""
    out = []
    need, psc = PSC[rt].get(benchmark), number(log, "effective_performance_sample_count")
    if need is None or psc is None or psc < need:
        msg = f"performance_sample_count {psc}, needs to be >= {need}"
        key = "effective_performance_sample_count"
        out.append(finding_at(log, key, "performance_sample_count", msg, True))
    keys = (
        "effective_qsl_rng_seed",
        "effective_sample_index_rng_seed",
        "effective_schedule_rng_seed",
    )
    for key, want in zip(keys, SEEDS_V6[rt], strict=True):
        if log.values.get(key) != want:
            msg = f"{key} is {log.values.get(key)}, expected {want}"
            out.append(finding_at(log, key, "seeds", msg, True))
    return out


def _latency_findings(
    rt: RoundKey, benchmark: str, division: str, log_scen: str, log: LogLike
) -> list[Finding]:
    """``latency_check`` (early stopping met in Server/SingleStream/MultiStream; Server
    ``effective_target_latency_ns`` within ``latency-constraint``), ``min_query_count_check``
    (Offline: ``min-queries``; closed Offline samples per query >=
    ``OFFLINE_MIN_SPQ_SINCE_V4``) and ``min_duration_check`` (600 s)."""
    out = []
    if log_scen in _ES and not log.values.get("early_stopping_met"):
        msg = f"early stopping condition was not met ({log.values.get('early_stopping_result')})"
        out.append(finding_at(log, "early_stopping_met", "early_stopping", msg, True))
    target = SERVER_LATENCY[rt].get(benchmark) if log_scen == "Server" else None
    latency = number(log, "effective_target_latency_ns")
    if target is not None and latency is not None and latency > target:
        msg = f"latency constraint with early stopping not met: {latency:g} > {target}"
        out.append(finding_at(log, "effective_target_latency_ns", "latency_constraint", msg, True))
    if log_scen == "Offline":
        need = OFFLINE_MIN_QUERIES_61.get(benchmark, 1) if rt >= (6, 1) else 1
        got = number(log, "effective_min_query_count")
        if got is not None and got < need:
            msg = f"effective_min_query_count {got:g} < {need}"
            out.append(finding_at(log, "effective_min_query_count", "min_query_count", msg, True))
        spq, min_spq = number(log, "effective_samples_per_query"), OFFLINE_MIN_SPQ.get(benchmark)
        if division == "closed" and spq is not None and min_spq and spq < min_spq:
            msg = f"effective_samples_per_query {spq:g} < {min_spq}"
            key = "effective_samples_per_query"
            out.append(finding_at(log, key, "offline_samples_per_query", msg, True))
    duration = number(log, "effective_min_duration_ms")
    if duration is None or duration < 600_000:
        msg = f"effective_min_duration_ms {duration} < 600000"
        out.append(finding_at(log, "effective_min_duration_ms", "min_duration", msg, True))
    return out


def _network_findings(division: str, log: LogLike, system: Mapping[str, Any]) -> list[Finding]:
    """``network_check``: ``is_network`` true in the network division, false in closed;
    a network SUT's ``sut_name`` contains ``Network SUT``."""
    raw = system.get("is_network")
    is_net = str(raw).lower() == "true" if raw is not None else False
    expected = {"network": True, "closed": False}.get(division)
    if expected is not None and expected is not is_net:
        msg = f"incorrect network mode (is_network={raw}) for the {division} division"
        return [Finding("network_mode", log.path, None, msg, True)]
    if is_net and "Network SUT" not in str(log.values.get("sut_name", "")):
        return [
            finding_at(log, "sut_name", "network_sut_name", "sut_name lacks 'Network SUT'", True)
        ]
    return []


def _llm_findings(
    rt: RoundKey, benchmark: str, log_scen: str, log: LogLike, endpoints_log: bool = False
) -> list[Finding]:
    """``llm_check``: for ``get_llm_models()`` token latencies requested, and in the
    log's Server/Interactive scenario p99 TTFT and TPOT strictly below
    ``LLM_LATENCY_LIMITS`` (endpoints logs always carry token latencies)."""
    if benchmark not in LLM_MODELS_V6[rt]:
        return []
    if not endpoints_log and not log.values.get("requested_use_token_latencies"):
        msg = "use_token_latencies flag needs to be enabled for LLM benchmark"
        key = "requested_use_token_latencies"
        return [finding_at(log, key, "use_token_latencies", msg, True)]
    if log_scen not in ("Server", "Interactive"):
        return []
    bound = LLM_LIMITS_V6.get(benchmark, {}).get(log_scen)
    ttft = number(log, "result_first_token_99.00_percentile_latency_ns")
    tpot = number(log, "result_time_per_output_token_99.00_percentile_ns")
    if bound and ttft is not None and tpot is not None and ttft < bound[0] and tpot < bound[1]:
        return []
    msg = f"TTFT p99 {ttft} ns / TPOT p99 {tpot} ns not below {bound} ({log_scen})"
    key = "result_first_token_99.00_percentile_latency_ns"
    return [finding_at(log, key, "ttft_tpot", msg, True)]


def value_v6(rt: RoundKey, benchmark: str, scenario: str, run: RunLike) -> Value:
    """``get_performance_metric_check``: ``RESULT_FIELD_NEW`` of the log's scenario or
    ``RESULT_FIELD_BENCHMARK_OVERWRITE``; SingleStream/MultiStream ns -> ms, and for
    wan-2.2-t2v-a14b ms -> s (``res /= S_TO_MS``); values inferred across scenarios as
    ``get_inferred_result()`` (as in v5.x, ``inference_value.performance_value``).
    Unit: ``SPECIAL_UNIT_DICT``/``UNIT_DICT`` of the folder scenario."""
    unit = unit_v6(benchmark, scenario)
    log = run.detail
    if log is not None and log.log_format == "endpoints":
        key = endpoints.value_key(endpoints.log_scenario(log, scenario))
        return _scaled(benchmark, endpoints.log_scenario(log, scenario), key, log, unit)
    log_scen = log_scenario(run) or scenario
    inferred = log_scen != scenario and (log_scen, scenario) != ("Server", "Interactive")
    if log is None or log.log_format != "mllog" or inferred:
        found = performance_value(rt, benchmark, scenario, run)
        return Value(found.value, found.metric, unit, found.inferred, found.source)
    key = RESULT_OVERWRITE_V6.get(benchmark, {}).get(log_scen) or _FIELD.get(log_scen, "")
    return _scaled(benchmark, log_scen, key, log, unit)


def _scaled(benchmark: str, log_scen: str, key: str, log: LogLike, unit: str) -> Value:
    """The log's ``key``: SingleStream/MultiStream ns -> ms, wan-2.2 ms -> s."""
    v = number(log, key)
    if v is None or log_scen not in ("SingleStream", "MultiStream"):
        return Value(v, key, unit, False, log.path)
    if benchmark == "wan-2.2-t2v-a14b":  # as the checker divides: ns -> ms -> s
        return Value(v / 1e6 / 1e3, f"{key} / 1e9", unit, False, log.path)
    return Value(v / 1e6, f"{key} / 1e6", unit, False, log.path)


def performance_findings(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike, log: LogLike
) -> list[Finding]:
    """The findings of a result's performance run ``log``: :func:`run_findings_v6`, or
    for an endpoints run (``is_endpoints_submission``) ``rules_endpoints.run_findings``
    with the network, LLM (token latencies always there) and inference checks."""
    division, system = result.folder.division, result.system_json
    if log.log_format != "endpoints":
        return run_findings_v6(rt, benchmark, scenario, division, log, system)
    log_scen = endpoints.log_scenario(log, scenario)
    out = endpoints.run_findings(rt, benchmark, log_scen, log, system)
    out += _network_findings(division, log, system)
    out += _llm_findings(rt, benchmark, log_scen, log, endpoints_log=True)
    pair = (log_scen.lower(), scenario.lower())
    if pair[0] != pair[1] and pair != ("server", "interactive") and pair not in _INFERABLE:
        msg = f"{scenario} can not be inferred from {log_scen}"
        out.append(Finding("inferred", log.path, None, msg, True))
    return out
