"""MLPerf Inference: recompute a result's value and decide its validity, round by round.

Pure: no Django, no file access; the inputs are what ``ingest/inference/parsers/tree.py``
reads (described here by Protocols, so ``benchdb`` does not import ``ingest``). Every rule
follows the round-era submission checker (mlcommons/inference
``tools/submission/submission_checker.py``, ``submission-checker.py`` before v3.0, at the
commits in :data:`~benchdb.vocabulary.INFERENCE_ROUNDS`) and LoadGen
(``loadgen/results.cc``); ``../shared/mlperf-inference/INFERENCE_SCORING.md`` is the
reading followed. The value is computed in ``inference_value.py``; accuracy,
compliance and power rules are in ``inference_checks.py``, the submission-level gates of
``check_results_dir()`` (system description, model and scenario folders) in
``inference_submission.py``, round tables in ``inference_rounds.py``.

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
    LogLike,
    ResultLike,
    RunLike,
    error_findings,
    finding_at,
    number,
    round_key,
)
from benchdb.mlperf.inference.rounds import (
    LLM_LIMITS_V41,
    LLM_LIMITS_V51,
    SDXL_IMAGES,
    SEEDS,
    RoundKey,
    compliance_tests,
    offline_min_spq,
    performance_sample_count,
    server_latency_ns,
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
    INFERENCE_LLM_BENCHMARKS,
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


# --- validity of a performance run ----------------------------------------------------


def run_findings(
    rt: RoundKey,
    benchmark: str,
    scenario: str,
    division: str,
    run: RunLike,
    system: Mapping[str, Any],
) -> list[Finding]:
    """Every rule of ``check_performance_dir()`` the run fails (see INFERENCE_SCORING §3).

    Invalidating by round: ``result_validity`` (all; v4.x LLMs: replaced by the TTFT/TPOT
    check), detail-log ERRORs (all), performance sample count (v0.7+), seeds (v3.1+),
    early-stopping Server latency (v3.1+), min query count and Offline samples per query
    (v3.1+), min duration (v4.1+), equal-issue mode (v4.1+), network mode (v2.1+).
    """
    if rt < (1, 0) or run.detail is None or run.detail.log_format != "mllog":
        return _summary_findings(rt, benchmark, run)
    log = run.detail
    out: list[Finding] = []
    v4_llm = (4, 0) <= rt < (5, 0) and benchmark in LLM_LIMITS_V41
    if log.values.get("result_validity") != "VALID":
        found = log.values.get("result_validity", "absent (log cut short?)")
        out.append(
            finding_at(
                log, "result_validity", "result_validity", f"result_validity is {found}", not v4_llm
            )
        )
    out += error_findings(rt, log)
    # A line that does not parse makes the checker's MLPerfLog(strict=True) raise.
    out += [Finding("log_unreadable", p.path, p.line, p.message, True) for p in log.problems]
    out += _llm_findings(rt, benchmark, scenario, log)
    psc, need = (
        number(log, "effective_performance_sample_count"),
        performance_sample_count(rt, benchmark),
    )
    if need is not None and (psc is None or psc < need):
        out.append(
            finding_at(
                log,
                "effective_performance_sample_count",
                "performance_sample_count",
                f"performance sample count {psc} < {need}",
                True,
            )
        )
    out += _seed_findings(rt, log)
    out += _limit_findings(rt, benchmark, log)
    out += _network_findings(rt, division, log, system)
    return out


def _summary_findings(rt: RoundKey, benchmark: str, run: RunLike) -> list[Finding]:
    """v0.5/v0.7: ``Result is : VALID`` of the summary, ERROR lines of the text detail log,
    ``performance_sample_count`` (v0.7)."""
    out: list[Finding] = []
    s = run.summary
    if s is None:
        return out
    if s.result_valid is not True:
        out.append(
            Finding(
                "result_validity", s.path, None, "summary does not say 'Result is : VALID'", True
            )
        )
    if run.detail is not None:
        out += error_findings(rt, run.detail)
    need = performance_sample_count(rt, benchmark) if rt >= (0, 7) else None
    raw = s.values.get("performance_sample_count", "")
    if need is not None and raw.isdigit() and int(raw) < need:
        out.append(
            Finding(
                "performance_sample_count",
                s.path,
                s.lines.get("performance_sample_count"),
                f"performance sample count {raw} < {need}",
                True,
            )
        )
    return out


def _llm_findings(rt: RoundKey, benchmark: str, scenario: str, log: LogLike) -> list[Finding]:
    """``extra_check_llm()`` (v4.0+): token latencies requested; Server/Interactive p99 TTFT
    and TPOT below ``LLM_LATENCY_LIMITS`` (strictly)."""
    limits = (LLM_LIMITS_V51 if rt >= (5, 0) else LLM_LIMITS_V41).get(benchmark)
    if rt < (4, 0) or (
        limits is None and benchmark not in INFERENCE_LLM_BENCHMARKS - {"gptj-99", "gptj-99.9"}
    ):
        return []
    if not log.values.get("requested_use_token_latencies"):
        return [
            finding_at(
                log,
                "requested_use_token_latencies",
                "use_token_latencies",
                "requested_use_token_latencies is not true",
                True,
            )
        ]
    bound = (limits or {}).get(scenario if rt >= (5, 0) else "Server")
    if scenario not in ("Server", "Interactive") or bound is None:
        return []
    ttft = number(log, "result_first_token_99.00_percentile_latency_ns")
    tpot = number(log, "result_time_per_output_token_99.00_percentile_ns")
    if ttft is not None and tpot is not None and ttft < bound[0] and tpot < bound[1]:
        return []
    return [
        finding_at(
            log,
            "result_first_token_99.00_percentile_latency_ns",
            "ttft_tpot",
            f"TTFT p99 {ttft} ns / TPOT p99 {tpot} ns not below {bound[0]} / {bound[1]}",
            True,
        )
    ]


def _seed_findings(rt: RoundKey, log: LogLike) -> list[Finding]:
    """``effective_*_rng_seed`` equal to ``MODEL_CONFIG[<round>]["seeds"]``
    (``check_performance_dir()``): logged only up to v3.0, invalidating from v3.1; only
    rounds in :data:`SEEDS` are checked."""
    seeds = SEEDS.get(rt)
    if seeds is None:
        return []
    keys = (
        "effective_qsl_rng_seed",
        "effective_sample_index_rng_seed",
        "effective_schedule_rng_seed",
    )
    return [
        finding_at(log, k, "seeds", f"{k} is {log.values.get(k)}, expected {want}", rt >= (3, 1))
        for k, want in zip(keys, seeds, strict=True)
        if log.values.get(k) != want
    ]


_MIN_QUERIES = {"Offline": 1, "SingleStream": 1024, "MultiStream": 270336, "Server": 270336}


def _limit_findings(rt: RoundKey, benchmark: str, log: LogLike) -> list[Finding]:
    """Latency constraint (Server, early stopping, v2.0+), Offline samples per query
    (``OFFLINE_MIN_SPQ``), min duration (``TEST_DURATION_MS``) and min query count
    (``min-queries``, where early stopping is not used) of ``check_performance_dir()``;
    invalidating from v3.1, min duration from v4.1."""
    scen = inference_scenario_for(str(log.values.get("effective_scenario", ""))) or ""
    latency = server_latency_ns(rt, benchmark) if scen == "Server" and rt >= (2, 0) else None
    # (key, rule, bound, "max" or "min", applies, invalidating from)
    checks: list[tuple[str, str, float | None, str, bool, RoundKey]] = [
        ("effective_target_latency_ns", "latency_constraint", latency, "max", True, (3, 1)),
        (
            "effective_samples_per_query",
            "offline_samples_per_query",
            offline_min_spq(rt, benchmark),
            "min",
            scen == "Offline",
            (3, 1),
        ),
        (
            "effective_min_duration_ms",
            "min_duration",
            600_000 if rt >= (1, 0) else 60_000,
            "min",
            True,
            (4, 1),
        ),
        (
            "effective_min_query_count",
            "min_query_count",
            _MIN_QUERIES.get(scen),
            "min",
            rt < (2, 0) or scen == "Offline",
            (3, 1),
        ),
    ]
    out: list[Finding] = []
    for key, rule, bound, kind, applies, since in checks:
        v = number(log, key)
        if not applies or bound is None or v is None:
            continue
        if (kind == "max" and v > bound) or (kind == "min" and v < bound):
            sign = ">" if kind == "max" else "<"
            out.append(finding_at(log, key, rule, f"{key} {v:g} {sign} {bound:g}", rt >= since))
    return out


def _network_findings(
    rt: RoundKey, division: str, log: LogLike, system: Mapping[str, Any]
) -> list[Finding]:
    """``is_system_over_network()`` (v2.1+): ``is_network`` true in network, false in closed;
    a network SUT's ``sut_name`` contains ``Network SUT``."""
    if rt < (2, 1):
        return []
    raw = system.get("is_network")
    is_net = str(raw).lower() == "true" if raw is not None else False
    out = []
    expected = {"network": True, "closed": False}.get(division)
    if expected is not None and expected is not is_net:
        out.append(
            Finding(
                "network_mode", log.path, None, f"is_network={raw} in the {division} division", True
            )
        )
    if is_net and "Network SUT" not in str(log.values.get("sut_name", "")):
        out.append(
            finding_at(log, "sut_name", "network_sut_name", "sut_name lacks 'Network SUT'", True)
        )
    return out


def settings_of(run: RunLike) -> dict[str, Any]:
    """The LoadGen settings stored with a result (from the detail log, v1.0+)."""
    if run.detail is None:
        return {}
    keys = (
        "effective_target_qps",
        "effective_target_latency_ns",
        "effective_min_duration_ms",
        "effective_min_query_count",
        "effective_samples_per_query",
        "early_stopping_met",
        "effective_sample_concatenate_permutation",
        "result_query_count",
        "loadgen_version",
    )
    return {k: run.detail.values[k] for k in keys if k in run.detail.values}


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
