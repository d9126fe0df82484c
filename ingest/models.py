"""Tables of ingestion itself: sources and ingest jobs. (Problems found in the
input belong to the results they concern: ``benchdb.models.IngestProblem``.)"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from benchdb import suites
from benchdb.models import IngestProblem
from ingest.fetch import RefusedError, check_git_location, check_git_ref, is_http_url


class Source(models.Model):
    """Where results come from, synced on a schedule.

    ``mlperf-training``: ``location`` is an https git URL or a local path (a git
    repository, or a plain folder read in place); ``ref`` a branch or tag name, or a
    full commit sha ("" = the remote's default branch); both as
    :func:`ingest.fetch.check_git_location` and :func:`~ingest.fetch.check_git_ref`
    allow (:meth:`clean`). The tree may be one results repository or a folder of
    ``training_results_vX.Y`` repositories. ``vendor``: ``location`` is a page URL or
    a file. ``periodic_task`` (django-celery-beat, crontab or interval) is the
    schedule; None means "only when asked".
    Sync state: ``last_commit`` is the commit of the last successful git sync (the
    base of the next diff) and ``synced_parser_version`` the parser version it was
    read with (a new one forces a full read); ``etag``, ``last_modified`` and
    ``content_sha256`` are what the last vendor fetch returned.
    ``consecutive_failures`` counts failed jobs since the last success; see
    :attr:`failing`.
    """

    #: Kinds of source: the suites of ``benchdb.suites`` a sync follows, and vendor pages
    #: (``Source.Kind.MLPERF_TRAINING``...).
    Kind = models.TextChoices(  # type: ignore[call-overload]
        "Kind", [(k.upper().replace("-", "_"), (k, label)) for k, label in suites.source_choices()]
    )

    name = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=32, choices=suites.source_choices)
    location = models.CharField(
        max_length=1000, help_text="https git URL or path; page URL or file"
    )
    ref = models.CharField(
        max_length=200, blank=True, help_text='branch, tag or full commit sha; "" = default branch'
    )
    round_version = models.CharField(
        max_length=16, blank=True, help_text='e.g. "v4.1"; "" = from the repository name'
    )
    enabled = models.BooleanField(default=True)
    periodic_task = models.OneToOneField(
        "django_celery_beat.PeriodicTask",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ingest_source",
    )
    last_commit = models.CharField(max_length=64, blank=True)
    synced_parser_version = models.CharField(max_length=32, blank=True)
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    content_sha256 = models.CharField(max_length=64, blank=True)
    consecutive_failures = models.IntegerField(default=0)
    last_error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    #: After this many failed jobs in a row a source is shown as failing.
    FAILING_AFTER = 3

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse a ``ref`` or ``location`` that git must not be given (a vendor page
        may also be an http URL). Raises ``ValidationError`` on those fields."""
        errors: dict[str, str] = {}
        try:
            check_git_ref(self.ref)
        except RefusedError as exc:
            errors["ref"] = str(exc)
        if not (self.kind == self.Kind.VENDOR and is_http_url(self.location)):
            try:
                check_git_location(self.location)
            except RefusedError as exc:
                errors["location"] = str(exc)
        if errors:
            raise ValidationError(errors)

    @property
    def failing(self) -> bool:
        return self.consecutive_failures >= self.FAILING_AFTER


class IngestJob(models.Model):
    """One run of a source sync: who asked, what happened, and the counts.

    ``files_seen``: input files of the result folders read (runs, systems file,
    scaling.json; a vendor page is one file). ``results_total`` is known once the
    diff is made and drives the progress bar. When a job that read all its result
    folders ends, ``results_seen`` = added + changed + unchanged + failed, where
    failed (folders whose transaction was rolled back: one error row each, and the
    job fails) is that difference, not a column (``ingest.selectors.results_failed``).
    ``heartbeat`` is refreshed while the job runs, so a job
    whose worker died is recognised and marked ``interrupted``.
    """

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", "Schedule"
        MANUAL = "manual", "Manual (web)"
        COMMAND = "command", "Command line"
        RESUME = "resume", "Resume after an interrupted job"

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        INTERRUPTED = "interrupted", "Interrupted"

    ACTIVE = (State.QUEUED, State.RUNNING)
    #: The counts of a job, written while it runs and when it ends.
    COUNTS = (
        "commit_from",
        "commit_to",
        "incremental",
        "files_seen",
        "results_total",
        "results_seen",
        "results_added",
        "results_changed",
        "results_unchanged",
        "errors",
    )

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="jobs")
    trigger = models.CharField(max_length=16, choices=Trigger.choices)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True, help_text="Celery node name")
    worker_host = models.CharField(max_length=200, blank=True)
    worker_pid = models.IntegerField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    commit_from = models.CharField(max_length=64, blank=True)
    commit_to = models.CharField(max_length=64, blank=True)
    incremental = models.BooleanField(
        default=False, help_text="read only what changed since commit_from"
    )
    files_seen = models.IntegerField(default=0)
    results_total = models.IntegerField(null=True, blank=True)
    results_seen = models.IntegerField(default=0)
    results_added = models.IntegerField(default=0)
    results_changed = models.IntegerField(default=0)
    results_unchanged = models.IntegerField(default=0)
    errors = models.IntegerField(default=0, help_text="error rows (warnings not counted)")
    message = models.TextField(blank=True)
    # A job fanned out over Celery workers (``ingest.jobs.parts``): one part per
    # submitter folder; ``pending_source`` is the sync state written if every part succeeds.
    parts_total = models.IntegerField(null=True, blank=True)
    parts_done = models.IntegerField(default=0)
    parts_failed = models.IntegerField(default=0)
    pending_source = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            # One job per source at a time: a second queued or running job for the
            # same source is refused by the database, whatever the caller does.
            models.UniqueConstraint(
                fields=["source"],
                condition=models.Q(state__in=["queued", "running"]),
                name="ingestjob_one_active_per_source",
            )
        ]
        indexes = [
            # source list: the last job of each source
            models.Index(fields=["source", "-created"], name="ingestjob_source_idx"),
        ]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"job {self.pk} ({self.source_id}, {self.state})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("ingest:job", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.state in self.ACTIVE

    @property
    def progress_percent(self) -> int | None:
        """Share of result folders read, 0-100; None while the total is unknown."""
        if not self.results_total:
            return 100 if self.state == self.State.SUCCEEDED else None
        return min(100, round(100 * self.results_seen / self.results_total))


class IngestJobError(models.Model):
    """A problem a job met: in an input file (``path`` relative to the source's
    tree, ``line`` 1-based) or with the source itself (``path`` empty)."""

    job = models.ForeignKey(IngestJob, on_delete=models.CASCADE, related_name="error_rows")
    path = models.CharField(max_length=500, blank=True)
    line = models.IntegerField(null=True, blank=True)
    message = models.TextField()
    severity = models.CharField(
        max_length=16,
        choices=IngestProblem.Severity.choices,
        default=IngestProblem.Severity.ERROR,
    )

    class Meta:
        ordering = ["job", "id"]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else (self.path or "source")
        return f"{where}: {self.message}"
