"""The guideline report of a vendor page and the claim families (issue 14): each is
the one page pattern (:func:`benchdb.tables.pages.table_page`), reading from
:mod:`benchdb.claims.reports`; the same rows as HTML, ``?format=csv`` and
``?format=json`` (schemas ``benchdb.guidelines/1``, ``benchdb.claim_families/1``); and a page's
numbers not treated as claims (``benchdb.page_numbers/1``, :mod:`benchdb.claims.numbers`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse

from benchdb.claims import families, guidelines, numbers
from benchdb.claims.reports import claim_family_list, page_guideline_report, report_page_get
from benchdb.tables.pages import ExportForm, Table, table_page


def page_guidelines(request: HttpRequest, pk: int) -> HttpResponse:
    def select(d: dict[str, Any]) -> Table:
        page = report_page_get(pk)
        report = page_guideline_report(page)
        rows = [guidelines.finding_row(f) for f in report]
        context = {"page": page, "counts": guidelines.counts(report)}
        return Table(rows, "benchdb.guidelines/1", ("vendor-page", pk, "guidelines"), context)

    return table_page(request, ExportForm(request.GET), select, "vendor/guidelines.html")


def page_numbers(request: HttpRequest, pk: int) -> HttpResponse:
    def select(d: dict[str, Any]) -> Table:
        page = report_page_get(pk)
        rows = numbers.number_rows(page.pk, page.text, page.numbers)
        context = {
            "page": page,
            "number_groups": numbers.reason_groups(rows),
            "number_counts": numbers.number_counts(page.numbers),
        }
        return Table(rows, "benchdb.page_numbers/1", ("vendor-page", pk, "numbers"), context)

    return table_page(request, ExportForm(request.GET), select, "vendor/numbers.html")


class FamilyForm(ExportForm):
    """``vendor``: only the families of this vendor's pages; ``repeated``: only
    families made more than once."""

    vendor = forms.CharField(required=False, max_length=100)
    repeated = forms.BooleanField(required=False, label="Only claims made more than once")


def claim_families(request: HttpRequest) -> HttpResponse:
    def select(d: dict[str, Any]) -> Table:
        rows = families.family_rows(claim_family_list(vendor=d["vendor"]))
        if d["repeated"]:
            rows = [r for r in rows if r["claims"] > 1]
        context = {"n_claims": sum(r["claims"] for r in rows)}
        return Table(rows, "benchdb.claim_families/1", ("claim-families",), context)

    return table_page(request, FamilyForm(request.GET), select, "vendor/families.html")
