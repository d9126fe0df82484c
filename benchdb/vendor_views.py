"""Vendor pages and their claims: the pages that show them, and the writes behind
a login.

Thin views: reads come from ``benchdb.vendor_selectors`` (selectors and the table
rows built from them); every table is also ``?format=csv`` and ``?format=json`` from
the same rows (``benchdb.views.export_response``), with the columns of its schema in
``benchdb.exports.SCHEMAS``. Writes go through ``ingest.vendor`` and need a login;
text from vendor pages is only ever rendered through autoescaping templates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_POST

from benchdb import exports
from benchdb.models import Claim, Result, VendorPage
from benchdb.vendor_selectors import (
    claim_candidates,
    claim_export_rows,
    claim_get,
    claim_row,
    link_row,
    page_row,
    scored_result_list,
    vendor_page_get,
    vendor_page_list,
    vendor_result_list,
    vendor_result_row,
)
from benchdb.views import export_response


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
    return export_response(request.GET.get("format", ""), rows, exports.columns(schema), schema, name)


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
    page = vendor_page_get(pk, claims=False)
    rows = [vendor_result_row(v) for v in vendor_result_list(page_id=page.pk)]
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
        everything = scored_result_list()
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

    claim = claim_get(pk, related=False)
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
