"""MLPerf Inference accuracy, compliance and power rules, round by round. Pure: no Django.

Each function follows the round-era submission checker (mlcommons/inference
``tools/submission/submission_checker.py``; ``submission-checker.py`` before v3.0) as
read in ``../shared/mlperf-inference/INFERENCE_SCORING.md`` §5-§7.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from benchdb.mlperf.inference.evidence import (
    ComplianceLike,
    Finding,
    ResultLike,
    RunLike,
    TextLike,
    number,
)
from benchdb.mlperf.inference.rounds import (
    RoundKey,
    accuracy_patterns,
    accuracy_targets,
    compliance_tests,
)

MAX_ACCURACY_LOG_SIZE = 10 * 1024  # ``MAX_ACCURACY_LOG_SIZE`` (v0.7+)
_HASH = re.compile(r"^hash=([\w\d]+)$")
_V05_PATTERNS = (r"^accuracy=([\d\.]+).*", r"^mAP=([\d\.]+).*", r"^BLEU\:\s*([\d\.]+).*")


def accuracy_values(rt: RoundKey, benchmark: str, text: TextLike) -> dict[str, list[float]]:
    """Every value of each target metric in ``accuracy.txt``, in line order.

    v0.5 (``check_accuracy_dir()`` of v0.5): the first ``accuracy=``/``mAP=``/``BLEU:``
    line, under the benchmark's only metric. v0.7+: each metric of ``accuracy-target``
    (and ``accuracy-upper-limit``) through ``ACC_PATTERN`` with ``re.match``, up to the
    line where every metric and the ``hash=`` line have been seen (where the checker stops).
    """
    lower, upper = accuracy_targets(rt)
    metrics = [m for m, _ in lower.get(benchmark, ())] + [m for m, _ in upper.get(benchmark, ())]
    found: dict[str, list[float]] = {m: [] for m in metrics}
    if rt < (0, 7):
        for line in text.lines:
            m = next((re.match(p, line) for p in _V05_PATTERNS if re.match(p, line)), None)
            if m and metrics:
                found[metrics[0]].append(float(m.group(1)))
                break
        return found
    patterns = accuracy_patterns(rt)
    hashed = False
    for line in text.lines:
        for metric in found:
            m = re.match(patterns.get(metric, r"(?!)"), line)
            if m:
                found[metric].append(float(m.group(1)))
        hashed = hashed or bool(_HASH.match(line))
        if hashed and all(found.values()):
            break
    return found


def accuracy_findings(
    rt: RoundKey, benchmark: str, text: TextLike
) -> tuple[dict[str, float], list[Finding]]:
    """(metric -> value as published, i.e. the last one read; failed rules) of
    ``check_accuracy_dir()``: every target metric present and each value >= its target
    and <= its upper limit; a ``hash=`` line (v0.7+)."""
    lower, upper = accuracy_targets(rt)
    found = accuracy_values(rt, benchmark, text)
    out: list[Finding] = []
    end = len(text.lines) or None
    if benchmark not in lower:
        out.append(
            Finding("accuracy_target", text.path, None, f"no accuracy target for {benchmark}", True)
        )
    for metric, target in lower.get(benchmark, ()):
        vals = found.get(metric, [])
        if not vals:
            out.append(
                Finding(
                    "accuracy_metric", text.path, end, f"no {metric} value in accuracy.txt", True
                )
            )
        elif min(vals) < target:
            out.append(
                Finding(
                    "accuracy_target",
                    text.path,
                    None,
                    f"{metric} {min(vals)} < target {target:.6g}",
                    True,
                )
            )
    for metric, limit in upper.get(benchmark, ()):
        vals = found.get(metric, [])
        if vals and max(vals) > limit:
            out.append(
                Finding(
                    "accuracy_upper_limit",
                    text.path,
                    None,
                    f"{metric} {max(vals)} > upper limit {limit:.6g}",
                    True,
                )
            )
    if rt >= (0, 7) and not any(_HASH.match(line) for line in text.lines):
        out.append(
            Finding(
                "accuracy_hash", text.path, end, "no hash= line for mlperf_log_accuracy.json", True
            )
        )
    return {m: v[-1] for m, v in found.items() if v}, out


# --- compliance ---------------------------------------------------------------------


def _has(text: TextLike | None, needle: str) -> bool:
    return text is not None and any(needle in line for line in text.lines)


def test01_delta_ok(rt: RoundKey, benchmark: str, test: ComplianceLike) -> bool:
    """TEST01 failing its deterministic check: baseline vs compliance accuracy may differ by
    1% (``-99``) / 0.1% (``-99.9``) (``get_delta_perc()``; SDXL CLIP 1%, FID 2%)."""
    if test.baseline_accuracy is None or test.compliance_accuracy is None:
        return False
    base = accuracy_values(rt, benchmark, test.baseline_accuracy)
    comp = accuracy_values(rt, benchmark, test.compliance_accuracy)
    for metric in base:
        b, c = base[metric], comp.get(metric, [])
        if not b or not c or c[-1] == 0:
            return False
        allowed = {"FID_SCORE": 2.0}.get(metric, 0.1 if benchmark.endswith("99.9") else 1.0)
        if abs(1 - b[-1] / c[-1]) * 100 > allowed:
            return False
    return True


#: ``REQUIRED_TEST01_ACC_FILES_1`` and the two more required when the deterministic check
#: fails (``check_compliance_acc_dir()``, v0.7 to v5.1).
TEST01_FILES = ("mlperf_log_accuracy.json", "accuracy.txt")
TEST01_MORE = ("baseline_accuracy.txt", "compliance_accuracy.txt")
#: The rule of a file the checker needs that the published tree lacks (unverifiable).
ABSENT = "file_absent_here"


def _test01_files(
    test: ComplianceLike, passed: bool, hard: bool, elsewhere: Sequence[str]
) -> list[Finding]:
    """``files_diff(list_files(test_acc_path), REQUIRED_TEST01_ACC_FILES_1 if acc_passed
    else REQUIRED_TEST01_ACC_FILES)``: each file missing from ``TEST01/accuracy/`` fails;
    one the source is known to hold is :data:`ABSENT` (the result is unverifiable)."""
    out = []
    for name in TEST01_FILES + (() if passed else TEST01_MORE):
        if name in test.accuracy_files:
            continue
        path = f"{test.path}/accuracy/{name}"
        if path in elsewhere:
            out.append(Finding(ABSENT, path, None, f"TEST01: {name} absent from this tree", False))
        else:
            out.append(Finding("compliance_files", path, None, f"TEST01: {name} missing", hard))
    return out


def _test_findings(
    rt: RoundKey,
    benchmark: str,
    test: ComplianceLike,
    perf: bool,
    hard: bool,
    elsewhere: Sequence[str] = (),
) -> list[Finding]:
    """One compliance test: ``check_compliance_perf_dir()`` (``verify_performance.txt``
    says ``TEST PASS``, not required of TEST04-B; from v2.0 its run must be VALID, via
    ``check_performance_dir()``) and ``check_compliance_acc_dir()`` (TEST01, TEST06)."""
    out: list[Finding] = []
    if perf and test.name != "TEST04-B":
        vp = test.verify_performance
        if not _has(vp, "TEST PASS"):
            where = vp.path if vp else f"{test.path}/verify_performance.txt"
            out.append(
                Finding("compliance_performance", where, None, f"{test.name}: no TEST PASS", hard)
            )
        run = test.performance
        log = run.detail if run is not None else None
        if (
            hard  # v2.0+ runs check_performance_dir() on the test's run
            and log is not None
            and log.log_format == "mllog"
            and log.values.get("result_validity") != "VALID"
        ):
            out.append(
                Finding(
                    "compliance_performance",
                    log.path,
                    log.lines.get("result_validity"),
                    f"{test.name}: run is not VALID",
                    hard,
                )
            )
    va = test.verify_accuracy
    where = va.path if va else f"{test.path}/verify_accuracy.txt"
    if test.name == "TEST01":
        out += _test01_files(test, _has(va, "TEST PASS"), hard, elsewhere)
    if (
        test.name == "TEST01"
        and not _has(va, "TEST PASS")
        and not test01_delta_ok(rt, benchmark, test)
    ):
        out.append(
            Finding("compliance_accuracy", where, None, "TEST01: accuracy check failed", hard)
        )
    if test.name == "TEST06":
        lines = {ln.strip() for ln in (va.lines if va else ())}
        first = {"First token check pass: True", "First token check pass: Skipped"} & lines
        if not first or not {"EOS check pass: True", "Sample length check pass: True"} <= lines:
            out.append(
                Finding("compliance_accuracy", where, None, "TEST06: output checks failed", hard)
            )
    return out


def compliance_findings(
    rt: RoundKey,
    benchmark: str,
    scenario: str,
    path: str,
    tests: Sequence[ComplianceLike] | None,
    elsewhere: Sequence[str] = (),
) -> list[Finding]:
    """``check_compliance_dir()`` for a closed/network result whose compliance folder is
    ``path``: every required test (:func:`compliance_tests`) present; its
    ``verify_performance.txt`` says ``TEST PASS`` and its run is VALID (skipped while
    TEST06 is required); TEST01 accuracy (``TEST PASS`` or within the allowed delta);
    TEST06 output checks. A failure invalidates from v2.0 (before: ``compliance=0`` only).
    """
    required = compliance_tests(rt, benchmark, scenario)
    hard = rt >= (2, 0)
    if not required:
        return []
    if tests is None:
        return [Finding("compliance_missing", path, None, "compliance folder missing", hard)]
    by_name = {t.name.upper(): t for t in tests}
    out: list[Finding] = []
    for name in required:
        test = by_name.get(name)
        if test is None:
            out.append(
                Finding("compliance_missing", f"{path}/{name}", None, f"{name} missing", hard)
            )
        else:
            out += _test_findings(rt, benchmark, test, "TEST06" not in required, hard, elsewhere)
    return out


# --- power --------------------------------------------------------------------------

_TIME = "%m-%d-%Y %H:%M:%S.%f"


def power_unit(rt: RoundKey, scenario: str) -> str:
    """Units of the power row: Watts (Offline/Server/Interactive); energy per query in
    Joules (v1.x SingleStream, v2.x), ``Joules/Stream`` (v1.x MultiStream), millijoules
    (v3.0+)."""
    if scenario not in ("SingleStream", "MultiStream"):
        return "Watts"
    if rt >= (3, 0):
        return "millijoules"
    return "Joules/Stream" if rt < (2, 0) and scenario == "MultiStream" else "Joules"


def power_value(
    rt: RoundKey,
    scenario: str,
    run: RunLike,
    timezones: tuple[int | None, int | None],
) -> tuple[float | None, list[Finding]]:
    """Average power or energy per query of the testing run (``get_power_metric()``;
    ``check_power_dir()`` before v3.1): the Watts of the ``spl.txt`` samples strictly
    between the detail log's ``power_begin`` and ``power_end`` (v1.x: shifted by the
    client/server ``timezone``; v3.1+: only samples > 0; v4.0+: only ``Time`` lines);
    SingleStream/MultiStream: avg W x duration / queries (v1.x SingleStream queries =
    ``result_qps_with_loadgen_overhead`` x duration, MultiStream
    ``generated_query_count`` x ``generated_samples_per_query``; v2.0+
    ``result_query_count``), x1000 from v3.0, x8 for MultiStream inferred from SingleStream.
    """
    log, spl = run.detail, run.spl
    if log is None or spl is None:
        where = f"{run.path}/spl.txt" if spl is None else f"{run.path}/mlperf_log_detail.txt"
        return None, [Finding("power_files", where, None, "power log or detail log missing", True)]
    try:
        begin = datetime.strptime(str(log.values.get("power_begin")), _TIME)
        end = datetime.strptime(str(log.values.get("power_end")), _TIME)
    except ValueError:
        return None, [
            Finding(
                "power_range",
                log.path,
                log.lines.get("power_begin"),
                "no power_begin/power_end",
                True,
            )
        ]
    try:  # a year-9999 power_begin or a huge timezone leaves the datetime range
        client, server = (
            (timedelta(seconds=tz or 0) for tz in timezones) if rt < (2, 0) else (timedelta(0),) * 2
        )
        begin, end = begin + client, end + client
        watts = [
            s.watts
            for s in spl.samples
            if (rt < (4, 0) or s.starts_with_time)
            and (rt < (3, 1) or s.watts > 0)
            and begin < _parse_time(s.time) + server < end
        ]
    except OverflowError:
        why = "power_begin/power_end or a timezone shift outside the datetime range"
        return None, [Finding("power_range", log.path, log.lines.get("power_begin"), why, True)]
    if not watts:
        return None, [
            Finding("power_samples", spl.path, None, "no power sample in the run's range", True)
        ]
    avg = sum(watts) / len(watts)
    if scenario not in ("SingleStream", "MultiStream"):
        return avg, []
    return _energy(rt, scenario, run, avg, (end - begin).total_seconds())


def _parse_time(text: str) -> datetime:
    try:
        return datetime.strptime(text, _TIME)
    except ValueError:
        return datetime.min + timedelta(days=1)


def _energy(
    rt: RoundKey, scenario: str, run: RunLike, avg: float, duration: float
) -> tuple[float | None, list[Finding]]:
    """Energy per query of :func:`power_value` (``get_power_metric()``)."""
    log = run.detail
    assert log is not None
    log_scen = str(log.values.get("effective_scenario", ""))
    if rt < (2, 0):
        if scenario == "MultiStream":
            q, spq = (
                number(log, "generated_query_count"),
                number(log, "generated_samples_per_query"),
            )
            queries = q * spq if q is not None and spq is not None else None
        else:
            qps = number(log, "result_qps_with_loadgen_overhead")
            queries = qps * duration if qps is not None else None
    else:
        queries = number(log, "result_query_count")
    if not queries:
        return None, [
            Finding("power_queries", log.path, None, "no query count for the energy", True)
        ]
    energy = avg * duration / queries * (1000 if rt >= (3, 0) else 1)
    if scenario == "MultiStream" and log_scen == "SingleStream" and rt >= (2, 0):
        energy *= 8
    return energy, []


#: ``REQUIRED_POWER_FILES`` of ``check_power_dir()`` (v1.0 to v5.1 alike).
POWER_FILES = ("client.json", "client.log", "ptd_logs.txt", "server.json", "server.log")


def power_files_findings(rt: RoundKey, result: ResultLike) -> tuple[list[Finding], list[str]]:
    """``check_power_dir()``'s file list (``files_diff(list_files(power_path),
    REQUIRED_POWER_FILES)``, v1.0+): each file missing from ``performance/power/`` fails
    the result, unless the source is known to hold it (a snapshot that dropped it:
    unverifiable, the file named)."""
    if rt < (1, 0) or not result.power_dir:
        return [], []
    power = f"{result.folder.path}/performance/power"
    out: list[Finding] = []
    missing: list[str] = []
    for name in POWER_FILES:
        path = f"{power}/{name}"
        if name in result.power_files:
            continue
        if path in result.elsewhere:
            missing.append(path)
        else:
            out.append(Finding("power_files", path, None, f"{name} missing", True))
    return out, missing


def finite_power(
    got: tuple[float | None, list[Finding]], run: RunLike
) -> tuple[float | None, list[Finding]]:
    """``power_value()``'s result, unless it is not a finite positive number (a power log
    or a query count that no measurement gives): then none, and a failed rule."""
    power, findings = got
    if power is None or (math.isfinite(power) and power > 0):
        return power, findings
    why = f"power or energy {power!r} is not a finite positive number"
    return None, [*findings, Finding("power_value", f"{run.path}/spl.txt", None, why, True)]
