"""Plain data produced by the parsers: frozen dataclasses, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ParseError(ValueError):
    """A value that a parser cannot accept.

    ``path`` and ``line`` (1-based) locate it; ``field`` names what was being read.
    """

    def __init__(
        self, reason: str, *, path: str = "", line: int | None = None, field: str = ""
    ) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        what = f" ({self.field})" if self.field else ""
        return f"{where}: {self.reason}{what}"


@dataclass(frozen=True)
class Problem:
    """Something wrong in the input, kept with where it was found.

    ``severity`` is ``error`` (the thing it concerns was not stored or the run failed)
    or ``warning`` (stored all the same).
    """

    path: str
    line: int | None
    message: str
    severity: str = "error"


@dataclass(frozen=True)
class EvalPoint:
    """One ``eval_accuracy`` event: ``at`` is the epoch (or, for BERT, samples) it
    was logged at, ``value`` the accuracy (a dict for maskrcnn and SD), ``time_ms``
    the wall clock in ms since the epoch, ``line`` its 1-based line in the file."""

    at: float | None
    value: Any
    time_ms: float
    line: int


@dataclass(frozen=True)
class ParsedRun:
    """What one ``result_N.txt`` says.

    Times are wall-clock milliseconds since the Unix epoch (v0.5/v0.6 seconds are
    converted); lines are 1-based physical lines of the file.
    ``parse_errors`` lists log lines that did not parse (the first 20, then one
    summary line; ``parse_error_count`` counts them all). From v0.7 each one fails
    the run, as ``mlp_parser.parse_file`` + ``result_summarizer._read_result_file`` do.
    ``key_counts`` counts each key; ``repeated_differ`` names keys seen more than
    once with different values (``EXACTLY_ONE`` violations that are errors);
    ``repeated_times`` names ``run_start``/``run_stop`` when logged more than once at
    different times. ``warnings`` lists values kept in a changed form (a NUL replaced,
    a number out of range dropped, a long hyperparameter cut), with their lines.
    ``compliance``: what the round's compliance checker finds
    (``benchdb.mlperf.training.compliance.Finding``, errors then warnings); empty for
    rounds before v0.7 and when the log was parsed without a round.
    """

    path: str
    sha256: str
    size: int
    log_format: str  # "mlperf-0.5" | "mll-0.6" | "mllog" | "none"
    run_start_ms: float | None = None
    run_start_line: int | None = None
    run_stop_ms: float | None = None
    run_stop_line: int | None = None
    run_stop_status: str | None = None
    run_stop_has_status: bool = False
    init_start_ms: float | None = None
    init_stop_ms: float | None = None
    parse_errors: tuple[Problem, ...] = ()
    parse_error_count: int = 0
    key_counts: dict[str, int] = field(default_factory=dict)
    repeated_differ: tuple[str, ...] = ()
    repeated_times: tuple[str, ...] = ()
    evals: tuple[EvalPoint, ...] = ()
    eval_errors: tuple[EvalPoint, ...] = ()  # MLPerf HPC ``eval_error`` (cosmoflow, oc20)
    eval_unit: str = "epochs"  # "samples" when evals carry samples_count, not epoch_num
    hyperparameters: dict[str, Any] = field(default_factory=dict)
    submission: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()
    compressed_log: bytes = field(default=b"", repr=False)
    compliance: tuple[Any, ...] = ()
    compliance_ruleset: str = ""  # the rule directory checked ("training_3.0.0"), if any


#: Nodes, processors and accelerators of one system are counted below this (benchdb
#: sanity bound: the largest MLPerf Training system so far has about 10^4 accelerators).
MAX_COUNT = 10**6


@dataclass(frozen=True)
class ParsedSystem:
    """A system description file (``systems/<name>.json``, or v0.5 ``entry.json``).

    ``raw`` keeps every field as the file has it; the other fields are normalized
    (counts as ints, availability as ``available``/``preview``/``research``...).
    """

    path: str
    raw: dict[str, Any]
    division: str
    availability: str
    system_name: str
    submitter: str
    number_of_nodes: int | None
    host_processor_model: str
    host_processors_per_node: int | None
    accelerator_model: str
    accelerators_per_node: int | None
    framework: str
    software_stack: str
    problems: tuple[Problem, ...] = ()

    @property
    def accelerators(self) -> int | None:
        """Total accelerators, nodes x accelerators per node (None if unknown, or not
        below :data:`MAX_COUNT`)."""
        if self.number_of_nodes is None or self.accelerators_per_node is None:
            return None
        total = self.number_of_nodes * self.accelerators_per_node
        return total if total < MAX_COUNT else None


@dataclass(frozen=True)
class ResultDir:
    """One result folder: ``<submitter>/results/<system>/<benchmark>/``.

    Paths are relative to ``repo_root`` ("/"-separated); ``runs`` are the
    ``result_*.txt`` files directly in the folder, sorted by name. ``problems``: what
    was found but not read there (a linked run or systems file, an odd file name).
    """

    repo_root: str
    submitter_folder: str
    system_folder: str
    benchmark_folder: str
    path: str
    runs: tuple[str, ...]
    system_file: str | None
    scaling_file: str | None
    problems: tuple[Problem, ...] = ()
    scaling_type: str = ""  # MLPerf HPC: "strong" or "weak"; "" for training
    #: Training v4.0 on: True when the folder has ``power/``; its ``power/<run>/node_*.txt``
    #: and ``sw_*.txt`` files (sorted), as ``training_power.power_files`` finds them.
    has_power: bool = False
    power_files: tuple[str, ...] = ()
    #: Run files (``result_*.txt``) found but refused (a symbolic link, a FIFO): the
    #: result is not scored (its run count would shrink), each is in ``problems``.
    refused_runs: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadedResult:
    """A result folder read and parsed: what the ingest service stores.

    ``unchanged`` is True (and the rest empty) when ``content_sha256`` equals the
    one the caller already has, so nothing was parsed. ``system`` is None when the
    systems file is missing or unreadable (``problems`` says which).
    ``scaling_error`` says why a ``scaling.json`` that is there gives no factor.
    ``error`` is set (and nothing else) when the folder could not be read at all
    (an I/O error): nothing of it is stored and the next ingest reads it again.
    """

    dir: ResultDir
    content_sha256: str
    unchanged: bool
    system: ParsedSystem | None = None
    scaling_factor: float | None = None
    scaling_error: str = ""
    runs: tuple[ParsedRun, ...] = ()
    problems: tuple[Problem, ...] = ()
    error: str = ""
    #: ``(path, events)`` of each power log that parsed (``training_power``); the paths
    #: of those that did not are in ``power_failed`` (their problems in ``problems``).
    power_logs: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    power_failed: tuple[str, ...] = ()
    #: ``(run path, ingest.training.energy.RunPower)`` of each run, when the energies were
    #: computed where the logs were parsed (``ingest.training.energy.with_run_energies``; the
    #: ``power_logs`` are then dropped).
    power_runs: tuple[tuple[str, Any], ...] = ()
