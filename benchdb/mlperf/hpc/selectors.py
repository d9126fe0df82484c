"""Reads of the MLPerf HPC pages: the rounds with their boards, one leaderboard per
round, benchmark and scaling type. Results, runs and logs are the training tables
(``Round.Suite.HPC``); result pages are the training ones (``records.result_get``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse

from benchdb import vocabulary
from benchdb.mlperf.hpc.rules import TARGETS
from benchdb.mlperf.hpc.schemas import HPC_EXTRA_COLUMNS
from benchdb.mlperf.training.selectors import result_list, result_table_rows
from benchdb.models import Benchmark, Result, Round

SCALING_TYPES = ("strong", "weak")


def hpc_round_list() -> list[dict[str, Any]]:
    """One row per HPC round and board: ``round``, ``tag``, ``benchmark``,
    ``scaling_type``, ``results``, ``scored``; by round, benchmark, scaling type.
    Queries: 1."""
    values = (
        Result.objects.filter(round__suite=Round.Suite.HPC)
        .values("round__version", "round__ruleset_tag", "benchmark__key", "scaling_type")
        .annotate(results=Count("id"), scored=Count("id", filter=Q(status=Result.Status.SCORED)))
    )
    rows = [
        {
            "round": v["round__version"],
            "tag": v["round__ruleset_tag"],
            "benchmark": v["benchmark__key"],
            "scaling_type": v["scaling_type"],
            "results": v["results"],
            "scored": v["scored"],
        }
        for v in values
    ]
    rows.sort(key=lambda r: (vocabulary.round_key(r["round"]), r["benchmark"], r["scaling_type"]))
    return rows


@dataclass(frozen=True)
class HpcBoard:
    """An HPC leaderboard: ``rows`` of ``benchdb.hpc_board/1``, best first (strong:
    shortest time to train; weak: highest throughput), closed division first."""

    round: Round
    benchmark: Benchmark
    scaling_type: str
    rows: list[dict[str, Any]]


def hpc_board_get(
    *, round_version: str, benchmark: str, scaling_type: str, division: str = ""
) -> HpcBoard:
    """Raises Http404 for an unknown round, a benchmark that is not an HPC one
    (``hpc_rules.TARGETS``) or an unknown scaling type. Queries: round, benchmark,
    results (3)."""
    rnd = Round.objects.filter(
        suite=Round.Suite.HPC, version="v" + round_version.lstrip("v")
    ).first()
    bench = Benchmark.objects.filter(key=benchmark.lower(), key__in=list(TARGETS)).first()
    if rnd is None or bench is None or scaling_type not in SCALING_TYPES:
        raise Http404(f"no HPC board {round_version!r} {benchmark!r} {scaling_type!r}")
    qs = result_list(suite="hpc", division=division or None).filter(
        round=rnd, benchmark=bench, scaling_type=scaling_type
    )
    rows = result_table_rows(qs, *HPC_EXTRA_COLUMNS)
    rows.sort(key=_strong_order if scaling_type == "strong" else _weak_order)
    return HpcBoard(rnd, bench, scaling_type, rows)


def _strong_order(r: dict[str, Any]) -> tuple[Any, ...]:
    score = r["score_minutes"]
    return (r["division"] != "closed", r["division"], score is None, score or 0.0, r["system"])


def _weak_order(r: dict[str, Any]) -> tuple[Any, ...]:
    tp = r["throughput_models_per_minute"]
    return (r["division"] != "closed", r["division"], tp is None, -(tp or 0.0), r["system"])


def export_rows(
    *,
    round_version: str | None = None,
    submitter: str | None = None,
    benchmark: str | None = None,
    division: str | None = None,
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite hpc``: rows of ``benchdb.hpc_results/1`` (the
    training columns and the scaling ones), filtered as ``result_list``."""
    qs = result_list(
        round_version=round_version,
        submitter=submitter,
        benchmark=benchmark,
        division=division,
        suite="hpc",
    )
    return result_table_rows(qs, *HPC_EXTRA_COLUMNS)


def home_round_url(version: str) -> str:
    """The home page's link to an HPC round: the HPC rounds page (boards per round)."""
    return reverse("benchdb:hpc_rounds")


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of an HPC board (``key``: benchmark, scaling type)."""
    return f"{key[0]} {key[1]}", reverse("benchdb:hpc_board", args=[version, *key])
