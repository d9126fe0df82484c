"""Plain data produced by the MLPerf Inference parsers: frozen dataclasses, no Django.

Problems reuse :class:`ingest.parsers.types.Problem` (path relative to the round's
root, 1-based line or None for a whole file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ingest.parsers.types import Problem


@dataclass(frozen=True)
class LoadgenLog:
    """A LoadGen ``mlperf_log_detail.txt``.

    ``log_format`` is ``mllog`` (v1.0+: ``:::MLLOG {json}`` lines) or ``text`` (v0.5/v0.7:
    ``"pid": ..., "ts": ...ns : key : value`` lines; only ``errors`` are read from those).
    ``values`` holds the value of the FIRST message of each kept key (what
    ``MLPerfLog.__getitem__`` of the checker returns) and ``lines`` its 1-based line.
    ``errors`` are (line, text) of messages flagged ``is_error`` (mllog) or lines holding
    ``ERROR`` (text). ``problems`` are lines that do not parse (a log cut short).
    """

    path: str
    size: int
    log_format: str
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    errors: tuple[tuple[int, str], ...] = ()
    line_count: int = 0
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class LoadgenSummary:
    """A LoadGen ``mlperf_log_summary.txt``: ``Key : value`` lines as text.

    ``values`` keeps the first value of each key (stripped), ``lines`` its 1-based line;
    ``result_valid`` is True/False from ``Result is : VALID|INVALID`` or None if absent.
    """

    path: str
    values: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    result_valid: bool | None = None
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class TextFile:
    """A small text file kept line by line (``accuracy.txt``, ``verify_*.txt``).

    ``lines`` are the physical lines without their line ending (CRLF or LF).
    """

    path: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class FileDigest:
    """Size and SHA-256 of a file read streaming (``mlperf_log_accuracy.json``)."""

    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class StoredFile:
    """A file read for a result, as it is stored: ``path`` relative to the round's root,
    ``kind`` (``detail``, ``summary``, ``accuracy``, ``accuracy_log``, ``power``,
    ``compliance``, ``conf``), ``size`` in bytes, ``sha256`` of the bytes, and ``data``:
    the bytes themselves (``b""`` for ``accuracy_log``, only hashed; the store compresses
    them)."""

    path: str
    kind: str
    size: int
    sha256: str
    data: bytes = b""


@dataclass(frozen=True)
class PowerSample:
    """One ``spl.txt`` line: ``Time,MM-DD-YYYY HH:MM:SS.fff,Watts,<W>,...``.

    ``time`` is the timestamp text as written (parsed by the rules, which know the
    round's time-zone handling), ``watts`` the 4th comma field, ``starts_with_time``
    whether the line starts with ``Time`` (v4.0+ checkers skip other lines).
    """

    line: int
    time: str
    watts: float
    starts_with_time: bool


@dataclass(frozen=True)
class PowerLog:
    """A ``spl.txt`` power log and the lines that did not parse."""

    path: str
    samples: tuple[PowerSample, ...]
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class PerformanceRun:
    """``performance/run_N/`` (or a compliance test's ``performance/run_1``).

    ``detail``/``summary`` are None when the file is absent (``missing`` names it).
    """

    path: str
    detail: LoadgenLog | None
    summary: LoadgenSummary | None
    spl: PowerLog | None = None
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComplianceTest:
    """``compliance/<system>/<model>/<scenario>/TEST0x/`` (v0.5: ``audit/``)."""

    name: str
    path: str
    verify_performance: TextFile | None
    verify_accuracy: TextFile | None
    performance: PerformanceRun | None
    baseline_accuracy: TextFile | None = None
    compliance_accuracy: TextFile | None = None
    accuracy_files: tuple[str, ...] = ()
    verify_output_len: TextFile | None = None  # TEST09 (v6.0+)
    run_files: tuple[str, ...] = ()  # the files of performance/run_1


@dataclass(frozen=True)
class ResultFolder:
    """One result: ``<division>/<submitter>/results/<system>/<model>/<scenario>/``.

    Paths are relative to the round's root (the repository root); ``model`` and
    ``scenario`` are the folder names as written.
    """

    division: str
    submitter: str
    system: str
    model: str
    scenario: str
    path: str


@dataclass(frozen=True)
class LoadedInferenceResult:
    """Everything read for one result folder (what the rules and the store need).

    ``runs`` are ``performance/run_1`` .. ``run_5`` in order; ``power_dir`` is True when
    ``performance/power/`` exists; ``power_timezones`` are the ``timezone`` seconds of
    ``power/client.json`` and ``server.json`` (None when absent); ``compliance`` is None
    when the result's compliance folder is absent; ``system_json`` is the system
    description (``{}`` if absent or unreadable); ``model_mapping`` is the submitter's
    ``model_mapping.json`` (open division); ``missing`` lists absent files the rules
    may need; ``measurement_confs`` are ``mlperf.conf`` and ``user.conf`` of
    ``measurements/<system>/<model>/<scenario>/``; ``elsewhere`` those of the absent files
    (here or in ``runs``) known to exist in the source (a snapshot manifest); ``problems``
    every parse problem of every file read; ``files`` every log and text file read (with
    their bytes when the tree keeps them, see ``Tree(keep=True)``) and ``system_file``
    the bytes of ``systems/<system>.json`` (b"" if absent), for the store;
    ``power_files`` the names in ``performance/power/`` (the checker's file list check);
    ``system_exists`` whether that file is here at all (the checker rejects every result
    of a system without one) and ``model_scenarios`` the scenario folder names of the
    result's model folder (its own included), for the required-scenarios rule.
    """

    folder: ResultFolder
    runs: tuple[PerformanceRun, ...]
    accuracy: TextFile | None
    accuracy_log: FileDigest | None
    accuracy_detail: LoadgenLog | None
    accuracy_images: tuple[str, ...] = ()
    power_dir: bool = False
    power_timezones: tuple[int | None, int | None] = (None, None)
    compliance: tuple[ComplianceTest, ...] | None = None
    system_json: dict[str, Any] = field(default_factory=dict)
    model_mapping: dict[str, str] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    elsewhere: tuple[str, ...] = ()
    measurement_confs: tuple[TextFile, ...] = ()
    problems: tuple[Problem, ...] = ()
    files: tuple[StoredFile, ...] = ()
    system_file: bytes = b""
    system_exists: bool = False
    model_scenarios: tuple[str, ...] = ()
    power_files: tuple[str, ...] = ()
    # v6.0+: ``measurements.json`` of the scenario folder (None if absent), the names of
    # the folder's non-empty files, whether ``<division>/<submitter>/src`` exists, and
    # the names in ``accuracy/videos`` (wan-2.2, v6.1's REQUIRED_ACC_BENCHMARK).
    measurements_json: dict[str, Any] | None = None
    folder_files: tuple[str, ...] = ()
    src_exists: bool = False
    accuracy_videos: tuple[str, ...] = ()
    # v6.1 endpoints folders: ``audit/audit_<test>.json`` as (file name, its "test",
    # its "passed"); a file that is not such JSON has test "" and passed False.
    endpoint_audits: tuple[tuple[str, str, bool], ...] = ()
