"""MLLOG lines (v0.7 on) of a training or HPC run log, as records. Pure: no Django.

Split from ``training_log`` (which folds the records into a ``ParsedRun``): finding the
lines that hold a token, and reading each ``:::MLLOG {json}`` line both as benchdb
stores it (NaN and Infinity as None) and, for the compliance rules, as
``mlp_parser`` gives it (``benchdb.mlperf.training.compliance.Line``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import orjson

from benchdb.mlperf.training.compliance import Line
from ingest.parsers import safe_json
from ingest.parsers.types import Problem

MLLOG = b":::MLLOG "

# A record: (line, key, time_ms, value, metadata); a line that does not parse is a Problem.
Record = tuple[int, str | None, float, Any, dict[str, Any]]


def lines_with(data: bytes, token: bytes) -> Iterator[tuple[int, bytes]]:
    """Yield (1-based line number, text after the last ``token`` on that line).

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (Python's universal newlines,
    as ``open(..., encoding='latin-1')`` in ``mlp_parser.parse_file`` reads them);
    line numbers count ``\\n`` so that they match what an editor shows.
    """
    size = len(data)
    pos = data.find(token)
    counted_to, line = 0, 1
    next_r = -1  # the next \r at or after pos (size when none): searched again only when passed,
    while pos >= 0:  # not per line (a file without \r would be scanned to its end each line)
        if next_r < pos:
            next_r = data.find(b"\r", pos)
            next_r = size if next_r < 0 else next_r
        end_n = data.find(b"\n", pos)
        end = min(size if end_n < 0 else end_n, next_r)
        line += data.count(b"\n", counted_to, pos)
        counted_to = pos
        last = data.rfind(token, pos, end)
        yield line, data[last + len(token) : end]
        pos = data.find(token, end)


_CONSTANTS = [0]


def _constant(name: str) -> float:
    """``NaN``/``Infinity`` as ``json.loads`` reads them (mlp_parser keeps them for
    the compliance rules); counted, so that the stored copy can drop them."""
    _CONSTANTS[0] += 1
    return float(name)


def _no_constants(v: Any) -> Any:
    """``v`` with NaN and Infinity as None: PostgreSQL's jsonb cannot store them, and
    no target can be met by them."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _no_constants(i) for k, i in v.items()}
    if isinstance(v, list):
        return [_no_constants(i) for i in v]
    return v


#: 19 digits in a row: a number orjson would read as a float where json keeps an int.
#: Found as ``_LONG_DIGITS in raw.translate(_DIGITS)`` (each ASCII digit to ``0``, any
#: other byte to a space), 7x faster than ``re.search(rb"\d{19}", raw)`` on MLLOG lines.
_LONG_DIGITS = b"0" * 19
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))


def loads_line(raw: bytes) -> Any:
    """``json.loads`` of one MLLOG line as ``mlp_parser`` reads it (latin-1, NaN and
    Infinity as floats), after ``safe_json``'s depth check. ASCII lines without a
    19-digit run go through orjson first (2-3x faster; for them it gives the same
    values, and it refuses what it would read differently: NaN, Infinity, 1e400, lone
    surrogates), anything it refuses through json. Also the power logs' reader
    (``training_power``). Raises ValueError."""
    text = raw.decode("latin-1")
    if safe_json.too_deep(text):
        raise safe_json.TooDeep(f"nested deeper than {safe_json.MAX_DEPTH} levels")
    if raw.isascii() and _LONG_DIGITS not in raw.translate(_DIGITS):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text, parse_constant=_constant)


def mllog_records(
    data: bytes, path: str, sink: list[Line] | None = None, keep: frozenset[str] = frozenset()
) -> Iterator[Record | Problem]:
    """MLLOG records; with ``sink``, each line whose key is in ``keep`` is also
    appended to it as the compliance checker reads it (values as logged)."""
    for line, text in lines_with(data, MLLOG):
        try:
            seen = _CONSTANTS[0]
            m = loads_line(text)
            key, t, raw_meta = m["key"], float(m["time_ms"]), m["metadata"]
            value, meta = m["value"], raw_meta or {}
            if not isinstance(key, str) or not isinstance(meta, dict):
                raise TypeError("key must be a string and metadata an object")
            if not math.isfinite(t):
                raise ValueError(f"time_ms {t} is not a finite number")
            if sink is not None and key in keep:
                sink.append(Line(key, {"value": value, "metadata": raw_meta}, t, line))
            if _CONSTANTS[0] != seen:
                value, meta = _no_constants(value), _no_constants(meta)
            record: Record | Problem = (line, key, t, value, meta)
        except (ValueError, KeyError, TypeError, OverflowError) as exc:
            record = Problem(path, line, f"MLLOG line does not parse: {exc}")
        yield record
