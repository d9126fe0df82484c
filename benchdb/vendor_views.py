"""Vendor pages and their claims: reads, table rows, and the pages that show them.

Kept in one module for the vendor feature: selectors (``vendor_page_list``,
``vendor_page_get``, ``claim_list``, ``claim_get``), pure row shaping (``*_row``,
``highlight_segments``) and thin views. Every table is also ``?format=csv`` and
``?format=json`` from the same rows (``benchdb.views.export_response``), with
the schemas named in :data:`SCHEMAS`. Writes go through ``ingest.vendor`` and need a
login; text from vendor pages is only ever rendered through autoescaping templates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from benchdb.models import Claim, ClaimCorrection, ClaimResult, Result, VendorPage, VendorResult
from benchdb.views import export_response

# --- columns -----------------------------------------------------------------------

PAGE_COLUMNS = ("id", "page", "title", "file_name", "url", "published", "retrieved", "language",
                "format", "sha256", "claims", "vendor_results", "link")  # fmt: skip
CLAIM_COLUMNS = ("id", "page", "sentence", "kind", "value", "unit", "qualifier", "system",
                 "benchmark", "round", "division", "compared_system", "compared_value",
                 "recomputed_value", "compared_recomputed_value", "verdict", "flags",
                 "result_ids", "results", "link")  # fmt: skip
LINK_COLUMNS = ("claim", "role", "result", "round", "submitter", "system", "division",
                "availability", "accelerators", "benchmark", "score_minutes", "link")  # fmt: skip
VENDOR_RESULT_COLUMNS = ("page", "table", "row", "line", "caption", "model", "benchmark",
                         "framework", "system", "accelerators", "metric", "value", "unit",
                         "result_id", "round", "division", "carried", "cells")  # fmt: skip
SCHEMAS = {
    "benchdb.vendor_pages/1": PAGE_COLUMNS,
    "benchdb.claims/1": CLAIM_COLUMNS,
    "benchdb.claim_links/1": LINK_COLUMNS,
    "benchdb.vendor_results/1": VENDOR_RESULT_COLUMNS,
}
"""``page``: the page's URL, else its file name; ``value``, ``compared_value``,
``recomputed_value``, ``compared_recomputed_value`` in ``unit``; ``flags``,
``result_ids``, ``results`` are lists (space-separated in CSV); ``results`` items are
``role:round/submitter/system/benchmark``; ``link``/``result`` are paths on this site;
``score_minutes`` in minutes."""

# --- selectors ---------------------------------------------------------------------

_LINKS = Prefetch("links", queryset=ClaimResult.objects.select_related(
    "result__round", "result__system__submitter", "result__benchmark").order_by("pk"))  # fmt: skip


def vendor_page_list() -> QuerySet[VendorPage]:
    """Pages with their claim and table-row counts; no raw bytes or text loaded (one query)."""
    return VendorPage.objects.defer("raw", "text").annotate(
        n_claims=Count("claims", distinct=True), n_results=Count("vendor_results", distinct=True)
    ).order_by("-published", "file_name", "pk")  # fmt: skip


def vendor_page_get(pk: int) -> VendorPage:
    """One page (raw bytes not loaded) with its claims and their links prefetched
    (three queries); raises Http404."""
    qs = VendorPage.objects.defer("raw").prefetch_related(
        Prefetch("claims", queryset=Claim.objects.order_by("start", "position").prefetch_related(_LINKS)))  # fmt: skip
    return get_object_or_404(qs, pk=pk)


def claim_list(*, verdict: str = "", kind: str = "", page: int | None = None) -> QuerySet[Claim]:
    """Claims with their page and links (two queries), in page order."""
    qs = Claim.objects.select_related("page").defer("page__raw", "page__text").prefetch_related(_LINKS)  # fmt: skip
    if verdict:
        qs = qs.filter(verdict=verdict)
    if kind:
        qs = qs.filter(kind=kind)
    if page is not None:
        qs = qs.filter(page_id=page)
    return qs.order_by("page__published", "page_id", "position")


def claim_get(pk: int) -> Claim:
    """One claim with its page, links (with each result's runs) and corrections."""
    links = Prefetch("links", queryset=ClaimResult.objects.select_related(
        "result__round", "result__system__submitter", "result__benchmark").prefetch_related("result__runs").order_by("pk"))  # fmt: skip
    corrections = Prefetch("corrections", queryset=ClaimCorrection.objects.select_related("user"))
    qs = Claim.objects.select_related("page", "vendor_result").defer("page__raw", "page__text")
    return get_object_or_404(qs.prefetch_related(links, corrections), pk=pk)


def claim_candidates(claim: Claim) -> QuerySet[Result]:
    """Results a person may link a claim to: the claim's round and benchmark, or
    every scored result when the claim names neither."""
    qs = Result.objects.filter(status=Result.Status.SCORED).select_related("round", "system__submitter", "benchmark")  # fmt: skip
    if claim.round:
        qs = qs.filter(round__version=claim.round)
    if claim.benchmark_key:
        qs = qs.filter(benchmark__key=claim.benchmark_key)
    return qs.order_by("round__version", "benchmark__key", "system__folder")


# --- rows (pure reshaping) ----------------------------------------------------------


def page_row(p: Any) -> dict[str, Any]:
    return {
        "id": p.pk, "page": p.source, "title": p.title, "file_name": p.file_name, "url": p.url,
        "published": p.published.isoformat() if p.published else None,
        "retrieved": p.retrieved.isoformat(), "language": p.language, "format": p.format,
        "sha256": p.sha256, "claims": getattr(p, "n_claims", None),
        "vendor_results": getattr(p, "n_results", None), "link": p.get_absolute_url(),
    }  # fmt: skip


def _link_label(lk: Any) -> str:
    r = lk.result
    return f"{lk.role}:{r.round.version}/{r.system.submitter.name}/{r.system.folder}/{r.benchmark.key}"


def claim_row(c: Any, page: Any | None = None) -> dict[str, Any]:
    """A claim (links prefetched) -> a flat dict over :data:`CLAIM_COLUMNS`."""
    p = page or c.page
    return {
        "id": c.pk, "page": p.source, "sentence": c.sentence, "kind": c.kind, "value": c.value,
        "unit": c.unit, "qualifier": c.qualifier, "system": c.system, "benchmark": c.benchmark,
        "round": c.round, "division": c.division, "compared_system": c.compared_system,
        "compared_value": c.compared_value, "recomputed_value": c.recomputed_value,
        "compared_recomputed_value": c.compared_recomputed_value, "verdict": c.verdict,
        "flags": list(c.flags), "result_ids": list(c.result_ids),
        "results": [_link_label(lk) for lk in c.links.all()], "link": c.get_absolute_url(),
    }  # fmt: skip


def link_row(lk: Any) -> dict[str, Any]:
    r = lk.result
    return {
        "claim": lk.claim_id, "role": lk.role, "result": r.get_absolute_url(),
        "round": r.round.version, "submitter": r.system.submitter.name, "system": r.system.folder,
        "division": r.division, "availability": r.system.availability,
        "accelerators": r.system.accelerators, "benchmark": r.benchmark.key,
        "score_minutes": r.score_minutes, "link": r.get_absolute_url(),
    }  # fmt: skip


def vendor_result_row(v: Any) -> dict[str, Any]:
    return {
        "page": v.page_id, "table": v.table + 1, "row": v.row + 1, "line": v.line,
        "caption": v.caption, "model": v.model, "benchmark": v.benchmark_key,
        "framework": v.framework, "system": v.system, "accelerators": v.accelerators,
        "metric": v.metric, "value": v.value, "unit": v.unit, "result_id": v.result_id,
        "round": v.round, "division": v.division, "carried": list(v.carried), "cells": list(v.cells),
    }  # fmt: skip


def claim_export_rows(*, verdict: str = "", kind: str = "") -> Iterable[dict[str, Any]]:
    """Rows of ``manage.py export claims`` and of the claims page (``benchdb.claims/1``)."""
    return (claim_row(c) for c in claim_list(verdict=verdict, kind=kind))


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


# --- views ---------------------------------------------------------------------------


def _table(request: HttpRequest, rows: list[dict[str, Any]], schema: str, name: str) -> HttpResponse | None:  # fmt: skip
    return export_response(request.GET.get("format", ""), rows, SCHEMAS[schema], schema, name)


def page_list(request: HttpRequest) -> HttpResponse:
    rows = [page_row(p) for p in vendor_page_list()]
    out = _table(request, rows, "benchdb.vendor_pages/1", "benchdb-vendor-pages")
    return out or render(request, "vendor/pages.html", {"rows": rows})


def page_detail(request: HttpRequest, pk: int) -> HttpResponse:
    page = vendor_page_get(pk)
    claims = list(page.claims.all())
    rows = [claim_row(c, page) for c in claims]
    out = _table(request, rows, "benchdb.claims/1", f"benchdb-vendor-page-{pk}-claims")
    if out:
        return out
    spans = [(c.start, c.end, {"id": c.pk, "verdict": c.verdict, "kind": c.get_kind_display()}) for c in claims]  # fmt: skip
    return render(request, "vendor/page.html", {
        "page": page, "rows": rows, "segments": highlight_segments(page.text, spans),
        "verdicts": Claim.Verdict.choices,
    })  # fmt: skip


def page_vendor_results(request: HttpRequest, pk: int) -> HttpResponse:
    page = get_object_or_404(VendorPage.objects.defer("raw", "text"), pk=pk)
    rows = [vendor_result_row(v) for v in VendorResult.objects.filter(page=page)]
    out = _table(request, rows, "benchdb.vendor_results/1", f"benchdb-vendor-page-{pk}-tables")
    return out or render(request, "vendor/vendor_results.html", {"page": page, "rows": rows})


class ClaimFilterForm(forms.Form):
    verdict = forms.ChoiceField(choices=[("", "any"), *Claim.Verdict.choices], required=False)
    kind = forms.ChoiceField(choices=[("", "any"), *Claim.Kind.choices], required=False)


def claims(request: HttpRequest) -> HttpResponse:
    form = ClaimFilterForm(request.GET)
    if not form.is_valid():
        return render(request, "vendor/claims.html", {"form": form, "rows": []}, status=400)
    rows = list(claim_export_rows(verdict=form.cleaned_data["verdict"], kind=form.cleaned_data["kind"]))  # fmt: skip
    out = _table(request, rows, "benchdb.claims/1", "benchdb-claims")
    return out or render(request, "vendor/claims.html", {"form": form, "rows": rows})


class CorrectionForm(forms.Form):
    """Results a claim rests on, chosen by a person (ids of results)."""

    subject = forms.ModelChoiceField(queryset=Result.objects.none(), help_text="the claimed system's result")  # fmt: skip
    compared = forms.ModelChoiceField(queryset=Result.objects.none(), required=False, help_text="the other side of a comparison")  # fmt: skip
    baseline = forms.ModelChoiceField(queryset=Result.objects.none(), required=False, help_text="the earlier result a gain is measured from")  # fmt: skip
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=2000)  # fmt: skip

    def __init__(self, *args: Any, claim: Claim, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        everything = Result.objects.filter(status=Result.Status.SCORED).select_related("round", "system__submitter", "benchmark").order_by("round__version", "benchmark__key", "system__folder")  # fmt: skip
        for name, qs in (("subject", claim_candidates(claim)), ("compared", everything), ("baseline", everything)):  # fmt: skip
            f = cast(forms.ModelChoiceField, self.fields[name])  # type: ignore[type-arg]
            f.queryset = qs
            f.label_from_instance = _result_label  # type: ignore[method-assign,assignment]

    def links(self) -> list[tuple[int, str]]:
        d = self.cleaned_data
        return [(d[role].pk, role) for role in ("subject", "compared", "baseline") if d.get(role)]


def _result_label(r: Result) -> str:
    score = f"{r.score_minutes:.2f} min" if r.score_minutes is not None else "no score"
    return f"{r.round.version} {r.system.submitter.name} {r.system.folder} {r.benchmark.key} {r.division} ({score})"  # fmt: skip


def claim_detail(request: HttpRequest, pk: int) -> HttpResponse:
    claim = claim_get(pk)
    links = list(claim.links.all())
    rows = [link_row(lk) for lk in links]
    out = _table(request, rows, "benchdb.claim_links/1", f"benchdb-claim-{pk}-results")
    if out:
        return out
    form = CorrectionForm(claim=claim) if request.user.is_authenticated else None
    tol = claim.details.get("tolerance")
    return render(request, "vendor/claim.html", {"claim": claim, "links": links, "rows": rows, "form": form, "tolerance_percent": tol * 100 if tol else None})  # fmt: skip


@login_required
@require_POST
def claim_correct(request: HttpRequest, pk: int) -> HttpResponse:
    from ingest.vendor import claim_links_correct

    claim = get_object_or_404(Claim.objects.only("pk", "round", "benchmark_key"), pk=pk)
    form = CorrectionForm(request.POST, claim=claim)
    if not form.is_valid():
        full = claim_get(pk)
        return render(request, "vendor/claim.html", {"claim": full, "links": list(full.links.all()), "form": form}, status=400)  # fmt: skip
    claim_links_correct(claim_id=claim.pk, links=form.links(), user=request.user, note=form.cleaned_data["note"])  # fmt: skip
    return HttpResponseRedirect(claim.get_absolute_url())


class UploadForm(forms.Form):
    """A page to ingest: a file, or an http(s) URL that benchdb fetches (with a timeout)."""

    file = forms.FileField(required=False)
    fetch_url = forms.URLField(required=False, assume_scheme="https", label="or fetch from URL")
    url = forms.CharField(required=False, max_length=1000, label="source URL (for a file)")
    published = forms.DateField(required=False, help_text="YYYY-MM-DD; empty: the first date in the page")  # fmt: skip

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        if bool(d.get("file")) == bool(d.get("fetch_url")):
            raise forms.ValidationError("give either a file or a URL to fetch")
        return d


@login_required
def page_upload(request: HttpRequest) -> HttpResponse:
    from ingest.vendor import (
        MAX_PAGE_BYTES,
        VendorIngestError,
        vendor_page_fetch,
        vendor_page_ingest,
    )

    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        upload = d.get("file")
        try:
            if upload:
                data = upload.read(MAX_PAGE_BYTES + 1)
                if len(data) > MAX_PAGE_BYTES:
                    raise VendorIngestError(f"{upload.name}: larger than {MAX_PAGE_BYTES} bytes")
                report = vendor_page_ingest(data=data, path_or_url=upload.name, published=d["published"], url=d["url"], user=request.user, content_type=upload.content_type or "")  # fmt: skip
            else:
                body, ctype = vendor_page_fetch(d["fetch_url"], public_only=True)
                report = vendor_page_ingest(data=body, path_or_url=d["fetch_url"], url=d["fetch_url"], published=d["published"], user=request.user, content_type=ctype)  # fmt: skip
        except VendorIngestError as exc:
            form.add_error(None, str(exc))
        else:
            return HttpResponseRedirect(VendorPage(pk=report.page_id).get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(request, "vendor/upload.html", {"form": form}, status=status)
