"""Source syncs: the services behind ``source add/sync/list``, the beat schedule and
the Celery tasks (``ingest.tasks``).

A sync is one :class:`~ingest.models.IngestJob`. ``source_sync_request`` creates it
(at most one queued or running job per source: row lock + a partial unique index)
and queues ``ingest_job_run_task`` after commit; ``ingest_job_run`` does the work:

* MLPerf git source: shallow-fetch ``ref`` into ``BENCHDB_CACHE/sources/<id>/<name>``,
  ``git diff --name-only`` between ``Source.last_commit`` and the new commit, and
  read only the result folders that diff touches (a full read when there is no
  base commit, the base is no longer in the cache, or the parser version changed).
  A plain local folder is read in place, in full; unchanged folders are skipped by
  their content hash in :func:`ingest.training.mlperf_training_ingest`.
* Vendor source: fetch with a timeout and ``If-None-Match`` / ``If-Modified-Since``;
  a 304 or a body with the sha256 already stored does nothing.

Network errors are retried with backoff (``ingest.fetch``); after
``Source.FAILING_AFTER`` failed jobs in a row a source shows as failing.

A result folder whose transaction is rolled back (a database error) is an error
row of the job, and the job fails: ``last_commit`` stays, so the next sync reads
that diff again, skips what was stored and stores what was not. After a job that
wrote results, the claims of every vendor page are checked again against them
(:func:`ingest.vendor_pages.claims_reverify`).

Safe to interrupt: each result is written in its own transaction, and
``last_commit`` only moves when a job succeeds, so the next job re-reads the same
diff and skips what was already stored. A job whose worker died (heartbeat older
than ``INGEST_JOB_STALE_SECONDS``, or its process gone on this host) is marked
``interrupted`` by :func:`ingest_job_reap`, which runs before every sync request,
when a worker starts, and when a redelivered task finds its job orphaned.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import posixpath
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import psutil
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from benchdb.models import Claim, IngestProblem
from ingest.fetch import (
    Fetched,
    SyncError,
    cache_dir,
    git_changed_files,
    git_checkout,
    is_http_url,
    retry,
    strip_userinfo,
    vendor_fetch,
)
from ingest.models import IngestJob, IngestJobError, Source
from ingest.parsers import training_log
from ingest.parsers.types import LoadedResult
from ingest.training import NOT_STORED

if TYPE_CHECKING:
    from ingest.training import IngestReport

log = logging.getLogger(__name__)

#: A redelivered task resumes an orphaned job's work unless this many jobs of the
#: source in a row were interrupted (a source that kills its worker must not loop).
MAX_RESUMES = 3
SCHEDULE_TASK = "ingest.tasks.source_sync_request_task"

# --- sources and schedules ------------------------------------------------------------


@transaction.atomic
def source_add(
    *, name: str, kind: str, location: str, ref: str = "", schedule: str = "",
    round_version: str = "", enabled: bool = True,
) -> Source:  # fmt: skip
    """Register a source. ``location``: an http(s) URL (:func:`ingest.fetch.is_http_url`)
    or a local path. ``schedule``: see :func:`parse_schedule` ("" = none).

    Raises ``ValidationError`` (bad name, kind, schedule, or a location that is neither
    an http(s) URL nor an existing path: ssh and ``git@`` remotes are not fetched).
    """
    if not is_http_url(location):
        given, location = location, os.path.abspath(location)
        if not os.path.exists(location):
            raise ValidationError({"location": f"{given}: not an http(s) URL, and no such file or folder"})  # fmt: skip
    source = Source(name=name, kind=kind, location=location, ref=ref, round_version=round_version, enabled=enabled)  # fmt: skip
    source.full_clean()
    source.save()
    source_schedule_set(source=source, schedule=schedule)
    return source


@transaction.atomic
def source_remove(*, source: Source) -> None:
    """Delete a source with its beat entry and jobs; its results stay."""
    source_schedule_set(source=source, schedule="")
    source.delete()


def parse_schedule(text: str) -> tuple[str, dict[str, Any]] | None:
    """``"0 3 * * *"`` (crontab: minute hour day-of-month month day-of-week, see
    https://crontab.guru) -> ``("crontab", {...})``; ``"every 6h"`` (s, m, h, d) ->
    ``("interval", {"every": 6, "period": "hours"})``; ``""`` -> None.

    Raises ``ValidationError`` naming the bad text.
    """
    text = text.strip()
    if not text:
        return None
    m = re.fullmatch(r"every\s+(\d+)\s*(s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)", text)
    if m:
        period = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[m.group(2)[0]]
        if int(m.group(1)) < 1:
            raise ValidationError(f"schedule {text!r}: the interval must be at least 1")
        return "interval", {"every": int(m.group(1)), "period": period}
    fields = text.split()
    if len(fields) != 5:
        raise ValidationError(f'schedule {text!r}: expected a crontab ("0 3 * * *") or "every 6h"')
    keys = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")
    return "crontab", dict(zip(keys, fields, strict=True))


def schedule_text(source: Source) -> str:
    """The schedule as :func:`parse_schedule` reads it ("" when there is none)."""
    pt = source.periodic_task
    if pt is None:
        return ""
    if pt.crontab_id:
        c = pt.crontab
        return f"{c.minute} {c.hour} {c.day_of_month} {c.month_of_year} {c.day_of_week}"
    if pt.interval_id:
        return f"every {pt.interval.every}{pt.interval.period[0]}"
    return str(pt)


@transaction.atomic
def source_schedule_set(*, source: Source, schedule: str) -> None:
    """Create, change or (``schedule=""``) remove the beat entry of ``source``; the
    entry is enabled when the source is."""
    from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask

    spec = parse_schedule(schedule)
    pt = source.periodic_task
    if spec is None:
        if pt is not None:
            source.periodic_task = None
            source.save(update_fields=["periodic_task"])
            pt.delete()
        return
    kind, values = spec
    if kind == "crontab":
        cron = CrontabSchedule(**values)
        try:
            cron.full_clean(exclude=["timezone"])
        except ValidationError as exc:
            raise ValidationError(f"schedule {schedule!r}: {exc.messages[0]}") from exc
        crontab, interval = CrontabSchedule.objects.get_or_create(**values)[0], None
    else:
        crontab, interval = None, IntervalSchedule.objects.get_or_create(**values)[0]
    pt = pt or PeriodicTask(task=SCHEDULE_TASK)
    pt.name = f"ingest source {source.name}"
    pt.kwargs = json.dumps({"source_id": source.pk})
    pt.crontab, pt.interval, pt.enabled = crontab, interval, source.enabled
    pt.save()
    if source.periodic_task_id != pt.pk:
        source.periodic_task = pt
        source.save(update_fields=["periodic_task"])


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
    from ingest.tasks import ingest_job_run_task

    ingest_job_run_task.delay(job_id)


def ingest_job_run(*, job_id: int, worker: str = "", task_id: str = "") -> IngestJob | None:
    """Run a queued job to its end (succeeded or failed) and return it.

    Returns None, doing nothing, when the job is gone, already ran, or runs
    elsewhere (a task delivered twice). A job left ``running`` by a dead worker
    (the broker redelivers its task, see ``ingest.tasks``) is marked interrupted
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
    progress = _Progress(job)
    try:
        with _Heartbeat(job.pk):
            source_fields = _SYNCS[job.source.kind](job, progress)
        progress.flush()
    except Exception as exc:  # every failure ends in the job row, none propagates
        if not isinstance(exc, (SyncError, OSError)):
            log.exception("ingest job %s failed", job.pk)
        progress.flush()
        return _job_end(job, IngestJob.State.FAILED, f"{type(exc).__name__}: {exc}", {})
    if progress.failed:  # its error rows name the folders: no source-level row
        return _job_end(job, IngestJob.State.FAILED, job.message, {}, error_row=False)
    return _job_end(job, IngestJob.State.SUCCEEDED, job.message, source_fields)


def _job_start(job_id: int, worker: str, task_id: str) -> tuple[IngestJob | None, int | None]:
    now = timezone.now()
    with transaction.atomic():
        job = IngestJob.objects.select_for_update().select_related("source").filter(pk=job_id).first()  # fmt: skip
        if job is None:
            return None, None
        if job.state == IngestJob.State.RUNNING and _worker_gone(job, now):
            _interrupt(job, now)
            recent = list(job.source.jobs.order_by("-created").values_list("state", flat=True)[:MAX_RESUMES])  # fmt: skip
            give_up = recent.count(IngestJob.State.INTERRUPTED) >= MAX_RESUMES
            return None, (None if give_up else job.source_id)
        if job.state != IngestJob.State.QUEUED:
            return None, None
        job.state, job.started, job.heartbeat = IngestJob.State.RUNNING, now, now
        job.worker = worker or f"local@{socket.gethostname()}"
        job.worker_host, job.worker_pid, job.task_id = socket.gethostname(), os.getpid(), task_id
        job.save(update_fields=["state", "started", "heartbeat", "worker", "worker_host", "worker_pid", "task_id"])  # fmt: skip
    return job, None


def _job_end(job: IngestJob, state: str, message: str, source_fields: dict[str, Any], *, error_row: bool = True) -> IngestJob:  # fmt: skip
    """Finish ``job``. A succeeded job writes ``source_fields`` (the new sync state);
    a failed one only counts the failure, and adds ``message`` as a source-level
    error row when ``error_row``."""
    now = timezone.now()
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=job.source_id)
        if state == IngestJob.State.SUCCEEDED:
            source_fields |= {"consecutive_failures": 0, "last_error": ""}
        else:
            source_fields = {"consecutive_failures": F("consecutive_failures") + 1, "last_error": message[:2000]}  # fmt: skip
            if error_row:
                IngestJobError.objects.create(job=job, path="", message=message)
                job.errors += 1
        Source.objects.filter(pk=source.pk).update(**source_fields)
        job.state, job.finished, job.heartbeat, job.message = state, now, now, message
        job.save(update_fields=[
            "state", "finished", "heartbeat", "message", "commit_from", "commit_to", "incremental",
            "files_seen", "results_total", "results_seen", "results_added", "results_changed",
            "results_unchanged", "errors",
        ])  # fmt: skip
    return job


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
            job = IngestJob.objects.select_for_update().filter(pk=job_id, state=IngestJob.State.RUNNING).first()  # fmt: skip
            if job is not None and _worker_gone(job, now):
                _interrupt(job, now)
                n += 1
    return n


def _worker_gone(job: IngestJob, now: datetime) -> bool:
    stale = timedelta(seconds=settings.INGEST_JOB_STALE_SECONDS)
    if job.heartbeat is None or now - job.heartbeat > stale:
        return True
    if job.worker_host == socket.gethostname() and job.worker_pid:
        # Same host: the process table is the truth (a zombie is a dead worker).
        try:
            return bool(psutil.Process(job.worker_pid).status() == psutil.STATUS_ZOMBIE)
        except psutil.NoSuchProcess:
            return True
    return False


def _interrupt(job: IngestJob, now: datetime) -> None:
    job.state, job.finished = IngestJob.State.INTERRUPTED, now
    job.message = (
        f"interrupted: worker {job.worker} (pid {job.worker_pid} on {job.worker_host}) is gone; "
        f"last heartbeat {job.heartbeat:%Y-%m-%d %H:%M:%S} UTC. Results stored before that are "
        "complete; the next sync of this source reads the rest."
    ) if job.heartbeat else "interrupted: worker gone"  # fmt: skip
    job.save(update_fields=["state", "finished", "message"])


class _Heartbeat:
    """Refreshes ``IngestJob.heartbeat`` from a thread while the job runs, so that
    long steps without progress (a big ``git fetch``) do not look like a dead job."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.every = max(1.0, settings.INGEST_JOB_STALE_SECONDS / 4)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"heartbeat-{job_id}", daemon=True)

    def __enter__(self) -> _Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def _beat(self) -> None:
        try:
            while not self.stop.wait(self.every):
                IngestJob.objects.filter(pk=self.job_id, state=IngestJob.State.RUNNING).update(heartbeat=timezone.now())  # fmt: skip
        finally:
            connection.close()  # this thread's own connection


class _Progress:
    """``on_result`` callback: counts what was read and writes the counts to the
    job row at most every half second; keeps the problems of the results written,
    and the result folders that could not be stored, as job error rows."""

    def __init__(self, job: IngestJob) -> None:
        self.job = job
        self.prefix = ""
        self.written: list[str] = []
        self.failed = 0
        self.pending: list[IngestJobError] = []
        self.last = 0.0

    def __call__(self, item: LoadedResult) -> None:
        job, d = self.job, item.dir
        job.results_seen += 1
        job.files_seen += len(d.runs) + bool(d.system_file) + bool(d.scaling_file)
        job.results_unchanged += item.unchanged
        if not item.unchanged:
            self.written.append(d.path)
        if time.monotonic() - self.last > 0.5:
            self.flush()
        if settings.BENCHDB_SYNC_TEST_DELAY:
            time.sleep(settings.BENCHDB_SYNC_TEST_DELAY)  # test only, see settings

    def repository_done(self, report: IngestReport) -> None:
        """Count one repository's ingest, then add an error row per result folder it
        could not store (``report.failed_paths``, with the problem the service
        recorded) and copy the problems stored with the results written (parse
        errors, and the warnings of failed runs, with file and line)."""
        job = self.job
        job.results_added += report.added
        job.results_changed += report.changed
        self.failed += report.failed
        problems = IngestProblem.objects.filter(round__suite="training", round__version__in=report.rounds)  # fmt: skip
        paths = report.failed_paths
        why = dict(problems.filter(result=None, path__in=paths, message__startswith=NOT_STORED).order_by("pk").values_list("path", "message"))  # fmt: skip
        for path in paths:
            self.error(posixpath.join(self.prefix, path), None, why.get(path, f"{NOT_STORED}: its transaction was rolled back"))  # fmt: skip
        for p in problems.filter(result__source_path__in=self.written).order_by("path", "line"):
            self.error(posixpath.join(self.prefix, p.path), p.line, p.message, p.severity)
        self.written = []

    def error(self, path: str, line: int | None, message: str, severity: str = "error") -> None:
        self.pending.append(IngestJobError(job=self.job, path=path[:500], line=line, message=message[:2000], severity=severity))  # fmt: skip
        self.job.errors += severity == "error"

    def flush(self) -> None:
        job = self.job
        IngestJobError.objects.bulk_create(self.pending)
        self.pending = []
        IngestJob.objects.filter(pk=job.pk).update(
            heartbeat=timezone.now(), results_total=job.results_total, files_seen=job.files_seen,
            results_seen=job.results_seen, results_unchanged=job.results_unchanged,
            results_added=job.results_added, results_changed=job.results_changed, errors=job.errors, commit_from=job.commit_from, commit_to=job.commit_to,
            incremental=job.incremental,
        )  # fmt: skip
        self.last = time.monotonic()


# --- MLPerf results repositories ---------------------------------------------------------


def _mlperf_sync(job: IngestJob, progress: _Progress) -> dict[str, Any]:
    from ingest.training import CODE_VERSION, IngestError, mlperf_training_ingest

    source = job.source
    tree, commit = _mlperf_tree(source)
    base = source.last_commit if source.synced_parser_version == CODE_VERSION[:32] else ""
    changed = git_changed_files(tree, base, commit) if commit and base else None
    job.commit_from, job.commit_to, job.incremental = base, commit, changed is not None
    repos = training_log.find_repositories(tree)
    if not repos:
        raise SyncError(f"{source.location}: no MLPerf results repository (expected <Submitter>/results/ or training_results_v*/)")  # fmt: skip
    plan: list[tuple[str, str, set[str] | None, int]] = []
    for repo in repos:
        prefix = os.path.relpath(repo, tree).replace(os.sep, "/")
        prefix = "" if prefix == "." else prefix
        if changed is None:
            plan.append((repo, prefix, None, len(training_log.discover_results(repo))))
            continue
        only, removed = changed_result_dirs(repo, prefix, changed)
        for path in removed:
            progress.error(posixpath.join(prefix, path), None, "result folder removed upstream; its result stays in the database", "warning")  # fmt: skip
        if only:
            plan.append((repo, prefix, only, len(only)))
    job.results_total = sum(n for *_, n in plan)
    progress.flush()
    round_version = source.round_version if len(repos) == 1 and source.round_version else None
    for repo, prefix, paths, _ in plan:
        progress.prefix = prefix
        try:
            report = mlperf_training_ingest(location=repo, round_version=round_version, commit=commit, on_result=progress, only_paths=paths)  # fmt: skip
        except IngestError as exc:
            raise SyncError(str(exc)) from exc
        progress.repository_done(report)
    job.message = _summary(job, len(plan))
    if progress.failed:
        job.message += f"; {_n(progress.failed, 'result folder')} not stored (see the errors), so the synced commit stays {base[:12] or 'unset'} and the next sync reads them again"  # fmt: skip
    # A failed re-check would not be retried by the next sync, which finds these
    # results stored: a source whose last job failed re-checks on its next one.
    if job.results_added or job.results_changed or source.consecutive_failures:
        progress.flush()
        pages = _claims_reverify()
        job.message += f"; claims of {_n(pages, 'vendor page')} checked again" if pages else ""
    return {"last_commit": commit, "synced_parser_version": CODE_VERSION[:32]}


def _claims_reverify() -> int:
    """Check the claims of every vendor page again against the results stored now
    (a page read before its MLPerf results were is ``unverifiable`` until then);
    one transaction per page, outside those of the results. Returns the pages."""
    from benchdb.models import VendorPage
    from ingest.vendor_pages import claims_reverify

    n = 0
    for page_id in Claim.objects.order_by("page_id").values_list("page_id", flat=True).distinct():
        try:
            claims_reverify(page_id=page_id)
        except VendorPage.DoesNotExist:  # deleted meanwhile
            continue
        n += 1
    return n


def _summary(job: IngestJob, repos: int) -> str:
    if job.incremental and not job.results_total:
        return f"up to date at {job.commit_to[:12]}" if job.commit_from == job.commit_to else f"{job.commit_from[:12]}..{job.commit_to[:12]}: no result folder changed"  # fmt: skip
    how = f"changes {job.commit_from[:12]}..{job.commit_to[:12]}" if job.incremental else "full read"  # fmt: skip
    return f"{how}: {_n(job.results_seen, 'result folder')} in {_n(repos, 'repository', 'repositories')}"  # fmt: skip


def _n(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def changed_result_dirs(repo: str, prefix: str, changed: Iterable[str]) -> tuple[set[str], list[str]]:  # fmt: skip
    """Which result folders of ``repo`` a list of changed files touches.

    ``changed``: paths relative to the git tree (``git diff --name-only``);
    ``prefix``: ``repo`` relative to that tree ("" for the root). A result folder
    is touched when a file directly in it changed, or its systems file (which
    every benchmark of that system reads). Returns (result folder paths relative
    to ``repo``, as ``ResultDir.path``; result folders whose run files changed
    but which no longer exist).
    """
    head = prefix + "/" if prefix else ""
    rel = {p[len(head):] for p in changed if p.startswith(head)}
    parents = {posixpath.dirname(p) for p in rel}
    dirs = training_log.discover_results(repo)
    touched = {d.path for d in dirs if d.path in parents or (d.system_file and d.system_file in rel)}  # fmt: skip
    known = {d.path for d in dirs}
    removed = sorted({
        posixpath.dirname(p) for p in rel
        if training_log.RUN_FILE.match(posixpath.basename(p)) and "/results/" in f"/{p}"
        and posixpath.dirname(p) not in known and not os.path.isdir(os.path.join(repo, posixpath.dirname(p)))
    })  # fmt: skip
    return touched, removed


def _mlperf_tree(source: Source) -> tuple[str, str]:
    """(folder to read, its commit): a git checkout in the cache, or a plain local
    folder read in place (commit "")."""
    loc = source.location
    if not is_http_url(loc):
        if not os.path.isdir(loc):
            raise SyncError(f"{loc}: no such folder")
        if not (os.path.exists(os.path.join(loc, ".git")) or loc.endswith(".git")):
            return loc, ""
        loc = "file://" + os.path.abspath(loc)  # file://, so that --depth applies locally
    return git_checkout(url=loc, ref=source.ref, dest=cache_dir(loc, source_id=source.pk))


# --- vendor pages ------------------------------------------------------------------------


def _vendor_sync(job: IngestJob, progress: _Progress) -> dict[str, Any]:
    source = job.source
    if is_http_url(source.location):
        got = retry(lambda: vendor_fetch(url=source.location, etag=source.etag, last_modified=source.last_modified), f"GET {strip_userinfo(source.location)}")  # fmt: skip
    else:
        with open(source.location, "rb") as f:
            got = Fetched(200, f.read())
    job.files_seen = job.results_total = job.results_seen = 1
    digest = hashlib.sha256(got.body).hexdigest() if got.status == 200 else source.content_sha256
    if got.status == 304 or digest == source.content_sha256:
        job.results_unchanged = 1
        job.message = "not modified (HTTP 304)" if got.status == 304 else f"unchanged (sha256 {digest[:12]})"  # fmt: skip
    elif not _vendor_ingest(source, got):
        job.results_unchanged = 1
        job.message = f"page already stored (sha256 {digest[:12]})"
    else:
        # Pages are stored by content: a new version is a new page, "changed" for the source.
        job.results_added, job.results_changed = (0, 1) if source.content_sha256 else (1, 0)
        job.message = f"page stored (sha256 {digest[:12]})"
    return {"etag": got.etag or source.etag, "last_modified": got.last_modified or source.last_modified, "content_sha256": digest}  # fmt: skip


def _vendor_ingest(source: Source, got: Fetched) -> bool:
    """Store the page with the vendor ingest service (``ingest.vendor_pages``); True if
    it made a new page (False: these bytes were already stored)."""
    from ingest.vendor_pages import VendorIngestError, vendor_page_ingest

    try:
        report = vendor_page_ingest(data=got.body, path_or_url=source.location, content_type=got.content_type)  # fmt: skip
    except VendorIngestError as exc:
        raise SyncError(str(exc)) from exc
    return report.created


_SYNCS: dict[str, Callable[[IngestJob, _Progress], dict[str, Any]]] = {
    Source.Kind.MLPERF_TRAINING: _mlperf_sync,
    Source.Kind.VENDOR: _vendor_sync,
}
