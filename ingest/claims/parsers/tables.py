"""Claims read from vendor tables: a ``time`` claim per row that gives an MLPerf
benchmark's time to train. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from benchdb.vocabulary import BENCHMARKS, KNOWN_ROUNDS

from .page_tables import VendorTable
from .patterns import (
    DIVISIONS,
    NOT_ROUND_BEFORE,
    RESULT_ID,
    ROUND_PATTERNS,
    SYSTEMS,
    TIME_UNITS,
)
from .types import Claim, to_count, to_number

# --- tables ------------------------------------------------------------------------


def claims_from_tables(
    tables: Sequence[VendorTable], *, page_unverified: bool = False
) -> list[Claim]:
    """A ``time`` claim for each table row that gives a time to train of an MLPerf
    benchmark (NVIDIA's MLPerf tables, Intel's "MLPerf 3.1" rows). Throughput rows
    stay vendor results only: throughput is not MLPerf Training's metric."""
    out: list[Claim] = []
    for tb in tables:
        cap_round = round_in(tb.caption)
        cap_div = next((key for pat, key in DIVISIONS if re.search(pat, tb.caption)), "")
        for row in tb.rows:
            v = row.values
            ttt = v.get("time_to_train", "")
            num = re.match(r"\s*(\d[\d,]*(?:\.\d+)?)\s*(min|mins|minutes|s|h)?", ttt)
            model = v.get("model", "")
            bench = next((key for pat, key in BENCHMARKS if re.search(pat, model, re.I)), "")
            if not num or not bench:
                continue
            unit = TIME_UNITS.get((num.group(2) or "min").lower(), "min")
            if re.search(r"\(min(?:s|utes)?\)", " ".join(tb.columns).lower()):
                unit = "min"
            acc = re.match(r"\s*(\d[\d,]*)", v.get("accelerators", ""))
            rid = v.get("result_id", "")
            out.append(
                Claim(
                    kind="time",
                    sentence=row.raw.strip(),
                    sentence_start=row.start,
                    sentence_end=row.end,
                    start=row.start,
                    end=row.end,
                    value=to_number(num.group(1)),
                    unit=unit,
                    system=v.get("system", "") or _accelerator_of(v, tb.caption),
                    accelerators=to_count(to_number(acc.group(1))) if acc else None,
                    framework=v.get("framework", ""),
                    benchmark=model,
                    benchmark_key=bench,
                    round=round_in(model) or cap_round,
                    division=cap_div,
                    result_ids=(rid,) if RESULT_ID.fullmatch(rid) else (),
                    metric="time-to-train",
                    mlperf_context=True,
                    unverified=page_unverified,
                    source="table",
                    table_row=(tb.index, row.index),
                )
            )
    return out


def _accelerator_of(v: dict[str, str], caption: str) -> str:
    """The accelerator a row is about: its own column, "8x H100", or the caption's system."""
    m = re.match(r"\s*\d[\d,]*x\s*(\S.*)", v.get("accelerators", ""))
    named = v.get("accelerator") or (m.group(1) if m else "")
    if named:
        return named.strip()
    cap = re.search(SYSTEMS, caption, re.I)
    return cap.group() if cap else ""


def round_in(text: str) -> str:
    """The first MLPerf round named in ``text`` (``"v3.1"``), or "". A version after a
    model or software name is that thing's (``"LLaMA V3.1 8B"``: no round)."""
    for pat in ROUND_PATTERNS:
        for m in re.finditer(pat, text, re.I):
            if m.group("r") in KNOWN_ROUNDS and not NOT_ROUND_BEFORE.search(text[: m.start()]):
                return "v" + m.group("r")
    return ""


# --- tables rendered one cell per line ---------------------------------------------

#: A header cell of an accelerator-count column ("# HPU", "#GPUs", "Accelerators").
_COUNT_HEADER = re.compile(r"(?i)^\s*#\s*(?:HPU|GPU|IPU|TPU|chip|accelerator)s?\s*$")
_BARE_COUNT = re.compile(r"^\s*(\d[\d,]*)\s*$")
#: Lines a one-cell-per-line row may span before its time (model, count, precision).
CELL_ROW_LINES = 4


def cell_row_counts(text: str, claims: Sequence[Claim]) -> list[Claim]:
    """``claims`` with the accelerator count of a table rendered one cell per line
    (Intel's older Gaudi page: "MLPerf 3.1 - GPT3 / 384 / fp8 / 153.58 min*"): a time
    claim whose line holds only its cell gets the bare integer of the lines just above
    it, when an accelerator-count header ("# HPU") stands earlier on the page. Other
    claims are returned as they are."""
    headers = [m.start() for m in re.finditer(r"(?m)^.*$", text) if _COUNT_HEADER.match(m.group())]
    if not headers:
        return list(claims)
    out = []
    for c in claims:
        count = _count_above(text, c) if c.kind == "time" and c.accelerators is None else None
        out.append(
            replace(c, accelerators=count) if count is not None and headers[0] < c.start else c
        )
    return out


def count_line_above(text: str, c: Claim) -> tuple[int, int] | None:
    """The span of the bare-integer line above a one-cell-per-line time claim, if any."""
    line_start = text.rfind("\n", 0, c.start) + 1
    line_end = text.find("\n", c.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if not re.fullmatch(r"\s*\d[\d,.]*\s*(?:min|mins|minutes|s|h)\s*[*†‡]*\s*", line):
        return None
    pos = line_start
    for _ in range(CELL_ROW_LINES):
        if pos <= 0:
            return None
        prev = text.rfind("\n", 0, pos - 1) + 1
        m = _BARE_COUNT.match(text[prev : pos - 1])
        if m:
            return prev + m.start(1), prev + m.end(1)
        pos = prev
    return None


def _count_above(text: str, c: Claim) -> int | None:
    span = count_line_above(text, c)
    return to_count(to_number(text[span[0] : span[1]])) if span else None


# --- tables whose header gives the unit --------------------------------------------

#: The unit of a header cell: "v1.1 Max-Scale Records (min)" (the cell's label is the
#: text since the line's start or the previous parenthesis).
_UNIT_CELL = re.compile(r"\((?P<unit>mins?|minutes|s|sec|seconds|h|hours|分钟|分鐘|秒|小时|小時)\)")
#: A bare figure standing as a cell: alone or before its system in parentheses, at the
#: end of its line ("Recommendation (DLRM) 0.63 (DGX SuperPOD)", "13.68 (A100)").
_CELL_FIGURE = re.compile(
    r"(?<![\w.(])(?P<n>\d+(?:\.\d+)?)(?![\d.])[ \t]{0,8}(?:\((?P<sys>[^()\n]{1,40})\))?"
    r"[ \t]{0,8}$",
    re.M,
)
_PER_ACCEL = re.compile(r"(?i:per[- ](?:accelerator|chip|gpu)|每卡|单卡|單卡)")
#: Lines read as a header's table: up to a blank line, at most this many.
HEADER_TABLE_LINES = 40


def header_unit_times(
    text: str, claims: Sequence[Claim], skip: Sequence[tuple[int, int]] = ()
) -> list[Claim]:
    """``claims`` and a ``time`` claim for each bare figure of a table whose header
    names its columns' unit ("v1.1 Max-Scale Records (min)", NVIDIA's v1.1 Chinese
    page: "Recommendation (DLRM) 0.63 (DGX SuperPOD)" is 0.63 min). The table is the
    lines after the header up to a blank line; the k-th figure of a row takes the
    k-th unit cell of the header (and its round; a "Per-Accelerator" cell marks it
    ``per_accelerator``), the row's label (its first cell) the benchmark, the
    parentheses after it the system. Figures inside ``claims`` or ``skip`` spans (the
    page's vendor tables) are left alone. In text order."""
    taken = [(c.start, c.end) for c in claims] + list(skip)
    out = list(claims)
    mlperf = "mlperf" in text.lower()
    for head in re.finditer(r"(?m)^.*$", text):
        cells = _unit_cells(head.group())
        if not cells or any(s <= head.start() < e for s, e in taken):
            continue
        end = text.find("\n\n", head.end())
        end = len(text) if end < 0 else end
        block = text[head.end() : min(end, _nth_line_end(text, head.end(), HEADER_TABLE_LINES))]
        out += _block_times(text, head.end(), block, cells, head.group(), taken, mlperf)
    return sorted(out, key=lambda c: (c.start, c.end))


def _unit_cells(line: str) -> list[tuple[str, str]]:
    """(label, unit) of each header cell of ``line`` that names a unit."""
    out = []
    for m in _UNIT_CELL.finditer(line):
        since = max(line.rfind(")", 0, m.start()), line.rfind("(", 0, m.start())) + 1
        out.append((line[since : m.start()], m.group("unit")))
    return out


def _nth_line_end(text: str, pos: int, n: int) -> int:
    for _ in range(n):
        pos = text.find("\n", pos + 1)
        if pos < 0:
            return len(text)
    return pos


def _block_times(
    text: str,
    base: int,
    block: str,
    cells: Sequence[tuple[str, str]],
    header: str,
    taken: Sequence[tuple[int, int]],
    mlperf: bool,
) -> list[Claim]:
    out: list[Claim] = []
    label, k, row_start = "", 0, base
    for m in _CELL_FIGURE.finditer(block):
        line_start = block.rfind("\n", 0, m.start()) + 1
        before = block[line_start : m.start()].strip()
        if re.match(r"[^\W\d]", before):  # a new row: its label is its first cell
            label, k, row_start = before, 0, base + line_start
        a, b = base + m.start("n"), base + m.end()
        if k >= len(cells) or any(s <= a < e for s, e in taken):
            k += 1
            continue
        cell_label, unit = cells[k]
        k += 1
        bench = next((key for pat, key in BENCHMARKS if re.search(pat, label, re.I)), "")
        value = to_number(m.group("n"))
        if not bench or value is None:
            continue
        line_end = text.find("\n", a)
        out.append(
            Claim(
                kind="time",
                sentence=text[row_start : line_end if line_end >= 0 else len(text)].strip(),
                sentence_start=row_start,
                sentence_end=line_end if line_end >= 0 else len(text),
                start=a,
                end=b,
                value=value,
                unit=TIME_UNITS.get(unit.lower(), "min"),
                system=(m.group("sys") or "").strip(),
                benchmark=label,
                benchmark_key=bench,
                round=round_in(cell_label) or round_in(header),
                metric="time-to-train",
                mlperf_context=mlperf,
                per_accelerator=bool(_PER_ACCEL.search(cell_label)),
            )
        )
    return out
