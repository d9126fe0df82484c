"""MLPerf Tiny's pages, each the one page pattern (:func:`benchdb.tables.pages.table_page`):
the rounds, a round's results (latency, energy, accuracy as the round's checker reads
them, with the published figures beside them), a leaderboard per model and metric, and
one result with the lines its figures were read from."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.mlperf.tiny import figures
from benchdb.mlperf.tiny import selectors as sel
from benchdb.tables.pages import ExportForm, Table, table_page


class RoundForm(ExportForm):
    division = forms.ChoiceField(
        choices=[("", "all"), ("closed", "closed"), ("open", "open")], required=False
    )


def rounds(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        return Table(sel.tiny_rounds(), "benchdb.tiny_rounds/1", ("tiny",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/tiny/rounds.html")


def round_results(request: HttpRequest, round_version: str) -> HttpResponseBase:
    """One row per result folder, as the published ``summary.csv`` lists them."""

    def select(d: dict[str, Any]) -> Table:
        rows = sel.round_rows(round_version, division=d["division"] or None)
        name = ("tiny", round_version, *([d["division"]] if d["division"] else []))
        context = {"round_version": round_version, "boards": sel.boards(round_version)}
        return Table(rows, "benchdb.tiny_results/1", name, context)

    return table_page(request, RoundForm(request.GET), select, "benchdb/tiny/round.html")


def board(request: HttpRequest, round_version: str, model: str, metric: str) -> HttpResponseBase:
    """The valid results of a model ranked by latency or energy (lower is better)."""

    def select(d: dict[str, Any]) -> Table:
        rows = sel.board_rows(round_version, model, metric)
        label, unit, better = sel.METRICS[metric]
        context = {
            "round_version": round_version,
            "model": model,
            "metric": metric,
            "label": label,
            "unit": unit,
            "better": better,
            "figure": figures.board(
                rows,
                metric="latency_ms" if metric == "latency" else "energy",
                unit=unit,
                title=f"MLPerf Tiny {round_version} {model}: {label}",
            ),
        }
        return Table(rows, "benchdb.tiny_board/1", ("tiny", round_version, model, metric), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/tiny/board.html")


def result(request: HttpRequest, pk: int) -> HttpResponseBase:
    """One result: its figures, then every line they were read from and rule applied."""

    def select(d: dict[str, Any]) -> Table:
        row, evidence, files = sel.result_get(pk)
        return Table(
            evidence, "benchdb.tiny_evidence/1", ("tiny", "result", pk), {"r": row, "files": files}
        )

    return table_page(request, ExportForm(request.GET), select, "benchdb/tiny/result.html")
