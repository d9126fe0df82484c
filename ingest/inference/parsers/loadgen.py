"""Parsers of MLPerf Inference LoadGen output and the small files beside it. Pure: bytes in.

* ``mlperf_log_detail.txt``: from v1.0 one ``:::MLLOG {json}`` message per line
  (``loadgen/logging.cc``); the checker reads it with ``MLPerfLog``
  (``tools/submission/log_parser.py``: first message of a key wins, lines not starting
  with ``:::MLLOG`` are ignored, an unparsable ``:::MLLOG`` line raises). v0.5/v0.7 detail
  logs are text (``"pid": .., "ts": ..ns : key : value``) and only scanned for ``ERROR``
  (``find_error_in_detail_log()`` of the v0.7/v1.1 checkers).
* ``mlperf_log_summary.txt``: ``Key : value`` text (``PerformanceSummary::LogSummary()``).
* ``accuracy.txt`` / ``verify_*.txt``: kept as lines; the rules apply the round's patterns.
* ``spl.txt``: PTDaemon samples ``Time,<MM-DD-YYYY HH:MM:SS.fff>,Watts,<W>,...``.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.inference.parsers.types import (
    LoadgenLog,
    LoadgenSummary,
    PowerLog,
    PowerSample,
    TextFile,
)
from ingest.parsers import safe_json
from ingest.parsers.types import Problem

MLLOG = ":::MLLOG"

#: Keys whose (large) values no rule reads: their lines are checked for shape only,
#: not decoded (``loaded_qsl_set`` alone is most of a detail log).
SKIPPED_KEYS = frozenset(
    {"loaded_qsl_set", "loadgen_file_sha1", "loadgen_git_log_message", "generic_message"}
)

_KEY_PREFIX = b':::MLLOG {"key": "'
_MLLOG_B = MLLOG.encode()
_SKIPPED_B = frozenset(k.encode() for k in SKIPPED_KEYS)
_SUMMARY = re.compile(r"^\s*([^:]+?)\s*:\s*(.*?)\s*$")
_RESULT = re.compile(r"^Result\s+is\s*:\s+(VALID|INVALID)")
_MAX_PROBLEMS = 20


def _text_lines(data: bytes) -> list[str]:
    return data.decode("utf-8", errors="replace").splitlines()


def _decode(line: str) -> dict[str, Any] | None:
    """The JSON object of one ``:::MLLOG`` line, or None if it does not parse."""
    try:  # depth-checked: a value nested thousands deep is a bad line, not a crash
        msg = safe_json.loads(line[len(MLLOG) :])
    except ValueError:
        return None
    return msg if isinstance(msg, dict) and "key" in msg else None


#: Keys of an accuracy-mode log the v6.x checker reads (``AccuracyCheck.dataset_check``).
_ACCURACY_KEYS_B = frozenset(
    {b"qsl_reported_total_count", b"effective_accuracy_sample_count", b"effective_scenario"}
)


def parse_detail_log(data: bytes, path: str, *, errors_only: bool = False) -> LoadgenLog:
    """Parse a detail log. Never raises: bad lines become ``problems`` (line numbered).

    A ``:::MLLOG`` line that is not one JSON object (the last line of a log cut short)
    is an error problem, as it makes the checker's ``MLPerfLog(strict=True)`` raise.
    Only the first message of a key, and error messages, are decoded; the other lines
    are checked for shape only (ending in ``}``). ``errors_only`` (accuracy-mode logs,
    of which the checker reads the errors and, from v6.0, the sample counts) decodes
    error messages and the keys of ``_ACCURACY_KEYS_B`` alone.
    """
    # Work on bytes: most of a detail log is a few huge lines (``loaded_qsl_set``) that
    # are only checked for shape, so only the lines read are decoded. Lines end at
    # ``\n``, ``\r\n`` or ``\r`` (as the log viewer numbers them).
    lines = data.splitlines()
    first = next((ln for ln in lines if ln.strip()), b"")
    if not first.startswith(_MLLOG_B):
        return _parse_text_detail(_text_lines(data), path, len(data))
    values: dict[str, Any] = {}
    where: dict[str, int] = {}
    errors: list[tuple[int, str]] = []
    problems: list[Problem] = []
    seen: set[bytes] = set(_SKIPPED_B)  # keys (as bytes) whose later lines are not decoded
    start = len(_KEY_PREFIX)
    for no, raw in enumerate(lines, 1):
        if not raw.startswith(_MLLOG_B):
            continue
        line = raw.rstrip()
        end = line.find(b'"', start) if line.startswith(_KEY_PREFIX) else -1
        key = line[start:end] if end >= 0 else None
        is_error = b'"is_error": true' in line
        skip = (errors_only and key not in _ACCURACY_KEYS_B) or key in seen
        if skip and key is not None and not is_error:
            if not line.endswith(b"}"):
                shown = key.decode("utf-8", errors="replace")
                problems.append(Problem(path, no, f"MLLOG line cut short (key {shown})"))
            continue
        msg = _decode(line.decode("utf-8", errors="replace"))
        if msg is None:
            problems.append(Problem(path, no, "MLLOG line is not a JSON object (log cut short?)"))
            continue
        k = str(msg["key"])
        if k not in values:
            values[k] = msg.get("value")
            where[k] = no
            seen.add(k.encode())
        meta = msg.get("metadata")
        if isinstance(meta, dict) and meta.get("is_error"):
            errors.append((no, str(msg.get("value"))))
    return LoadgenLog(
        path=path,
        size=len(data),
        log_format="mllog",
        values=values,
        lines=where,
        errors=tuple(errors),
        line_count=len(lines),
        problems=tuple(problems[:_MAX_PROBLEMS]),
    )


def _parse_text_detail(lines: list[str], path: str, size: int) -> LoadgenLog:
    errors = tuple((no, ln.strip()) for no, ln in enumerate(lines, 1) if "ERROR" in ln)
    return LoadgenLog(path=path, size=size, log_format="text", errors=errors, line_count=len(lines))


def parse_summary(data: bytes, path: str) -> LoadgenSummary:
    """Parse a summary log: first value of each ``Key : value`` line, and the verdict line.

    Keys are kept as written (``Samples per second``, ``90th percentile latency (ns)``,
    ``Scenario``...). Never raises.
    """
    values: dict[str, str] = {}
    where: dict[str, int] = {}
    valid: bool | None = None
    for no, line in enumerate(_text_lines(data), 1):
        r = _RESULT.match(line)
        if r and valid is None:
            valid = r.group(1) == "VALID"
        m = _SUMMARY.match(line)
        if m and m.group(1) not in values and m.group(2):
            values[m.group(1)] = m.group(2)
            where[m.group(1)] = no
    problems: tuple[Problem, ...] = ()
    if valid is None:
        problems = (Problem(path, None, "no 'Result is : VALID|INVALID' line"),)
    return LoadgenSummary(path, values, where, valid, problems)


def parse_text_file(data: bytes, path: str) -> TextFile:
    """Keep a small text file as its lines (CRLF or LF endings dropped)."""
    return TextFile(path, tuple(_text_lines(data)))


def parse_spl(data: bytes, path: str) -> PowerLog:
    """Parse a PTDaemon ``spl.txt``. Lines with fewer than 4 comma fields or a 4th field
    that is not a number become problems (line numbered)."""
    samples: list[PowerSample] = []
    problems: list[Problem] = []
    for no, line in enumerate(_text_lines(data), 1):
        if not line.strip():
            continue
        parts = line.split(",")
        try:
            watts = float(parts[3])
        except (IndexError, ValueError):
            problems.append(Problem(path, no, "spl.txt line without a Watts value"))
            continue
        samples.append(PowerSample(no, parts[1], watts, line.startswith("Time")))
    return PowerLog(path, tuple(samples), tuple(problems[:_MAX_PROBLEMS]))
