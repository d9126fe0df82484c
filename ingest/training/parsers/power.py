"""MLPerf Training power logs (v4.0 on): ``<benchmark>/power/<run>/node_*.txt``, ``sw_*.txt``.

Pure. Finding them (:func:`power_files`, through ``safe_tree``: no link followed) and
reading one (:func:`parse_power_log`) into the events that
``benchdb.mlperf.training.energy`` computes energy from. Lines are read as
``mlp_parser.parse_file`` reads them (latin-1; text up to the last ``:::MLLOG `` on a
line dropped; JSON with ``time_ms``, ``key``, ``value`` and ``metadata``), except that
a line that does not parse is an error here (the summarizer skips it silently, so a
cut-off file would count less energy without a word).
"""

from __future__ import annotations

import math
import posixpath
import re

from benchdb.mlperf.training.energy import POWER_KEYS, Event
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem
from ingest.training.parsers.mllog import loads_line

TOKEN = b":::MLLOG "
#: What ``result_summarizer._compute_total_power`` globs in ``power/<run>/``.
NODE_FILE = re.compile(r"^node_[^/]*\.txt\Z")
SWITCH_FILE = re.compile(r"^sw_[^/]*\.txt\Z")


def run_name(run_rel: str) -> str:
    """The power folder of a run log: its file name up to the first dot, as the
    summarizer's ``result_file.split("/")[-1].split(".")[0]``."""
    return posixpath.basename(run_rel).split(".")[0]


def power_files(root: str, bench_rel: str, sink: list[Problem]) -> tuple[str, ...]:
    """Paths (relative to ``root``) of every ``power/<run>/node_*.txt`` and ``sw_*.txt``
    under the benchmark folder ``bench_rel``, sorted; links are problems in ``sink``."""
    out: list[str] = []
    base = f"{bench_rel}/power"
    top = safe_tree.list_dir(root, base)
    for name in top.links:
        sink.append(Problem(f"{base}/{name}", None, "symbolic link, not followed"))
    for run in top.dirs:
        listing = safe_tree.list_dir(root, f"{base}/{run}")
        for name in listing.links:
            sink.append(Problem(f"{base}/{run}/{name}", None, "symbolic link, not followed"))
        out += [
            f"{base}/{run}/{n}" for n in listing.files if NODE_FILE.match(n) or SWITCH_FILE.match(n)
        ]
    return tuple(sorted(out))


def _lines(data: bytes) -> list[tuple[int, bytes]]:
    """(1-based line, text after the last token) of each line holding the token;
    lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (universal newlines); numbers count ``\\n``."""
    out = []
    for number, chunk in enumerate(data.split(b"\n"), 1):
        for piece in chunk.split(b"\r"):
            at = piece.rfind(TOKEN)
            if at >= 0:
                out.append((number, piece[at + len(TOKEN) :].strip()))
    return out


def parse_power_log(data: bytes, path: str) -> tuple[Event, ...]:
    """The power events of one power log, in file order: ``(line, key, time_ms, value)``
    for the keys of ``training_energy.POWER_KEYS``.

    Raises ParseError (``path``, ``line``) for a line that does not parse (cut off,
    not JSON, no ``time_ms``/``key``/``value``/``metadata``, a time that is not a
    finite number) and for a file without any MLLOG line.
    """
    events: list[Event] = []
    lines = _lines(data)
    if not lines:
        raise ParseError("no :::MLLOG line: not a power log", path=path)
    for line, text in lines:
        try:
            m = loads_line(text)
            key, t, value = m["key"], float(m["time_ms"]), m["value"]
            m["metadata"]  # noqa: B018 - mlp_parser requires it (KeyError there)
        except (ValueError, KeyError, TypeError, OverflowError) as exc:
            why = f"MLLOG line does not parse: {_what(exc)}"
            raise ParseError(why, path=path, line=line) from None
        if not math.isfinite(t):
            raise ParseError(f"time_ms {t} is not a finite number", path=path, line=line)
        if isinstance(key, str) and key in POWER_KEYS:
            events.append((line, key, t, value))
    return tuple(events)


def _what(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc} field"
    return f"{type(exc).__name__}: {exc}"
