"""MLPerf Storage results (``benchdb.suites`` suite ``storage``): one row per result
folder, recomputed from its runs' DLIO summaries (``benchdb.mlperf.storage.rules``).
A result of its own shape: no LoadGen log (``InferenceResult``) and no MLLOG run
(``Result``); its runs are kept as a JSON list on the row."""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from benchdb.models.mlperf import Round, Submitter, System


class StorageResult(models.Model):
    """One MLPerf Storage result: the folder of ``<division>/<submitter>/results/
    <system>/...`` holding its ``mlperf_storage_report.json`` and its runs.

    ``workload`` and ``accelerator`` as ``configs/overrides.yaml`` names them
    (``unet3d``, ``a100``); ``accelerators``: simulated accelerators of a run (summed over
    its summaries). ``samples_per_second`` and ``mb_per_second`` (MiB/s, as DLIO writes
    them) are the mean over the runs, ``*_stdev`` the population standard deviation, as
    ``report.py`` computes them. ``status``: ``valid``, or ``invalid`` when the official
    tool would refuse the result or a DLIO figure is not what its epochs give (``reason``:
    the first of them). ``runs``: per run ``name``, ``samples_per_second``,
    ``mb_per_second``, ``accelerators``, ``au_mean_percentage``, ``au_threshold``
    (fraction) and ``summaries`` (path, figures, 1-based lines of their keys).
    ``published``: the figures of the result's ``mlperf_storage_report.json``.
    ``content_sha256`` covers every file read and the code that judged them.
    """

    class Status(models.TextChoices):
        VALID = "valid", "Valid"
        INVALID = "invalid", "Rejected"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="storage_results")
    submitter = models.ForeignKey(
        Submitter, on_delete=models.PROTECT, related_name="storage_results"
    )
    system = models.ForeignKey(
        System, on_delete=models.SET_NULL, null=True, blank=True, related_name="storage_results"
    )
    division = models.CharField(max_length=16)
    system_folder = models.CharField(max_length=300)
    workload = models.CharField(max_length=40, blank=True)
    accelerator = models.CharField(max_length=40, blank=True)
    accelerators = models.IntegerField(null=True, blank=True)
    samples_per_second = models.FloatField(null=True, blank=True)
    samples_per_second_stdev = models.FloatField(null=True, blank=True)
    mb_per_second = models.FloatField(null=True, blank=True)
    mb_per_second_stdev = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.TextField(blank=True)
    runs = models.JSONField(default=list, blank=True)
    published = models.JSONField(default=dict, blank=True)
    source_path = models.CharField(max_length=500)
    repository = models.CharField(max_length=300, blank=True)
    commit = models.CharField(max_length=64, blank=True)
    content_sha256 = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "source_path"], name="storage_result_unique")
        ]
        indexes = [
            # leaderboard and export: one round, workload and accelerator
            models.Index(fields=["round", "workload", "accelerator"], name="storage_board_idx"),
        ]
        ordering = ["round", "source_path"]

    def __str__(self) -> str:
        return self.source_path

    def get_absolute_url(self) -> str:
        return reverse("benchdb:storage_result", args=[self.pk])
