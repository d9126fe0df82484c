"""MLPerf Automotive's pages, each the one page pattern
(:func:`benchdb.tables.pages.table_page`): the rounds, and a round's results with the
value the round's checker prints (99.9th percentile latency, ms), its status and
result ID; CSV and JSON in Inference's schemas."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.mlperf import forms
from benchdb.mlperf.automotive import selectors as sel
from benchdb.tables.pages import ExportForm, Table, table_page


def rounds(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        return Table(sel.automotive_rounds(), "benchdb.inference_rounds/1", ("automotive",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/automotive/rounds.html")


def round_results(request: HttpRequest, round_version: str) -> HttpResponseBase:
    """One row per result (model and scenario of a system), as ``summary_results.json``."""

    def select(d: dict[str, Any]) -> Table:
        filters = {k: d[k] or None for k in ("division", "submitter")}
        rows = sel.round_rows(round_version, **filters)
        name = ("automotive", round_version, *(v for v in filters.values() if v))
        return Table(rows, "benchdb.inference_results/1", name, {"round_version": round_version})

    form = forms.InferenceRoundForm(request.GET)
    return table_page(request, form, select, "benchdb/automotive/round.html")
