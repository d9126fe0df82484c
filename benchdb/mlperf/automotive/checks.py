"""MLPerf Automotive: judge one result folder as the round's checker does. Pure: no Django.

Follows ``check_results_dir()`` of mlcommons/mlperf_automotive
``tools/submission/submission_checker.py`` at ``rules.CHECKER_COMMIT``, gate by gate: the
system description, the model and scenario folders, ``check_measurement_dir()``,
``check_accuracy_dir()`` and ``check_performance_dir()`` (run_1 only). A result is
published (a row of the checker's CSV, hence of ``summary_results.json``) when no gate
fails. The inputs are what ``ingest/automotive/parsers/tree.py`` reads, named by Protocols
(``benchdb`` never imports ``ingest``); LoadGen logs are MLPerf Inference's, so the
Inference evidence helpers (``Finding``, ``number``, ``error_findings``) and the value
record (``Value``) are reused.

Not checked here, and why: the submitter-wide folder checks (links, files over 50 MB,
dot names, spaces, ``__pycache__``, empty folders) and the ``code/<model>`` folder of
``check_measurement_dir()``: they read the ``code/`` trees, left out of benchdb's copy;
compliance tests: this checker reads none (it prints ``compliance`` 1 for every row).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from benchdb.mlperf.automotive.performance import run_findings, run_value
from benchdb.mlperf.automotive.rules import (
    ALWAYS_OPTIONAL,
    INFERENCE_PEER,
    OPTIONAL_PERF_FILES,
    REQUIRED_ACC_FILES,
    REQUIRED_MEASURE_FILES,
    REQUIRED_PERF_FILES,
    SYSTEM_IMP_REQUIRED_FIELDS,
    AutomotiveRound,
    mlperf_model,
    scenario_of,
)
from benchdb.mlperf.inference.evidence import Finding, ResultLike, TextLike, error_findings
from benchdb.mlperf.inference.submission import is_network_system, system_desc_findings
from benchdb.mlperf.inference.value import Value

VALID, INVALID = "valid", "invalid"
_HASH = re.compile(r"^hash=([\w\d]+)$")


class MeasurementLike(Protocol):
    """``<division>/<submitter>/measurements/<system>/<model>/<scenario>/``: whether it
    exists, its file names, those of size 0, the ``<system>*.json`` chosen as the
    checker does ("" if none) and that file's JSON object."""

    @property
    def path(self) -> str: ...
    @property
    def exists(self) -> bool: ...
    @property
    def files(self) -> Sequence[str]: ...
    @property
    def empty(self) -> Sequence[str]: ...
    @property
    def system_file(self) -> str: ...
    @property
    def fields(self) -> Mapping[str, Any]: ...


class FolderLike(Protocol):
    """One result folder read: the Inference reader's result plus what this checker
    also lists (the file names of ``accuracy/`` and ``performance/run_1/``)."""

    @property
    def result(self) -> ResultLike: ...
    @property
    def measurement(self) -> MeasurementLike: ...
    @property
    def accuracy_files(self) -> Sequence[str]: ...
    @property
    def run_files(self) -> Sequence[str] | None: ...


@dataclass(frozen=True)
class Judgement:
    """What the checker decides of one result folder.

    ``status`` is ``valid`` (published) or ``invalid``; ``benchmark`` the MLPerf model,
    ``scenario`` the checker's scenario; ``value`` in ``value.unit`` (None when the log
    lacks it), ``direction`` ``lower``/``higher``; ``accuracy`` metric -> the text read
    from accuracy.txt, ``accuracy_text`` as the CSV prints it (``"mAP_3D: 0.2672..."``),
    ``accuracy_valid`` whether every accuracy rule holds (None without accuracy.txt; an
    open result is published without: its accuracy findings do not invalidate);
    ``findings`` every rule failed, in the checker's order (``invalidates`` False for
    what it only logs).
    """

    status: str
    benchmark: str
    scenario: str
    value: Value
    direction: str
    accuracy: dict[str, str]
    accuracy_text: str
    accuracy_valid: bool | None
    weight_data_types: str
    findings: tuple[Finding, ...]

    @property
    def reasons(self) -> list[str]:
        """The invalidating findings as ``path:line: message`` texts."""
        return [str(f) for f in self.findings if f.invalidates]


def files_diff(
    present: Sequence[str], required: Sequence[str], optional: Sequence[str] = ()
) -> set[str]:
    """``files_diff()``: the files missing or extra, ignoring the optional ones."""
    return set(present).symmetric_difference(required) - set(optional) - set(ALWAYS_OPTIONAL)


# --- the system, model and scenario gates ----------------------------------------------


def system_findings(rnd: AutomotiveRound, result: ResultLike) -> list[Finding]:
    """The system gates of ``check_results_dir()``, stopping at the first that fails:
    ``systems/<system>.json`` exists, ``status`` (lower-cased) is a valid availability,
    ``system_type`` is ``adas``, then ``check_system_desc_id()`` (required fields,
    meaningful ones non-empty, submitter and division equal to the folders, network mode:
    a closed system must not be over the network)."""
    f = result.folder
    path = f"{f.division}/{f.submitter}/systems/{f.system}.json"
    system = result.system_json
    if not result.system_exists:
        return [Finding("system_json_missing", path, None, "no system description", True)]
    status = str(system.get("status") or "").lower()
    if status not in rnd.availabilities:
        return [Finding("system_status", path, None, f"invalid status ({status!r})", True)]
    if system.get("system_type") not in rnd.system_types:
        msg = f"invalid system type ({system.get('system_type')!r})"
        return [Finding("system_type", path, None, msg, True)]
    out = network_findings(f.division, system, path)
    return out + system_desc_findings(INFERENCE_PEER, path, f, system)


def network_findings(division: str, system: Mapping[str, Any], path: str) -> list[Finding]:
    """``is_system_over_network()``: a ``network`` division system must be over the
    network, a ``closed`` one must not (``open``: either)."""
    expected = {"network": True, "closed": False}.get(division)
    found = is_network_system(system)
    if expected is None or expected is found:
        return []
    msg = f"incorrect network mode (={found}) for division {division!r}"
    return [Finding("network_mode", path, None, msg, True)]


def folder_findings(rnd: AutomotiveRound, result: ResultLike, benchmark: str) -> list[Finding]:
    """The model and scenario gates: a closed/network model folder must name a model of
    the round; every model must have required scenarios (``get_required()`` is None
    otherwise, any division); a closed/network scenario must be required or optional."""
    f = result.folder
    model_path = f.path.rsplit("/", 1)[0]
    closed = f.division in ("closed", "network")
    if closed and benchmark not in rnd.models:
        msg = f"invalid model {f.model} for {f.division} division"
        return [Finding("model_not_in_round", model_path, None, msg, True)]
    if benchmark not in rnd.required:
        msg = f"invalid model {benchmark}, system_type=adas"
        return [Finding("model_not_in_suite", model_path, None, msg, True)]
    allowed = rnd.required[benchmark] | rnd.optional.get(benchmark, frozenset())
    if closed and scenario_of(f.scenario) not in allowed:
        msg = f"scenario {f.scenario} is neither required nor optional"
        return [Finding("scenario_not_allowed", f.path, None, msg, True)]
    return []


def measurement_findings(m: MeasurementLike) -> tuple[list[Finding], str]:
    """``check_measurement_dir()`` (the folder must exist first): ``user.conf`` and
    ``README.md`` present and not empty; a ``<system>*.json`` with every
    ``SYSTEM_IMP_REQUIRED_FILES`` field non-empty. Returns (findings, the JSON's
    ``weight_data_types``, "" without one)."""
    if not m.exists:
        return [Finding("measurement_dir_missing", m.path, None, "no measurement_dir", True)], ""
    out = []
    for name in REQUIRED_MEASURE_FILES:
        if name not in m.files:
            out.append(Finding("measurement_file", m.path, None, f"missing {name}", True))
        elif name in m.empty:
            out.append(Finding("measurement_file", f"{m.path}/{name}", None, "empty", True))
    if not m.system_file:
        msg = "missing <system>*.json"
        return [*out, Finding("measurement_system_json", m.path, None, msg, True)], ""
    where = f"{m.path}/{m.system_file}"
    for k in SYSTEM_IMP_REQUIRED_FIELDS:
        if not m.fields.get(k):
            msg = f"field {k} is missing" if k not in m.fields else f"field {k} is empty"
            out.append(Finding("measurement_field", where, None, msg, True))
    return out, str(m.fields.get("weight_data_types") or "")


# --- accuracy ------------------------------------------------------------------------


def accuracy_read(
    rnd: AutomotiveRound, benchmark: str, text: TextLike
) -> tuple[dict[str, str], bool, bool]:
    """``check_accuracy_dir()``'s loop over accuracy.txt: each target metric through
    ``ACC_PATTERN`` with ``re.match``; the last value read of each kept as text; reading
    stops at the line where every metric has met its target and a ``hash=`` line was
    seen. Returns (metric -> value text, every metric met its target, hash seen)."""
    targets = rnd.accuracy_targets.get(benchmark, ())
    values: dict[str, str] = {}
    met = [False] * len(targets)
    all_ok = True
    hashed = False
    for line in text.lines:
        for i, (metric, target) in enumerate(targets):
            m = re.match(rnd.accuracy_patterns[metric], line)
            hashed = hashed or bool(_HASH.match(line))
            if m is None:
                continue
            try:
                ok = float(m.group(1)) >= target
            except ValueError:  # "[0-9.]+" also matches "1.2.3": the checker raises
                ok = False
            met[i] = met[i] or ok
            all_ok = all_ok and ok
            values[metric] = m.group(1)
        if all(met) and hashed:
            break
    return values, all_ok and all(met), hashed


def accuracy_text(values: Mapping[str, str]) -> str:
    """The CSV's ``Accuracy`` cell: ``json.dumps`` of metric -> text with ``,`` ``"``
    ``{`` ``}`` removed (``"mAP_3D: 0.2672970244966856"``)."""
    out = json.dumps(dict(values)).replace(",", " ").replace('"', "")
    return out.replace("{", "").replace("}", "").strip()


def accuracy_findings(
    rnd: AutomotiveRound, benchmark: str, folder: FolderLike
) -> tuple[dict[str, str], list[Finding]]:
    """``check_accuracy_dir()`` after the file-list gate: every metric at or above its
    target, a ``hash=`` line, ``mlperf_log_accuracy.json`` present and truncated
    (at most 10 KiB), the accuracy detail log present and free of LoadGen errors. In the
    open division a result with any accuracy value is taken all the same: its findings
    do not invalidate."""
    r = folder.result
    acc = f"{r.folder.path}/accuracy"
    text = r.accuracy
    if text is None:
        return {}, [Finding("accuracy_missing", acc, None, "no accuracy.txt", True)]
    diff = files_diff(folder.accuracy_files, REQUIRED_ACC_FILES)
    if diff:
        msg = f"file list mismatch ({sorted(diff)})"
        return {}, [Finding("accuracy_files", acc, None, msg, True)]
    if benchmark not in rnd.accuracy_targets:
        return {}, []  # the checker stops at the model gate (folder_findings) first
    values, ok, hashed = accuracy_read(rnd, benchmark, text)
    out = []
    if not ok:
        targets = dict(rnd.accuracy_targets.get(benchmark, ()))
        msg = f"accuracy not met: {dict(values)} < targets {targets}"
        out.append(Finding("accuracy_target", text.path, None, msg, True))
    if not hashed:
        msg = "no hash value for mlperf_log_accuracy.json"
        out.append(Finding("accuracy_hash", text.path, None, msg, True))
    if r.accuracy_log is None or r.accuracy_log.size > rnd.max_accuracy_log_bytes:
        what = "is missing" if r.accuracy_log is None else "is not truncated"
        out.append(Finding("accuracy_log", f"{acc}/mlperf_log_accuracy.json", None, what, True))
    if r.accuracy_detail is None:
        out.append(
            Finding("accuracy_detail", f"{acc}/mlperf_log_detail.txt", None, "missing", True)
        )
    else:
        out += error_findings(INFERENCE_PEER, r.accuracy_detail)
    if values and r.folder.division == "open":
        out = [Finding(f.rule, f.path, f.line, f.message, False) for f in out]
    return values, out


# --- one result ------------------------------------------------------------------------


def performance_findings(
    rnd: AutomotiveRound, benchmark: str, folder: FolderLike
) -> tuple[Value, list[Finding]]:
    """``performance/run_1`` (the only run read): present, its file list exactly the
    required logs (``spl.txt`` too with power), then ``check_performance_dir()``
    (``performance.run_findings``). Power (``performance/power/``) is not judged: no
    result of the round has it; a folder with it gets a finding that does not invalidate."""
    r = folder.result
    run_path = f"{r.folder.path}/performance/run_1"
    run = next((x for x in r.runs if x.path == run_path), None)
    if folder.run_files is None or run is None:
        return Value(None, "", ""), [Finding("run_missing", run_path, None, "is missing", True)]
    out = []
    required = REQUIRED_PERF_FILES + (("spl.txt",) if r.power_dir else ())
    diff = files_diff(folder.run_files, required, OPTIONAL_PERF_FILES)
    if diff:
        out.append(
            Finding("run_files", run_path, None, f"file list mismatch ({sorted(diff)})", True)
        )
    if r.power_dir:
        msg = "power logs present: not judged by benchdb (no v0.5 result has power)"
        out.append(
            Finding("power_not_judged", f"{r.folder.path}/performance/power", None, msg, False)
        )
    if run.detail is None:
        return Value(None, "", ""), out
    return run_value(rnd, run.detail), out + run_findings(rnd, benchmark, run.detail)


def judge(
    rnd: AutomotiveRound, folder: FolderLike, extra_mapping: Mapping[str, str] | None = None
) -> Judgement:
    """Judge one result folder with the round's tables (``rules.round_for``).

    ``extra_mapping``: model folder -> model, as ``--extra-model-benchmark-map`` (the
    open division's ``model_mapping.json`` is read from the result already). Every gate
    is evaluated (the checker stops at the first failing one, which changes only what it
    logs: any failing gate keeps the result out of the CSV). Never raises on bad input.
    """
    r = folder.result
    f = r.folder
    mapping = {**(r.model_mapping if f.division == "open" else {}), **(extra_mapping or {})}
    benchmark = mlperf_model(rnd, f.model, mapping)
    scenario = scenario_of(f.scenario)
    findings = system_findings(rnd, r) + folder_findings(rnd, r, benchmark)
    measured, weights = measurement_findings(folder.measurement)
    accuracy, acc_findings = accuracy_findings(rnd, benchmark, folder)
    value, perf = performance_findings(rnd, benchmark, folder)
    findings += measured + acc_findings + perf
    return Judgement(
        status=INVALID if any(x.invalidates for x in findings) else VALID,
        benchmark=benchmark,
        scenario=scenario,
        value=value,
        direction=rnd.direction(scenario),
        accuracy=accuracy,
        accuracy_text=accuracy_text(accuracy),
        accuracy_valid=not acc_findings if r.accuracy is not None else None,
        weight_data_types=weights,
        findings=tuple(findings),
    )
