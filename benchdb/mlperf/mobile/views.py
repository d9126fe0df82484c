"""MLPerf Mobile's pages, each the one page pattern (:func:`benchdb.tables.pages.table_page`):
the rounds, a round's results (the app's throughput recomputed from LoadGen's log, the
app's accuracy, the published throughput beside them), a leaderboard per task, and one
result with the lines its figures were read from."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.mlperf.mobile import figures
from benchdb.mlperf.mobile import selectors as sel
from benchdb.tables.pages import ExportForm, Table, table_page


class RoundForm(ExportForm):
    task = forms.SlugField(required=False, max_length=64)


def rounds(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        return Table(sel.mobile_rounds(), "benchdb.mobile_rounds/1", ("mobile",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/mobile/rounds.html")


def round_results(request: HttpRequest, round_version: str) -> HttpResponseBase:
    """One row per task on a system."""

    def select(d: dict[str, Any]) -> Table:
        rows = sel.round_rows(round_version, task=d["task"] or None)
        name = ("mobile", round_version, *([d["task"]] if d["task"] else []))
        context = {"round_version": round_version, "boards": sel.boards(round_version)}
        return Table(rows, "benchdb.mobile_results/1", name, context)

    return table_page(request, RoundForm(request.GET), select, "benchdb/mobile/round.html")


def board(request: HttpRequest, round_version: str, task: str) -> HttpResponseBase:
    """The valid results of a task ranked by throughput (higher is better)."""

    def select(d: dict[str, Any]) -> Table:
        rows = sel.board_rows(round_version, task)
        unit = rows[0]["unit"] if rows else "queries/s"
        context = {
            "round_version": round_version,
            "task": task,
            "scenario": rows[0]["scenario"] if rows else "",
            "unit": unit,
            "figure": figures.board(
                rows, unit=unit, title=f"MLPerf Mobile {round_version} {task}: throughput"
            ),
        }
        return Table(rows, "benchdb.mobile_board/1", ("mobile", round_version, task), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/mobile/board.html")


def result(request: HttpRequest, pk: int) -> HttpResponseBase:
    """One result: its figures, then every line they were read from and rule applied."""

    def select(d: dict[str, Any]) -> Table:
        row, evidence, files = sel.result_get(pk)
        return Table(
            evidence,
            "benchdb.mobile_evidence/1",
            ("mobile", "result", pk),
            {"r": row, "files": files},
        )

    return table_page(request, ExportForm(request.GET), select, "benchdb/mobile/result.html")
