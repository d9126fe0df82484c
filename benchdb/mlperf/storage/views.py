"""MLPerf Storage's pages, each the one page pattern
(:func:`benchdb.tables.pages.table_page`): the rounds; a round's results; a leaderboard
per workload and accelerator (MiB/s, higher is better); a result with its runs, the
summary.json lines each figure was read from, and its problems. CSV and JSON in the
``benchdb.storage_*`` schemas."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.mlperf.inference import figures as figures_inference
from benchdb.mlperf.storage import selectors as sel
from benchdb.tables.pages import ExportForm, Table, table_page


class StorageRoundForm(ExportForm):
    """Filters of a Storage round table and leaderboard."""

    division = forms.ChoiceField(
        choices=[("", "any"), ("closed", "closed"), ("open", "open")], required=False
    )
    submitter = forms.CharField(max_length=100, required=False)


def rounds(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        return Table(sel.storage_rounds(), "benchdb.storage_rounds/1", ("storage",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/storage/rounds.html")


def round_results(request: HttpRequest, round_version: str) -> HttpResponseBase:
    """One row per result, as the round's ``mlperf_storage_report.json`` files give them."""

    def select(d: dict[str, Any]) -> Table:
        filters = {k: d[k] or None for k in ("division", "submitter")}
        rows = sel.storage_result_rows(
            round_version=round_version,
            division=filters["division"],
            submitter=filters["submitter"],
        )
        name = ("storage", round_version, *(v for v in filters.values() if v))
        context = {"round_version": round_version, "boards": sel.storage_boards(round_version)}
        return Table(rows, "benchdb.storage_results/1", name, context)

    return table_page(request, StorageRoundForm(request.GET), select, "benchdb/storage/round.html")


def board(
    request: HttpRequest, round_version: str, workload: str, accelerator: str
) -> HttpResponseBase:
    """Valid results of one workload and accelerator, best MiB/s first."""

    def select(d: dict[str, Any]) -> Table:
        filters = {k: d[k] or None for k in ("division", "submitter")}
        rows = sel.storage_result_rows(
            round_version=round_version,
            workload=workload,
            accelerator=accelerator,
            board=True,
            division=filters["division"],
            submitter=filters["submitter"],
        )
        name = ("storage", round_version, workload, accelerator)
        context: dict[str, Any] = {
            "round_version": round_version,
            "workload": workload,
            "accelerator": accelerator,
        }
        if not d["format"]:
            title = f"{workload} {accelerator}, MLPerf Storage {round_version}"
            points = [_point(r) for r in rows]
            context["figure"] = figures_inference.leaderboard(points, unit="MiB/s", title=title)
        return Table(rows, "benchdb.storage_results/1", name, context)

    return table_page(request, StorageRoundForm(request.GET), select, "benchdb/storage/board.html")


def _point(row: dict[str, Any]) -> dict[str, Any]:
    """A leaderboard row as a point of Inference's leaderboard chart (value against
    accelerators, log-log): MiB/s against simulated accelerators."""
    return {
        **row,
        "value": row["mb_per_second"],
        "unit": "MiB/s",
        "system_name": row["system"],
        "software": f"{row['workload']} {row['accelerator']}",
    }


def result(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A result's figures, its runs with their evidence lines, and its problems."""
    row, runs, problems = sel.storage_result_get(pk=pk)

    def select(d: dict[str, Any]) -> Table:
        context = {"result": row, "problems": problems}
        return Table(runs, "benchdb.storage_runs/1", ("storage", "result", pk), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/storage/result.html")
