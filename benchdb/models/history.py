"""A published result's history: each version benchdb saw (``ResultVersion``: what
changed, field by field, from which commit, when), tombstones among them (withdrawn,
moved to open, renamed: the result row stays, its permalink answers with the history),
and the verdicts a claim had as its evidence changed (``ClaimVerdictVersion``).

Written only by ``ingest.history`` (the store hook of every ingest and sync, the
tombstone sweep, the claims' re-check) and ``ingest.history_backfill`` (a results
repository's git history); the change lists come from the pure
``benchdb.history.diff``.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from benchdb.models.claims import Claim
from benchdb.models.inference import InferenceResult
from benchdb.models.mlperf import Result


class ResultVersion(models.Model):
    """One change of one published result: ``changes`` is ``[{"field", "old", "new",
    "kind"}, ...]`` (``benchdb.history.diff.Change``), ``before`` the stored fields as
    they were (empty for a back-filled version), ``kinds`` the kinds it holds as
    ``,value,status,`` (so ``kinds__contains=",value,"`` filters by one).

    ``path`` is the result folder relative to its round's repository (the key that
    survives a re-ingest, and the only one a back-filled version of a result never
    stored here has); ``result``/``inference_result`` link the stored row when there
    is one. ``commit`` is the source commit of the new state, ``commit_before`` of the
    old one ("" when unknown: a plain folder); ``committed`` the commit's date (back-fill
    only), ``seen`` when benchdb recorded it. ``origin``: ``ingest`` (an ingest or sync
    stored the change) or ``backfill``. ``claims_checked``: the claims linked to the
    result were checked again after it (``ingest.history.claims_follow``)."""

    class Origin(models.TextChoices):
        INGEST = "ingest", "seen by an ingest or sync"
        BACKFILL = "backfill", "found in the repository's git history"

    suite = models.CharField(max_length=16)
    round_version = models.CharField(max_length=16)
    path = models.CharField(max_length=500)
    submitter = models.CharField(max_length=200, blank=True)
    result = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="versions"
    )
    inference_result = models.ForeignKey(
        InferenceResult,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="versions",
    )
    kinds = models.CharField(max_length=200)
    changes = models.JSONField(default=list)
    before = models.JSONField(default=dict, blank=True)
    commit = models.CharField(max_length=64, blank=True)
    commit_before = models.CharField(max_length=64, blank=True)
    committed = models.DateTimeField(null=True, blank=True)
    seen = models.DateTimeField()
    origin = models.CharField(max_length=16, choices=Origin.choices)
    claims_checked = models.BooleanField(default=False)

    class Meta:
        constraints = [
            # a back-fill run twice records each commit's change once
            models.UniqueConstraint(
                fields=["suite", "round_version", "path", "commit"],
                condition=models.Q(origin="backfill"),
                name="result_version_backfill_unique",
            )
        ]
        indexes = [
            # /changes/: newest first, filtered by suite and round
            models.Index(fields=["suite", "round_version", "-seen"], name="version_changes_idx"),
            # a result page's History section and the round table's marks
            models.Index(fields=["suite", "round_version", "path"], name="version_path_idx"),
        ]
        ordering = ["-seen", "-pk"]

    def __str__(self) -> str:
        return f"{self.suite} {self.round_version} {self.path} ({self.kinds.strip(',')})"

    @property
    def kind_list(self) -> list[str]:
        return [k for k in self.kinds.split(",") if k]

    @property
    def tombstone(self) -> bool:
        """The result left its path here (withdrawn, moved to open, renamed)."""
        return bool({"withdrawn", "moved-to-open", "renamed"} & set(self.kind_list))

    def change_words(self) -> list[str]:
        """Each change as ``field: old -> new``."""
        out = []
        for c in self.changes:
            out.append(f"{c.get('field')}: {_short(c.get('old'))} -> {_short(c.get('new'))}")
        return out


class ClaimVerdictVersion(models.Model):
    """A claim checked again because a result it rests on changed: its verdict
    before and after (the same when the change did not move it), when, and the
    version that caused it (``cause``; None when that version is gone)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="verdict_versions")
    verdict_before = models.CharField(max_length=16)
    verdict = models.CharField(max_length=16)
    checked = models.DateTimeField()
    cause = models.ForeignKey(
        ResultVersion, on_delete=models.SET_NULL, null=True, blank=True, related_name="claims"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["claim", "checked", "pk"]

    def __str__(self) -> str:
        return f"claim {self.claim_id}: {self.verdict_before} -> {self.verdict}"


def _short(v: Any) -> str:
    text = "(none)" if v is None or v == "" else str(v)
    return text if len(text) <= 120 else text[:117] + "..."
