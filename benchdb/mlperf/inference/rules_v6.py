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

``PerformanceCheck`` and the value are in ``performance_v6``, ``ComplianceCheck`` in
``compliance_v6``; this module runs every check class on a result (:func:`judge_v6`).

Endpoints submissions (LoadGen++ logs, v6.1) are not read here: such a folder has no
LoadGen detail log and is reported as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchdb.mlperf.inference import rules_endpoints as endpoints
from benchdb.mlperf.inference.checks import (
    MAX_ACCURACY_LOG_SIZE,
    accuracy_findings,
    finite_power,
    power_files_findings,
    power_unit,
    power_value,
)
from benchdb.mlperf.inference.compliance_v6 import compliance_findings_v6
from benchdb.mlperf.inference.evidence import (
    Finding,
    ResultLike,
    error_findings,
    finding_at,
)
from benchdb.mlperf.inference.performance_v6 import performance_findings, value_v6
from benchdb.mlperf.inference.rounds import required_system_fields
from benchdb.mlperf.inference.rounds_v6 import (
    EXTRA_ACCURACY_FILES,
    MEASUREMENT_FIELDS,
    MEASUREMENT_FILES,
    RoundKey,
    accuracy_sample_count,
)
from benchdb.mlperf.inference.scenarios import suite_scenarios
from benchdb.mlperf.inference.submission import model_findings, system_findings
from benchdb.mlperf.inference.value import Value
from benchdb.vocabulary import inference_scenario_for


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
        findings += performance_findings(rt, benchmark, scenario, result, log)
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
