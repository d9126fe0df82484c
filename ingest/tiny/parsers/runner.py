"""MLPerf Tiny's runner files, pure: an EnergyRunner / MLCommons runner ``results.txt``
(performance, accuracy, energy) -> the figures it prints, each with its 1-based line
and the line as written (the evidence a result page shows), and a system description
(``systems/<name>.json``) -> its fields.

What each line means is the runner's: EEMBC EnergyRunner 3.x for v1.2 (closed source:
the lines as the round's repository has them), ``mlcommons/tiny``
``benchmark/runner/main.py`` ``summarize_result`` / ``print_energy_results`` and
``streaming_ww_utils.py`` for v1.3. Which of these lines the official table reads,
and how, is :mod:`benchdb.mlperf.tiny.rules`. A line that names a figure but whose
number cannot be read raises :class:`ParseError` with the file and line.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from ingest.parsers.types import ParseError


@dataclass(frozen=True)
class Figure:
    """A number a runner printed: ``value``, its 1-based ``line`` and the ``text`` of
    that line (stripped of its line end)."""

    value: float
    line: int
    text: str


@dataclass(frozen=True)
class RunnerResults:
    """What one ``results.txt`` prints, in file order. ``windows``: per-window
    throughput, inf./sec. (performance: 5 windows); ``energies``: per-window energy per
    inference, uJ/inf.; ``powers``: per-window power, mW (v1.2 prints uW: converted);
    ``median_throughput`` (inf./sec.) and ``median_energy`` (uJ/inf.): the runner's
    summary lines; ``top1`` (percent) and ``auc`` (0..1): accuracy lines; streaming
    wakeword (v1.3): ``true_positives``, ``false_negatives``, ``false_positives``
    (one line), ``duty_cycle`` (0..1), ``estimated_throughput`` (inf./sec.)."""

    path: str
    windows: tuple[Figure, ...] = ()
    energies: tuple[Figure, ...] = ()
    powers: tuple[Figure, ...] = ()
    median_throughput: tuple[Figure, ...] = ()
    median_energy: tuple[Figure, ...] = ()
    top1: tuple[Figure, ...] = ()
    auc: tuple[Figure, ...] = ()
    detections: tuple[tuple[int, int, int, int, str], ...] = field(default=())
    duty_cycle: tuple[Figure, ...] = ()
    estimated_throughput: tuple[Figure, ...] = ()


_NUMBER = r"(\S+)"
#: label -> (what names the figure on a line, where its number is). A line the first
#: matches and the second does not, or whose number is not finite, is a ParseError.
_LABELS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "windows": (re.compile(r"\bThroughput\s*:"), re.compile(r"Throughput\s*:\s*" + _NUMBER)),
    "energies": (re.compile(r"Energy/Inf"), re.compile(r"Energy/Inf\.?\s*:\s*" + _NUMBER)),
    "powers": (
        re.compile(r"\bPower\s*:"),
        re.compile(r"Power\s*:\s*" + _NUMBER + r"\s*(mW|uW)"),
    ),
    "median_throughput": (
        re.compile(r"Median throughput is"),
        re.compile(r"Median throughput is\s*" + _NUMBER),
    ),
    "median_energy": (
        re.compile(r"Median energy cost is"),
        re.compile(r"Median energy cost is\s*" + _NUMBER),
    ),
    "top1": (re.compile(r"\bTop[- ]1"), re.compile(r"Top[- ]1%?\s*[:=]\s*" + _NUMBER)),
    "auc": (re.compile(r"\bAUC\b"), re.compile(r"AUC\s*[:=]\s*" + _NUMBER)),
    "duty_cycle": (
        re.compile(r"Average duty cycle"),
        re.compile(r"Average duty cycle:\s*" + _NUMBER),
    ),
    "estimated_throughput": (
        re.compile(r"Estimated throughput"),
        re.compile(r"Estimated throughput:\s*" + _NUMBER),
    ),
}
_DETECTIONS = re.compile(
    r"Accuracy: (\d+) True positives, (\d+) False negatives, (\d+) False positives"
)
#: Lines that only look like a label: "Cannot compute accuracy metrics ..." has none;
#: "Power Edition Output" is the energy file's title, not a power figure.
_NOT_FIGURES = re.compile(r"Power Edition Output")


def _number(label: str, line: str, path: str, n: int) -> float:
    m = _LABELS[label][1].search(line)
    if m is None:
        raise ParseError(
            f"{label.replace('_', ' ')}: no number in {line.strip()!r}", path=path, line=n
        )
    try:
        value = float(m.group(1).rstrip("%"))
    except ValueError:
        raise ParseError(
            f"{label.replace('_', ' ')}: {m.group(1)!r} is not a number", path=path, line=n
        ) from None
    if not math.isfinite(value):
        raise ParseError(f"{label.replace('_', ' ')}: {value} is not finite", path=path, line=n)
    if label == "powers" and (m.lastindex or 0) >= 2 and m.group(2) == "uW":
        value /= 1000.0
    return value


def parse_results(data: bytes, path: str) -> RunnerResults:
    """``results.txt`` bytes -> :class:`RunnerResults` (``path``: the file, relative to
    the round's root, for errors and evidence). Raises :class:`ParseError` naming the
    file and line when a line names a figure whose number cannot be read, or the bytes
    are not UTF-8 text."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", path=path) from None
    found: dict[str, list[Figure]] = {k: [] for k in _LABELS}
    detections = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if _NOT_FIGURES.search(line):
            continue
        if "Accuracy:" in line and "True positives" in line:
            m = _DETECTIONS.search(line)
            if m is None:
                raise ParseError(f"detections: cannot read {line.strip()!r}", path=path, line=n)
            tp, fn, fp = (int(g) for g in m.groups())
            detections.append((tp, fn, fp, n, line))
            continue
        for label, (names, _) in _LABELS.items():
            if label == "top1" and "Cannot compute" in line:
                break
            if names.search(line):
                found[label].append(Figure(_number(label, line, path, n), n, line))
                break
    return RunnerResults(
        path=path, detections=tuple(detections), **{k: tuple(v) for k, v in found.items()}
    )


@dataclass(frozen=True)
class SystemDescription:
    """A system description (``systems/<name>.json``): ``raw`` as the file has it, and
    what the official table reads of it (``submission_checker.py`` ``log_result``):
    ``status`` (``"Status"``, lower case), ``board_name`` (``"Board Name"``),
    ``processor``, ``accelerator``, ``framework``."""

    path: str
    raw: dict[str, object]
    status: str
    board_name: str
    processor: str
    accelerator: str
    framework: str


def parse_system(data: bytes, path: str) -> SystemDescription:
    """A system description's bytes -> :class:`SystemDescription`. Raises
    :class:`ParseError` (with the line of a JSON syntax error) when it is not a JSON
    object."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", path=path) from None
    except json.JSONDecodeError as exc:
        raise ParseError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    if not isinstance(raw, dict):
        raise ParseError("not a JSON object", path=path)

    def text(key: str) -> str:
        value = raw.get(key)
        return "" if value is None else str(value).strip()

    return SystemDescription(
        path=path,
        raw=raw,
        status=text("Status").lower(),
        board_name=text("Board Name"),
        processor=text("Processor(s) Name"),
        accelerator=text("Accelerator"),
        framework=text("Inference Framework"),
    )


#: The columns of v1.2's ``summary.csv`` (``submission_checker.py`` ``check_results_dir``
#: ``head``) a result is matched and compared by.
SUMMARY_KEY = ("Division", "Organization", "SystemDesc", "Model")


def parse_summary(data: bytes, path: str) -> dict[tuple[str, str, str, str], dict[str, str]]:
    """A round's published ``summary.csv`` -> (division, submitter folder, system folder,
    model folder) -> its row as written. Raises :class:`ParseError` naming the line
    when a row lacks a key column or repeats a key."""
    import csv
    import io

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", path=path) from None
    reader = csv.DictReader(io.StringIO(text))
    rows: dict[tuple[str, str, str, str], dict[str, str]] = {}
    for row in reader:
        line = reader.line_num
        if any(not row.get(k) for k in SUMMARY_KEY):
            raise ParseError(f"a row without {', '.join(SUMMARY_KEY)}", path=path, line=line)
        key = (row["Division"], row["Organization"], row["SystemDesc"], row["Model"])
        if key in rows:
            raise ParseError(f"{'/'.join(key)} listed twice", path=path, line=line)
        rows[key] = dict(row)
    return rows
