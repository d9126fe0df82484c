"""Claims read from vendor tables: a ``time`` claim per row that gives an MLPerf
benchmark's time to train. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from benchdb.vocabulary import BENCHMARKS, KNOWN_ROUNDS

from .claim_patterns import (
    DIVISIONS,
    NOT_ROUND_BEFORE,
    RESULT_ID,
    ROUND_PATTERNS,
    SYSTEMS,
    TIME_UNITS,
)
from .claim_types import Claim, to_count, to_number
from .vendor_tables import VendorTable

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
            if "(mins)" in " ".join(tb.columns).lower():
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
