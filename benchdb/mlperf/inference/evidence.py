"""What the MLPerf Inference rules read, as Protocols, and what they report. Pure.

The parsers (``ingest/inference/parsers/types.py``) produce frozen dataclasses with these
attributes; ``benchdb`` never imports ``ingest``, so the rules name only the shapes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from benchdb.mlperf.inference.rounds import RoundKey, ignored_errors


def round_key(version: str) -> RoundKey:
    """``"v4.1"`` -> ``(4, 1)``. Raises ValueError on anything else."""
    major, minor = version.lstrip("v").split(".")[:2]
    return int(major), int(minor)


@dataclass(frozen=True)
class Finding:
    """A rule a result fails: ``rule`` names it, ``path``/``line`` (1-based, None for a
    whole file) locate the evidence, ``invalidates`` is whether the round's checker rejects
    the result for it (otherwise the checker only logs it)."""

    rule: str
    path: str
    line: int | None
    message: str
    invalidates: bool

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class ProblemLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def message(self) -> str: ...


class LogLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def log_format(self) -> str: ...
    @property
    def values(self) -> Mapping[str, Any]: ...
    @property
    def lines(self) -> Mapping[str, int]: ...
    @property
    def errors(self) -> Sequence[tuple[int, str]]: ...
    @property
    def line_count(self) -> int: ...
    @property
    def problems(self) -> Sequence[ProblemLike]: ...


class SummaryLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def values(self) -> Mapping[str, str]: ...
    @property
    def lines(self) -> Mapping[str, int]: ...
    @property
    def result_valid(self) -> bool | None: ...


class TextLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def lines(self) -> Sequence[str]: ...


class SampleLike(Protocol):
    @property
    def line(self) -> int: ...
    @property
    def time(self) -> str: ...
    @property
    def watts(self) -> float: ...
    @property
    def starts_with_time(self) -> bool: ...


class PowerLogLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def samples(self) -> Sequence[SampleLike]: ...


class RunLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def detail(self) -> LogLike | None: ...
    @property
    def summary(self) -> SummaryLike | None: ...
    @property
    def spl(self) -> PowerLogLike | None: ...
    @property
    def missing(self) -> Sequence[str]: ...


class ComplianceLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def verify_performance(self) -> TextLike | None: ...
    @property
    def verify_accuracy(self) -> TextLike | None: ...
    @property
    def performance(self) -> RunLike | None: ...
    @property
    def baseline_accuracy(self) -> TextLike | None: ...
    @property
    def compliance_accuracy(self) -> TextLike | None: ...
    @property
    def accuracy_files(self) -> Sequence[str]: ...
    @property
    def verify_output_len(self) -> TextLike | None: ...
    @property
    def run_files(self) -> Sequence[str]: ...


class FolderLike(Protocol):
    @property
    def division(self) -> str: ...
    @property
    def submitter(self) -> str: ...
    @property
    def system(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def scenario(self) -> str: ...
    @property
    def path(self) -> str: ...


class DigestLike(Protocol):
    @property
    def size(self) -> int: ...


class ResultLike(Protocol):
    @property
    def folder(self) -> FolderLike: ...
    @property
    def runs(self) -> Sequence[RunLike]: ...
    @property
    def accuracy(self) -> TextLike | None: ...
    @property
    def accuracy_log(self) -> DigestLike | None: ...
    @property
    def accuracy_detail(self) -> LogLike | None: ...
    @property
    def accuracy_images(self) -> Sequence[str]: ...
    @property
    def power_dir(self) -> bool: ...
    @property
    def power_timezones(self) -> tuple[int | None, int | None]: ...
    @property
    def compliance(self) -> Sequence[ComplianceLike] | None: ...
    @property
    def system_json(self) -> Mapping[str, Any]: ...
    @property
    def model_mapping(self) -> Mapping[str, str]: ...
    @property
    def missing(self) -> Sequence[str]: ...
    @property
    def elsewhere(self) -> Sequence[str]: ...
    @property
    def measurement_confs(self) -> Sequence[TextLike]: ...
    @property
    def system_exists(self) -> bool: ...
    @property
    def model_scenarios(self) -> Sequence[str]: ...
    @property
    def power_files(self) -> Sequence[str]: ...
    @property
    def measurements_json(self) -> Mapping[str, Any] | None: ...
    @property
    def folder_files(self) -> Sequence[str]: ...
    @property
    def src_exists(self) -> bool: ...
    @property
    def accuracy_videos(self) -> Sequence[str]: ...
    @property
    def endpoint_audits(self) -> Sequence[tuple[str, str, bool]]: ...


def number(log: LogLike, key: str) -> float | None:
    """A numeric value of a detail log (:func:`finite_number` of it)."""
    return finite_number(log.values.get(key))


def finite_number(v: Any) -> float | None:
    """``v`` as a float; None for booleans, text, and numbers that are not finite floats
    (NaN, infinities, integers beyond the float range)."""
    if not isinstance(v, int | float) or isinstance(v, bool):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def line_of(log: LogLike, key: str) -> int | None:
    """The line of a key, or the last line of the log when the key is absent."""
    return log.lines.get(key, log.line_count or None)


def finding_at(log: LogLike, key: str, rule: str, message: str, invalidates: bool) -> Finding:
    """A finding located at the line of ``key`` in a detail log (its last line if absent)."""
    return Finding(rule, log.path, line_of(log, key), message, invalidates)


def error_findings(rt: RoundKey, log: LogLike) -> list[Finding]:
    """``find_error_in_detail_log()``: any LoadGen ERROR invalidates, except the round's
    ``ignore_errors`` texts."""
    ignored = ignored_errors(rt)
    return [
        Finding("loadgen_error", log.path, line, f"LoadGen error: {text[:200]}", True)
        for line, text in log.errors
        if not any(i in text for i in ignored)
    ]
