"""Reads of MLPerf Training's analysis pages: the compare tray and the comparison of
chosen results, closed against open results of a system (divisions), one accelerator
across software versions, and scaling (time and efficiency against accelerators). Each
names its joins and returns rows of its schema (``benchdb.mlperf.training.schemas``);
the derived figures come from the pure :mod:`benchdb.mlperf.training.derived`. Lists of
results themselves are :mod:`benchdb.mlperf.training.selectors`' (Django ORM)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q

from benchdb import vocabulary
from benchdb.mlperf.training import derived
from benchdb.mlperf.training.selectors import hyperparameters_get, result_list, result_table_rows
from benchdb.models import Result, Round, Run

# --- compare ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """``rows``: ``benchdb.compare/1`` in the order asked; ``missing``: ids not found."""

    rows: list[dict[str, Any]]
    missing: list[int]


def tray_get(ids: Sequence[int]) -> list[dict[str, Any]]:
    """The compare tray: rows of ``benchdb.result_table/1`` for ``ids``, in their
    order (unknown ids left out). Queries: 1, none for an empty tray."""
    if not ids:
        return []
    found = {r["id"]: r for r in result_table_rows(result_list(ids=ids))}
    return [found[i] for i in ids if i in found]


def compare_get(*, ids: Sequence[int], base: int | None = None) -> Comparison:
    """Results ``ids`` side by side against a baseline (see
    ``derived.compare_rows``). Queries: 1."""
    found = {r["id"]: r for r in result_table_rows(result_list(ids=ids))}
    rows = [found[i] for i in ids if i in found]
    return Comparison(derived.compare_rows(rows, base), [i for i in ids if i not in found])


# --- divisions, software versions, scaling ------------------------------------------


def division_list(
    *, round_version: str = "", benchmark: str = "", submitter: str = ""
) -> list[dict[str, Any]]:
    """Open results paired with closed results of the same system (rows of
    ``benchdb.divisions/1``). Only results whose round, benchmark and submitter
    have an open result are read. Queries: results; their counted runs; those runs'
    hyperparameters, cut as on the result page (3)."""
    open_twin = Result.objects.filter(
        division="open",
        round=OuterRef("round"),
        benchmark=OuterRef("benchmark"),
        system__submitter=OuterRef("system__submitter"),
    )
    qs = result_list(
        round_version=round_version or None,
        benchmark=benchmark or None,
        submitter=submitter or None,
    )
    rows = result_table_rows(qs.filter(Exists(open_twin)))
    first_counted: dict[int, int] = {}
    runs = Run.objects.filter(result_id__in=[r["id"] for r in rows], role=Run.Role.COUNTED)
    for result_id, run_id in runs.order_by("result_id", "index").values_list("result_id", "id"):
        first_counted.setdefault(result_id, run_id)
    by_run = hyperparameters_get(first_counted.values())
    hyper = {result_id: by_run[run_id] for result_id, run_id in first_counted.items()}
    return derived.division_rows(rows, hyper)


def software_list(
    *,
    benchmark: str,
    accelerator_models: Sequence[str],
    submitter: str = "",
    division: str = "closed",
) -> list[dict[str, Any]]:
    """Results of ``accelerator_models`` on ``benchmark`` over every round (rows of
    ``benchdb.software/1``). Queries: 1."""
    qs = result_list(
        benchmark=benchmark, submitter=submitter or None, division=division or None
    ).filter(system__accelerator_model__in=list(accelerator_models))
    rows = result_table_rows(qs, "system__software_stack")
    return derived.software_rows(rows, {r["id"]: r["system__software_stack"] for r in rows})


def software_choices() -> list[dict[str, Any]]:
    """Accelerator model x benchmark pairs with results in more than one round or
    framework, most rounds first. Queries: 1."""
    values = (
        Result.objects.filter(round__suite=Round.Suite.TRAINING)
        .values("system__accelerator_model", "benchmark__key")
        .annotate(
            rounds=Count("round", distinct=True),
            frameworks=Count("system__framework", distinct=True),
            results=Count("id"),
        )
        .filter(Q(rounds__gt=1) | Q(frameworks__gt=1))
        .exclude(system__accelerator_model="")
    )
    rows = [
        {
            "accelerator": v["system__accelerator_model"],
            "benchmark": v["benchmark__key"],
            "rounds": v["rounds"],
            "frameworks": v["frameworks"],
            "results": v["results"],
        }
        for v in values
    ]
    rows.sort(key=lambda r: (-r["rounds"], -r["frameworks"], r["accelerator"], r["benchmark"]))
    return rows


def scaling_list(
    *,
    submitter: str,
    accelerator_model: str,
    benchmark: str,
    round_version: str = "",
    division: str = "closed",
) -> list[dict[str, Any]]:
    """Scored results of one submitter, accelerator model and benchmark with
    scaling efficiency (rows of ``benchdb.scaling/1``). Queries: 1."""
    qs = result_list(
        submitter=submitter,
        accelerator_model=accelerator_model,
        benchmark=benchmark,
        round_version=round_version or None,
        division=division or None,
    )
    return derived.scaling_rows(result_table_rows(qs))


def scaling_choices() -> list[dict[str, Any]]:
    """Submitter x accelerator model x benchmark x round with at least two system
    sizes (closed division). Queries: 1."""
    values = (
        Result.objects.filter(
            division="closed", score_minutes__isnull=False, round__suite=Round.Suite.TRAINING
        )
        .values(
            "system__submitter__name",
            "system__accelerator_model",
            "benchmark__key",
            "round__version",
        )
        .annotate(sizes=Count("system__accelerators", distinct=True))
        .filter(sizes__gt=1)
    )
    rows = [
        {
            "submitter": v["system__submitter__name"],
            "accelerator": v["system__accelerator_model"],
            "benchmark": v["benchmark__key"],
            "round": v["round__version"],
            "sizes": v["sizes"],
        }
        for v in values
    ]
    rows.sort(
        key=lambda r: (
            vocabulary.round_key(r["round"]),
            r["submitter"],
            r["accelerator"],
            r["benchmark"],
        )
    )
    return rows
