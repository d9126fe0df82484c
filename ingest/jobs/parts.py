"""A whole-round sync fanned out over Celery workers (``settings.INGEST_FANOUT``).

The job's task (``ingest.jobs.run.ingest_job_run``) fetches the tree and plans the read as
:mod:`ingest.jobs.training` does, then splits it into one part per submitter folder and
queues them as a Celery chord: ``ingest_job_part_task`` per part, on any worker of any
machine sharing the database and the broker, and ``ingest_job_join_task`` once all have
run. Nothing of benchdb's own coordinates them beyond that: each part reads and stores
its folders (one transaction per result, unchanged results skipped by their content
hash, so a part delivered twice stores nothing twice), adds its counts to the job
atomically and keeps the job's heartbeat; the join ends the job, writing the source's new
sync state only if no part failed. A part never raises: a failure is an error row and
a failed part. While parts run the job is judged alive by its heartbeat alone
(``ingest.jobs.run.ingest_job_reap``).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from ingest.inference.service import CODE_VERSION as INFERENCE_CODE_VERSION
from ingest.inference.service import mlperf_inference_ingest
from ingest.jobs import queue
from ingest.jobs.inference import inference_plan
from ingest.jobs.life import Heartbeat, job_end
from ingest.jobs.progress import JobProgress, claims_reverify_all, plural
from ingest.jobs.training import plan_sync
from ingest.models import IngestJob, IngestJobError, Source
from ingest.training.parsers import tree as training_tree
from ingest.training.service import mlperf_training_ingest

#: The part and join tasks, by their registered names (``ingest.jobs.queue``).
_TASKS = (queue.PART, queue.JOIN)

#: The counts a part adds to its job's.
DELTAS = (
    "files_seen",
    "results_seen",
    "results_added",
    "results_changed",
    "results_unchanged",
    "errors",
)


def enabled(job: IngestJob) -> bool:
    """Whether ``job`` is fanned out: ``INGEST_FANOUT`` on, a real broker (not the quick
    start's in-process tasks), an MLPerf Training source."""
    kinds = (Source.Kind.MLPERF_TRAINING, Source.Kind.MLPERF_INFERENCE)
    return (
        settings.INGEST_FANOUT
        and not settings.CELERY_TASK_ALWAYS_EAGER
        and job.source.kind in kinds
    )


def job_fanout(job: IngestJob, progress: JobProgress) -> bool:
    """Plan ``job``'s parts and queue them with their join; returns False, having queued
    nothing, when the read has fewer than two submitter folders (the caller then runs it
    in this task). Raises what :func:`ingest.jobs.training.mlperf_sync` raises."""
    if job.source.kind == Source.Kind.MLPERF_INFERENCE:
        return _queue(job, progress, *_inference_parts(job), *_TASKS)
    tree, commit, base, changed, repos, plan = plan_sync(job, progress)
    parts: list[dict[str, Any]] = []
    for repo, _prefix, paths, _count in plan:
        folders = (
            paths if paths is not None else {d.path for d in training_tree.discover_results(repo)}
        )
        by_submitter: dict[str, list[str]] = defaultdict(list)
        for path in sorted(folders):
            by_submitter[path.split("/", 1)[0]].append(path)
        parts += [{"repo": repo, "prefix": _prefix, "paths": p} for p in by_submitter.values()]
    source = job.source
    round_version = source.round_version if len(repos) == 1 and source.round_version else None
    parts = [{**p, "round": round_version, "suite": "training"} for p in parts]
    state = progress.source_fields(commit)
    return _queue(job, progress, commit, base, changed, parts, state, *_TASKS)


def _inference_parts(
    job: IngestJob,
) -> tuple[str, str, list[str] | None, list[dict[str, Any]], dict[str, Any]]:
    """(commit, base, changed, parts, sync state) of an inference source: one part per
    ``<division>/<submitter>`` folder of each round."""
    commit, base, changed, plan = inference_plan(job)
    parts: list[dict[str, Any]] = []
    for root, version, prefix, folders in plan:
        groups: dict[str, list[str]] = defaultdict(list)
        for path in folders:
            groups["/".join(path.split("/", 2)[:2])].append(path)
        parts += [
            {"repo": root, "prefix": prefix, "paths": p, "round": version, "suite": "inference"}
            for p in groups.values()
        ]
    state = {"last_commit": commit, "synced_parser_version": INFERENCE_CODE_VERSION[:32]}
    return commit, base, changed, parts, state


def _queue(
    job: IngestJob,
    progress: JobProgress,
    commit: str,
    base: str,
    changed: list[str] | None,
    parts: list[dict[str, Any]],
    state: dict[str, Any],
    part_task: str,
    join_task: str,
) -> bool:
    """Record the plan on the job and queue its parts with their join (a Celery chord);
    False, queueing nothing, for fewer than two parts."""
    if len(parts) < 2:
        return False
    job.commit_from, job.commit_to, job.incremental = base, commit, changed is not None
    job.results_total = sum(len(p["paths"]) for p in parts)
    job.parts_total, job.pending_source = len(parts), state
    progress.flush()
    job.save(update_fields=["parts_total", "pending_source"])
    queue.send_chord(
        part_task, [(job.pk, {**p, "commit": commit}) for p in parts], join_task, job.pk
    )
    return True


class PartProgress(JobProgress):
    """:class:`JobProgress` of one part: its counts are added to the job's with ``F()``
    (other parts count at the same time), never written whole."""

    def __init__(self, job: IngestJob, suite: str = "training") -> None:
        super().__init__(job, suite)
        self.sent = {name: getattr(job, name) for name in DELTAS}

    def flush(self) -> None:
        IngestJobError.objects.bulk_create(self.pending)
        self.pending = []
        delta = {n: getattr(self.job, n) - self.sent[n] for n in DELTAS}
        added = {n: F(n) + d for n, d in delta.items() if d}
        IngestJob.objects.filter(pk=self.job.pk).update(heartbeat=timezone.now(), **added)
        self.sent = {n: getattr(self.job, n) for n in DELTAS}


def job_part_run(*, job_id: int, part: dict[str, Any]) -> dict[str, Any]:
    """Read and store one part (a submitter folder's result folders); returns
    ``{"failed": folders not stored}``. Never raises: any failure is an error row of the
    job and counts as a failed part."""
    job = IngestJob.objects.filter(pk=job_id, state=IngestJob.State.RUNNING).first()
    if job is None:  # ended (interrupted, or a late duplicate): nothing to do
        return {"failed": 0, "skipped": True}
    suite = part.get("suite", "training")
    progress = PartProgress(job, suite)
    progress.prefix = part["prefix"]
    ingest = mlperf_inference_ingest if suite == "inference" else mlperf_training_ingest
    try:
        with Heartbeat(job_id):
            report = ingest(
                location=part["repo"],
                round_version=part["round"],
                commit=part["commit"],
                on_result=progress,
                only_paths=set(part["paths"]),
            )
        progress.repository_done(report)
        failed = report.failed
    except Exception as exc:  # noqa: BLE001 - a part records its failure, never raises
        where = posixpath.join(part["prefix"], part["paths"][0].split("/", 1)[0])
        progress.error(where, None, f"part not read: {type(exc).__name__}: {exc}")
        failed = len(part["paths"])
    progress.flush()
    IngestJob.objects.filter(pk=job_id).update(
        parts_done=F("parts_done") + 1, parts_failed=F("parts_failed") + (1 if failed else 0)
    )
    return {"failed": failed}


def job_join(*, job_id: int, outcomes: list[dict[str, Any]]) -> IngestJob | None:
    """End a fanned-out job once every part ran: succeeded, with the source's new sync
    state, when no part failed (then claims are checked again if results changed);
    failed otherwise (``last_commit`` stays, the next sync reads the same diff)."""
    job = IngestJob.objects.select_related("source").filter(pk=job_id).first()
    if job is None or job.state != IngestJob.State.RUNNING:
        return job
    failed = sum(int(o.get("failed", 0)) for o in outcomes if isinstance(o, dict))
    how = "changes" if job.incremental else "full read"
    message = (
        f"{how} over {plural(job.parts_total or 0, 'Celery task')} (one per submitter folder): "
        f"{plural(job.results_seen, 'result folder')}"
    )
    if failed or job.parts_failed:
        message += f"; {plural(failed, 'result folder')} not stored (see the errors)"
        return job_end(job, IngestJob.State.FAILED, message, {}, error_row=False)
    if job.results_added or job.results_changed or job.source.consecutive_failures:
        pages = claims_reverify_all()
        message += f"; claims of {plural(pages, 'vendor page')} checked again" if pages else ""
    return job_end(job, IngestJob.State.SUCCEEDED, message, dict(job.pending_source))
