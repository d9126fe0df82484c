"""A source's schedule: one django-celery-beat entry (crontab or interval) that runs
``ingest.tasks.source_sync_request_task`` (``ingest.jobs.tasks``) for it. The admin's
Source form and ``source add --schedule`` write it through :func:`source_schedule_set`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from ingest.jobs import queue
from ingest.models import Source

#: The task a source's beat entry runs (with ``{"source_id": <id>}``).
SCHEDULE_TASK = queue.SYNC_REQUEST


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
