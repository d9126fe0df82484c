"""Reads. Each list selector names its joins, so a page costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import QuerySet

from benchdb.models import Result


def result_list(
    *,
    round_version: str | None = None,
    submitter: str | None = None,
    benchmark: str | None = None,
    division: str | None = None,
    availability: str | None = None,
    accelerator_model: str | None = None,
) -> QuerySet[Result]:
    """Results with round, system, submitter and benchmark joined (one query).

    ``submitter`` matches the canonical name or any alias, case-insensitively;
    ``benchmark`` is a canonical key (``resnet``) or a folder name (``mask``).
    """
    qs = Result.objects.select_related("round", "system", "system__submitter", "benchmark")
    if round_version:
        qs = qs.filter(round__version="v" + round_version.lstrip("v"))
    if submitter:
        qs = qs.filter(system__submitter__name__iexact=submitter) | qs.filter(
            system__submitter_folder__iexact=submitter
        )
    if benchmark:
        qs = qs.filter(benchmark__key=benchmark.lower()) | qs.filter(benchmark_folder=benchmark)
    if division:
        qs = qs.filter(division=division)
    if availability:
        qs = qs.filter(system__availability=availability)
    if accelerator_model:
        qs = qs.filter(system__accelerator_model=accelerator_model)
    return qs.order_by("round__version", "benchmark__key", "division", "score_minutes", "system__folder")  # fmt: skip
