"""MLPerf Inference: the value of a result, round by round. Pure: no Django.

What ``get_performance_metric()``/``check_performance_dir()`` and ``get_inferred_result()``
of the round-era checker (mlcommons/inference ``tools/submission/submission_checker.py``)
report, read from LoadGen's logs (``loadgen/results.cc`` ``PerformanceSummary::LogDetail()``
writes every ``result_*`` key); see ``../shared/mlperf-inference/INFERENCE_SCORING.md`` §2, §4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchdb.mlperf.inference.evidence import Finding, RunLike, number
from benchdb.mlperf.inference.rounds import RoundKey
from benchdb.vocabulary import INFERENCE_LLM_BENCHMARKS, inference_scenario_for

MS_TO_NS = 1_000_000


@dataclass(frozen=True)
class Value:
    """A result's value: ``metric`` is the log key (or ``summary: <label>``), ``unit`` as
    the checker prints it, ``inferred`` when taken from another scenario's log."""

    value: float | None
    metric: str
    unit: str
    inferred: bool = False
    source: str = ""  # path of the log it was read from


# --- the value ---------------------------------------------------------------------

_SUMMARY_FIELD = {
    "Offline": "Samples per second",
    "Server": "Scheduled samples per second",
    "SingleStream": "90th percentile latency (ns)",
    "MultiStream": "Samples per query",
}
_SUMMARY_LABEL = {
    "result_samples_per_second": "Samples per second",
    "result_scheduled_samples_per_sec": "Scheduled samples per second",
    "result_completed_samples_per_sec": "Completed samples per second",
    "result_tokens_per_second": "Tokens per second",
    "result_completed_tokens_per_second": "Completed tokens per second",
    "result_90.00_percentile_latency_ns": "90th percentile latency (ns)",
}
_LATENCY = ("SingleStream", "MultiStream")


def result_field(rt: RoundKey, benchmark: str, scenario: str) -> str:
    """The detail-log key of the value for a log of ``scenario`` (v1.0+).

    ``RESULT_FIELD_NEW`` (Offline ``result_samples_per_second``; Server scheduled before
    v4.1, completed from v4.1; SingleStream p90 before v2.0 then
    ``early_stopping_latency_ss``; MultiStream ``effective_samples_per_query`` before v2.0
    then ``early_stopping_latency_ms``) and ``RESULT_FIELD_BENCHMARK_OVERWRITE`` (v4.0+
    LLM tokens/s; v4.1 GPT-J inferred tokens; v5.1 whisper, llama3.1-8b-edge p90) of
    ``get_performance_metric()``/``check_performance_dir()``.
    """
    llm = benchmark in INFERENCE_LLM_BENCHMARKS
    if rt >= (4, 1) and llm and scenario in ("Offline", "Server"):
        if benchmark.startswith("gptj"):
            return (
                "result_inferred_tokens_per_second"
                if scenario == "Offline"
                else "result_inferred_completed_tokens_per_second"
            )
        if rt >= (5, 0) or benchmark.startswith(("llama2", "mixtral")):
            return (
                "result_tokens_per_second"
                if scenario == "Offline"
                else "result_completed_tokens_per_second"
            )
    if rt >= (4, 0) and benchmark.startswith("llama2") and scenario == "Offline":
        return "result_tokens_per_second"
    if rt >= (5, 1) and benchmark == "whisper" and scenario == "Offline":
        return "result_tokens_per_second"
    if rt >= (5, 1) and benchmark == "llama3.1-8b-edge" and scenario == "SingleStream":
        return "result_90.00_percentile_latency_ns"
    if scenario == "Offline":
        return "result_samples_per_second"
    if scenario == "Server":
        return (
            "result_completed_samples_per_sec"
            if rt >= (4, 0) and benchmark.startswith("llama2") or rt >= (4, 1)
            else "result_scheduled_samples_per_sec"
        )
    if scenario == "SingleStream":
        return "early_stopping_latency_ss" if rt >= (2, 0) else "result_90.00_percentile_latency_ns"
    return "early_stopping_latency_ms" if rt >= (2, 0) else "effective_samples_per_query"


def unit_for(rt: RoundKey, benchmark: str, scenario: str) -> str:
    """``log_result()`` ``unit_dict`` (+ ``special_unit_dict``: Tokens/s for LLM throughput,
    from c7db1c3f, the v4.1 checker at publication); legacy MultiStream ``Streams``."""
    if scenario in _LATENCY:
        return "Streams" if scenario == "MultiStream" and rt < (2, 0) else "Latency (ms)"
    # v5.1 ``special_unit_dict`` lists no Interactive for llama3.1-8b: Queries/s is printed.
    quirk = rt >= (5, 0) and benchmark == "llama3.1-8b" and scenario == "Interactive"
    if rt >= (4, 1) and benchmark in INFERENCE_LLM_BENCHMARKS and not quirk:
        return "Tokens/s"
    return "Samples/s" if scenario == "Offline" else "Queries/s"


def log_scenario(run: RunLike) -> str | None:
    """The scenario the run's log was made in: ``effective_scenario`` of the detail log
    (v1.0+), else ``Scenario`` of the summary (v0.5 ``Single Stream``)."""
    if run.detail is not None and run.detail.log_format == "mllog":
        return inference_scenario_for(str(run.detail.values.get("effective_scenario", "")))
    if run.summary is not None:
        return inference_scenario_for(run.summary.values.get("Scenario", ""))
    return None


def performance_value(rt: RoundKey, benchmark: str, scenario: str, run: RunLike) -> Value:
    """The value of one run for the result's folder ``scenario``.

    v0.5/v0.7 read the summary (``RESULT_FIELD``; SingleStream ns -> ms as
    ``submission-to-csv.py``/the v0.7 checker print it). v1.0+ read the detail log
    (:func:`result_field`; SingleStream/MultiStream latencies ns -> ms) and infer, as
    ``get_inferred_result()``: Offline from a SingleStream log =
    ``result_qps_without_loadgen_overhead``; Offline from MultiStream = samples per query x
    1000 / mean query latency (ms); MultiStream from SingleStream (v2.0+) = 8 x
    ``early_stopping_latency_ms`` / 1e6. Without a detail log, falls back to the summary
    (value only). Value None if neither has it.
    """
    unit = unit_for(rt, benchmark, scenario)
    log_scen = log_scenario(run) or scenario
    if rt < (1, 0) or run.detail is None or run.detail.log_format != "mllog":
        return _summary_value(rt, benchmark, scenario, log_scen, run, unit)
    log = run.detail
    if scenario == "Offline" and log_scen == "SingleStream":
        key = "result_qps_without_loadgen_overhead"
        return Value(number(log, key), key, unit, True, log.path)
    if scenario == "Offline" and log_scen == "MultiStream":
        spq, mean = (
            number(log, "effective_samples_per_query"),
            number(log, "result_mean_query_latency_ns"),
        )
        v = spq * 1000 / (mean / MS_TO_NS) if spq and mean else None
        return Value(v, "inferred from MultiStream", unit, True, log.path)
    if scenario == "MultiStream" and log_scen == "SingleStream" and rt >= (2, 0):
        es = number(log, "early_stopping_latency_ms")
        v = None if es is None else 8 * es / MS_TO_NS
        return Value(v, "8 x early_stopping_latency_ms / 1e6", unit, True, log.path)
    key = result_field(rt, benchmark, log_scen)
    v = number(log, key)
    scaled = log_scen == "SingleStream" or (log_scen == "MultiStream" and rt >= (2, 0))
    if v is not None and scaled:
        return Value(v / MS_TO_NS, f"{key} / 1e6", unit, False, log.path)
    return Value(v, key, unit, False, log.path)


def _summary_value(
    rt: RoundKey, benchmark: str, scenario: str, log_scen: str, run: RunLike, unit: str
) -> Value:
    """The value from the summary: ``RESULT_FIELD`` labels of the v0.5/v0.7 checkers
    (``check_performance_dir()``), or the summary twin of the detail key (a v1.0+ run
    whose detail log is absent here)."""
    if run.summary is None:
        return Value(None, "", unit)
    label = _SUMMARY_FIELD.get(log_scen, "") if rt < (1, 0) else ""
    if (0, 7) <= rt < (1, 0) and scenario == "Offline" and log_scen == "SingleStream":
        # v0.7 submission-checker.py (75018167), main loop: "special case for Offline
        # results infered from SingleStream": r = rt.get("QPS w/o loadgen overhead")
        label = "QPS w/o loadgen overhead"
    if not label:
        label = _SUMMARY_LABEL.get(result_field(rt, benchmark, log_scen), "")
    raw = run.summary.values.get(label)
    try:
        v = float(raw) if raw is not None else None
    except ValueError:
        v = None
    if v is not None and not math.isfinite(v):
        v = None  # "1e400" and "nan" parse as floats; no result is infinite
    if v is not None and "latency (ns)" in label:
        v /= MS_TO_NS
    return Value(v, f"summary: {label}", unit, scenario != log_scen, run.summary.path)


def summary_findings(rt: RoundKey, benchmark: str, run: RunLike) -> list[Finding]:
    """Where the summary log disagrees with the detail log it was written with (v1.0+):
    the ``Result is`` verdict, and the value (more than 1e-4 relative and 0.006 absolute
    apart: the summary prints 2 decimals, the detail log 6 significant digits).
    benchdb's own check: the checker reads only the detail log, so these findings do not
    invalidate."""
    log, summ = run.detail, run.summary
    if rt < (1, 0) or log is None or summ is None or log.log_format != "mllog":
        return []
    out = []
    valid = log.values.get("result_validity") == "VALID"
    if summ.result_valid is not None and summ.result_valid != valid:
        line = summ.lines.get("Result is")
        msg = f"summary says {'VALID' if summ.result_valid else 'INVALID'}, detail log does not"
        out.append(Finding("summary_detail_disagree", summ.path, line, msg, False))
    scen = log_scenario(run) or ""
    key = result_field(rt, benchmark, scen) if scen else ""
    label = _SUMMARY_LABEL.get(key, "")
    detail_v, raw = number(log, key), summ.values.get(label)
    try:
        summ_v = float(raw) if raw is not None else None
    except ValueError:
        summ_v = None
    if (
        detail_v is not None
        and summ_v is not None
        and abs(summ_v - detail_v) > max(1e-4 * abs(detail_v), 0.006)
    ):
        msg = f"summary {label} {raw} != detail {key} {detail_v:g}"
        out.append(Finding("summary_detail_disagree", summ.path, summ.lines.get(label), msg, False))
    return out


# --- what a value may be ---------------------------------------------------------------

#: benchdb's bounds on a result's value, per unit (the rules are silent: LoadGen and the
#: checker accept any number a log holds). Throughput: at most 10^9 per second (the
#: largest of rounds v0.7-v5.1 is 5.8 million queries/s); latency: at least LoadGen's
#: 1 ns resolution (1e-6 ms) and at most one day (the largest is 28 s); legacy
#: MultiStream streams: at least 1 (a query holds whole samples), at most 10^6.
VALUE_BOUNDS: dict[str, tuple[float, float]] = {
    "Samples/s": (0.0, 1e9),
    "Queries/s": (0.0, 1e9),
    "Tokens/s": (0.0, 1e9),
    "Latency (ms)": (1e-6, 86_400_000.0),
    "Streams": (1.0, 1e6),
}


def value_error(value: float, unit: str) -> str | None:
    """Why ``value`` (in ``unit``, as :func:`unit_for` gives it) cannot be a measured
    result: not finite, not above 0, or outside :data:`VALUE_BOUNDS` (benchdb's
    sanity bounds); None when it can."""
    if not math.isfinite(value) or value <= 0:
        return f"{value!r} {unit} is not a finite number > 0 (benchdb sanity bound)"
    lo, hi = VALUE_BOUNDS.get(unit, (0.0, 1e9))
    if not lo <= value <= hi:
        return f"{value:g} {unit} is outside [{lo:g}, {hi:g}] (benchdb sanity bound)"
    return None


def value_findings(rt: RoundKey, scenario: str, run: RunLike, value: Value) -> list[Finding]:
    """A value the detail log does not give (``get_performance_metric()`` reads its key);
    ``get_inferred_result()``: an inferred MultiStream needs an early-stopping estimate;
    an Interactive folder needs a Server log (v5.1); a value no measurement can give
    (:func:`value_error`, benchdb's): each an invalidating finding."""
    path = run.detail.path if run.detail is not None else run.path
    out = []
    if value.value is None and run.detail is not None:
        # get_performance_metric() reads the key: a log without it gives no result.
        out.append(
            Finding("value_missing", path, None, f"no {value.metric or 'value'} logged", True)
        )
    if value.inferred and scenario == "MultiStream" and rt >= (2, 0) and not value.value:
        out.append(
            Finding("inferred", path, None, "no early-stopping estimate to infer MultiStream", True)
        )
    if scenario == "Interactive" and log_scenario(run) not in (None, "Server"):
        out.append(Finding("inferred", path, None, "Interactive result without a Server log", True))
    why = None if value.value is None else value_error(value.value, value.unit)
    if why is not None:
        where = value.source or path
        key = value.metric.split(" ")[0]
        line = run.detail.lines.get(key) if run.detail is not None else None
        out.append(Finding("value_impossible", where, line, f"{value.metric}: {why}", True))
    return out
