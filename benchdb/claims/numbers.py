"""A page's numbers not treated as claims, as a reader sees them (issue 14: "every
numeric statement on a page is either a claim or listed as 'number not treated as a
claim' with why"). Pure: no Django.

The numbers themselves are found and judged at ingest
(``ingest.claims.parsers.coverage.account_numbers``) and stored on the page
(``VendorPage.numbers``: ``{"start", "end", "text", "status", "reason", "claim"}`` per
number, in text order). Here they are reshaped for the page: each number not treated
as a claim with its line and the words around it, the reason in words, and the
numbers grouped by reason with counts.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: Reason code (``ingest.claims.parsers.coverage.REASONS``, in its order) -> why, in words.
REASON_NOTES = {
    "url": "part of a web address, file name or path",
    "result-id": "an MLPerf result ID",
    "date": "a date, year or time of day",
    "version": "a version (of software, of an MLPerf round)",
    "model-size": "a model's size (70B parameters)",
    "name": "part of a name (A100, ResNet-50, Table 1)",
    "price": "a price",
    "page-count": "the page's own counters (articles, views, followers)",
    "footnote": "a footnote mark",
    "negated": "a figure the page denies",
    "quality": "a quality target or metric (a loss, an accuracy)",
    "ratio": "one figure to another (1:8)",
    "share": "a percentage that is no gain (30% of the servers)",
    "vendor-table": "a cell of the page's own table that is no claim (a throughput, a batch size)",
    "setting": "a setting (batch size, sequence length, parallelism, precision)",
    "count": "a count (of machines, accelerators, people, days)",
    "other": "a bare number the page gives no unit or comparison for",
}

#: Characters of the line shown on each side of a number.
CONTEXT = 50


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts


def _around(text: str, starts: Sequence[int], start: int, end: int) -> tuple[int, str, str]:
    """The 1-based line of ``text[start:end]`` and up to :data:`CONTEXT` characters of
    that line before and after it ("…" where the line is cut)."""
    line = bisect.bisect_right(starts, start) - 1
    line_end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    lo, hi = max(starts[line], start - CONTEXT), min(line_end, end + CONTEXT)
    before = ("…" if lo > starts[line] else "") + text[lo:start].lstrip()
    after = text[end:hi].rstrip() + ("…" if hi < line_end else "")
    return line + 1, before, after


def number_rows(page: Any, text: str, numbers: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The numbers of a page not treated as claims -> rows of ``benchdb.page_numbers/1``,
    in text order: ``{"page": page, "number": str (as written), "reason": str (a code of
    :data:`REASON_NOTES`), "why": str, "line": int (from 1), "start": int, "end": int
    (character offsets into the page's text), "before": str, "after": str (the words
    of its line around it), "context": str (before + number + after)}``.

    ``numbers``: ``VendorPage.numbers``; entries whose span is not within ``text`` keep
    their number with no line (``line`` None, empty context). A reason this module
    does not know is shown as its code.
    """
    starts = _line_starts(text)
    rows = []
    for n in numbers:
        if n.get("status") != "not-claim":
            continue
        start, end = int(n.get("start") or 0), int(n.get("end") or 0)
        written = str(n.get("text") or "")
        line: int | None = None
        before = after = ""
        if 0 <= start < end <= len(text) and text[start:end] == written:
            line, before, after = _around(text, starts, start, end)
        reason = str(n.get("reason") or "other")
        rows.append(
            {
                "page": page,
                "number": written,
                "reason": reason,
                "why": REASON_NOTES.get(reason, reason),
                "line": line,
                "start": start,
                "end": end,
                "before": before,
                "after": after,
                "context": before + written + after,
            }
        )
    return sorted(rows, key=lambda r: r["start"])


def reason_groups(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows of :func:`number_rows` grouped by reason: ``[{"reason": str, "why": str,
    "count": int, "rows": [row]}]``, the largest group first (ties in the order of
    :data:`REASON_NOTES`); each group's rows in text order."""
    order = {r: i for i, r in enumerate(REASON_NOTES)}
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["reason"], []).append(r)
    out = [{"reason": k, "why": v[0]["why"], "count": len(v), "rows": v} for k, v in groups.items()]
    return sorted(out, key=lambda g: (-g["count"], order.get(g["reason"], len(order))))


def number_counts(numbers: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """``{"numbers": every number of the page, "claims": those in a claim,
    "not_claims": those not treated as claims}`` of ``VendorPage.numbers``."""
    status = [n.get("status") for n in numbers]
    return {
        "numbers": len(status),
        "claims": sum(s == "claim" for s in status),
        "not_claims": sum(s == "not-claim" for s in status),
    }
