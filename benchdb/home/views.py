"""The home page of the whole site (issue 23): every suite with its rounds and counts,
each suite's latest round and its boards, the vendor pages with their verdicts, the
check form, and one line saying what data is loaded. CSV/JSON: ``benchdb.site_rounds/1``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.claims.selectors import page_row, vendor_page_list
from benchdb.home.selectors import SuiteSummary, suite_summaries
from benchdb.tables.pages import ExportForm, Table, table_page


def loaded_line(suites: list[SuiteSummary], pages: list[dict[str, Any]]) -> str:
    """What is loaded, in one sentence: results and rounds per suite, vendor pages and
    their claims ("46 MLPerf Training results (v1.0-v2.0, 3 rounds), ...")."""
    parts = []
    for s in suites:
        if s.rows:
            n = sum(r["results"] for r in s.rows)
            span = s.rows[0]["round"] + (f"-{s.rows[-1]['round']}" if len(s.rows) > 1 else "")
            rounds = f"{len(s.rows)} round{'s' if len(s.rows) > 1 else ''}"
            parts.append(f"{n:,} {s.label} results ({span}, {rounds})")
    claims = sum(p["claims"] or 0 for p in pages)
    page_s = "" if len(pages) == 1 else "s"
    parts.append(f"{len(pages)} vendor page{page_s} ({claims:,} claims)")
    return ", ".join(parts)


def home(request: HttpRequest) -> HttpResponseBase:
    """Queries: suites (2, :func:`suite_summaries`), vendor pages (1)."""

    def select(d: dict[str, Any]) -> Table:
        suites = suite_summaries()
        pages = [page_row(p) for p in vendor_page_list()]
        context = {
            "suites": suites,
            "pages": pages,
            "loaded": loaded_line(suites, pages),
            "data_note": settings.BENCHDB_DATA_NOTE,
        }
        rows = [r for s in suites for r in s.rows]
        return Table(rows, "benchdb.site_rounds/1", ("site-rounds",), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/site_home.html")
