"""Pins: a person's choice of the evidence a claim rests on (issue 27, the claim
workbench). Written only by ``ingest.claims.pins.claim_pin_set``; applied by
``benchdb.claims.pins`` (pure)."""

from __future__ import annotations

from django.db import models


class ClaimPin(models.Model):
    """A claim settled by hand: ``pins`` (``{"subject": [result key], "compared": [...],
    "baseline": [...], "scenario": "Server", "division": ..., "round": ...,
    "reading": ..., "normalisation": ...}``: results by natural key,
    ``benchdb.claims.pins.result_key``), who (``user``), when (``created``) and why
    (``note``).

    A pin names its claim by ``claim_key`` (the page's source, the claim's kind,
    figures and sentence: ``benchdb.claims.pins.claim_key``), not by the claim's row,
    so it survives the page ingested again and the rounds synced again; ``claim`` is
    the row it was made on (kept while that row exists). ``values``: each pinned
    result's value (its unit) when pinned, so a pin whose result later changes or is
    withdrawn is flagged (``benchdb.claims.pins.pin_state``). ``verdict``: the verdict
    the pins gave when made. ``family_keys``: the keys of the claims of its family
    (``benchdb.claims.families``) when it was made, which it settles too (the queue
    reads families as they are now). The latest pin of a key is the one in force; earlier ones
    are its history."""

    claim_key = models.CharField(max_length=64)
    claim = models.ForeignKey(
        "benchdb.Claim", on_delete=models.SET_NULL, null=True, blank=True, related_name="pins"
    )
    page_source = models.CharField(max_length=1000, blank=True)
    sentence = models.TextField(blank=True)
    pins = models.JSONField(default=dict)
    values = models.JSONField(default=dict, blank=True)
    verdict = models.CharField(max_length=16, blank=True)
    family_keys = models.TextField(
        blank=True,
        help_text='the claim keys of its family when pinned, "|"-separated and -enclosed',
    )
    user = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="claim_pins")
    created = models.DateTimeField()
    note = models.TextField(blank=True)

    class Meta:
        indexes = [
            # the pin in force for a claim: latest of its key (claim page, queue, export)
            models.Index(fields=["claim_key", "-created"], name="claim_pin_key_idx"),
        ]
        ordering = ["claim_key", "-created"]

    def __str__(self) -> str:
        return f"pin of {self.claim_key[:12]} by {self.user_id} at {self.created:%Y-%m-%d %H:%M}"
