"""MLPerf HPC pages: the rounds and their boards, a leaderboard per round, benchmark
and scaling type. Each is one ``table_page`` call (HTML, ``?format=csv|json``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from benchdb.mlperf.hpc import selectors as selectors_hpc
from benchdb.tables.pages import ExportForm, Table, table_page


class HpcBoardForm(ExportForm):
    """``division``: closed or open, empty for both."""

    division = forms.ChoiceField(
        choices=[("", "any"), ("closed", "closed"), ("open", "open")], required=False
    )


def hpc_rounds(request: HttpRequest) -> HttpResponseBase:
    """Every HPC round's boards (benchmark x scaling type) with their counts."""

    def select(d: dict[str, Any]) -> Table:
        rows = selectors_hpc.hpc_round_list()
        return Table(rows, "benchdb.hpc_rounds/1", ("hpc_rounds",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/hpc_rounds.html")


def hpc_board(
    request: HttpRequest, round_version: str, benchmark: str, scaling_type: str
) -> HttpResponseBase:
    """One HPC leaderboard: strong scaling by time to train, weak by throughput."""

    def select(d: dict[str, Any]) -> Table:
        board = selectors_hpc.hpc_board_get(
            round_version=round_version,
            benchmark=benchmark,
            scaling_type=scaling_type,
            division=d["division"],
        )
        name = ("hpc", board.round.version, board.benchmark.key, scaling_type, d["division"])
        return Table(board.rows, "benchdb.hpc_board/1", name, {"board": board})

    return table_page(request, HpcBoardForm(request.GET), select, "benchdb/hpc_board.html")
