"""The Celery app: ``celery -A benchdb worker`` / ``celery -A benchdb beat``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")

app = Celery("benchdb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["ingest.jobs"])  # ingest/jobs/tasks.py (names: ingest.jobs.queue)
