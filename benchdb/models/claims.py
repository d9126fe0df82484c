"""Vendor pages, the results in their tables, the claims found in their text, and
people's corrections of claims' links."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.urls import reverse

from benchdb.models.inference import InferenceResult
from benchdb.models.mlperf import Result
from benchdb.models.storage import StorageResult

# Issue 4. Written only by ``ingest.claims.pages`` (vendor_page_ingest, claim_links_correct);
# the parsing is ``ingest.claims.parsers.page_html`` / ``ingest.claims.parsers.text``, the checking
# ``benchdb.claims.verdicts``.


class VendorPage(models.Model):
    """A vendor page or repost as ingested. ``raw``: the bytes as fetched or uploaded;
    ``text``: the cleaned text that claim spans point into; ``sha256`` of ``raw``
    (the same bytes twice are one page). ``title``, ``vendor`` (the company whose
    results the page is about) and ``published`` (the page's date): given, or found in
    the page by ``ingest.claims.parsers.page_meta``; ``*_source`` says where ("given",
    "html", "url", "title", "text"; "" when not found); ``retrieved``: when benchdb
    got it."""

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
    published_source = models.CharField(
        max_length=8, blank=True, help_text='"given", "html", "text", "url" or ""'
    )
    vendor = models.CharField(max_length=100, blank=True)
    vendor_source = models.CharField(
        max_length=8, blank=True, help_text='"given", "html", "url", "title", "text" or ""'
    )
    retrieved = models.DateTimeField()
    language = models.CharField(max_length=8, choices=Language.choices)
    created_by = models.ForeignKey(
        "auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    numbers = models.JSONField(
        default=list,
        blank=True,
        help_text="every number of the text: a claim, or not one and why "
        "(ingest.claims.parsers.coverage)",
    )
    numbers_not_claims = models.PositiveIntegerField(
        default=0, help_text="how many of numbers are not claims (counted when numbers are set)"
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

    def set_numbers(self, numbers: list[dict[str, Any]]) -> None:
        """``numbers`` (``ingest.claims.parsers.coverage``, JSON-safe) and their count of
        entries not treated as claims, kept together (the pages list reads the count)."""
        self.numbers = numbers
        self.numbers_not_claims = sum(1 for n in numbers if n.get("status") == "not-claim")


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
    against, each with its role; ``corrected``: links set by a person.
    ``page_verdict`` / ``page_arithmetic``: the claim recomputed from two figures of its
    own page (``ingest.claims.parsers.arithmetic``), beside the MLPerf ``verdict``;
    ``baseline_facts``: what it is compared against and where the sides differ
    (``ingest.claims.parsers.baselines``)."""

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
        SCALING = "scaling", "Scaling efficiency"
        GEOMEAN = "geomean", "Geometric mean over benchmarks"
        ENERGY = "energy", "Energy"
        LATENCY = "latency", "Latency"
        TARGET = "target", "Quality target"

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
    page_verdict = models.CharField(
        max_length=24,
        blank=True,
        help_text='"consistent-with-page", "inconsistent-with-page" or "" (no figures)',
    )
    page_arithmetic = models.JSONField(default=dict, blank=True)
    baseline_facts = models.JSONField(default=dict, blank=True)

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
    ``baseline`` (``benchdb.claims.Link``). Exactly one of ``result`` (training, HPC),
    ``inference_result`` (Inference, Automotive, Tiny, Mobile) and ``storage_result``
    (Storage) is set, as the registry's ``result_model`` of the link's suite says."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="links")
    result = models.ForeignKey(
        Result, on_delete=models.CASCADE, related_name="claim_links", null=True, blank=True
    )
    inference_result = models.ForeignKey(
        InferenceResult,
        on_delete=models.CASCADE,
        related_name="claim_links",
        null=True,
        blank=True,
    )
    storage_result = models.ForeignKey(
        StorageResult,
        on_delete=models.CASCADE,
        related_name="claim_links",
        null=True,
        blank=True,
    )
    role = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "result", "role"], name="claim_result_unique"),
            models.UniqueConstraint(
                fields=["claim", "inference_result", "role"], name="claim_inference_result_unique"
            ),
            models.UniqueConstraint(
                fields=["claim", "storage_result", "role"], name="claim_storage_result_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    result__isnull=False,
                    inference_result__isnull=True,
                    storage_result__isnull=True,
                )
                | models.Q(
                    result__isnull=True,
                    inference_result__isnull=False,
                    storage_result__isnull=True,
                )
                | models.Q(
                    result__isnull=True,
                    inference_result__isnull=True,
                    storage_result__isnull=False,
                ),
                name="claim_result_one_suite",
            ),
        ]
        ordering = ["claim", "pk"]

    def __str__(self) -> str:
        pk = self.result_id or self.inference_result_id or self.storage_result_id
        return f"{self.claim_id} {self.role} {pk}"

    @property
    def target(self) -> Result | InferenceResult | StorageResult | None:
        """The linked result, whichever suite it is of."""
        if self.result_id is not None:
            return self.result
        if self.inference_result_id is not None:
            return self.inference_result
        return self.storage_result


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


class ResultIdCitation(models.Model):
    """A result ID a vendor page cites for an MLPerf Training result: the claim (its
    page), the ID (``cited_id``), and the subject result the claim's verification linked (the one
    subject of a consistent or person-corrected claim citing exactly one ID of that
    result's round). Written only by ``ingest.result_ids.result_ids_cite``.

    ``status`` says what became of it (:class:`Status`); ``note`` says why, naming the
    other IDs, systems or pages. A stored citation's ID is set on every result of the
    subject's system row (same round, division and system) with origin ``vendor-cited``."""

    class Status(models.TextChoices):
        STORED = "stored", "stored on the system row's results"
        IMPORTED_SAME = "imported-same", "an imported ID says the same"
        IMPORTED_DIFFERS = "imported-differs", "an imported ID differs (imported kept)"
        IDS_DIFFER = "ids-differ", "the system row is cited with different IDs"
        ROWS_DIFFER = "rows-differ", "the ID is cited for different system rows"

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="id_citations")
    page = models.ForeignKey(VendorPage, on_delete=models.CASCADE, related_name="id_citations")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="id_citations")
    cited_id = models.CharField(max_length=32, help_text='e.g. "3.0-2053"')
    status = models.CharField(max_length=24, choices=Status.choices)
    note = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "cited_id"], name="id_citation_unique")
        ]
        ordering = ["page", "claim__position"]

    def __str__(self) -> str:
        return f"{self.cited_id} cited by claim {self.claim_id} ({self.status})"
