"""ingest.jobs.tasks: the Celery wrappers run one service each, in this process when
there is no broker (``task.apply``); delivery settings are as documented."""

from __future__ import annotations

from ingest.jobs import run as sync
from ingest.jobs import tasks
from ingest.models import IngestJob, Source


def test_a_sync_task_is_not_redelivered_while_it_may_still_run_as_documented(settings):
    """Redis redelivers an unacknowledged task after the visibility timeout: it must
    outlast the task's time limit, and the module says how long it is."""
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert tasks.ingest_job_run_task.time_limit < timeout
    assert f"{timeout // 3600} hours" in " ".join((tasks.__doc__ or "").split())


def test_the_task_runs_a_job_in_process_without_a_broker(empty, tmp_path):
    source = sync.source_add(name="t", kind="mlperf-training", location=str(tmp_path))
    job = IngestJob.objects.create(source=source, trigger="command")
    # tmp_path holds no repository
    assert tasks.ingest_job_run_task.apply(args=[job.pk]).get() == "failed"
    job.refresh_from_db()
    assert "no MLPerf results repository" in job.message
    assert tasks.ingest_job_run_task.apply(args=[job.pk]).get() is None, "it ran already"


def test_the_schedule_task_queues_a_job_and_ignores_a_deleted_source(empty, tmp_path):
    source = sync.source_add(name="t", kind="mlperf-training", location=str(tmp_path))
    job_id = tasks.source_sync_request_task.apply(args=[source.pk]).get()
    job = IngestJob.objects.get(pk=job_id)
    assert (job.source_id, job.trigger, job.state) == (source.pk, "schedule", "queued")
    gone = Source.objects.order_by("-pk").first().pk + 1  # type: ignore[union-attr]
    assert tasks.source_sync_request_task.apply(args=[gone]).get() is None
