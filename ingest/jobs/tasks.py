"""Celery tasks: thin wrappers around ``ingest.jobs.run`` and ``ingest.jobs.parts``; each
takes ids and calls one service. Registered under their old names (``ingest.tasks.*``,
``ingest.jobs.queue``): queued messages and stored beat entries keep working.

Delivery (settings ``CELERY_TASK_ACKS_LATE`` and ``CELERY_TASK_REJECT_ON_WORKER_LOST``,
set again on the task so it does not depend on them): a job's message is acknowledged
only when the task returns. If the pool process running it dies (SIGKILL, OOM), the
worker puts the message back and it is delivered again; the second delivery finds
the job ``running`` with its process gone, marks it ``interrupted`` and queues a
``resume`` job (at most ``ingest.jobs.run.MAX_RESUMES`` interrupted jobs in a row, so a source
that kills its worker cannot loop). If the whole worker dies, Redis hands the
message out again only after its visibility timeout (settings
``CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]``, 5 hours: above the 4-hour
time limit below, so that a long sync is not delivered twice); meanwhile
the job is marked ``interrupted`` when a worker starts (``worker_ready`` below) or
at the next sync request of the source, and that next sync finishes the work. A
late or duplicate delivery of a job that already ran, or runs elsewhere with a
fresh heartbeat, does nothing. Nothing is lost either way: each result is written
in one transaction and a source's ``last_commit`` moves only when its job
succeeds.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import worker_ready

from ingest.jobs import queue

# The job modules are imported inside each task, not here: Django registers these tasks
# in every process that starts (IngestConfig.ready), and the ingest services they pull in
# (about 240 modules, 20 MB) are a worker's business. Nothing below imports this module
# back: the job modules send tasks by name (ingest.jobs.queue).

# A full read of a whole round takes minutes, plus the fetch (bench/sync_speed.py,
# in-process with two parser processes: v1.1, 183 result folders, 41 s; v2.0, 262
# folders, 82 s; a prefork worker parses in its one process: v1.1 took 58 s). The
# limits stop a hung git or HTTP call, not a slow round.
_LIMITS: dict[str, Any] = {"time_limit": 4 * 3600, "soft_time_limit": 4 * 3600 - 120}


@shared_task(  # type: ignore[untyped-decorator]
    name=queue.RUN, bind=True, acks_late=True, reject_on_worker_lost=True, **_LIMITS
)
def ingest_job_run_task(self: Any, job_id: int) -> str | None:
    """Run ingest job ``job_id``; returns its final state (None: nothing to do)."""
    from ingest.jobs.run import ingest_job_run

    worker, task_id = self.request.hostname or "", self.request.id or ""
    job = ingest_job_run(job_id=job_id, worker=worker, task_id=task_id)
    return job.state if job else None


@shared_task(  # type: ignore[untyped-decorator]
    name=queue.PART, acks_late=True, reject_on_worker_lost=True, **_LIMITS
)
def ingest_job_part_task(job_id: int, part: dict[str, Any]) -> dict[str, Any]:
    """One part of a fanned-out sync (``ingest.jobs.parts``): a submitter folder."""
    from ingest.jobs.parts import job_part_run

    return job_part_run(job_id=job_id, part=part)


@shared_task(name=queue.JOIN, acks_late=True)  # type: ignore[untyped-decorator]
def ingest_job_join_task(outcomes: list[dict[str, Any]], job_id: int) -> str | None:
    """The join of a fanned-out sync: end the job once every part ran."""
    from ingest.jobs.parts import job_join

    job = job_join(job_id=job_id, outcomes=outcomes)
    return job.state if job else None


@shared_task(name=queue.SYNC_REQUEST, acks_late=True)  # type: ignore[untyped-decorator]
def source_sync_request_task(source_id: int, trigger: str = "schedule") -> int | None:
    """What beat runs for a source's schedule: queue a sync; returns the job id."""
    from ingest.jobs.run import source_sync_request
    from ingest.models import Source

    try:
        job = source_sync_request(source_id=source_id, trigger=trigger)
    except Source.DoesNotExist:  # deleted since beat read its schedule
        return None
    return job.pk if job else None


@worker_ready.connect  # type: ignore[untyped-decorator]
def _reap_on_worker_start(**kwargs: Any) -> None:
    """A starting worker marks the jobs of dead workers as interrupted."""
    from django.db import connections

    from ingest.jobs.run import ingest_job_reap

    try:
        ingest_job_reap()
    finally:
        connections.close_all()  # the pool's processes must not share this one
