"""The reads of MLPerf Automotive's pages: its rounds and a round's results, Inference's
reads of the same table restricted to suite ``automotive``
(:mod:`benchdb.mlperf.inference.selectors`); and what the registry and the home page
call (``export_rows``, ``home_round_url``, ``home_board``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from benchdb.mlperf.inference.selectors import export_rows as inference_export_rows
from benchdb.mlperf.inference.selectors import inference_result_rows, inference_rounds

SUITE = "automotive"


def automotive_rounds() -> list[dict[str, Any]]:
    """Every Automotive round with its counts (``benchdb.inference_rounds/1``). Queries: 1."""
    return inference_rounds(suite=SUITE)


def round_rows(
    round_version: str, *, division: str | None = None, submitter: str | None = None
) -> list[dict[str, Any]]:
    """A round's results (``benchdb.inference_results/1``), by location. Queries: 1."""
    return inference_result_rows(
        round_version=round_version, division=division, submitter=submitter, suite=SUITE
    )


def export_rows(**filters: Any) -> list[dict[str, Any]]:
    """``manage.py export results --suite automotive``: one row per result
    (``benchdb.inference_results/1``): Inference's export restricted to the suite."""
    return inference_export_rows(**filters, suite=SUITE)


def home_round_url(version: str) -> str:
    """The home page's link to an Automotive round: its results."""
    return reverse("benchdb:automotive_round", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a model and scenario of the home page: the round's results."""
    return f"{key[0]} {key[1]}", reverse("benchdb:automotive_round", args=[version])
