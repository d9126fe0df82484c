"""Reads for the jobs pages and ``source list``: one selector per page, and the rows
they publish (``benchdb.ingest_jobs/1`` and ``benchdb.ingest_job_errors/1`` in
:mod:`benchdb.tables.schemas`; ``source list --format json`` adds the sources).

What a page may show depends on ``private`` (a logged-in user, or the operator's
``source list``): URLs never carry their ``user:token@`` part
(:func:`ingest.fetch.strip_userinfo`); a source's location and ref, raw error text
(a source's ``last_error``, the message of a job that did not succeed, source-level
error rows and database errors, which quote git's stderr and server details) and the
worker's host and pid are shown only when ``private``; otherwise they are None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from ingest.fetch import strip_userinfo
from ingest.jobs.schedules import schedule_text
from ingest.models import IngestJob, IngestJobError, Source
from ingest.training.service import NOT_STORED

#: Error rows shown on a job page (its errors page, CSV and JSON have all of them).
JOB_ERRORS_SHOWN = 500
#: Jobs on the jobs page, newest first.
JOBS_SHOWN = 100


def source_list(*, private: bool = False) -> list[Source]:
    """Every source with ``last_job`` (its newest job with its source, or None), its
    schedule, and what a page shows of it: ``location_shown``, ``ref_shown`` and
    ``error_shown`` (None unless ``private``).

    Queries: sources with their beat entry and schedule (1), their last jobs (1).
    """
    last = IngestJob.objects.filter(source=OuterRef("pk")).order_by("-created", "-pk")
    sources: list[Source] = list(
        Source.objects.select_related("periodic_task__crontab", "periodic_task__interval").annotate(
            last_job_id=Subquery(last.values("pk")[:1])
        )
    )
    ids = [s.last_job_id for s in sources if s.last_job_id]  # type: ignore[attr-defined]
    jobs = IngestJob.objects.select_related("source").in_bulk(ids)
    for s in sources:
        s.last_job = jobs.get(s.last_job_id)  # type: ignore[attr-defined]
        row = source_as_dict(s, private=private)  # what a page may show of it
        s.location_shown, s.ref_shown = row["location"], row["ref"]  # type: ignore[attr-defined]
        s.error_shown = row["last_error"]  # type: ignore[attr-defined]
    return sources


def ingest_job_list(
    *, source: str = "", state: str = "", limit: int = JOBS_SHOWN
) -> QuerySet[IngestJob]:
    """The newest jobs with their source (one query), of the source named ``source``
    and in ``state`` when given ("" = any)."""
    jobs = IngestJob.objects.select_related("source").order_by("-created", "-pk")
    if source:
        jobs = jobs.filter(source__name=source)
    if state:
        jobs = jobs.filter(state=state)
    return jobs[:limit]


@dataclass(frozen=True)
class JobPage:
    """A job and what its page shows: ``row`` (:func:`job_row`), ``worker`` (None
    when hidden), the first ``errors`` as :func:`error_row` rows of
    ``errors_total``."""

    job: IngestJob
    row: dict[str, Any]
    worker: str | None
    errors: list[dict[str, Any]]
    errors_total: int


def ingest_job_get(*, pk: int, private: bool = False, errors: bool = True) -> JobPage:
    """A job with its source and (``errors``) its first :data:`JOB_ERRORS_SHOWN` error
    rows. Raises Http404.

    Queries: job + source (1); with ``errors``: error rows (1), their count when
    there are more than shown (1).
    """
    job = get_object_or_404(IngestJob.objects.select_related("source"), pk=pk)
    rows: list[IngestJobError] = []
    total = 0
    if errors:
        rows = list(job.error_rows.order_by("id")[:JOB_ERRORS_SHOWN])
        total = len(rows) if len(rows) < JOB_ERRORS_SHOWN else job.error_rows.count()
    worker = job.worker
    if job.worker_pid:
        worker = f"{job.worker} (pid {job.worker_pid} on {job.worker_host})"
    return JobPage(
        job=job,
        row=job_row(job, private=private),
        worker=worker if private else None,
        errors=[error_row(e, private=private) for e in rows],
        errors_total=total,
    )


def ingest_job_error_list(
    *, pk: int, private: bool = False
) -> tuple[IngestJob, list[dict[str, Any]]]:
    """A job (Http404 if none) and all its error rows as :func:`error_row` rows.

    Queries: job + source (1), error rows (1).
    """
    job = get_object_or_404(IngestJob.objects.select_related("source"), pk=pk)
    return job, [error_row(e, private=private) for e in job.error_rows.order_by("id")]


def job_message(job: IngestJob, *, private: bool) -> str | None:
    """The job's message; a job that did not succeed has raw error text there
    (exception, git's stderr, the dead worker's host and pid): None unless ``private``."""
    if private or job.state in (IngestJob.State.SUCCEEDED, *IngestJob.ACTIVE):
        return strip_userinfo(job.message)
    return None


def error_row(error: IngestJobError, *, private: bool = False) -> dict[str, Any]:
    """An error row (``benchdb.ingest_job_errors/1``); ``message`` is None for raw
    error text unless ``private``."""
    raw = not error.path or error.message.startswith(NOT_STORED)  # database errors
    message = strip_userinfo(error.message) if private or not raw else None
    return {
        "job": error.job_id,
        "path": error.path,
        "line": error.line,
        "severity": error.severity,
        "message": message,
    }


def job_row(job: IngestJob, *, private: bool = False) -> dict[str, Any]:
    """A job as a row of ``benchdb.ingest_jobs/1``: its source, state, times (ISO
    8601, UTC), counts and progress (0-100); ``location``, ``ref`` and the message of
    a job that did not succeed are None unless ``private``.

    ``results_failed``: see :func:`results_failed`.
    """
    source = job.source
    return {
        "id": job.pk,
        "source": source.name,
        "kind": source.kind,
        "location": strip_userinfo(source.location) if private else None,
        "ref": source.ref if private else None,
        "trigger": job.trigger,
        "state": job.state,
        "created": _iso(job.created),
        "started": _iso(job.started),
        "finished": _iso(job.finished),
        **{name: getattr(job, name) for name in IngestJob.COUNTS if name != "errors"},
        "results_failed": results_failed(job),
        "errors": job.errors,
        "progress_percent": job.progress_percent,
        "message": job_message(job, private=private),
        "url": job.get_absolute_url(),
    }


def results_failed(job: IngestJob) -> int | None:
    """Result folders a finished job read but could not store: ``results_seen -
    results_added - results_changed - results_unchanged`` (see ``IngestJob``), known
    once a job that read all of them has ended; None before and otherwise."""
    read_all = job.results_total is not None and job.results_seen == job.results_total
    if job.state not in (IngestJob.State.SUCCEEDED, IngestJob.State.FAILED) or not read_all:
        return None
    return job.results_seen - job.results_added - job.results_changed - job.results_unchanged


def source_as_dict(source: Source, *, private: bool = False) -> dict[str, Any]:
    """A source of :func:`source_list` as JSON (``source list --format json``), with
    its last job as a :func:`job_row` (None: never synced)."""
    last = source.last_job  # type: ignore[attr-defined]
    return {
        "name": source.name,
        "kind": source.kind,
        "location": strip_userinfo(source.location) if private else None,
        "ref": source.ref if private else None,
        "enabled": source.enabled,
        "schedule": schedule_text(source),
        "last_commit": source.last_commit,
        "failing": source.failing,
        "consecutive_failures": source.consecutive_failures,
        "last_error": strip_userinfo(source.last_error) if private else None,
        "last_job": job_row(last, private=private) if last else None,
    }


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None
