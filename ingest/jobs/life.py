"""A running job's heartbeat and its end: the two steps every job shares, whether it
runs whole (``ingest.jobs.run``) or fanned out over parts (``ingest.jobs.parts``).
Django's ORM writes the rows; a thread of the standard library beats."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from ingest.models import IngestJob, IngestJobError, Source


def job_end(
    job: IngestJob,
    state: str,
    message: str,
    source_fields: dict[str, Any],
    *,
    error_row: bool = True,
) -> IngestJob:
    """Finish ``job``. A succeeded job writes ``source_fields`` (the new sync state);
    a failed one only counts the failure, and adds ``message`` as a source-level
    error row when ``error_row``."""
    now = timezone.now()
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=job.source_id)
        if state == IngestJob.State.SUCCEEDED:
            source_fields |= {"consecutive_failures": 0, "last_error": ""}
        else:
            source_fields = {
                "consecutive_failures": F("consecutive_failures") + 1,
                "last_error": message[:2000],
            }
            if error_row:
                IngestJobError.objects.create(job=job, path="", message=message)
                job.errors += 1
        Source.objects.filter(pk=source.pk).update(**source_fields)
        job.state, job.finished, job.heartbeat, job.message = state, now, now, message
        job.save(update_fields=["state", "finished", "heartbeat", "message", *IngestJob.COUNTS])
    return job


class Heartbeat:
    """Refreshes ``IngestJob.heartbeat`` from a thread while the job runs, so that
    long steps without progress (a big ``git fetch``) do not look like a dead job."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.every = max(1.0, settings.INGEST_JOB_STALE_SECONDS / 4)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"heartbeat-{job_id}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def _beat(self) -> None:
        try:
            while not self.stop.wait(self.every):
                IngestJob.objects.filter(pk=self.job_id, state=IngestJob.State.RUNNING).update(
                    heartbeat=timezone.now()
                )
        finally:
            connection.close()  # this thread's own connection
