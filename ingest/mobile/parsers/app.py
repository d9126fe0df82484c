"""Parsers of what the MLPerf Mobile app and its command line leave beside the LoadGen
logs. Pure: bytes in, frozen dataclasses out.

* ``result.json``: the app's export (mobile_app_open ``flutter/lib/data/results/
  benchmark_result.dart``): ``results[]``, one per task, with ``benchmark_id``,
  ``loadgen_scenario``, ``performance_run`` (``throughput.value``, ``measured_samples``,
  ``loadgen.latency90`` in s, ``loadgen.is_result_valid``) and ``accuracy_run``
  (``accuracy.normalized``, ``accuracy.formatted``), ``backend_info``.
* ``performance_results.txt`` / ``accuracy_results.txt`` (a submitter's copy of the
  command line's output, ``flutter/cpp/binary/main.cc``): ``#######<task>######``
  headers, then ``90th percentile latency (ns) : N``, ``Result is : VALID``,
  ``Samples per second: X`` or ``... Accuracy: 82.10%`` lines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ingest.parsers import safe_json
from ingest.parsers.types import ParseError


@dataclass(frozen=True)
class AppEntry:
    """One task of ``result.json`` (``path``): ``line`` is the 1-based line of its
    ``benchmark_id``; figures as exported (None when absent)."""

    path: str
    benchmark_id: str
    scenario: str
    line: int
    throughput: float | None
    measured_samples: int | None
    latency90_s: float | None
    result_valid: bool | None
    accuracy: float | None
    accuracy_text: str
    accelerator: str
    framework: str


@dataclass(frozen=True)
class TextEntry:
    """One task of a ``*_results.txt``: ``values``: key -> (text, 1-based line)."""

    benchmark_id: str
    values: dict[str, tuple[str, int]]


def _json(data: bytes, path: str) -> Any:
    try:
        return safe_json.loads(data.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise ParseError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ParseError(f"not JSON: {exc}", path=path) from None


def _get(d: Any, *keys: str) -> Any:
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def parse_result_json(data: bytes, path: str) -> tuple[AppEntry, ...]:
    """The tasks of an app export. Raises :class:`ParseError` (with the line) when the
    file is not JSON, has no ``results`` list, or an entry has no ``benchmark_id``."""
    doc = _json(data, path)
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list):
        raise ParseError("no 'results' list", path=path, line=1, field="results")
    lines = data.decode("utf-8").splitlines()
    ids = [
        (no, m.group(1))
        for no, ln in enumerate(lines, 1)
        if (m := re.search(r'"benchmark_id"\s*:\s*"([^"]*)"', ln))
    ]
    out = []
    for i, r in enumerate(results):
        bid = _get(r, "benchmark_id")
        if not isinstance(bid, str) or not bid:
            raise ParseError(f"results[{i}] has no benchmark_id", path=path, field="benchmark_id")
        line = next((no for no, b in ids if b == bid), 1)
        perf, acc = _get(r, "performance_run"), _get(r, "accuracy_run")
        valid = _get(perf, "loadgen", "is_result_valid")
        out.append(
            AppEntry(
                path=path,
                benchmark_id=bid,
                scenario=str(_get(r, "loadgen_scenario") or ""),
                line=line,
                throughput=_num(_get(perf, "throughput", "value")),
                measured_samples=_int(_get(perf, "measured_samples")),
                latency90_s=_num(_get(perf, "loadgen", "latency90")),
                result_valid=valid if isinstance(valid, bool) else None,
                accuracy=_num(_get(acc, "accuracy", "normalized")),
                accuracy_text=str(_get(acc, "accuracy", "formatted") or ""),
                accelerator=str(_get(r, "backend_info", "accelerator_name") or ""),
                framework=str(_get(r, "backend_settings", "framework") or ""),
            )
        )
    return tuple(out)


_HEADER = re.compile(r"^#{3,}\s*([A-Za-z0-9_]+)\s*#{3,}\s*$")
_ACCURACY = re.compile(r"\]\s*Accuracy:\s*(.+?)\s*$")
_KEY_VALUE = re.compile(r"^\s*([^:]+?)\s*:\s*(\S.*?)\s*$")


def parse_results_txt(data: bytes, path: str) -> tuple[TextEntry, ...]:
    """The tasks of a ``performance_results.txt`` or ``accuracy_results.txt``, in file
    order; keys as written (``90th percentile latency (ns)``, ``Result is``, ``Samples
    per second``, ``Accuracy``). Raises :class:`ParseError` naming the line of a value
    before any ``#####<task>#####`` header, or when there is no header at all."""
    entries: list[TextEntry] = []
    for no, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        h = _HEADER.match(line)
        if h:
            entries.append(TextEntry(h.group(1), {}))
            continue
        if not entries:
            raise ParseError("a value before any '#####<task>#####' line", path=path, line=no)
        a = _ACCURACY.search(line)
        m = _KEY_VALUE.match(line)
        if a:
            entries[-1].values.setdefault("Accuracy", (a.group(1), no))
        elif m:
            entries[-1].values.setdefault(m.group(1), (m.group(2), no))
    if not entries:
        raise ParseError("no '#####<task>#####' line", path=path, line=None)
    return tuple(entries)


@dataclass(frozen=True)
class SystemInfo:
    """A ``systems/<system>.json``: processor (``Processor Name`` / ``Processor_name``),
    device (``notes``' ``Phone summary``, else its ``SoC Product information``),
    accelerator, the vendor SDK, and the whole document."""

    path: str
    processor: str
    device: str
    accelerator: str
    sdk: str
    raw: dict[str, Any]


def _first(d: Any, *keys: str) -> str:
    return next((str(d[k]) for k in keys if isinstance(d, dict) and d.get(k)), "")


def parse_system(data: bytes, path: str) -> SystemInfo:
    """A system description. Raises :class:`ParseError` (with the line) when it is not a
    JSON object (v5.0's ``SD8Elite.json`` has a trailing comma: that file is a problem
    and its results are stored without a description)."""
    doc = _json(data, path)
    if not isinstance(doc, dict):
        raise ParseError("not a JSON object", path=path, line=1)
    system, notes, sw = doc.get("system"), doc.get("notes"), doc.get("software")
    return SystemInfo(
        path=path,
        processor=_first(system, "Processor Name", "Processor_name", "SoC_ID"),
        device=_first(notes, "Phone summary", "SoC Product information"),
        accelerator=_first(system, "Accelerator type", "Accelerator_type_1"),
        sdk=_first(sw, "Vendor SDK"),
        raw=doc,
    )
