"""MLPerf Inference tables: a result per round x system x model x scenario, the rules it
fails, the files it was judged from, and its compliance tests.

Written only by ``ingest.inference.service`` (one transaction per result); the values and
verdicts come from ``benchdb.mlperf.inference.rules.evaluate``. Rounds, submitters and
systems are the shared tables of ``benchdb.models.mlperf`` (``Round.suite`` =
``inference``).
"""

from __future__ import annotations

from django.db import models

from benchdb.models.mlperf import FastJSONField, Round, System


class InferenceResult(models.Model):
    """One MLPerf Inference result: ``<division>/<submitter>/results/<system>/<model>/
    <scenario>/`` of a round's repository, recomputed from its LoadGen logs.

    ``value`` is in ``unit`` as the round's checker prints it (``Samples/s``,
    ``Queries/s``, ``Tokens/s``, ``Latency (ms)``; ``metric`` names the detail-log key it
    was read from); ``higher_is_better`` is False for latencies. ``status``: ``valid``,
    ``invalid`` (a rule the round's checker enforces failed: ``reason`` and the
    ``findings`` rows say which), or ``unverifiable`` (a file the checker needs is absent
    from the published tree: ``missing`` names it, and ``published_value`` keeps what
    MLCommons published). ``benchmark`` is the checker's model name with its accuracy
    variant (``llama2-70b-99.9``), "" when no mapping names the folder. ``category``
    is the system's ``system_type`` (``datacenter``, ``edge``, or both comma-separated).
    ``power`` is average watts (Offline, Server) or energy per query/stream
    (SingleStream, MultiStream) in ``power_unit``; None when not measured.
    ``settings`` are the LoadGen settings that matter (``effective_target_qps``,
    ``effective_target_latency_ns``, ``effective_min_duration_ms``,
    ``effective_min_query_count``, ``early_stopping_met``, ...). ``result_id`` and the
    ``published_*`` fields come from the round's published table
    (``summary_results.json``, v5.1+) when it holds the result.
    ``content_sha256`` covers every file read and the code that judged them.
    """

    class Status(models.TextChoices):
        VALID = "valid", "Valid"
        INVALID = "invalid", "Rejected"
        UNVERIFIABLE = "unverifiable", "Unverifiable here"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="inference_results")
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="inference_results")
    division = models.CharField(max_length=16)
    category = models.CharField(max_length=32, blank=True)
    model_folder = models.CharField(max_length=200)
    benchmark = models.CharField(max_length=64, blank=True)
    scenario_folder = models.CharField(max_length=64)
    scenario = models.CharField(max_length=32)
    metric = models.CharField(max_length=100, blank=True)
    unit = models.CharField(max_length=32, blank=True)
    higher_is_better = models.BooleanField(default=True)
    value = models.FloatField(null=True, blank=True)
    inferred = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.TextField(blank=True)
    missing = FastJSONField(default=list, blank=True)
    accuracy = FastJSONField(default=dict, blank=True)
    accuracy_valid = models.BooleanField(null=True, blank=True)
    power = models.FloatField(null=True, blank=True)
    power_unit = models.CharField(max_length=32, blank=True)
    compliance_valid = models.BooleanField(null=True, blank=True)
    settings = models.JSONField(default=dict, blank=True)
    result_id = models.CharField(max_length=32, blank=True, help_text='e.g. "5.1-0061"')
    published_value = models.FloatField(null=True, blank=True)
    published_unit = models.CharField(max_length=32, blank=True)
    published_power = models.FloatField(null=True, blank=True)
    source_path = models.CharField(max_length=500)
    repository = models.CharField(max_length=300, blank=True)
    commit = models.CharField(max_length=64, blank=True)
    content_sha256 = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["system", "model_folder", "scenario_folder"],
                name="inference_result_unique",
            )
        ]
        indexes = [
            # leaderboard and export: one round, model and scenario
            models.Index(fields=["round", "benchmark", "scenario"], name="inference_board_idx"),
        ]
        ordering = ["round", "source_path"]

    def __str__(self) -> str:
        return self.source_path

    def natural_key(self) -> tuple[str, str, str, str, str]:
        """(round version, division/submitter folder, system folder, model folder,
        scenario folder): ``inference_result_unique`` with the system spelled out."""
        return (
            self.round.version,
            self.system.submitter_folder,
            self.system.folder,
            self.model_folder,
            self.scenario_folder,
        )


class InferenceFinding(models.Model):
    """A rule an inference result fails, with its evidence: ``path`` relative to the
    round's root and ``line`` (1-based; None for a whole file). ``invalidates`` is whether
    the round's checker rejects the result for it (otherwise it only logs it)."""

    result = models.ForeignKey(InferenceResult, on_delete=models.CASCADE, related_name="findings")
    rule = models.CharField(max_length=64)
    path = models.CharField(max_length=500)
    line = models.IntegerField(null=True, blank=True)
    message = models.TextField()
    invalidates = models.BooleanField()

    class Meta:
        ordering = ["result", "pk"]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class InferenceLog(models.Model):
    """A file an inference result was judged from: ``kind`` (``detail``, ``summary``,
    ``accuracy``, ``accuracy_log``, ``power``, ``compliance``, ``conf``), ``path``
    relative to the round's root, ``size`` in bytes and ``sha256`` of the bytes.
    ``compressed`` is the file as :func:`benchdb.logcodec.compress` keeps it (Zstandard
    level 1: LoadGen logs of random sample indices compress to ~39 %, at ~450 MB/s against
    zlib's ~110 MB/s at level 1, which took a third of a whole-round ingest); None for
    ``mlperf_log_accuracy.json`` (hundreds of MB in some rounds: stored by hash and size
    only). :func:`benchdb.logcodec.decompress` reads it."""

    result = models.ForeignKey(InferenceResult, on_delete=models.CASCADE, related_name="logs")
    kind = models.CharField(max_length=16)
    path = models.CharField(max_length=500)
    size = models.BigIntegerField()
    sha256 = models.CharField(max_length=64)
    compressed = models.BinaryField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "path"], name="inference_log_unique")
        ]
        ordering = ["result", "path"]

    def __str__(self) -> str:
        return self.path


class InferenceComplianceTest(models.Model):
    """A compliance test of a closed or network result (``TEST01``, ``TEST04``,
    ``TEST05``, ...; v0.5 ``audit/``): every test the round requires
    (``inference_rounds.compliance_tests``) and any other test folder present.
    ``passed`` is False when a check failed or a required test folder is absent,
    None when the round does not check it; ``failures`` are the failed checks
    (``path:line: message``)."""

    result = models.ForeignKey(
        InferenceResult, on_delete=models.CASCADE, related_name="compliance_tests"
    )
    test = models.CharField(max_length=16)
    path = models.CharField(max_length=500)
    passed = models.BooleanField(null=True, blank=True)
    failures = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "test"], name="inference_compliance_unique")
        ]
        ordering = ["result", "test"]

    def __str__(self) -> str:
        return f"{self.result_id} {self.test}"
