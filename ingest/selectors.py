"""Reads for the jobs pages and ``source list``: one selector per page, and the
JSON shapes both use (``benchdb.ingest.sources/1``, ``benchdb.ingest.job/1``).

What a page may show depends on ``private`` (a logged-in user, or the operator's
``source list``): URLs never carry their ``user:token@`` part
(:func:`ingest.fetch.strip_userinfo`), and raw error text (a source's
``last_error``, the message of a job that did not succeed, source-level error rows
and database errors, which quote git's stderr and server details) and the worker's
host and pid are shown only when ``private``; otherwise they are None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from ingest.fetch import strip_userinfo
from ingest.models import IngestJob, IngestJobError, Source
from ingest.sync import NOT_STORED, schedule_text

#: Error rows shown on a job page (the JSON and the admin have all of them).
JOB_ERRORS_SHOWN = 500


def source_list(*, private: bool = False) -> list[Source]:
    """Every source with ``last_job`` (its newest job with its source, or None), its
    schedule, and what a page shows of it: ``location_shown`` and ``error_shown``
    (None unless ``private``).

    Queries: sources with their beat entry and schedule (1), their last jobs (1).
    """
    last = IngestJob.objects.filter(source=OuterRef("pk")).order_by("-created", "-pk")
    sources: list[Source] = list(
        Source.objects.select_related("periodic_task__crontab", "periodic_task__interval")
        .annotate(last_job_id=Subquery(last.values("pk")[:1]))
    )  # fmt: skip
    ids = [s.last_job_id for s in sources if s.last_job_id]  # type: ignore[attr-defined]
    jobs = IngestJob.objects.select_related("source").in_bulk(ids)
    for s in sources:
        s.last_job = jobs.get(s.last_job_id)  # type: ignore[attr-defined]
        s.location_shown = strip_userinfo(s.location)  # type: ignore[attr-defined]
        s.error_shown = strip_userinfo(s.last_error) if private else None  # type: ignore[attr-defined]
    return sources


def ingest_job_list(*, limit: int = 100) -> QuerySet[IngestJob]:
    """The newest jobs with their source (one query)."""
    return IngestJob.objects.select_related("source").order_by("-created", "-pk")[:limit]


@dataclass(frozen=True)
class JobPage:
    """A job and what its page shows: ``location`` (no userinfo), ``message`` and
    ``worker`` (None when hidden), ``errors`` as :func:`error_as_dict` rows,
    ``results_failed`` as :func:`results_failed`."""

    job: IngestJob
    location: str
    message: str | None
    worker: str | None
    errors: list[dict[str, Any]]
    errors_total: int
    results_failed: int | None


def ingest_job_get(*, pk: int, private: bool = False, errors_limit: int | None = JOB_ERRORS_SHOWN) -> JobPage:  # fmt: skip
    """A job with its source and error rows (first ``errors_limit``; None: all).

    Queries: job + source (1), error rows (1), their count (1). Raises Http404.
    """
    job = get_object_or_404(IngestJob.objects.select_related("source"), pk=pk)
    rows = job.error_rows.order_by("id")
    errors = list(rows if errors_limit is None else rows[:errors_limit])
    total = len(errors) if errors_limit is None or len(errors) < errors_limit else rows.count()
    worker = f"{job.worker} (pid {job.worker_pid} on {job.worker_host})" if job.worker_pid else job.worker  # fmt: skip
    return JobPage(
        job=job, location=strip_userinfo(job.source.location), message=job_message(job, private=private),
        worker=worker if private else None, errors=[error_as_dict(e, private=private) for e in errors],
        errors_total=total, results_failed=results_failed(job),
    )  # fmt: skip


def job_message(job: IngestJob, *, private: bool) -> str | None:
    """The job's message; a job that did not succeed has raw error text there
    (exception, git's stderr, the dead worker's host and pid): None unless ``private``."""
    if private or job.state in (IngestJob.State.SUCCEEDED, *IngestJob.ACTIVE):
        return strip_userinfo(job.message)
    return None


def error_as_dict(error: IngestJobError, *, private: bool) -> dict[str, Any]:
    """An error row as JSON; ``message`` is None for raw error text unless ``private``."""
    raw = not error.path or error.message.startswith(NOT_STORED)  # database errors
    message = strip_userinfo(error.message) if private or not raw else None
    return {"path": error.path, "line": error.line, "severity": error.severity, "message": message}


def job_as_dict(job: IngestJob | None, *, private: bool = False) -> dict[str, Any] | None:
    """A job as JSON: state, times (ISO 8601, UTC), counts and progress (0-100).

    ``results_failed``: result folders read but not stored (``results_seen -
    results_added - results_changed - results_unchanged``, see ``IngestJob``), known
    once a job that read all of them has ended; None before and otherwise.
    """
    if job is None:
        return None
    return {
        "id": job.pk, "source": job.source.name, "trigger": job.trigger, "state": job.state,
        "created": _iso(job.created), "started": _iso(job.started), "finished": _iso(job.finished),
        "commit_from": job.commit_from, "commit_to": job.commit_to, "incremental": job.incremental,
        "files_seen": job.files_seen, "results_total": job.results_total,
        "results_seen": job.results_seen, "results_added": job.results_added,
        "results_changed": job.results_changed, "results_unchanged": job.results_unchanged,
        "results_failed": results_failed(job), "errors": job.errors,
        "progress_percent": job.progress_percent, "message": job_message(job, private=private),
    }  # fmt: skip


def results_failed(job: IngestJob) -> int | None:
    """Result folders a finished job read but could not store (None: not known)."""
    read_all = job.results_total is not None and job.results_seen == job.results_total
    if job.state not in (IngestJob.State.SUCCEEDED, IngestJob.State.FAILED) or not read_all:
        return None
    return job.results_seen - job.results_added - job.results_changed - job.results_unchanged


def source_as_dict(source: Source, *, private: bool = False) -> dict[str, Any]:
    """A source of :func:`source_list` as JSON, with its last job."""
    return {
        "name": source.name, "kind": source.kind, "location": strip_userinfo(source.location),
        "ref": source.ref, "enabled": source.enabled, "schedule": schedule_text(source),
        "last_commit": source.last_commit, "failing": source.failing,
        "consecutive_failures": source.consecutive_failures,
        "last_error": strip_userinfo(source.last_error) if private else None,
        "last_job": job_as_dict(source.last_job, private=private),  # type: ignore[attr-defined]
    }  # fmt: skip


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None
