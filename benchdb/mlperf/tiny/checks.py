"""Judge one MLPerf Tiny result folder (``results/<system>/<model>/``) as the round's
submission checker does (``submission_checker.py`` ``check_results_dir`` at
:data:`benchdb.mlperf.tiny.rules.CHECKER`), pure: what it reads (the evidence
lines), whether the result enters the table, and benchdb's recomputation of the
medians from the runner's window lines.

A result enters the table (``valid``) when its system description exists with a valid
``Status``, its model is a model of the round (closed division), its accuracy file
gives an accuracy meeting the target (closed division; the open division takes any),
its performance file gives the median throughput line and, when an ``energy`` folder
exists, its energy file gives the median energy line (else ``is_valid = False``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from benchdb.mlperf.tiny import rules


@dataclass(frozen=True)
class Finding:
    """A line the judgement read or a rule it applied: ``rule`` ("read: median
    throughput", "accuracy target"...), the file (relative to the round's root), the
    1-based line (None: the whole file or folder), ``message``; ``invalidates``: the
    rule keeps the result out of the table."""

    rule: str
    path: str
    line: int | None
    message: str
    invalidates: bool = False


@dataclass(frozen=True)
class Window:
    """A window figure a runner printed (throughput inf./sec. or energy uJ/inf.)."""

    value: float
    path: str
    line: int


@dataclass(frozen=True)
class ResultFiles:
    """One result folder as read: ``results``: test folder (``performance``,
    ``accuracy``, ``energy``) -> (path of its ``results.txt``, its lines without line
    ends); ``windows`` / ``energies``: the per-window figures for recomputing the
    medians (from ``results.txt``, else the test's ``log.txt``); ``status``: the
    system description's ``Status`` in lower case (None: no description)."""

    version: str
    division: str
    model_folder: str
    folder: str
    status: str | None
    results: Mapping[str, tuple[str, Sequence[str]]]
    windows: Sequence[Window] = ()
    energies: Sequence[Window] = ()


@dataclass
class Judgement:
    """The outcome: ``throughput`` (inf./sec., the checker's figure) and ``latency_ms``
    (the report's value, lower is better), ``energy`` (uJ/inf.; mW for sww: ``energy_unit``),
    ``accuracy`` (metric -> value as the checker read it), ``valid``, ``reasons`` (why
    not), ``findings`` (evidence and rules), the recomputed medians."""

    valid: bool = True
    throughput: rules.Read | None = None
    latency_ms: float | None = None
    energy: rules.Read | None = None
    energy_unit: str = ""
    accuracy: dict[str, float] = field(default_factory=dict)
    accuracy_text: str = ""
    accuracy_valid: bool | None = None
    reasons: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    median_throughput: float | None = None
    median_energy: float | None = None

    def reject(self, rule: str, path: str, line: int | None, message: str) -> None:
        self.valid = False
        self.reasons.append(message)
        self.findings.append(Finding(rule, path, line, message, True))

    def read(self, what: str, path: str, r: rules.Read, unit: str) -> None:
        self.findings.append(
            Finding(f"read: {what}", path, r.line, f"{r.text} {unit}: {r.evidence.strip()}")
        )


def judge(f: ResultFiles) -> Judgement:
    """Judge one result folder (see the module docstring). The model is the folder's
    name (the round's ``model_mapping`` is empty for v1.2 and v1.3)."""
    j = Judgement()
    closed = f.division == "closed"
    if f.status is None:
        j.reject(
            "system description",
            f.folder,
            None,
            "no readable system description (systems/<system>.json)",
        )
    elif f.status not in rules.AVAILABILITIES:
        j.reject("system status", f.folder, None, f"invalid Status {f.status!r}")
    models = rules.MODELS[f.version]
    if closed and f.model_folder not in models:
        j.reject(
            "model", f.folder, None, f"{f.model_folder!r} is not a model of the closed division"
        )
        return j
    if f.model_folder == "sww":
        _sww(f, j, closed)
    else:
        _accuracy(f, j, closed)
        _performance(f, j)
        _energy(f, j)
    if j.throughput is not None and j.throughput.value > 0:
        j.latency_ms = rules.latency_ms(j.throughput.value)
    return j


def _accuracy(f: ResultFiles, j: Judgement, closed: bool) -> None:
    if "accuracy" not in f.results:
        j.reject("accuracy file", f"{f.folder}/accuracy", None, "accuracy: no results.txt")
        return
    path, lines = f.results["accuracy"]
    if f.model_folder not in rules.ACCURACY_TARGETS:  # open division, unknown model
        j.reject("accuracy target", path, None, f"no accuracy target for {f.model_folder!r}")
        return
    metric, target = rules.ACCURACY_TARGETS[f.model_folder]
    r = rules.accuracy_read(f.version, f.model_folder, lines)
    if r is not None:
        j.read(f"accuracy ({metric})", path, r, "%" if metric == "top-1" else "")
        j.accuracy, j.accuracy_text = {metric: r.value}, r.text
    j.accuracy_valid = rules.accuracy_valid(f.model_folder, r.value if r else None)
    if not j.accuracy_valid:
        message = f"accuracy {metric} {r.text if r else 'not found'}: target {target:g} not met"
        if closed:
            j.reject("accuracy target", path, r.line if r else None, message)
        else:
            j.findings.append(
                Finding("accuracy target", path, r.line if r else None, message + " (open: taken)")
            )


def _performance(f: ResultFiles, j: Judgement) -> None:
    if "performance" not in f.results:
        j.reject("performance file", f"{f.folder}/performance", None, "performance: no results.txt")
        return
    path, lines = f.results["performance"]
    j.throughput = rules.performance_read(f.version, lines)
    if j.throughput is None:
        j.reject(
            "median throughput", path, None, "no 'Median throughput is' line the checker reads"
        )
        return
    j.read("median throughput", path, j.throughput, "inf./sec.")
    if f.windows:
        j.median_throughput = rules.median([w.value for w in f.windows])
        _recomputed(j, "throughput", f.windows, j.median_throughput, j.throughput, 0.0005)


def _energy(f: ResultFiles, j: Judgement) -> None:
    if "energy" not in f.results:
        return
    path, lines = f.results["energy"]
    j.energy, j.energy_unit = rules.energy_read(f.version, lines, f.model_folder), "uJ/inf."
    if j.energy is None:
        j.reject(
            "median energy", path, None, "energy folder without the 'Median energy cost is' line"
        )
        return
    j.read("median energy", path, j.energy, "uJ/inf.")
    if f.energies:
        j.median_energy = rules.median([w.value for w in f.energies])
        _recomputed(j, "energy", f.energies, j.median_energy, j.energy, 0.0005)


def _recomputed(
    j: Judgement,
    what: str,
    windows: Sequence[Window],
    value: float,
    printed: rules.Read,
    tol: float,
) -> None:
    """The median of the windows against the printed median: within the windows'
    printed precision (3 decimals: half a unit either way) it agrees, else it differs;
    either way a finding that does not invalidate (the check is benchdb's, not the
    checker's: the checker reads the printed line only)."""
    verdict = "agrees with" if abs(value - printed.value) <= tol + 1e-9 else "differs from"
    msg = f"median of {len(windows)} windows {value:.4f} {verdict} the printed {printed.text}"
    j.findings.append(Finding(f"recomputed: median {what}", windows[0].path, windows[0].line, msg))


def _sww(f: ResultFiles, j: Judgement, closed: bool) -> None:
    """Streaming wakeword: throughput, F1 and duty cycle from the energy folder's
    ``results.txt`` when there is one, else the performance folder's; power (mW) from
    the energy file (``check_results_dir`` sww branch, ``sww_perf_acc``)."""
    where = "energy" if "energy" in f.results else "performance"
    if where not in f.results:
        j.reject("performance file", f"{f.folder}/{where}", None, f"{where}: no results.txt")
        return
    path, lines = f.results[where]
    s = rules.sww_read(lines)
    if s.throughput is not None:
        j.throughput = s.throughput
        j.read("estimated throughput", path, s.throughput, "inf./sec.")
    if s.f1 is not None and s.detections_line is not None:
        j.accuracy = {
            "f1": s.f1,
            "tp": float(s.tp or 0),
            "fn": float(s.fn or 0),
            "fp": float(s.fp or 0),
        }
        j.accuracy_text = f"{s.f1!r}"
        ev = lines[s.detections_line - 1].strip()
        j.findings.append(
            Finding("read: detections", path, s.detections_line, f"F1 {s.f1:.4f}: {ev}")
        )
    if s.duty_cycle is not None:
        j.read("duty cycle", path, s.duty_cycle, "")
    if not s.valid:
        j.reject("streaming wakeword", path, None, "throughput, 50 positives or duty cycle missing")
        return
    j.accuracy_valid = rules.sww_accuracy_valid(s, closed)
    if not j.accuracy_valid:
        j.reject(
            "streaming wakeword",
            path,
            s.detections_line,
            f"FP={s.fp}, FN={s.fn}: over {rules.SWW_LIMIT}",
        )
    if "energy" in f.results:
        epath, elines = f.results["energy"]
        j.energy, j.energy_unit = rules.energy_read(f.version, elines, "sww"), "mW"
        if j.energy is None:
            j.reject("power", epath, None, "energy folder without a 'Power : ... mW' line")
        else:
            j.read("power", epath, j.energy, "mW")
