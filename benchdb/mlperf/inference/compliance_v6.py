"""MLPerf Inference v6.x: ``ComplianceCheck`` of the checker package. Pure.

The audit tests of a closed/network result, in its scenario folder (TEST01, TEST04,
TEST06, TEST07 for gpt-oss-120b accuracy, TEST08 for dlrm-v3, TEST09 for gpt-oss-120b
output length), as mlcommons/inference
``tools/submission/submission_checker/checks/compliance_check.py`` ``ComplianceCheck``
judges them (at :data:`~benchdb.mlperf.inference.rounds_v6.CHECKER`: v6.0 6d0cf9dc,
v6.1 2af078ba). Split from ``rules_v6``.
"""

from __future__ import annotations

from benchdb.mlperf.inference.checks import TEST01_FILES, TEST01_MORE, test01_delta_ok
from benchdb.mlperf.inference.evidence import ComplianceLike, Finding, ResultLike, TextLike
from benchdb.mlperf.inference.performance_v6 import run_findings_v6
from benchdb.mlperf.inference.rounds_v6 import RoundKey, compliance_tests_v6


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
