"""An MLPerf Mobile round's tree -> judged records, pure (files through
``ingest.parsers.safe_tree``: no link followed, sizes bounded).

Layouts (``<division>/<submitter>/results/<system>/``), both in the rounds here:

* ``<task id>-performance/`` and ``<task id>-accuracy/`` (the app's own folders: v4.0
  Samsung, v5.0);
* ``<model folder>/<scenario>/log_performance/`` and ``log_accuracy/`` (Qualcomm v4.0,
  v4.1; the folder names: ``benchmark_rules.MODEL_FOLDERS``);

each beside the app's ``result.json`` or the command line's ``performance_results.txt``
/ ``accuracy_results.txt``; ``<division>/<submitter>/systems/<system>.json``. A result
is a task on a system: ``<division>/<submitter>/results/<system>/<task id>`` (a key,
not a folder). LoadGen traces (``mlperf_log_trace*``, some split in parts) and
``mlperf_log_accuracy.json`` are not read. A file that cannot be read or parsed is a
problem naming the file and line; the result is judged without it and the round goes on.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from benchdb.mlperf.mobile import checks
from benchdb.mlperf.mobile import rules as benchmark_rules
from benchdb.mlperf.mobile.rules import Inputs, Judgement, Read
from ingest.inference.parsers.loadgen import parse_detail_log
from ingest.inference.parsers.types import LoadgenLog
from ingest.mobile.parsers.app import (
    AppEntry,
    SystemInfo,
    TextEntry,
    parse_result_json,
    parse_results_txt,
    parse_system,
)
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem

T = TypeVar("T")
KEPT = ("mlperf_log_detail.txt", "mlperf_log_summary.txt")
_SETTINGS = ("requested_min_query_count", "requested_min_duration_ms", "requested_max_duration_ms")
_APP_DIR = re.compile(r"(.+)-(performance|accuracy)")


@dataclass(frozen=True)
class MobileFile:
    """A file of a result: path relative to the round's root, kind, size, sha256, bytes."""

    path: str
    kind: str
    size: int
    sha256: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class MobileRecord:
    """One judged result (a task on a system); ``app``: its ``result.json`` entry,
    ``text``: its ``*_results.txt`` entries (file -> entry)."""

    path: str
    division: str
    submitter: str
    system: str
    benchmark_id: str
    system_info: SystemInfo | None
    app: AppEntry | None
    text: dict[str, TextEntry]
    judgement: Judgement
    files: tuple[MobileFile, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class RoundRead:
    """Every record of a round and the problems of the tree itself."""

    records: tuple[MobileRecord, ...]
    problems: tuple[Problem, ...]


def _problem(exc: Exception, path: str) -> Problem:
    if isinstance(exc, ParseError):
        return Problem(exc.path or path, exc.line, exc.reason)
    return Problem(path, None, f"{type(exc).__name__}: {exc}")


class _Reader:
    """Reads files of one system folder, keeping what it read and what went wrong."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.files: list[MobileFile] = []
        self.problems: list[Problem] = []

    def read(self, rel: str, kind: str) -> bytes | None:
        if safe_tree.kind(self.root, rel) != "file":
            return None
        try:
            data = safe_tree.read_file(self.root, rel, safe_tree.LOG_BYTES)
        except (ParseError, OSError) as exc:
            self.problems.append(_problem(exc, rel))
            return None
        self.files.append(MobileFile(rel, kind, len(data), hashlib.sha256(data).hexdigest(), data))
        return data


def read_round(root: str, version: str) -> RoundRead:
    """Read and judge every result under ``root`` (a Mobile results repository of round
    ``version``, a key of :data:`benchdb.mlperf.mobile.rules.ROUNDS`)."""
    records: list[MobileRecord] = []
    problems: list[Problem] = []
    for division in benchmark_rules.DIVISIONS:
        if safe_tree.kind(root, division) != "dir":
            continue
        for submitter in safe_tree.list_dir(root, division).dirs:
            base = f"{division}/{submitter}"
            if safe_tree.kind(root, f"{base}/results") != "dir":
                continue
            try:
                systems = safe_tree.list_dir(root, f"{base}/results").dirs
            except (ParseError, OSError) as exc:
                problems.append(_problem(exc, f"{base}/results"))
                continue
            for system in systems:
                records += _system_records(root, version, base, system, problems)
    return RoundRead(tuple(records), tuple(problems))


def _log_dirs(root: str, folder: str, problems: list[Problem]) -> dict[str, dict[str, str]]:
    """Task id -> {"performance"|"accuracy": log folder} of a system folder."""
    out: dict[str, dict[str, str]] = {}
    for d in safe_tree.list_dir(root, folder).dirs:
        m = _APP_DIR.fullmatch(d)
        if m:
            out.setdefault(m.group(1), {})[m.group(2)] = f"{folder}/{d}"
            continue
        for scenario in safe_tree.list_dir(root, f"{folder}/{d}").dirs:
            task = benchmark_rules.MODEL_FOLDERS.get((d.lower(), scenario))
            if task is None:
                problems.append(
                    Problem(f"{folder}/{d}/{scenario}", None, "folder of no task of the app")
                )
                continue
            for mode in ("performance", "accuracy"):
                out.setdefault(task, {})[mode] = f"{folder}/{d}/{scenario}/log_{mode}"
    return out


def _system_records(
    root: str, version: str, base: str, system: str, problems: list[Problem]
) -> list[MobileRecord]:
    folder = f"{base}/results/{system}"
    shared = _Reader(root)
    info = _parsed(shared, f"{base}/systems/{system}.json", "system", parse_system)
    app = {
        e.benchmark_id: e
        for e in _parsed(shared, f"{folder}/result.json", "app", parse_result_json) or ()
    }
    text: dict[str, dict[str, TextEntry]] = {}
    for name in ("performance_results.txt", "accuracy_results.txt"):
        for e in _parsed(shared, f"{folder}/{name}", name[:11], parse_results_txt) or ():
            text.setdefault(e.benchmark_id, {}).setdefault(f"{folder}/{name}", e)
    try:
        logs = _log_dirs(root, folder, problems)
    except (ParseError, OSError) as exc:
        problems.append(_problem(exc, folder))
        logs = {}
    problems += shared.problems
    tasks = sorted(set(app) | set(text) | set(logs))
    return [
        _record(
            root, version, folder, t, info, app.get(t), text.get(t, {}), logs.get(t, {}), shared
        )
        for t in tasks
    ]


def _parsed(reader: _Reader, rel: str, kind: str, parse: Callable[[bytes, str], T]) -> T | None:
    data = reader.read(rel, kind)
    if data is None:
        return None
    try:
        return parse(data, rel)
    except ParseError as exc:
        reader.problems.append(_problem(exc, rel))
        return None


def _record(
    root: str,
    version: str,
    folder: str,
    task: str,
    info: SystemInfo | None,
    app: AppEntry | None,
    text: dict[str, TextEntry],
    logs: dict[str, str],
    shared: _Reader,
) -> MobileRecord:
    division, submitter, _, system = folder.split("/")
    r = _Reader(root)
    detail = None
    for mode in ("performance", "accuracy"):
        where = logs.get(mode)
        for name in KEPT if where else ():
            data = r.read(f"{where}/{name}", f"{mode[:4]}-{name[11:].split('.')[0]}")
            if data is not None and mode == "performance" and name == KEPT[0]:
                detail = parse_detail_log(data, f"{where}/{name}")
                r.problems.extend(detail.problems)
    used = {info.path if info else "", app.path if app else "", *text}
    return MobileRecord(
        path=f"{folder}/{task}",
        division=division,
        submitter=submitter,
        system=system,
        benchmark_id=task,
        system_info=info,
        app=app,
        text=text,
        judgement=checks.judge(_inputs(version, task, detail, app, text)),
        files=tuple([f for f in shared.files if f.path in used] + r.files),
        problems=tuple(r.problems),
    )


def _inputs(
    version: str,
    task: str,
    detail: LoadgenLog | None,
    app: AppEntry | None,
    text: dict[str, TextEntry],
) -> Inputs:
    """The judgement's inputs: LoadGen's figures from the performance detail log, the
    app's from ``result.json``, else the command line's text."""

    def log(key: str) -> Read | None:
        if detail is None or key not in detail.values:
            return None
        return Read(detail.values[key], detail.path, detail.lines.get(key))

    accuracy = None
    if app is not None and app.accuracy_text:
        accuracy = Read(app.accuracy, app.path, app.line, app.accuracy_text)
    for path, e in text.items():
        if accuracy is None and "Accuracy" in e.values:
            t, line = e.values["Accuracy"]
            accuracy = Read(None, path, line, t)
    return Inputs(
        version=version,
        benchmark_id=task,
        scenario=log("effective_scenario"),
        latency90_ns=log("result_90.00_percentile_latency_ns"),
        validity=log("result_validity"),
        samples_per_second=log("result_samples_per_second"),
        app_samples=Read(app.measured_samples, app.path, app.line) if app else None,
        accuracy=accuracy,
        published=Read(app.throughput, app.path, app.line) if app and app.throughput else None,
        published_latency=Read(app.latency90_s, app.path, app.line) if app else None,
        settings={k: r for k in _SETTINGS if (r := log(k)) is not None},
    )
