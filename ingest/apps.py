"""The ``ingest`` app: when Django starts, the jobs' Celery tasks are registered
(``ingest.jobs.tasks``), so that a sync requested from a page or a command is sent by
its name (``ingest.jobs.queue``)."""

from __future__ import annotations

from django.apps import AppConfig


class IngestConfig(AppConfig):
    name = "ingest"
    verbose_name = "ingest"

    def ready(self) -> None:
        from ingest.jobs import tasks  # noqa: F401 - registers the tasks
