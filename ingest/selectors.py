"""Reads for the jobs pages and ``source list``: one selector per page, and the
JSON shapes both use (``benchdb.ingest.sources/1``, ``benchdb.ingest.job/1``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from ingest.models import IngestJob, IngestJobError, Source

#: Error rows shown on a job page (the JSON and the admin have all of them).
JOB_ERRORS_SHOWN = 500


def source_list() -> list[Source]:
    """Every source with ``last_job`` (its newest job, or None) and its schedule.

    Queries: sources with their beat entry and schedule (1), their last jobs (1).
    """
    last = IngestJob.objects.filter(source=OuterRef("pk")).order_by("-created", "-pk")
    sources: list[Source] = list(
        Source.objects.select_related("periodic_task__crontab", "periodic_task__interval")
        .annotate(last_job_id=Subquery(last.values("pk")[:1]))
    )  # fmt: skip
    jobs = IngestJob.objects.in_bulk([s.last_job_id for s in sources if s.last_job_id])  # type: ignore[attr-defined]
    for s in sources:
        s.last_job = jobs.get(s.last_job_id)  # type: ignore[attr-defined]
    return sources


def ingest_job_list(*, limit: int = 100) -> QuerySet[IngestJob]:
    """The newest jobs with their source (one query)."""
    return IngestJob.objects.select_related("source").order_by("-created", "-pk")[:limit]


@dataclass(frozen=True)
class JobPage:
    job: IngestJob
    errors: list[IngestJobError]
    errors_total: int


def ingest_job_get(*, pk: int, errors_limit: int | None = JOB_ERRORS_SHOWN) -> JobPage:
    """A job with its source and error rows (first ``errors_limit``; None: all).

    Queries: job + source (1), error rows (1), their count (1). Raises Http404.
    """
    job = get_object_or_404(IngestJob.objects.select_related("source"), pk=pk)
    rows = job.error_rows.order_by("id")
    errors = list(rows if errors_limit is None else rows[:errors_limit])
    total = len(errors) if errors_limit is None or len(errors) < errors_limit else rows.count()
    return JobPage(job, errors, total)


def job_as_dict(job: IngestJob | None) -> dict[str, Any] | None:
    """A job as JSON: state, times (ISO 8601, UTC), counts and progress (0-100)."""
    if job is None:
        return None
    return {
        "id": job.pk, "source": job.source.name, "trigger": job.trigger, "state": job.state,
        "created": _iso(job.created), "started": _iso(job.started), "finished": _iso(job.finished),
        "commit_from": job.commit_from, "commit_to": job.commit_to, "incremental": job.incremental,
        "files_seen": job.files_seen, "results_total": job.results_total,
        "results_seen": job.results_seen, "results_added": job.results_added,
        "results_changed": job.results_changed, "results_unchanged": job.results_unchanged,
        "errors": job.errors, "progress_percent": job.progress_percent, "message": job.message,
    }  # fmt: skip


def source_as_dict(source: Source) -> dict[str, Any]:
    """A source of :func:`source_list` as JSON, with its last job."""
    from ingest.sync import schedule_text

    return {
        "name": source.name, "kind": source.kind, "location": source.location, "ref": source.ref,
        "enabled": source.enabled, "schedule": schedule_text(source),
        "last_commit": source.last_commit, "failing": source.failing,
        "consecutive_failures": source.consecutive_failures, "last_error": source.last_error,
        "last_job": job_as_dict(source.last_job),  # type: ignore[attr-defined]
    }  # fmt: skip


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None
