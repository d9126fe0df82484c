"""MLPerf Tiny's official rules, pure: what the round's submission checker reads from a
result's runner files, and what the final report makes of it.

Sources (``mlcommons/tiny``, ``tools/submission/``), each at the commit a round used:

* v1.2: ``submission_checker.py`` at :data:`CHECKER` ["v1.2"] (d3f7e57, "Add submission
  checker", 2024-03-06, the checker that wrote ``summary.csv``);
* v1.3: ``submission_checker.py`` at :data:`CHECKER` ["v1.3"] (4b503b8, "Streaming ww
  dev (#177)", 2025-07-31: v1.3's models, the new runner's line formats, streaming
  wakeword);
* both: ``generate_final_report.py`` at :data:`REPORT` (d3f7e57; unchanged until
  1afd2c9, v1.4): latency = 1000 / throughput and the result IDs.

The runners (EEMBC EnergyRunner for v1.2; ``benchmark/runner/main.py`` for v1.3) print
the median of the 5 performance windows and of the 5 energy windows; benchdb
recomputes those medians from the window lines (:func:`median`) and checks them
against the printed line the checker reads.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

CHECKER: Mapping[str, str] = {
    "v1.2": "d3f7e572fdb484289bdff9f461315afcdd55f675",
    "v1.3": "4b503b872219cb9c9729c957c9fa1fbd7c9e417a",
}
REPORT = "d3f7e572fdb484289bdff9f461315afcdd55f675"
ROUNDS: Mapping[str, str] = CHECKER
#: Round -> publication date: the day (the committer's, as ``git log --date=short``
#: prints it) of the newest commit of the round's results repository as published, whose
#: whole history is that publication: mlcommons/tiny_results_v1.2 cadb362 ("Merge pull
#: request #1 from mlcommons/create-readme", 2024-04-17; results committed b448c5c on
#: 2024-04-16, README for v1.2 on 2024-04-17); mlcommons/tiny_results_v1.3 cd605ea ("Add
#: Supplemental Discussion", 2025-09-16; results committed eae9ef9 on 2025-09-15). The
#: same rule gives Storage v1.0 its date (:data:`benchdb.mlperf.storage.rules.PUBLISHED`).
PUBLISHED: Mapping[str, date] = {"v1.2": date(2024, 4, 17), "v1.3": date(2025, 9, 16)}

#: ``MODEL_CONFIG[version]["models"]`` (submission_checker.py).
MODELS: Mapping[str, tuple[str, ...]] = {
    "v1.2": ("ad", "ic", "kws", "vww"),
    "v1.3": ("ad", "ic", "kws", "vww", "sww"),
}
#: ``MODEL_CONFIG[version]["accuracy-target"]``: (metric, minimum); sww's is FP and FN
#: at most 8 each (closed division), checked in :func:`sww_accuracy_valid`.
ACCURACY_TARGETS: Mapping[str, tuple[str, float]] = {
    "ad": ("auc", 0.85),
    "ic": ("top-1", 85.0),
    "kws": ("top-1", 90.0),
    "vww": ("top-1", 80.0),
}
SWW_LIMIT = 8
SWW_POSITIVES = 50
#: ``VALID_AVAILABILITIES`` (submission_checker.py, both commits).
AVAILABILITIES = ("available", "preview", "rdi")
VALID_DIVISIONS = ("open", "closed")

#: ``ACC_PATTERN`` (submission_checker.py): v1.2 reads "Top-1: 90.2%" / "AUC: 0.99";
#: v1.3 also "Top 1% = 85.4" / "AUC = 0.862". Matched with ``re.match`` per line.
_ACC = {
    "v1.2": {"top-1": r".* Top-1: ([\d\.]+).*", "auc": r".* AUC: ([\d\.]+).*"},
    "v1.3": {"top-1": r".* Top[- ]1%?\s?[:=] ([\d\.]+).*", "auc": r".* AUC\s?[:=] ([\d\.]+).*"},
}
#: ``check_performance_dir`` (``re.match``); v1.3 allows several spaces.
_PERF = {
    "v1.2": r".* Median throughput is ([\d\.]+) inf\./sec\..*",
    "v1.3": r".* Median throughput is\s+([\d\.]+) inf\./sec\..*",
}
#: ``check_power_dir``: v1.2 ``re.match``, v1.3 ``re.search`` (sww: its power in mW).
_ENERGY = {
    "v1.2": (r".* Median energy cost is ([\d\.]+) uJ/inf\..*", False),
    "v1.3": (r"Median energy cost is ([\d\.]+) uJ/inf", True),
}
_SWW_POWER = r"Power\s+: ([\d\.]+) mW.*"
_SWW_THROUGHPUT = r"Estimated throughput:\s*([\d\.]+) inf\./sec\..*"
_SWW_DETECTIONS = (
    r"Accuracy: ([\d]+) True positives, ([\d]+) False negatives, ([\d]+) False positives"
)
_SWW_DUTY = r"Average duty cycle:\s*([\d\.]+)"


@dataclass(frozen=True)
class Read:
    """What the checker takes from a file: ``text`` as matched (the table prints it),
    ``value`` as a float, the 1-based ``line`` and the line itself (``evidence``)."""

    text: str
    value: float
    line: int
    evidence: str


def _last(pattern: str, lines: Sequence[str], search: bool = False) -> Read | None:
    """The checker's loop: every line is tried, the last match wins (it overwrites)."""
    rx = re.compile(pattern)
    found = None
    for n, line in enumerate(lines, start=1):
        m = rx.search(line) if search else rx.match(line)
        if m:
            found = (m.group(1), n, line)
    if found is None:
        return None
    try:
        value = float(found[0])
    except ValueError:  # "1.2.3": the checker's float() raises, its result is lost
        return None
    return Read(found[0], value, found[1], found[2])


def performance_read(version: str, lines: Sequence[str]) -> Read | None:
    """The median throughput (inf./sec.) the checker reads from a performance
    ``results.txt`` (``lines`` without line ends); None when no line matches (the
    checker's ``float(None)`` fails: no result). Source: submission_checker.py
    ``check_performance_dir`` at :data:`CHECKER` [version]."""
    return _last(_PERF[version], lines)


def energy_read(version: str, lines: Sequence[str], model: str) -> Read | None:
    """The energy figure the checker reads from an energy ``results.txt``: the median
    energy per inference (uJ/inf.), or for v1.3's streaming wakeword the power (mW);
    None when no line matches. Source: submission_checker.py ``check_power_dir``."""
    if version != "v1.2" and model == "sww":
        return _last(_SWW_POWER, lines, search=True)
    pattern, search = _ENERGY[version]
    return _last(pattern, lines, search)


def accuracy_read(version: str, model: str, lines: Sequence[str]) -> Read | None:
    """The accuracy the checker reads from an accuracy ``results.txt``: Top-1 (percent)
    or AUC (0..1) per :data:`ACCURACY_TARGETS`; None when no line matches. Raises
    KeyError for a model with no target. Source: ``check_accuracy_dir``."""
    metric = ACCURACY_TARGETS[model][0]
    return _last(_ACC[version][metric], lines)


def accuracy_valid(model: str, value: float | None) -> bool:
    """``acc and float(acc) >= acc_target`` (``check_accuracy_dir``)."""
    return value is not None and value >= ACCURACY_TARGETS[model][1]


@dataclass(frozen=True)
class SwwRead:
    """Streaming wakeword (v1.3): ``throughput`` (inf./sec.), detections, F1 and the
    duty cycle, each with its line (``submission_checker.py`` ``sww_perf_acc``)."""

    throughput: Read | None
    tp: int | None
    fn: int | None
    fp: int | None
    detections_line: int | None
    duty_cycle: Read | None

    @property
    def f1(self) -> float | None:
        """``2*tp/(2*tp+fp+fn)`` (``sww_perf_acc``), None without the detections line."""
        if self.tp is None or self.fn is None or self.fp is None:
            return None
        return f1_score(self.tp, self.fp, self.fn)

    @property
    def valid(self) -> bool:
        """``has_throughput and has_accuracy and has_duty_cycle``, where the accuracy
        counts only when ``tp + fn == 50``."""
        counted = self.tp is not None and self.fn is not None and self.tp + self.fn == SWW_POSITIVES
        return self.throughput is not None and counted and self.duty_cycle is not None


def f1_score(tp: int, fp: int, fn: int) -> float:
    """F1 of wakeword detections: ``2*tp / (2*tp + fp + fn)`` (``sww_perf_acc``).
    Raises ZeroDivisionError when all three are 0."""
    return 2 * tp / (2 * tp + fp + fn)


def sww_read(lines: Sequence[str]) -> SwwRead:
    """What ``sww_perf_acc`` reads from a streaming wakeword ``results.txt`` (the energy
    folder's when there is one, else the performance folder's): the last line of each."""
    det = None
    rx = re.compile(_SWW_DETECTIONS)
    for n, line in enumerate(lines, start=1):
        m = rx.search(line)
        if m:
            det = (*(int(g) for g in m.groups()), n)
    throughput = _last(_SWW_THROUGHPUT, lines, search=True)
    duty = _last(_SWW_DUTY, lines, search=True)
    if det is None:
        return SwwRead(throughput, None, None, None, None, duty)
    return SwwRead(throughput, det[0], det[1], det[2], det[3], duty)


def sww_accuracy_valid(read: SwwRead, closed: bool) -> bool:
    """FP and FN at most 8 each in the closed division; the open division takes any
    (``check_results_dir``, sww branch)."""
    if read.fp is None or read.fn is None:
        return False
    return not closed or (read.fp <= SWW_LIMIT and read.fn <= SWW_LIMIT)


def median(values: Sequence[float]) -> float:
    """The median of the windows' figures (throughput inf./sec., or energy uJ/inf.):
    ``numpy.median`` (the mean of the two middle values for an even count), as the
    v1.3 runner computes it (``benchmark/runner/main.py`` ``summarize_result``,
    ``print_energy_results``). Raises statistics.StatisticsError when empty."""
    return statistics.median(values)


def latency_ms(throughput: float) -> float:
    """Latency in ms from the throughput in inf./sec.: ``1000 / Result``
    (``generate_final_report.py`` ``MakeWorksheet``, "results should be converted from
    inf./sec. to latency in millisec."). Raises ZeroDivisionError for 0."""
    return 1000 / throughput


def report_version(version: str) -> str:
    """The ``--version`` argument the report's IDs carry ("v1.2" -> "1.2")."""
    return version.lstrip("v")


def result_ids(version: str, rows: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """Result IDs as ``generate_final_report.py`` ``main`` numbers them: each row
    (``Category``: division, ``Availability``, ``Submitter``, ``BoardName``,
    ``UsedModel``: the model folder) gets the Unique ID ``Category/Submitter/BoardName``
    (open division: ``/UsedModel`` appended; ``MakeUniqueID``); rows are sorted by
    (Category, Availability, Submitter, Unique ID) and numbered by first appearance:
    ``"1.2-0001"``. Availability ``on-premise`` counts as ``available``. Returns
    Unique ID -> result ID."""
    keyed = []
    for r in rows:
        parts = [r["Category"], r["Submitter"], r["BoardName"]]
        if r["Category"] == "open":
            parts.append(r["UsedModel"])
        avail = "available" if r["Availability"] == "on-premise" else r["Availability"]
        keyed.append((r["Category"], avail, r["Submitter"], "/".join(parts)))
    ids: dict[str, str] = {}
    for *_, unique in sorted(keyed):
        if unique not in ids:
            ids[unique] = f"{report_version(version)}-{len(ids) + 1:04}"
    return ids


def unique_id(division: str, submitter: str, board: str, model_folder: str) -> str:
    """``MakeUniqueID`` of one result (see :func:`result_ids`)."""
    parts = [division, submitter, board] + ([model_folder] if division == "open" else [])
    return "/".join(parts)
