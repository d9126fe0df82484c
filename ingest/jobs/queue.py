"""The jobs' Celery tasks by their registered names, and sending them (Celery's app
registry and ``chord``). The names are the ones the tasks had when they lived in
``ingest/tasks.py``: messages already queued and beat entries already stored
(``django_celery_beat.PeriodicTask.task``) name them, so they never change with the
module (``ingest.jobs.tasks`` registers each with ``name=``).

Sending by name keeps the package free of an import circle: the job modules send
tasks through here, and only ``ingest.jobs.tasks`` imports the job modules. The tasks
are registered when Django starts (``ingest.apps.IngestConfig.ready``) and in workers
(``benchdb.celery`` discovers ``ingest.jobs.tasks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from celery import chord, current_app

RUN = "ingest.tasks.ingest_job_run_task"
PART = "ingest.tasks.ingest_job_part_task"
JOIN = "ingest.tasks.ingest_job_join_task"
SYNC_REQUEST = "ingest.tasks.source_sync_request_task"


def send(name: str, *args: Any) -> None:
    """Queue task ``name`` with ``args`` (run now, in this process, when
    ``CELERY_TASK_ALWAYS_EAGER``). Raises KeyError for a task not registered."""
    current_app.tasks[name].delay(*args)


def send_chord(
    part: str, parts_args: Sequence[tuple[Any, ...]], join: str, *join_args: Any
) -> None:
    """Queue task ``part`` once per args tuple of ``parts_args`` and, once every one ran,
    ``join`` with their results (a list, in order) followed by ``join_args``."""
    tasks = current_app.tasks
    chord([tasks[part].s(*args) for args in parts_args])(tasks[join].s(*join_args))
