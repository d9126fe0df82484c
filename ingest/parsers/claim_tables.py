"""Claims read from vendor tables: a ``time`` claim per row that gives an MLPerf
benchmark's time to train. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
