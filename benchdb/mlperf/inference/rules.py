"""MLPerf Inference: recompute a result's value and decide its validity, round by round.

Pure: no Django, no file access; the inputs are what ``ingest/inference/parsers/tree.py``
reads (described here by Protocols, so ``benchdb`` does not import ``ingest``). Every rule
follows the round-era submission checker (mlcommons/inference
``tools/submission/submission_checker.py``, ``submission-checker.py`` before v3.0, at the
commits in :data:`~benchdb.vocabulary.INFERENCE_ROUNDS`) and LoadGen
(``loadgen/results.cc``); ``../shared/mlperf-inference/INFERENCE_SCORING.md`` is the
reading followed. The value is computed in ``value.py``; a performance run's validity
in ``performance.py``; accuracy, compliance and power rules are in ``checks.py``, the
submission-level gates of ``check_results_dir()`` (system description, model and scenario
folders) in ``submission.py``, round tables in ``rounds.py``; v6.x in ``rules_v6.py``.

A verdict is ``valid``, ``invalid`` (a rule the checker enforces failed) or
``unverifiable`` (a file the checker needs is absent from the published tree, e.g. detail
logs of 4 MiB or more dropped from snapshots, SDXL ``accuracy/images/``): never invalid
for want of a file that was submitted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from benchdb.mlperf.inference.checks import (
    ABSENT,
    MAX_ACCURACY_LOG_SIZE,
    accuracy_findings,
    compliance_findings,
    finite_power,
    power_files_findings,
    power_unit,
    power_value,
)
from benchdb.mlperf.inference.equal_issue import equal_issue_findings
from benchdb.mlperf.inference.evidence import (
    Finding,
    ResultLike,
    RunLike,
    error_findings,
    round_key,
)
from benchdb.mlperf.inference.performance import run_findings, settings_of
from benchdb.mlperf.inference.rounds import (
    SDXL_IMAGES,
    RoundKey,
    compliance_tests,
)
from benchdb.mlperf.inference.rules_v6 import judge_v6
from benchdb.mlperf.inference.submission import submission_findings
from benchdb.mlperf.inference.value import (
    Value,
    performance_value,
    summary_findings,
    unit_for,
    value_findings,
)
from benchdb.vocabulary import (
    INFERENCE_BENCHMARKS,
    inference_benchmark_for,
    inference_model_folder_map,
    inference_scenario_for,
)

VALID, INVALID, UNVERIFIABLE = "valid", "invalid", "unverifiable"


@dataclass(frozen=True)
class Verdict:
    """Everything decided about one result.

    ``findings`` are every rule that failed (``invalidates`` says whether the round's
    checker rejects the result for it), ``missing`` the absent files that make it
    unverifiable, ``settings`` the LoadGen settings that matter (target QPS, latency,
    min duration, min query count, early stopping), ``accuracy`` metric -> value,
    ``compliance_required`` the audit tests the round requires of the result's benchmark
    and scenario (what the writer records per test: the result is judged here only).
    """

    status: str
    benchmark: str
    scenario: str
    value: Value
    accuracy: dict[str, float] = field(default_factory=dict)
    accuracy_valid: bool | None = None
    power: float | None = None
    power_unit: str = ""
    compliance_valid: bool | None = None
    findings: tuple[Finding, ...] = ()
    missing: tuple[str, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)
    compliance_required: tuple[str, ...] = ()

    @property
    def reasons(self) -> list[str]:
        """The invalidating findings as ``path:line: message`` texts."""
        return [str(f) for f in self.findings if f.invalidates]


def resolve_benchmark(result: ResultLike, version: str, extra: Mapping[str, str] | None) -> str:
    """The benchmark of the result's model folder (``Config.get_mlperf_model()``): the
    submitter's ``model_mapping.json`` and ``extra`` (``--extra-model-benchmark-map``).
    From v0.7 ``mobilenet`` (a v0.5 benchmark, not in the round's ``models``) is mapped
    as the checker's own ``model_mapping`` says, to resnet (``75018167`` .. ``e20506b2``);
    v0.7-v4.0 (75018167 .. e39003a9) guess ``ssdlite``/``ssd-inception``/``yolo``/
    ``ssd-mobilenet``/``ssd-resnet50`` folders as ssd-small before any other guess, and
    ``rcnn`` ones too unless they hold ``mobilenet``/``efficientnet`` (+``resnet50``
    from v2.0), guessed first (ssd-small is retired from v2.1: the gates reject it)."""
    mapping = {**result.model_mapping, **(extra or {})}
    folder, rt = result.folder.model, round_key(version)
    if rt >= (0, 7) and folder == "mobilenet":  # the round's own mapping comes first
        return "resnet"
    found = inference_benchmark_for(version, folder, mapping)
    named = folder in INFERENCE_BENCHMARKS or folder in inference_model_folder_map(version)
    if named or folder in mapping or not (0, 7) <= rt < (4, 1):
        return found
    if any(s in folder for s in _SSD_GUESSES):
        return "ssd-small"
    before = ("mobilenet", "efficientnet", "resnet50") if rt >= (2, 0) else _RESNET_GUESSES
    return "ssd-small" if "rcnn" in folder and not any(s in folder for s in before) else found


_SSD_GUESSES = ("ssdlite", "ssd-inception", "yolo", "ssd-mobilenet", "ssd-resnet50")
_RESNET_GUESSES = ("mobilenet", "efficientnet")  # v0.7-v1.x; v2.0+ also resnet50


# --- one result ----------------------------------------------------------------------


def _pick_run(rt: RoundKey, benchmark: str, scenario: str, result: ResultLike) -> RunLike | None:
    """The run whose value counts: ``run_1`` (v0.5 ``submission-to-csv.py``; v1.0+ has one
    run); v0.7 Server: the last run without an invalidating finding, else the last (v0.7
    checker 75018167, main loop: ``n = run_1..run_5`` for Server, else ``["run_1"]``)."""
    if not result.runs:
        return None
    if rt < (0, 7) or rt >= (1, 0) or scenario != "Server":
        return result.runs[0]
    f, system = result.folder, result.system_json
    ok = [
        r
        for r in result.runs
        if not any(
            x.invalidates for x in run_findings(rt, benchmark, scenario, f.division, r, system)
        )
    ]
    return (ok or list(result.runs))[-1]


def _detail_absent(run: RunLike, result: ResultLike) -> tuple[list[Finding], list[str]]:
    """A run without its detail log: unverifiable if the file is known to exist
    (``elsewhere``) or the summary shows the run happened (published trees drop files of
    4 MiB or more), otherwise a failed rule."""
    if run.detail is not None:
        return [], []
    path = f"{run.path}/mlperf_log_detail.txt"
    if run.summary is not None or path in result.elsewhere:
        return [
            Finding("detail_log_absent", path, None, "detail log absent from this tree", False)
        ], [path]
    return [Finding("detail_log_missing", path, None, "no detail or summary log", True)], []


def _first_findings(
    run: RunLike, result: ResultLike, benchmark: str, gates: list[Finding]
) -> tuple[list[Finding], list[str]]:
    """A detail log absent (:func:`_detail_absent`), then the ``check_results_dir()``
    gates (``inference_submission.py``) and an unmapped model folder (:func:`_unmapped`)."""
    findings, missing = _detail_absent(run, result)
    findings += gates
    if benchmark not in INFERENCE_BENCHMARKS:
        findings.append(_unmapped(result))
        missing.append(findings[-1].path)
    return findings, missing


def _accuracy_part(
    rt: RoundKey, benchmark: str, result: ResultLike
) -> tuple[dict[str, float], list[Finding], list[str]]:
    """``check_accuracy_dir()`` on ``accuracy/`` (accuracy.txt, ``mlperf_log_accuracy.json``
    present and at most ``MAX_ACCURACY_LOG_SIZE`` from v0.7, no ERROR in the accuracy
    detail log) and, for closed SDXL, ``check_extra_files()`` of ``REQUIRED_ACC_BENCHMARK``
    (the images the published repositories lack: unverifiable, not invalid)."""
    acc = f"{result.folder.path}/accuracy"
    if result.accuracy is None:
        return (
            {},
            [
                Finding(
                    "accuracy_missing", f"{acc}/accuracy.txt", None, "accuracy.txt missing", True
                )
            ],
            [],
        )
    values, out = accuracy_findings(rt, benchmark, result.accuracy)
    missing: list[str] = []
    log_path = f"{acc}/mlperf_log_accuracy.json"
    if result.accuracy_log is None and log_path not in result.elsewhere:
        out.append(
            Finding("accuracy_log", log_path, None, "mlperf_log_accuracy.json missing", True)
        )
    elif (
        rt >= (0, 7)
        and result.accuracy_log is not None
        and result.accuracy_log.size > MAX_ACCURACY_LOG_SIZE
    ):
        out.append(
            Finding(
                "accuracy_log", log_path, None, "mlperf_log_accuracy.json is not truncated", True
            )
        )
    detail = f"{acc}/mlperf_log_detail.txt"
    if result.accuracy_detail is not None:
        out += error_findings(rt, result.accuracy_detail)
    elif detail in result.elsewhere:
        missing.append(detail)
    ids = SDXL_IMAGES.get(rt) if benchmark == "stable-diffusion-xl" else None
    have = {n.split(".")[0] for n in result.accuracy_images}
    if ids and not set(ids) <= have and result.folder.division != "open":
        missing.append(f"{acc}/images/")
    return values, out, missing


def evaluate(
    result: ResultLike, version: str, extra_mapping: Mapping[str, str] | None = None
) -> Verdict:
    """Recompute and validate one result as the round's checker does (see module doc):
    the one judgement of a result (the writer stores it, judging nothing again).

    ``version``: ``v0.5`` .. ``v6.1`` (v6.x: ``inference_rules_v6``); ``extra_mapping``
    maps model folders to benchmarks (the submitter's ``model_mapping.json`` absent).
    """
    verdict = _evaluate(result, version, extra_mapping)
    required = compliance_tests(round_key(version), verdict.benchmark, verdict.scenario)
    return replace(verdict, compliance_required=required)


def _evaluate(result: ResultLike, version: str, extra_mapping: Mapping[str, str] | None) -> Verdict:
    rt = round_key(version)
    f = result.folder
    scenario = inference_scenario_for(f.scenario) or f.scenario
    benchmark = resolve_benchmark(result, version, extra_mapping)
    if rt >= (6, 0):  # the checker package: inference_rules_v6
        return Verdict(**judge_v6(result, rt, benchmark), settings=_settings(result))
    run = _pick_run(rt, benchmark, scenario, result)
    gates = submission_findings(rt, result, benchmark)
    if run is None:
        no_run = Finding("performance_missing", f"{f.path}/performance", None, "no run", True)
        no_value = Value(None, "", unit_for(rt, benchmark, scenario))
        return Verdict(INVALID, benchmark, scenario, no_value, findings=(*gates, no_run))
    value = performance_value(rt, benchmark, scenario, run)
    findings, missing = _first_findings(run, result, benchmark, gates)
    findings += run_findings(rt, benchmark, scenario, f.division, run, result.system_json)
    if run.detail is not None and run.detail.log_format == "mllog":
        confs = result.measurement_confs
        findings += equal_issue_findings(rt, benchmark, scenario, f.division, run.detail, confs)
    findings += value_findings(rt, scenario, run, value)
    findings += summary_findings(rt, benchmark, run)
    accuracy, acc_findings, acc_missing = _accuracy_part(rt, benchmark, result)
    open_div = f.division == "open"
    findings += [replace(x, invalidates=x.invalidates and not open_div) for x in acc_findings]
    missing += acc_missing
    c_find = [] if open_div else _compliance_part(rt, benchmark, scenario, result)
    p_files, p_missing = power_files_findings(rt, result)
    findings += c_find + p_files
    missing += [x.path for x in c_find if x.rule == ABSENT] + p_missing
    power, p_unit = None, ""
    spl = f"{run.path}/spl.txt"
    if rt >= (1, 0) and result.power_dir and run.spl is None and spl in result.elsewhere:
        missing.append(spl)  # the snapshot lacks it: power not recomputable here
    elif rt >= (1, 0) and result.power_dir and run.detail is not None:
        power, p_find = finite_power(power_value(rt, scenario, run, result.power_timezones), run)
        p_unit, findings = power_unit(rt, scenario), findings + p_find
    status = UNVERIFIABLE if missing else INVALID if any(x.invalidates for x in findings) else VALID
    return Verdict(
        status=status,
        benchmark=benchmark,
        scenario=scenario,
        value=value,
        accuracy=accuracy,
        accuracy_valid=not any(x.rule.startswith("accuracy") for x in acc_findings),
        power=power,
        power_unit=p_unit,
        compliance_valid=None
        if open_div
        else not any(x.rule.startswith("compliance") for x in findings),
        findings=tuple(findings),
        missing=tuple(missing),
        settings=settings_of(run),
    )


def _settings(result: ResultLike) -> dict[str, Any]:
    return settings_of(result.runs[0]) if result.runs else {}


def _compliance_part(
    rt: RoundKey, benchmark: str, scenario: str, result: ResultLike
) -> list[Finding]:
    """:func:`compliance_findings` of a closed or network result's compliance folder."""
    f = result.folder
    comp = f"{f.division}/{f.submitter}/compliance/{f.system}/{f.model}/{f.scenario}"
    return compliance_findings(rt, benchmark, scenario, comp, result.compliance, result.elsewhere)


def _unmapped(result: ResultLike) -> Finding:
    """A model folder no mapping names: the submitter's ``model_mapping.json`` (which the
    checker reads for the open division) is presumably absent from this tree."""
    f, msg = result.folder, "maps to no benchmark (model_mapping.json absent here?)"
    mapping = f"{f.division}/{f.submitter}/model_mapping.json"
    return Finding("benchmark_unknown", mapping, None, f"model folder {f.model!r} {msg}", False)
