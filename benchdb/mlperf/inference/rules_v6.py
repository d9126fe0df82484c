"""MLPerf Inference v6.x: a result judged as the round's checker package judges it. Pure.

From v6.0 the checker is mlcommons/inference ``tools/submission/submission_checker/``
(at :data:`~benchdb.mlperf.inference.rounds_v6.CHECKER`: v6.0 6d0cf9dc, v6.1
2af078ba). ``main.py`` runs six check classes on every result and keeps it only if all
pass: ``checks/performance_check.py`` ``PerformanceCheck``, ``accuracy_check.py``
``AccuracyCheck``, ``system_check.py`` ``SystemCheck``, ``measurements_checks.py``
``MeasurementsCheck``, ``power_check.py`` ``PowerCheck``, ``compliance_check.py``
``ComplianceCheck``. What changed from v5.1 and is followed here:

* a model folder lacking a required scenario, or holding an unknown one, invalidates
  every result in it (``Loader.check_scenarios()`` -> ``scenarios_check``);
* ``result_validity`` is not read, and detail-log ERRORs of a performance run do not
  fail it (``loadgen_errors_check`` only fails with ``--ignore-uncommitted``, which
  ``main.py`` does not offer); both are reported here without invalidating;
* early stopping must be met in Server, SingleStream and MultiStream; the TTFT/TPOT
  bounds are those of the log's scenario (an Interactive result runs as Server);
* the accuracy run must cover the round's sample count (``dataset_check``);
* ``measurements.json``, ``user.conf``, ``README.md`` in the scenario folder and the
  submitter's ``src/`` folder (``MeasurementsCheck``);
* compliance tests sit in the scenario folder: TEST01, TEST04, TEST06, TEST07
  (gpt-oss-120b accuracy), TEST08 (dlrm-v3), TEST09 (gpt-oss-120b output length).

Endpoints submissions (LoadGen++ logs, v6.1) are not read here: such a folder has no
LoadGen detail log and is reported as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchdb.mlperf.inference import rules_endpoints as endpoints
from benchdb.mlperf.inference.checks import (
    MAX_ACCURACY_LOG_SIZE,
    TEST01_FILES,
    TEST01_MORE,
    accuracy_findings,
    finite_power,
    power_files_findings,
    power_unit,
    power_value,
    test01_delta_ok,
)
from benchdb.mlperf.inference.evidence import (
    ComplianceLike,
    Finding,
    LogLike,
    ResultLike,
    RunLike,
    TextLike,
    error_findings,
    finding_at,
    number,
)
from benchdb.mlperf.inference.rounds import required_system_fields
from benchdb.mlperf.inference.rounds_v6 import (
    EXTRA_ACCURACY_FILES,
    LLM_LIMITS_V6,
    LLM_MODELS_V6,
    MEASUREMENT_FIELDS,
    MEASUREMENT_FILES,
    OFFLINE_MIN_QUERIES_61,
    OFFLINE_MIN_SPQ,
    PSC,
    RESULT_OVERWRITE_V6,
    SEEDS_V6,
    SERVER_LATENCY,
    RoundKey,
    accuracy_sample_count,
    compliance_tests_v6,
    unit_v6,
)
from benchdb.mlperf.inference.submission import model_findings, suite_scenarios, system_findings
from benchdb.mlperf.inference.value import Value, log_scenario, performance_value
from benchdb.vocabulary import inference_scenario_for

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


def scenario_set_findings(
    rt: RoundKey, path: str, benchmark: str, system_type: str, present: Sequence[str]
) -> list[Finding]:
    """``Loader.check_scenarios()`` of a closed/network model folder, failing
    ``scenarios_check`` of every result in it: a required scenario missing, a folder
    that is neither required nor optional, or neither Server nor Interactive when both
    are optional (names compared lower-cased)."""
    tables = suite_scenarios(rt, system_type)
    if tables is None or benchmark not in tables[0]:
        return []
    required = {s.lower() for s in tables[0][benchmark]}
    optional = {s.lower() for s in tables[1].get(benchmark, frozenset())}
    have = {s.lower() for s in present}
    out = []
    missing = sorted(required - have)
    if {"interactive", "server"} <= optional and not {"interactive", "server"} & have:
        missing.append("(one of) Interactive or Server")
    if missing:
        msg = f"does not have all required scenarios, missing {missing}"
        out.append(Finding("required_scenarios", path, None, msg, True))
    unknown = sorted(have - required - optional)
    if unknown:
        msg = f"has unknown scenarios for this benchmark {unknown}"
        out.append(Finding("scenario_not_allowed", path, None, msg, True))
    return out


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


def accuracy_findings_v6(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike
) -> tuple[dict[str, float], list[Finding], list[str]]:
    """``AccuracyCheck``: ``accuracy_result_check`` (targets, upper limits, hash; not
    enforced in the open division), ``accuracy_json_check`` (present, at most 10 KiB),
    ``loadgen_errors_check`` of the accuracy log, ``dataset_check`` (the log's
    ``effective_accuracy_sample_count``, else ``qsl_reported_total_count``, equals the
    round's count) and ``extra_files_check`` (``REQUIRED_ACC_BENCHMARK``; absent from a
    published tree: unverifiable, named)."""
    acc = f"{result.folder.path}/accuracy"
    open_div = result.folder.division == "open"
    values: dict[str, float] = {}
    out: list[Finding] = []
    if result.accuracy is None:
        out.append(Finding("accuracy_missing", f"{acc}/accuracy.txt", None, "missing", True))
    else:
        values, found = accuracy_findings(rt, benchmark, result.accuracy)
        out += [Finding(f.rule, f.path, f.line, f.message, not open_div) for f in found]
    log_path = f"{acc}/mlperf_log_accuracy.json"
    if result.accuracy_log is None:
        out.append(Finding("accuracy_log", log_path, None, "missing", True))
    elif result.accuracy_log.size > MAX_ACCURACY_LOG_SIZE:
        out.append(Finding("accuracy_log", log_path, None, "not truncated (> 10 KiB)", True))
    out += _accuracy_log_findings(rt, benchmark, scenario, result, f"{acc}/mlperf_log_detail.txt")
    return values, out, _extra_files_missing(rt, benchmark, result, acc)


def _accuracy_log_findings(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike, path: str
) -> list[Finding]:
    log = result.accuracy_detail
    if log is None:
        return [Finding("accuracy_detail_missing", path, None, "accuracy detail log missing", True)]
    out = error_findings(rt, log)
    key = "effective_accuracy_sample_count"
    key = key if key in log.values else "qsl_reported_total_count"
    got, need = log.values.get(key), accuracy_sample_count(rt, benchmark, scenario)
    if got != need:
        msg = f"accuracy run does not cover all dataset: {key} {got}, expected {need}"
        out.append(finding_at(log, key, "accuracy_samples", msg, True))
    return out


def _extra_files_missing(rt: RoundKey, benchmark: str, result: ResultLike, acc: str) -> list[str]:
    """``check_extra_files()`` of ``REQUIRED_ACC_BENCHMARK`` (images or videos by id)."""
    folder, ids = EXTRA_ACCURACY_FILES.get(rt, {}).get(benchmark, ("", ()))
    if not ids:
        return []
    names = result.accuracy_images if folder == "images" else result.accuracy_videos
    have = {n.split(".")[0] for n in names}
    return [] if set(ids) <= have else [f"{acc}/{folder}/"]


def measurement_findings(result: ResultLike, is_endpoints: bool = False) -> list[Finding]:
    """``MeasurementsCheck``: ``measurements.json`` present with every
    ``SYSTEM_IMP_REQUIRED_FILES`` field non-empty, ``<division>/<submitter>/src``
    present, ``user.conf`` (not of endpoints folders) and ``README.md`` in the scenario
    folder, non-empty."""
    f = result.folder
    path = f"{f.path}/measurements.json"
    data = result.measurements_json
    if data is None:
        return [Finding("measurements", path, None, "measurements.json missing", True)]
    out = [
        Finding("measurements", path, None, f"field {k} missing or empty", True)
        for k in MEASUREMENT_FIELDS
        if not data.get(k)
    ]
    if not result.src_exists:
        src = f"{f.division}/{f.submitter}/src"
        out.append(Finding("measurements", src, None, "src directory does not exist", True))
    out += [
        Finding("measurements", f"{f.path}/{n}", None, f"{n} missing or empty", True)
        for n in MEASUREMENT_FILES
        if n not in result.folder_files and not (is_endpoints and n == "user.conf")
    ]
    return out


def compliance_findings_v6(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike
) -> list[Finding]:
    """``ComplianceCheck`` of a closed/network result (its tests in the scenario folder):
    ``dir_exists_check``, ``performance_check`` (TEST01/TEST04 runs through
    ``PerformanceCheck``), ``accuracy_check`` and ``compliance_performance_check``."""
    tests = {t.name.upper(): t for t in result.compliance or ()}
    out: list[Finding] = []
    for name in compliance_tests_v6(rt, benchmark):
        test = tests.get(name)
        where = f"{result.folder.path}/{name}"
        if test is None:
            out.append(Finding("compliance_missing", where, None, f"{name} missing", True))
            continue
        out += _test_files(test)
        if name in ("TEST01", "TEST04"):
            out += _test_performance(rt, benchmark, scenario, result, test)
        out += _test_accuracy(rt, benchmark, test)
    return out


def _test_files(test: ComplianceLike) -> list[Finding]:
    """``dir_exists_check``: the verification files each test needs."""
    need = []
    if test.name in ("TEST01", "TEST06", "TEST07", "TEST08") and test.verify_accuracy is None:
        need.append("verify_accuracy.txt")
    if test.name in ("TEST01", "TEST04"):
        need += [] if test.verify_performance else ["verify_performance.txt"]
        run = test.performance
        need += [] if run and run.detail else ["performance/run_1/mlperf_log_detail.txt"]
    if test.name == "TEST09" and test.verify_output_len is None:
        need.append("verify_output_len.txt")
    return [
        Finding("compliance_files", f"{test.path}/{n}", None, f"{test.name}: {n} missing", True)
        for n in need
    ]


def _test_performance(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike, test: ComplianceLike
) -> list[Finding]:
    """TEST01/TEST04: the run passes ``PerformanceCheck`` (its scenario check skipped),
    ``verify_performance.txt`` has a ``TEST PASS`` line, ``performance/run_1`` holds the
    summary and detail logs and no other file but the optional ones (``files_diff``)."""
    out = []
    run = test.performance
    if run is not None and run.detail is not None:
        div = result.folder.division
        found = run_findings_v6(rt, benchmark, scenario, div, run.detail, result.system_json)
        out += [
            Finding("compliance_performance", f.path, f.line, f"{test.name}: {f.message}", True)
            for f in found
            if f.invalidates
        ]
    if test.verify_performance and not _has(test.verify_performance, "TEST PASS"):
        msg = f"{test.name}: verify_performance.txt does not say TEST PASS"
        out.append(Finding("compliance_performance", test.verify_performance.path, None, msg, True))
    extra = set(test.run_files) - {"mlperf_log_summary.txt", "mlperf_log_detail.txt"}
    extra -= {"mlperf_log_accuracy.json", "mlperf_log_trace.json", "results.json", ".gitkeep"}
    lacking = [] if run and run.summary else ["mlperf_log_summary.txt"]
    if run is not None and (extra or lacking):
        msg = f"{test.name}: performance/run_1 file list mismatch ({sorted(extra) + lacking})"
        out.append(Finding("compliance_files", f"{test.path}/performance/run_1", None, msg, True))
    return out


def _test_accuracy(rt: RoundKey, benchmark: str, test: ComplianceLike) -> list[Finding]:
    """``accuracy_check``: TEST01 ``TEST PASS`` (or, with the four accuracy files, the
    baseline within the allowed delta), TEST06 first-token/EOS/length lines, TEST07 and
    TEST09 ``TEST PASS`` anywhere in the file, TEST08 a ``TEST PASS`` line."""
    va, name = test.verify_accuracy, test.name
    ok = True
    if name == "TEST01" and not _line(va, "TEST PASS"):
        files_ok = set(TEST01_FILES + TEST01_MORE) <= set(test.accuracy_files)
        ok = files_ok and test01_delta_ok(rt, benchmark, test)
    elif name == "TEST06":
        lines = _lines(va)
        first = {"First token check pass: True", "First token check pass: Skipped"} & lines
        ok = bool(first) and {"EOS check pass: True", "Sample length check pass: True"} <= lines
    elif name == "TEST07":
        ok = _has(va, "TEST PASS")
    elif name == "TEST09":
        ok = _has(test.verify_output_len, "TEST PASS")
    elif name == "TEST08":
        ok = _line(va, "TEST PASS")
    if ok:
        return []
    text = va if name != "TEST09" else test.verify_output_len
    where = text.path if text else test.path
    return [Finding("compliance_accuracy", where, None, f"{name}: accuracy check failed", True)]


def _lines(text: TextLike | None) -> set[str]:
    return {ln.strip() for ln in (text.lines if text else ())}


def _line(text: TextLike | None, line: str) -> bool:
    return line in _lines(text)


def _has(text: TextLike | None, needle: str) -> bool:
    return text is not None and any(needle in ln for ln in text.lines)


def judge_v6(result: ResultLike, rt: RoundKey, benchmark: str) -> dict[str, Any]:
    """Every check of ``main.py``'s loop for one result, in its order (performance,
    accuracy, system, measurements, power, compliance), as the keyword arguments of
    ``inference_rules.Verdict`` but ``settings``. The system and model gates are
    ``inference_submission``'s (a model outside the round's tables makes the checker
    raise; here it is a failed rule). An endpoints folder (v6.1) is judged with
    ``inference_rules_endpoints``. A failing file the published tree is known to lack
    (``result.elsewhere``) makes the result unverifiable, naming it, not invalid."""
    f = result.folder
    scenario = inference_scenario_for(f.scenario) or f.scenario
    findings = _gates(rt, result, benchmark)
    run = result.runs[0] if result.runs else None
    log = run.detail if run is not None else None
    value = value_v6(rt, benchmark, scenario, run) if run else Value(None, "", "")
    is_endpoints = log is not None and log.log_format == "endpoints"
    if log is None or log.log_format not in ("mllog", "endpoints"):
        where = f"{f.path}/performance/run_1/mlperf_log_detail.txt"
        msg = "no LoadGen detail log and no endpoints result_summary.json"
        findings.append(Finding("performance_missing", where, None, msg, True))
    else:
        findings += _run_findings(rt, benchmark, scenario, result, log)
        if value.value is None:
            msg = f"no {value.metric or 'value'} logged"
            findings.append(Finding("value_missing", log.path, None, msg, True))
    if is_endpoints:
        accuracy, acc_findings = endpoints.accuracy_findings(rt, benchmark, scenario, result)
        missing = _extra_files_missing(rt, benchmark, result, f"{f.path}/accuracy")
    else:
        accuracy, acc_findings, missing = accuracy_findings_v6(rt, benchmark, scenario, result)
    findings += acc_findings + measurement_findings(result, is_endpoints)
    power, p_unit, p_findings, p_missing = _power(rt, scenario, result)
    comp = _compliance(rt, benchmark, scenario, result, is_endpoints)
    findings += p_findings + comp
    missing += p_missing + [
        x.path for x in findings if x.invalidates and x.path in result.elsewhere
    ]
    findings = [x for x in findings if not (x.invalidates and x.path in result.elsewhere)]
    bad = any(x.invalidates for x in findings)
    return {
        "status": "unverifiable" if missing else "invalid" if bad else "valid",
        "benchmark": benchmark,
        "scenario": scenario,
        "value": value,
        "accuracy": accuracy,
        "accuracy_valid": _accuracy_valid(acc_findings),
        "power": power,
        "power_unit": p_unit,
        "compliance_valid": None if f.division == "open" else not comp,
        "findings": tuple(findings),
        "missing": tuple(missing),
    }


def _accuracy_valid(found: list[Finding]) -> bool | None:
    """False when an accuracy rule failed; None when the checker compared no target
    (an endpoints result, ``accuracy_not_compared``); else True."""
    if any(x.rule.startswith("accuracy") and x.rule != "accuracy_not_compared" for x in found):
        return False  # also in the open division, which publishes it anyway
    return None if any(x.rule == "accuracy_not_compared" for x in found) else True


def _power(
    rt: RoundKey, scenario: str, result: ResultLike
) -> tuple[float | None, str, list[Finding], list[str]]:
    """``PowerCheck``: the power folder's files and the power value (as v5.1)."""
    findings, missing = power_files_findings(rt, result)
    run = result.runs[0] if result.runs else None
    if not result.power_dir or run is None or run.detail is None:
        return None, "", findings, missing
    power, p_find = finite_power(power_value(rt, scenario, run, result.power_timezones), run)
    return power, power_unit(rt, scenario), findings + p_find, missing


def _compliance(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike, is_endpoints: bool
) -> list[Finding]:
    if result.folder.division == "open":
        return []
    if is_endpoints:
        return endpoints.compliance_findings(rt, benchmark, result)
    return compliance_findings_v6(rt, benchmark, scenario, result)


def _run_findings(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike, log: LogLike
) -> list[Finding]:
    """:func:`run_findings_v6`, or for an endpoints run (``is_endpoints_submission``)
    ``inference_rules_endpoints.run_findings`` with the network, LLM (token latencies
    always there) and inference checks."""
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


def _gates(rt: RoundKey, result: ResultLike, benchmark: str) -> list[Finding]:
    """``SystemCheck`` (``system_findings``), the model in the round's tables, and for a
    closed/network model folder :func:`scenario_set_findings`."""
    f = result.folder
    out = system_findings(rt, f, result.system_json, result.system_exists)
    raw = result.system_json.get("is_network")
    if not out and raw and str(raw).lower() != "true":
        # SystemCheck.required_fields_check asks ``if is_network:``: any non-empty
        # value (the text "false" too) adds the network-mode fields.
        extra = set(required_system_fields(rt, True)) - set(required_system_fields(rt, False))
        path = f"{f.division}/{f.submitter}/systems/{f.system}.json"
        out = [
            Finding("system_field_missing", path, None, f"field {k} is missing", True)
            for k in sorted(extra)
            if k not in result.system_json
        ]
    if out:
        return out
    stype = str(result.system_json.get("system_type"))
    out = model_findings(rt, f, benchmark, stype)
    if out or f.division not in ("closed", "network"):
        return out
    model_path = f.path.rsplit("/", 1)[0]
    return scenario_set_findings(rt, model_path, benchmark, stype, result.model_scenarios)
