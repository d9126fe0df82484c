"""All result tables: rounds, submitters, systems, benchmarks, results, runs.

Times are minutes unless a field name says otherwise (``_ms``: milliseconds since
the Unix epoch, as MLLOG ``time_ms``). Ingestion's own tables (problems, sources,
jobs) live in ``ingest.models``.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse


class Round(models.Model):
    """A publication round of an MLPerf suite, e.g. Training v1.1."""

    class Suite(models.TextChoices):
        TRAINING = "training", "Training"
        HPC = "hpc", "HPC"
        INFERENCE = "inference", "Inference"

    suite = models.CharField(max_length=16, choices=Suite.choices, default=Suite.TRAINING)
    version = models.CharField(max_length=16, help_text='e.g. "v1.1"')
    published = models.DateField(null=True, blank=True)
    ruleset_tag = models.CharField(
        max_length=64, blank=True, help_text="mlperf_logging tag that scored it"
    )
    repository = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["suite", "version"], name="round_unique")]
        ordering = ["suite", "version"]

    def __str__(self) -> str:
        return f"{self.get_suite_display()} {self.version}"


class Submitter(models.Model):
    """An organization that submits results; ``aliases`` holds every spelling seen
    (results folder names and the ``submitter`` field of systems JSON)."""

    name = models.CharField(max_length=200, unique=True)
    aliases = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Benchmark(models.Model):
    """A benchmark under mlperf_logging's key (``resnet``, ``bert``, ``retinanet``...);
    ``aliases`` are older folder names and vendors' names."""

    key = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    aliases = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.name


class System(models.Model):
    """A system as described for one round (``<Submitter>/systems/<folder>.json``).

    ``raw`` keeps every field of the file; the rest are normalized from it.
    ``accelerators`` = nodes x accelerators per node.
    """

    class Availability(models.TextChoices):
        AVAILABLE = "available", "Available (on-premises or cloud)"
        PREVIEW = "preview", "Preview"
        RESEARCH = "research", "Research, development or internal"
        UNKNOWN = "", "Unknown"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="systems")
    submitter = models.ForeignKey(Submitter, on_delete=models.PROTECT, related_name="systems")
    submitter_folder = models.CharField(max_length=200)
    folder = models.CharField(max_length=300, help_text="system folder / JSON file name")
    source_path = models.CharField(max_length=500, blank=True)
    raw = models.JSONField(default=dict, blank=True)
    name = models.TextField(blank=True)
    division = models.CharField(max_length=16, blank=True)
    availability = models.CharField(max_length=16, choices=Availability.choices, blank=True)
    nodes = models.IntegerField(null=True, blank=True)
    host_processor_model = models.TextField(blank=True)
    host_processors_per_node = models.IntegerField(null=True, blank=True)
    accelerator_model = models.TextField(blank=True)
    accelerators_per_node = models.IntegerField(null=True, blank=True)
    accelerators = models.IntegerField(null=True, blank=True)
    framework = models.TextField(blank=True)
    software_stack = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "submitter_folder", "folder"], name="system_unique"
            )
        ]
        indexes = [
            # search by accelerator model across rounds (home page search, scaling view)
            models.Index(fields=["accelerator_model"], name="system_accel_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name or self.folder} ({self.round.version})"

    def get_absolute_url(self) -> str:
        """The permalink: the system's natural key (:meth:`natural_key`), so the link
        survives a delete and re-ingest. Needs ``round`` (one query unless joined)."""
        return reverse("benchdb:system", args=self.natural_key())

    def natural_key(self) -> tuple[str, str, str, str]:
        """(suite, round version, submitter folder, system folder): ``system_unique``
        with the round spelled out as ``round_unique``. The system folder holds a '/'
        in v0.5 (``<submission>/<system>``)."""
        return (self.round.suite, self.round.version, self.submitter_folder, self.folder)


class Result(models.Model):
    """A round x system x benchmark entry and its score.

    ``score_minutes`` is the olympic mean of the counted runs' time to train times
    ``scaling_factor``; None when the result has no score (``reason`` says why).
    ``content_sha256`` covers every input file and the parsing and scoring code, so an
    unchanged result is never rewritten.
    """

    class Status(models.TextChoices):
        SCORED = "scored", "Scored"
        UNSCORED = "unscored", "No score"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="results")
    benchmark = models.ForeignKey(Benchmark, on_delete=models.PROTECT, related_name="results")
    benchmark_folder = models.CharField(max_length=100)
    division = models.CharField(max_length=16, blank=True)
    result_id = models.CharField(max_length=32, blank=True, help_text='e.g. "1.1-2040"')
    score_minutes = models.FloatField(null=True, blank=True)
    mean_minutes = models.FloatField(null=True, blank=True)
    scaling_factor = models.FloatField(default=1.0)
    runs_total = models.IntegerField(default=0)
    runs_counted = models.IntegerField(default=0)
    runs_failed = models.IntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.TextField(blank=True)
    source_path = models.CharField(max_length=500)
    repository = models.CharField(max_length=300, blank=True)
    commit = models.CharField(max_length=64, blank=True)
    content_sha256 = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["system", "benchmark_folder"], name="result_unique")
        ]
        indexes = [
            # leaderboard: one round and benchmark, ordered by score
            models.Index(fields=["round", "benchmark", "score_minutes"], name="result_board_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.system} {self.benchmark_folder}"

    def get_absolute_url(self) -> str:
        """The permalink (:meth:`natural_key`); needs ``round`` and ``system`` (joined
        by every result selector)."""
        return reverse("benchdb:result", args=self.natural_key())

    def natural_key(self) -> tuple[str, str, str, str, str]:
        """(suite, round version, submitter folder, system folder, benchmark folder):
        ``result_unique`` (system, benchmark folder) with the system's natural key."""
        system = self.system
        rnd = self.round
        return (
            rnd.suite,
            rnd.version,
            system.submitter_folder,
            system.folder,
            self.benchmark_folder,
        )


class Run(models.Model):
    """One ``result_N.txt``: a training run and what its log says.

    ``role`` says what the olympic mean did with it. ``converge_at`` is the
    ``epoch_num`` (``samples_count`` where that is what the benchmark logs) of the
    last ``eval_accuracy`` before ``run_stop``; ``converge_unit`` names which.
    ``eval_curve``: ``[[at, value, time_ms, line], ...]`` in file order.
    """

    class Role(models.TextChoices):
        COUNTED = "counted", "Counted"
        DROPPED_FASTEST = "dropped_fastest", "Dropped (fastest)"
        DROPPED_SLOWEST = "dropped_slowest", "Dropped (slowest)"
        FAILED = "failed", "Failed"
        UNUSED = "unused", "Not used (v0.5 NCF: beyond the first 50 converged)"

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="runs")
    index = models.IntegerField(help_text="position in file-name order")
    file_name = models.CharField(max_length=200)
    path = models.CharField(max_length=500)
    sha256 = models.CharField(max_length=64)
    size = models.BigIntegerField()
    log_format = models.CharField(max_length=16)
    run_start_ms = models.FloatField(null=True, blank=True)
    run_start_line = models.IntegerField(null=True, blank=True)
    run_stop_ms = models.FloatField(null=True, blank=True)
    run_stop_line = models.IntegerField(null=True, blank=True)
    run_stop_status = models.CharField(max_length=32, blank=True)
    time_to_train_minutes = models.FloatField(null=True, blank=True)
    role = models.CharField(max_length=16, choices=Role.choices)
    failure_reason = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    global_batch_size = models.BigIntegerField(null=True, blank=True)
    converge_at = models.FloatField(null=True, blank=True)
    converge_unit = models.CharField(max_length=16, blank=True)
    hyperparameters = models.JSONField(default=dict, blank=True)
    eval_curve = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["result", "file_name"], name="run_unique")]
        ordering = ["result", "index"]

    def __str__(self) -> str:
        return self.path

    def get_absolute_url(self) -> str:
        """The permalink of the run's stored log: the result's natural key and the
        file name (``run_unique``); needs ``result`` with its round and system."""
        return reverse("benchdb:run_log", args=(*self.result.natural_key(), self.file_name))

    @property
    def converged(self) -> bool:
        return self.role != self.Role.FAILED


class RunLog(models.Model):
    """The whole log of a run, zlib-compressed, with its sha256 and where it came from."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="log", primary_key=True)
    sha256 = models.CharField(max_length=64)
    compressed = models.BinaryField()

    def __str__(self) -> str:
        return f"log of {self.run_id}"


# --- vendor pages and claims -----------------------------------------------------------
# Issue 4. Written only by ``ingest.vendor_pages`` (vendor_page_ingest, claim_links_correct);
# the parsing is ``ingest.parsers.vendor_html`` / ``ingest.parsers.claim_text``, the checking
# ``benchdb.claims.verdicts``.


class VendorPage(models.Model):
    """A vendor page or repost as ingested. ``raw``: the bytes as fetched or uploaded;
    ``text``: the cleaned text that claim spans point into; ``sha256`` of ``raw``
    (the same bytes twice are one page). ``published``: the page's date (given, or
    read from its text: ``published_source``); ``retrieved``: when benchdb got it."""

    class Language(models.TextChoices):
        EN = "en", "English"
        ZH_HANS = "zh-Hans", "Chinese (simplified)"
        ZH_HANT = "zh-Hant", "Chinese (traditional)"
        UNDETERMINED = "und", "Undetermined"

    sha256 = models.CharField(max_length=64, unique=True)
    raw = models.BinaryField()
    text = models.TextField()
    format = models.CharField(max_length=8, help_text='"html" or "text"')
    encoding = models.CharField(max_length=40, blank=True)
    title = models.CharField(max_length=300, blank=True)
    url = models.CharField(max_length=1000, blank=True)
    file_name = models.CharField(max_length=300, blank=True)
    published = models.DateField(null=True, blank=True)
    published_source = models.CharField(max_length=8, blank=True, help_text='"given", "text" or ""')
    retrieved = models.DateTimeField()
    language = models.CharField(max_length=8, choices=Language.choices)
    created_by = models.ForeignKey(
        "auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-published", "file_name", "pk"]

    def __str__(self) -> str:
        return self.title or self.file_name or self.url or self.sha256[:12]

    def get_absolute_url(self) -> str:
        return reverse("vendor:page", args=[self.pk])

    @property
    def source(self) -> str:
        """The page's URL, else its file name (what exports call ``page``)."""
        return self.url or self.file_name


class VendorResult(models.Model):
    """One row of a vendor's own performance table, blank cells carried down.

    ``cells`` line up with ``columns``; ``carried`` lists the column indexes filled
    from the row above. ``value``/``unit``/``metric``: the row's time to train
    (minutes) or throughput; ``accelerators``: the row's accelerator count."""

    page = models.ForeignKey(VendorPage, on_delete=models.CASCADE, related_name="vendor_results")
    table = models.IntegerField()
    row = models.IntegerField()
    line = models.IntegerField(help_text="1-based line of the cleaned text")
    caption = models.TextField(blank=True)
    columns = models.JSONField(default=list)
    cells = models.JSONField(default=list)
    carried = models.JSONField(default=list, blank=True)
    model = models.CharField(max_length=200, blank=True)
    benchmark_key = models.CharField(max_length=64, blank=True)
    framework = models.CharField(max_length=200, blank=True)
    system = models.CharField(max_length=200, blank=True)
    accelerators = models.IntegerField(null=True, blank=True)
    metric = models.CharField(max_length=32, blank=True)
    value = models.FloatField(null=True, blank=True)
    unit = models.CharField(max_length=32, blank=True)
    result_id = models.CharField(max_length=32, blank=True)
    round = models.CharField(max_length=16, blank=True)
    division = models.CharField(max_length=16, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["page", "table", "row"], name="vendor_result_unique")
        ]
        ordering = ["page", "table", "row"]

    def __str__(self) -> str:
        return f"{self.page} table {self.table + 1} row {self.row + 1}"


class Claim(models.Model):
    """A numeric claim found in a vendor page and how it was checked.

    ``start``/``end`` (the claimed quantity) and ``sentence_start``/``sentence_end``
    are offsets into ``page.text``. ``value``, ``compared_value``,
    ``recomputed_value`` and ``compared_recomputed_value`` are in ``unit``. ``system``,
    ``benchmark``, ``round`` and ``division`` are as the page names them (``round``
    resolved from the publication date when unnamed). ``flags`` and ``verdict``:
    ``benchdb.claims.verdicts``; ``details`` explains the check; ``extracted`` keeps every
    attribute the parser found. ``results``: the MLPerf results it was checked
    against, each with its role; ``corrected``: links set by a person."""

    class Kind(models.TextChoices):
        TIME = "time", "Time to train"
        HEAD_TO_HEAD = "head_to_head", "Head to head"
        MULTIPLIER = "multiplier", "Multiplier"
        PERCENTAGE = "percentage", "Percentage"
        SCALE = "scale", "Scale"
        PARITY = "parity", "Parity"
        SPEC = "spec", "Hardware figure"
        THROUGHPUT = "throughput", "Throughput"
        COUNT = "count", "Count (wins, results, organizations)"

    class Verdict(models.TextChoices):
        CONSISTENT = "consistent", "Consistent"
        INCONSISTENT = "inconsistent", "Inconsistent"
        AMBIGUOUS = "ambiguous", "Ambiguous"
        NOT_MLPERF = "not-mlperf", "Not MLPerf"
        UNVERIFIABLE = "unverifiable", "Unverifiable"

    page = models.ForeignKey(VendorPage, on_delete=models.CASCADE, related_name="claims")
    position = models.IntegerField(help_text="order in the page")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    source = models.CharField(max_length=8, default="text", help_text='"text" or "table"')
    sentence = models.TextField()
    sentence_start = models.IntegerField()
    sentence_end = models.IntegerField()
    start = models.IntegerField()
    end = models.IntegerField()
    value = models.FloatField(null=True, blank=True)
    unit = models.CharField(max_length=16, blank=True)
    qualifier = models.CharField(max_length=16, blank=True)
    system = models.CharField(max_length=200, blank=True)
    compared_system = models.CharField(max_length=200, blank=True)
    benchmark = models.CharField(max_length=200, blank=True)
    benchmark_key = models.CharField(max_length=64, blank=True)
    round = models.CharField(max_length=16, blank=True)
    division = models.CharField(max_length=16, blank=True)
    result_ids = models.JSONField(default=list, blank=True)
    compared_value = models.FloatField(null=True, blank=True)
    recomputed_value = models.FloatField(null=True, blank=True)
    compared_recomputed_value = models.FloatField(null=True, blank=True)
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    flags = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)
    extracted = models.JSONField(default=dict, blank=True)
    vendor_result = models.ForeignKey(
        VendorResult, on_delete=models.SET_NULL, null=True, blank=True, related_name="claims"
    )
    results = models.ManyToManyField(
        Result, through="ClaimResult", related_name="claims", blank=True
    )
    corrected = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["page", "position"], name="claim_unique")]
        indexes = [
            # claims export and list filtered by verdict
            models.Index(fields=["verdict"], name="claim_verdict_idx"),
        ]
        ordering = ["page", "position"]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()} {self.value:g} {self.unit}"
            if self.value is not None
            else self.get_kind_display()
        )

    def get_absolute_url(self) -> str:
        return reverse("vendor:claim", args=[self.pk])


class ClaimResult(models.Model):
    """A link from a claim to an MLPerf result: ``role`` ``subject``, ``compared`` or
    ``baseline`` (``benchdb.claims.Link``)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="links")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="claim_links")
    role = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "result", "role"], name="claim_result_unique")
        ]
        ordering = ["claim", "pk"]

    def __str__(self) -> str:
        return f"{self.claim_id} {self.role} {self.result_id}"


class ClaimCorrection(models.Model):
    """A person's correction of a claim's links, kept for good: who, when, the links
    before and after (``[{"result": pk, "role": ...}, ...]``), the verdicts before and
    after, and why (``note``)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="corrections")
    user = models.ForeignKey(
        "auth.User", on_delete=models.PROTECT, related_name="claim_corrections"
    )
    created = models.DateTimeField()
    old_links = models.JSONField(default=list)
    new_links = models.JSONField(default=list)
    old_verdict = models.CharField(max_length=16, blank=True)
    new_verdict = models.CharField(max_length=16, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["claim", "-created"]

    def __str__(self) -> str:
        when = f"{self.created:%Y-%m-%d %H:%M}"
        return f"correction of claim {self.claim_id} by {self.user_id} at {when}"


class IngestProblem(models.Model):
    """Something wrong in an input file, with where: ``path`` relative to the
    repository root, ``line`` 1-based (None when it concerns the whole file).

    Unique per (round, path, line, message), so that ingesting the same input twice
    adds nothing.
    """

    class Severity(models.TextChoices):
        ERROR = "error", "Error"
        WARNING = "warning", "Warning"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, related_name="problems")
    result = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="problems"
    )
    path = models.CharField(max_length=500)
    line = models.IntegerField(null=True, blank=True)
    message = models.TextField()
    severity = models.CharField(max_length=16, choices=Severity.choices, default=Severity.ERROR)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table kept its name when the model moved from ``ingest`` (migration
        # benchdb 0004 / ingest 0003 move the state only).
        db_table = "ingest_ingestproblem"
        constraints = [
            models.UniqueConstraint(
                fields=["round", "path", "line", "message"],
                name="problem_unique",
                nulls_distinct=False,
            )
        ]
        ordering = ["path", "line"]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
