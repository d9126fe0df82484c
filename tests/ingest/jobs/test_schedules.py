"""ingest.jobs.schedules: a source's schedule is one beat entry for the sync task."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django_celery_beat.models import PeriodicTask

from benchdb.celery import app as celery_app
from ingest.jobs import run as sync
from ingest.jobs import schedules


def test_a_schedule_is_a_beat_entry_for_the_sync_task(empty, tmp_path):
    source = sync.source_add(
        name="nightly", kind="mlperf-training", location=str(tmp_path), schedule="0 3 * * *"
    )
    pt = PeriodicTask.objects.get(pk=source.periodic_task_id)
    assert pt.task == schedules.SCHEDULE_TASK and pt.task in celery_app.tasks
    assert json.loads(pt.kwargs) == {"source_id": source.pk} and pt.enabled
    assert (pt.crontab.minute, pt.crontab.hour, pt.crontab.day_of_week) == ("0", "3", "*")
    schedules.source_schedule_set(source=source, schedule="every 6h")
    pt.refresh_from_db()
    assert (pt.crontab, pt.interval.every, pt.interval.period) == (None, 6, "hours")
    assert schedules.schedule_text(source) == "every 6h"
    for bad in ("0 3 * *", "61 3 * * *", "every 0h", "daily"):
        with pytest.raises(ValidationError):
            schedules.source_schedule_set(source=source, schedule=bad)
    sync.source_remove(source=source)
    assert not PeriodicTask.objects.filter(pk=pt.pk).exists()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("  ", None),
        (
            "0 3 * * *",
            (
                "crontab",
                dict(
                    zip(
                        ("minute", "hour", "day_of_month", "month_of_year", "day_of_week"),
                        ("0", "3", "*", "*", "*"),
                        strict=True,
                    )
                ),
            ),
        ),
        ("every 6h", ("interval", {"every": 6, "period": "hours"})),
        ("every 30 minutes", ("interval", {"every": 30, "period": "minutes"})),
        ("every 2d", ("interval", {"every": 2, "period": "days"})),
    ],
)
def test_a_schedule_is_read_as_a_crontab_or_an_interval(text, expected):
    assert schedules.parse_schedule(text) == expected
