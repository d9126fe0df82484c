"""Source syncs: the services behind ``source add/sync/list``, the admin's Source
form and the Celery tasks (``ingest.jobs.tasks``); schedules are in ``ingest.jobs.schedules``.

A sync is one :class:`~ingest.models.IngestJob`. ``source_sync_request`` creates it
(at most one queued or running job per source: row lock + a partial unique index)
and queues ``ingest_job_run_task`` after commit; ``ingest_job_run`` does the work:

* MLPerf git source (``ingest.jobs.training``): shallow-fetch ``ref`` into
  ``BENCHDB_CACHE/sources/<id>/<name>``, ``git diff --name-only`` between
  ``Source.last_commit`` and the new commit, and read only the result folders that
  diff touches (a full read when there is no base commit, the base is no longer in
  the cache, or the parser version changed). A plain local folder is read in place,
  in full; unchanged folders are skipped by their content hash in
  :func:`ingest.training.service.mlperf_training_ingest`.
* Vendor source: fetch with a timeout and ``If-None-Match`` / ``If-Modified-Since``;
  a 304 or a body with the sha256 already stored does nothing.

Network errors are retried with backoff (``ingest.fetch``); a ref or location git
must not be given (``ingest.fetch.check_git_ref``/``check_git_location``, the rules
``Source.clean`` applies) fails the job at once. After ``Source.FAILING_AFTER``
failed jobs in a row a source shows as failing.

A result folder whose transaction is rolled back (a database error) is an error
row of the job, and the job fails: ``last_commit`` stays, so the next sync reads
that diff again, skips what was stored and stores what was not. After a job that
wrote results, the claims of every vendor page are checked again against them
(:func:`ingest.claims.pages.claims_reverify`).

Safe to interrupt: each result is written in its own transaction, and
``last_commit`` only moves when a job succeeds, so the next job re-reads the same
diff and skips what was already stored. A job whose worker died (heartbeat older
than ``INGEST_JOB_STALE_SECONDS``, or its process gone on this host) is marked
``interrupted`` by :func:`ingest_job_reap`, which runs before every sync request,
when a worker starts, and when a redelivered task finds its job orphaned.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import psutil
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ingest.fetch import (
    Fetched,
    SyncError,
    is_http_url,
    retry,
    strip_userinfo,
    vendor_fetch,
)
from ingest.jobs import parts as sync_parts
from ingest.jobs import queue
from ingest.jobs.inference import inference_sync
from ingest.jobs.life import Heartbeat, job_end
from ingest.jobs.progress import JobProgress
from ingest.jobs.schedules import source_schedule_set
from ingest.jobs.training import mlperf_sync
from ingest.models import IngestJob, Source

log = logging.getLogger(__name__)

#: A redelivered task resumes an orphaned job's work unless this many jobs of the
#: source in a row were interrupted (a source that kills its worker must not loop).
MAX_RESUMES = 3

# --- sources ------------------------------------------------------------------------------


@transaction.atomic
def source_add(
    *,
    name: str,
    kind: str,
    location: str,
    ref: str = "",
    schedule: str = "",
    round_version: str = "",
    enabled: bool = True,
) -> Source:
    """Register a source. ``location``: an https URL (a vendor page may be http) or a
    local path, made absolute; ``ref``: a branch or tag name or a full commit sha ("" =
    the default branch); both as ``Source.clean`` allows. ``schedule``: see
    :func:`ingest.jobs.schedules.parse_schedule` ("" = none).

    Raises ``ValidationError`` (bad name, kind or schedule; a ref or location git must
    not be given, such as ``--upload-pack=...``, ``ext::...``, ssh and ``git@``
    remotes; a local path that does not exist).
    """
    source = Source(
        name=name,
        kind=kind,
        location=location,
        ref=ref,
        round_version=round_version,
        enabled=enabled,
    )
    source.full_clean()
    if not is_http_url(location):
        source.location = os.path.abspath(location)
        if not os.path.exists(source.location):
            raise ValidationError({"location": f"{location}: no such file or folder"})
    source.save()
    source_schedule_set(source=source, schedule=schedule)
    return source


@transaction.atomic
def source_remove(*, source: Source) -> None:
    """Delete a source with its beat entry and jobs; its results stay."""
    source_schedule_set(source=source, schedule="")
    source.delete()


# --- jobs ----------------------------------------------------------------------------------


def source_sync_request(*, source_id: int, trigger: str, full: bool = False) -> IngestJob | None:
    """Queue a sync of a source and return its job.

    If the source already has a queued or running job, that job is returned and no
    other is made (a queued one is sent to the broker again: duplicates are
    harmless, :func:`ingest_job_run` runs a job once). ``full`` forgets the last
    synced commit and a page's ETag, so that everything is read again. A
    scheduled request for a disabled source does nothing and returns None.
    Raises ``Source.DoesNotExist``.
    """
    ingest_job_reap(source_id=source_id)
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=source_id)
        if trigger == IngestJob.Trigger.SCHEDULE and not source.enabled:
            return None
        job = source.jobs.filter(state__in=IngestJob.ACTIVE).first()
        if job is None:
            if full:
                source.last_commit = source.etag = source.last_modified = ""
                source.save(update_fields=["last_commit", "etag", "last_modified"])
            job = IngestJob.objects.create(source=source, trigger=trigger)
        if job.state == IngestJob.State.QUEUED:
            transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    queue.send(queue.RUN, job_id)


def ingest_job_run(*, job_id: int, worker: str = "", task_id: str = "") -> IngestJob | None:
    """Run a queued job to its end (succeeded or failed) and return it.

    Returns None, doing nothing, when the job is gone, already ran, or runs
    elsewhere (a task delivered twice). A job left ``running`` by a dead worker
    (the broker redelivers its task, see ``ingest.jobs.tasks``) is marked interrupted
    and a ``resume`` job is queued. Errors never propagate: they end in the job
    row (state ``failed``, ``message``, error rows). A job that read everything but
    could not store some result folders fails too, with one error row per folder,
    and leaves the source's sync state (``last_commit``) as it was.
    """
    job, resume = _job_start(job_id, worker, task_id)
    if resume:
        source_sync_request(source_id=resume, trigger=IngestJob.Trigger.RESUME)
    if job is None:
        return None
    progress = JobProgress(job)
    try:
        with Heartbeat(job.pk):
            if sync_parts.enabled(job) and sync_parts.job_fanout(job, progress):
                return job  # running on: its parts' join ends it (ingest.jobs.parts)
            source_fields = _SYNCS[job.source.kind](job, progress)
        progress.flush()
    except Exception as exc:  # every failure ends in the job row, none propagates
        if not isinstance(exc, (SyncError, OSError)):
            log.exception("ingest job %s failed", job.pk)
        progress.flush()
        return job_end(job, IngestJob.State.FAILED, f"{type(exc).__name__}: {exc}", {})
    if progress.failed:  # its error rows name the folders: no source-level row
        return job_end(job, IngestJob.State.FAILED, job.message, {}, error_row=False)
    return job_end(job, IngestJob.State.SUCCEEDED, job.message, source_fields)


def _job_start(job_id: int, worker: str, task_id: str) -> tuple[IngestJob | None, int | None]:
    now = timezone.now()
    with transaction.atomic():
        job = (
            IngestJob.objects.select_for_update().select_related("source").filter(pk=job_id).first()
        )
        if job is None:
            return None, None
        if job.state == IngestJob.State.RUNNING and _worker_gone(job, now):
            _interrupt(job, now)
            recent = list(
                job.source.jobs.order_by("-created").values_list("state", flat=True)[:MAX_RESUMES]
            )
            give_up = recent.count(IngestJob.State.INTERRUPTED) >= MAX_RESUMES
            return None, (None if give_up else job.source_id)
        if job.state != IngestJob.State.QUEUED:
            return None, None
        job.state, job.started, job.heartbeat = IngestJob.State.RUNNING, now, now
        job.worker = worker or f"local@{socket.gethostname()}"
        job.worker_host, job.worker_pid, job.task_id = socket.gethostname(), os.getpid(), task_id
        fields = ["state", "started", "heartbeat", "worker", "worker_host", "worker_pid"]
        job.save(update_fields=[*fields, "task_id"])
    return job, None


def ingest_job_reap(*, source_id: int | None = None) -> int:
    """Mark running jobs whose worker is gone as interrupted; returns how many.

    Gone: no heartbeat for ``INGEST_JOB_STALE_SECONDS``, or the recorded process
    no longer exists on this host. Runs before each sync request, when a worker
    starts, and from a redelivered task.
    """
    now = timezone.now()
    running = IngestJob.objects.filter(state=IngestJob.State.RUNNING)
    if source_id is not None:
        running = running.filter(source_id=source_id)
    n = 0
    for job_id in running.values_list("pk", flat=True):
        with transaction.atomic():
            job = (
                IngestJob.objects.select_for_update()
                .filter(pk=job_id, state=IngestJob.State.RUNNING)
                .first()
            )
            if job is not None and _worker_gone(job, now):
                _interrupt(job, now)
                n += 1
    return n


def _worker_gone(job: IngestJob, now: datetime) -> bool:
    stale = timedelta(seconds=settings.INGEST_JOB_STALE_SECONDS)
    if job.heartbeat is None or now - job.heartbeat > stale:
        return True
    if job.parts_total:  # fanned out: its parts keep the heartbeat, from any worker
        return False
    if job.worker_host == socket.gethostname() and job.worker_pid:
        # Same host: the process table is the truth (a zombie is a dead worker).
        try:
            return bool(psutil.Process(job.worker_pid).status() == psutil.STATUS_ZOMBIE)
        except psutil.NoSuchProcess:
            return True
    return False


def _interrupt(job: IngestJob, now: datetime) -> None:
    job.state, job.finished = IngestJob.State.INTERRUPTED, now
    job.message = "interrupted: worker gone"
    if job.heartbeat:
        job.message = (
            f"interrupted: worker {job.worker} (pid {job.worker_pid} on {job.worker_host}) is "
            f"gone; last heartbeat {job.heartbeat:%Y-%m-%d %H:%M:%S} UTC. Results stored before "
            "that are complete; the next sync of this source reads the rest."
        )
    job.save(update_fields=["state", "finished", "message"])


# --- vendor pages ------------------------------------------------------------------------


def _vendor_sync(job: IngestJob, progress: JobProgress) -> dict[str, Any]:
    source = job.source
    if is_http_url(source.location):
        got = retry(
            lambda: vendor_fetch(
                url=source.location, etag=source.etag, last_modified=source.last_modified
            ),
            f"GET {strip_userinfo(source.location)}",
        )
    else:
        with open(source.location, "rb") as f:
            got = Fetched(200, f.read())
    job.files_seen = job.results_total = job.results_seen = 1
    digest = hashlib.sha256(got.body).hexdigest() if got.status == 200 else source.content_sha256
    if got.status == 304 or digest == source.content_sha256:
        job.results_unchanged = 1
        job.message = (
            "not modified (HTTP 304)" if got.status == 304 else f"unchanged (sha256 {digest[:12]})"
        )
    elif not _vendor_ingest(source, got):
        job.results_unchanged = 1
        job.message = f"page already stored (sha256 {digest[:12]})"
    else:
        # Pages are stored by content: a new version is a new page, which is a
        # "changed" result for the source.
        job.results_added, job.results_changed = (0, 1) if source.content_sha256 else (1, 0)
        job.message = f"page stored (sha256 {digest[:12]})"
    return {
        "etag": got.etag or source.etag,
        "last_modified": got.last_modified or source.last_modified,
        "content_sha256": digest,
    }


def _vendor_ingest(source: Source, got: Fetched) -> bool:
    """Store the page with the vendor ingest service (``ingest.claims.pages``); True if
    it made a new page (False: these bytes were already stored)."""
    from ingest.claims.pages import VendorIngestError, vendor_page_ingest

    try:
        report = vendor_page_ingest(
            data=got.body, path_or_url=source.location, content_type=got.content_type
        )
    except VendorIngestError as exc:
        raise SyncError(str(exc)) from exc
    return report.created


_SYNCS: dict[str, Callable[[IngestJob, JobProgress], dict[str, Any]]] = {
    Source.Kind.MLPERF_TRAINING: mlperf_sync,
    Source.Kind.MLPERF_INFERENCE: inference_sync,
    Source.Kind.VENDOR: _vendor_sync,
}
