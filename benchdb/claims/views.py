"""Vendor pages and their claims: the read pages. Each is the one page pattern
(:func:`benchdb.tables.pages.table_page`): reads from :mod:`benchdb.claims.selectors`,
the same rows as HTML, ``?format=csv`` and ``?format=json`` with the columns of its
schema in :mod:`benchdb.tables.schemas`; the claims tables are paginated
(:func:`benchdb.tables.pages.paged_table_page`: 100 rows per HTML page, every row as
CSV or JSON). The writes (upload, corrections) are ingest's pages
(``ingest/claims/views_pages.py``) and need a login. Text from vendor pages is only ever
rendered through autoescaping templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse

from benchdb.claims import families, guidelines, numbers, views_pins
from benchdb.claims.forms import CorrectionForm
from benchdb.claims.pin_selectors import claim_pin_get, pin_row
from benchdb.claims.reports import claim_family_list, page_guideline_report, page_list_counts
from benchdb.claims.selectors import (
    HIDDEN_KINDS,
    claim_facets,
    claim_get,
    claim_html_row,
    claim_list,
    link_row,
    page_row,
    vendor_page_get,
    vendor_page_list,
    vendor_result_list,
    vendor_result_row,
)
from benchdb.models import Claim
from benchdb.tables.pages import (
    ExportForm,
    PagedForm,
    PagedTable,
    Table,
    paged_table_page,
    table_page,
)


def highlight_segments(text: str, spans: Sequence[tuple[int, int, Any]]) -> list[dict[str, Any]]:
    """Cut ``text`` into plain and highlighted pieces for a template to escape.

    ``spans``: ``(start, end, tag)`` character spans (any order; a span that overlaps
    an earlier one is skipped, out-of-range ends are clipped). Returns
    ``[{"text": str, "tag": tag or None}, ...]`` covering ``text`` exactly once.
    """
    out: list[dict[str, Any]] = []
    pos = 0
    for start, end, tag in sorted(spans, key=lambda s: (s[0], -s[1])):
        start, end = max(start, 0), min(end, len(text))
        if start < pos or end <= start:
            continue
        if start > pos:
            out.append({"text": text[pos:start], "tag": None})
        out.append({"text": text[start:end], "tag": tag})
        pos = end
    if pos < len(text):
        out.append({"text": text[pos:], "tag": None})
    return out


def page_list(request: HttpRequest) -> HttpResponse:
    def select(d: dict[str, Any]) -> Table:
        pages = list(vendor_page_list())
        per_page, n_families = page_list_counts(pages)
        rows = [
            page_row(p)
            | {"families": n_families.get(p.pk, 0)}
            | {f"guideline_{k}": v for k, v in per_page[p.pk].items()}
            for p in pages
        ]
        return Table(rows, "benchdb.vendor_pages/1", ("vendor-pages",))

    return table_page(request, ExportForm(request.GET), select, "vendor/pages.html")


def page_detail(request: HttpRequest, pk: int) -> HttpResponse:
    def select(d: dict[str, Any]) -> PagedTable:
        page = vendor_page_get(pk)
        claims = list(page.claims.all())
        context: dict[str, Any] = {"page": page, "verdicts": Claim.Verdict.choices}
        if not d["format"]:
            spans = [
                (c.start, c.end, {"id": c.pk, "verdict": c.verdict, "kind": c.get_kind_display()})
                for c in claims
            ]
            context["segments"] = highlight_segments(page.text, spans)
            context["n_claims"] = len(claims)
            report = page_guideline_report(page, claims)
            context["guidelines"] = [guidelines.finding_row(f) for f in report]
            context["guideline_counts"] = guidelines.counts(report)
            context["number_groups"] = numbers.reason_groups(
                numbers.number_rows(page.pk, page.text, page.numbers)
            )
            context["number_counts"] = numbers.number_counts(page.numbers)

        def row(c: Claim) -> Mapping[str, Any]:
            return claim_html_row(c, page)

        return PagedTable(claims, row, "benchdb.claims/1", ("vendor-page", pk, "claims"), context)

    return paged_table_page(request, PagedForm(request.GET), select, "vendor/page.html")


def page_vendor_results(request: HttpRequest, pk: int) -> HttpResponse:
    def select(d: dict[str, Any]) -> PagedTable:
        page = vendor_page_get(pk, claims=False)
        items = vendor_result_list(page_id=page.pk)
        name = ("vendor-page", pk, "tables")
        return PagedTable(
            items, vendor_result_row, "benchdb.vendor_results/1", name, {"page": page}
        )

    form = PagedForm(request.GET)
    return paged_table_page(request, form, select, "vendor/vendor_results.html")


class ClaimFilterForm(PagedForm):
    """The claims list's facets (``benchdb.claims.selectors.FACETS``), ``hardware``:
    show the hardware figures (nm, MB, GHz) hidden by default, and ``families``: one
    row per claim family (:mod:`benchdb.claims.families`), its earliest published
    claim among those the filters keep."""

    vendor = forms.CharField(required=False, max_length=100)
    vendor_page = forms.IntegerField(required=False, min_value=1, label="Page")
    round = forms.CharField(required=False, max_length=16)
    benchmark = forms.CharField(required=False, max_length=64)
    verdict = forms.ChoiceField(choices=[("", "any"), *Claim.Verdict.choices], required=False)
    kind = forms.ChoiceField(choices=[("", "any"), *Claim.Kind.choices], required=False)
    hardware = forms.BooleanField(required=False, label="Show hardware figures (nm, MB, GHz)")
    families = forms.BooleanField(required=False, label="One row per claim family")


FACET_LABELS = (
    ("vendor", "Vendor"),
    ("vendor_page", "Page"),
    ("round", "Round"),
    ("benchmark", "Benchmark"),
    ("verdict", "Verdict"),
    ("kind", "Kind"),
)


def _with_links(
    request: HttpRequest, name: str, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each facet option with ``href``: this list's query string with the option
    chosen (or, when it is chosen, removed) and the page number dropped; None for an
    option with no value (claims naming no round), which cannot be chosen."""
    out = []
    for o in options:
        params = request.GET.copy()
        params.pop("page", None)
        params.pop(name, None)
        if not o["selected"]:
            params[name] = str(o["value"])
        href = "?" + params.urlencode() if o["value"] not in (None, "") else None
        out.append(o | {"href": href})
    return out


def claims(request: HttpRequest) -> HttpResponse:
    if request.GET.get("open"):  # the queue of claims that need a person (issue 27)
        return views_pins.claims_open(request)

    def select(d: dict[str, Any]) -> PagedTable:
        hide = not d["hardware"] and d["kind"] not in HIDDEN_KINDS
        filters = {name: d[name] for name in ("vendor", "vendor_page", "round", "benchmark")}
        filters |= {"verdict": d["verdict"], "kind": d["kind"]}
        items = claim_list(
            verdict=d["verdict"],
            kind=d["kind"],
            page=d["vendor_page"],
            vendor=d["vendor"],
            round=d["round"],
            benchmark=d["benchmark"],
            hide_hardware=hide,
        )
        context: dict[str, Any] = {"hide_hardware": hide, "by_family": d["families"]}
        fams = claim_family_list() if d["families"] or not d["format"] else []
        index = families.family_index(fams)
        if d["families"]:
            matching = list(items.values_list("pk", flat=True))
            items = items.filter(pk__in=families.representatives(matching, fams))
            context["n_matching"] = len(matching)
        if not d["format"]:
            context |= _facet_context(request, filters, hide)

        def row(c: Claim) -> Mapping[str, Any]:
            return claim_html_row(c) | {"family": index.get(c.pk)}

        return PagedTable(items, row, "benchdb.claims/1", ("claims",), context)

    return paged_table_page(request, ClaimFilterForm(request.GET), select, "vendor/claims.html")


def _facet_context(request: HttpRequest, filters: dict[str, Any], hide: bool) -> dict[str, Any]:
    """The claims list's facets with their links, the hidden hardware figures' count
    and the filters in force (seven queries: :func:`claim_facets`)."""
    facets = claim_facets(filters, hide_hardware=hide)
    return {
        "facets": [
            (name, label, _with_links(request, name, facets[name])) for name, label in FACET_LABELS
        ],
        "hidden": facets["hidden"],
        "active": {k: v for k, v in filters.items() if v not in (None, "")},
    }


def claim_detail(request: HttpRequest, pk: int) -> HttpResponse:
    def select(d: dict[str, Any]) -> Table:
        claim = claim_get(pk)
        links = list(claim.links.all())
        rows = [link_row(lk) for lk in links]
        for lk, row in zip(links, rows, strict=True):
            lk.url = row["link"]  # type: ignore[attr-defined]  # inference links' page
            lk.value, lk.unit = row["value"], row["unit"]  # type: ignore[attr-defined]
        form = CorrectionForm(claim=claim) if request.user.is_authenticated else None
        tol = claim.details.get("tolerance")
        context = {
            "claim": claim,
            "shown": claim_html_row(claim),
            "links": links,
            "correction": form,
            "tolerance_percent": tol * 100 if tol else None,
            "pin": pin_row(*claim_pin_get(claim)),  # settled by hand (issue 27)
        }
        return Table(rows, "benchdb.claim_links/1", ("claim", pk, "results"), context)

    return table_page(request, ExportForm(request.GET), select, "vendor/claim.html")
