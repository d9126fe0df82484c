"""Reads behind the per-page guideline report and the claim families (issue 14):
the stored claims reshaped for :mod:`benchdb.claims.guidelines` and
:mod:`benchdb.claims.families`, which do the work (pure). Nothing is stored: both
are computed when read, from the claims as they stand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from benchdb import vocabulary
from benchdb.claims import families, guidelines
from benchdb.models import Claim, VendorPage


def report_claim_row(c: Claim, page: VendorPage) -> dict[str, Any]:
    """A claim as the reports read it: the columns of ``benchdb.claims/1`` they use,
    with ``extracted`` and its page's id, source, date, language and vendor."""
    return {
        "id": c.pk,
        "page_id": page.pk,
        "page": page.source,
        "published": page.published,
        "language": page.language,
        "vendor": page.vendor,
        "position": c.position,
        "kind": c.kind,
        "sentence": c.sentence,
        "value": c.value,
        "unit": c.unit,
        "qualifier": c.qualifier,
        "compared_value": c.compared_value,
        "system": c.system,
        "compared_system": c.compared_system,
        "benchmark": c.benchmark,
        "benchmark_key": c.benchmark_key,
        "round": c.round,
        "division": c.division,
        "result_ids": list(c.result_ids),
        "verdict": c.verdict,
        "flags": list(c.flags),
        "extracted": c.extracted,
        # the page verdict, where claims have one (page arithmetic, issue 14)
        "page_verdict": getattr(c, "page_verdict", ""),
    }


def _claims(qs: QuerySet[Claim]) -> QuerySet[Claim]:
    # Every field but ``details`` (the verifier's notes, unused here): ``only()`` would
    # make a field it leaves out cost a query per claim when read.
    return qs.defer("details").order_by("page_id", "start", "position")


def report_page_get(pk: int) -> VendorPage:
    """One page with its text, raw bytes not loaded (one query). Raises Http404."""
    return get_object_or_404(VendorPage.objects.defer("raw"), pk=pk)


def page_guideline_report(
    page: VendorPage, claims: Iterable[Claim] | None = None
) -> list[guidelines.Finding]:
    """The guideline report of one page (its text loaded). ``claims``: the page's
    claims when the caller holds them (no query), else one query reads them."""
    if claims is None:
        claims = _claims(Claim.objects.filter(page=page))
    rows = [report_claim_row(c, page) for c in claims]
    return guidelines.page_report(
        rows, text=page.text, published=page.published, round_dates=vocabulary.ROUND_PUBLISHED
    )


def page_list_counts(
    pages: Sequence[VendorPage],
) -> tuple[dict[int, dict[str, int]], Mapping[Any, int]]:
    """For the vendor pages list: page id -> :func:`benchdb.claims.guidelines.counts` of
    its report, and page id -> how many claim families its claims make (families
    across all of ``pages``). Two queries: the pages' texts, their claims."""
    by_id = {p.pk: p for p in pages}
    texts = dict(VendorPage.objects.filter(pk__in=list(by_id)).values_list("pk", "text"))
    rows: dict[int, list[dict[str, Any]]] = {pk: [] for pk in by_id}
    for c in _claims(Claim.objects.filter(page_id__in=list(by_id))):
        rows[c.page_id].append(report_claim_row(c, by_id[c.page_id]))
    counts = {
        pk: guidelines.counts(
            guidelines.page_report(
                rows[pk],
                text=texts.get(pk, ""),
                published=p.published,
                round_dates=vocabulary.ROUND_PUBLISHED,
            )
        )
        for pk, p in by_id.items()
    }
    fams = families.claim_families(r for page_rows in rows.values() for r in page_rows)
    return counts, families.families_per_page(fams)


def claim_family_list(*, vendor: str = "") -> list[families.Family]:
    """Every claim with a value grouped into families (of pages of ``vendor`` when
    given), in order of first publication: two queries (pages, claims)."""
    pages_qs = VendorPage.objects.defer("raw", "text")
    if vendor:
        pages_qs = pages_qs.filter(vendor=vendor)
    pages = {p.pk: p for p in pages_qs}
    claims = _claims(Claim.objects.filter(page_id__in=list(pages), value__isnull=False))
    return families.claim_families(report_claim_row(c, pages[c.page_id]) for c in claims)
