"""MLPerf Training tables and what every suite shares: rounds, submitters, systems,
benchmarks, training results, runs and their logs, problems met in the input.

Times are minutes unless a field name says otherwise (``_ms``: milliseconds since
the Unix epoch, as MLLOG ``time_ms``). Ingestion's own tables (problems, sources,
jobs) live in ``ingest.models``.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.db import models
from django.urls import reverse

from benchdb import suites


class FastJSONField(models.JSONField):
    """A JSONField read with orjson: decoding the eval curves of a 40-run unet3d result
    with ``json.loads`` took 16 ms of its page's 40 (cProfile). Values benchdb writes here
    are finite numbers and lists; anything orjson refuses is read by ``json`` as before."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return super().from_db_value(value, expression, connection)


class Round(models.Model):
    """A publication round of an MLPerf suite, e.g. Training v1.1."""

    #: Names of the suites (``benchdb.suites``, the one list): ``Round.Suite.TRAINING``...
    Suite = models.TextChoices(  # type: ignore[call-overload]
        "Suite", [(s.name.upper(), (s.name, s.short)) for s in suites.SUITES]
    )

    suite = models.CharField(max_length=16, choices=suites.choices, default="training")
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
        return f"{suites.suite(self.suite).short} {self.version}"


class RoundTree(models.Model):
    """The whole results repository of a round as it stood at one commit: every result
    folder it lists (``result_paths``, as ``Result.source_path``:
    ``<Submitter>/results/<system>/<benchmark>``) and its submitter folders, read from
    git's own listing of the commit (``git ls-tree``), not from a folder on disk that
    may hold a part (``manage.py round-tree``, ``ingest.round_trees``).

    A round is **held whole** for a submitter (or for all of them) when every result
    folder the tree lists for it is a stored ``Result`` of the round (scored or not);
    counts over a round ("the six benchmarks Google entered", "five submitters this
    year") are checked only where it is (``benchdb.claims.round_counts``). A round with
    no tree recorded is never held whole, whatever its results."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="tree")
    repository = models.CharField(max_length=300, help_text="URL or path of the repository")
    commit = models.CharField(max_length=64, help_text="the commit listed")
    submitters = models.JSONField(default=list, help_text="submitter folders at the root")
    result_paths = models.JSONField(default=list, help_text="every result folder listed")
    recorded = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round"]

    def __str__(self) -> str:
        return f"{self.round} at {self.commit[:12]}"


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


def url_args(key: tuple[str, ...]) -> tuple[str, ...]:
    """A result's natural key (and anything after it) as URL arguments. An MLPerf HPC
    benchmark folder is ``strong/<benchmark>``: its scaling type travels as the last
    segment of the system folder (``<folders:system>``; HPC system folders hold no
    '/'), so that the benchmark segment stays one segment. :func:`key_from_url` is
    the inverse."""
    if key[0] == "hpc" and "/" in key[4]:
        scaling, bench = key[4].split("/", 1)
        return (*key[:3], f"{key[3]}/{scaling}", bench, *key[5:])
    return key


def key_from_url(key: tuple[str, ...]) -> tuple[str, ...]:
    """The natural key of URL arguments made by :func:`url_args`."""
    if key[0] == "hpc" and "/" in key[3]:
        system, scaling = key[3].rsplit("/", 1)
        return (*key[:3], system, f"{scaling}/{key[4]}", *key[5:])
    return key


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

    class IdOrigin(models.TextChoices):
        """Where a ``result_id`` came from (``ingest/result_ids.py``): an imported
        MLCommons table overrides a vendor citation, which overrides the derived rule."""

        DERIVED = "derived", "derived by benchdb's rule"
        VENDOR = "vendor-cited", "cited by a vendor page"
        IMPORTED = "imported", "imported from an ID table"
        NONE = "", "none"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="results")
    benchmark = models.ForeignKey(Benchmark, on_delete=models.PROTECT, related_name="results")
    benchmark_folder = models.CharField(max_length=100)
    division = models.CharField(max_length=16, blank=True)
    result_id = models.CharField(max_length=32, blank=True, help_text='e.g. "1.1-2040"')
    result_id_origin = models.CharField(
        max_length=16, choices=IdOrigin.choices, blank=True, help_text="where result_id came from"
    )
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
    # MLPerf HPC: "strong" (score_minutes is the olympic mean, as training) or "weak"
    # (the four figures below; score_minutes is None); "" for training.
    scaling_type = models.CharField(max_length=8, blank=True)
    models_count = models.IntegerField(
        null=True, blank=True, help_text="HPC weak scaling: models that passed (M)"
    )
    instance_scale = models.IntegerField(
        null=True, blank=True, help_text="HPC weak scaling: accelerators per model (S)"
    )
    time_to_train_all_minutes = models.FloatField(
        null=True, blank=True, help_text="HPC weak scaling: first run_start to last run_stop"
    )
    throughput_models_per_minute = models.FloatField(
        null=True, blank=True, help_text="HPC weak scaling: M / time to train all (derived)"
    )
    # Training v4.0 on, a folder with power/ logs: energy to train (J), as
    # benchdb.mlperf.training.energy.result_energy_j; scope "node" or "node+switch".
    energy_joules = models.FloatField(
        null=True, blank=True, help_text="energy to train, joules (olympic mean of runs)"
    )
    energy_scope = models.CharField(max_length=16, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["system", "benchmark_folder"], name="result_unique")
        ]
        indexes = [
            # leaderboard: one round and benchmark, ordered by score
            models.Index(fields=["round", "benchmark", "score_minutes"], name="result_board_idx"),
        ]

    #: The metric every training result carries (what an inference result stores per row):
    #: time to train, minutes, lower is better.
    metric = "time_to_train"
    unit = "minutes"
    higher_is_better = False

    def __str__(self) -> str:
        return f"{self.system} {self.benchmark_folder}"

    def get_absolute_url(self) -> str:
        """The permalink (:meth:`natural_key`); needs ``round`` and ``system`` (joined
        by every result selector)."""
        return reverse("benchdb:result", args=url_args(self.natural_key()))

    @property
    def value(self) -> float | None:
        """The result's value in :attr:`unit` (the score), as for every suite."""
        return self.score_minutes

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
    ``compliance``: the findings of the round's compliance rules (``compliance_ruleset``
    names the rule directory checked, empty when none was).
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
    eval_curve = FastJSONField(default=list, blank=True)
    energy_joules = models.FloatField(null=True, blank=True, help_text="energy of the run, J")
    # What the round's compliance checker found: [{"source", "rule", "kind", "message",
    # "line", "severity"}, ...] (benchdb.mlperf.training.compliance.Finding.as_dict).
    compliance = models.JSONField(default=list, blank=True)
    compliance_ruleset = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["result", "file_name"], name="run_unique")]
        ordering = ["result", "index"]

    def __str__(self) -> str:
        return self.path

    def get_absolute_url(self) -> str:
        """The permalink of the run's stored log: the result's natural key and the
        file name (``run_unique``); needs ``result`` with its round and system."""
        key = url_args((*self.result.natural_key(), self.file_name))
        return reverse("benchdb:run_log", args=key)

    @property
    def converged(self) -> bool:
        return self.role != self.Role.FAILED


class RunLog(models.Model):
    """The whole log of a run, compressed (:func:`benchdb.logcodec.compress`: Zstandard;
    zlib for logs stored before it, read as they are), with its sha256."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="log", primary_key=True)
    sha256 = models.CharField(max_length=64)
    compressed = models.BinaryField()

    def __str__(self) -> str:
        return f"log of {self.run_id}"


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
    inference_result = models.ForeignKey(
        "benchdb.InferenceResult",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="problems",
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
