"""The vendor write pages, each behind a login: upload a vendor page (a file or a
URL benchdb fetches) and correct the results a claim rests on. The read pages of
vendor pages and claims are ``benchdb/claims/views.py``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_POST

from benchdb.claims.forms import CorrectionForm
from benchdb.claims.selectors import claim_get
from benchdb.models import VendorPage
from ingest import forms
from ingest.claims.pages import (
    MAX_PAGE_BYTES,
    VendorIngestError,
    claim_links_correct,
    vendor_page_fetch,
    vendor_page_ingest,
)


@login_required
@require_POST
def claim_correct(request: HttpRequest, pk: int) -> HttpResponse:
    claim = claim_get(pk, related=False)
    form = CorrectionForm(request.POST, claim=claim)
    if not form.is_valid():
        full = claim_get(pk)
        context = {"claim": full, "links": list(full.links.all()), "correction": form}
        return render(request, "vendor/claim.html", context, status=400)
    note = form.cleaned_data["note"]
    claim_links_correct(claim_id=claim.pk, links=form.links(), user=request.user, note=note)
    return HttpResponseRedirect(claim.get_absolute_url())


@login_required
def page_upload(request: HttpRequest) -> HttpResponse:
    form = forms.UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            report = vendor_page_ingest(**_upload_source(form.cleaned_data), user=request.user)
        except VendorIngestError as exc:
            form.add_error(None, str(exc))
        else:
            return HttpResponseRedirect(VendorPage(pk=report.page_id).get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(request, "vendor/upload.html", {"form": form}, status=status)


def _upload_source(d: dict[str, Any]) -> dict[str, Any]:
    """The ingest service's arguments for an uploaded file or a URL to fetch. A file
    is read to one byte over the limit, so the service (which checks the limit) can
    tell it is larger without the rest being read."""
    upload = d.get("file")
    if upload:
        return {
            "data": upload.read(MAX_PAGE_BYTES + 1),
            "path_or_url": upload.name,
            "url": d["url"],
            "published": d["published"],
            "content_type": upload.content_type or "",
        }
    body, ctype = vendor_page_fetch(d["fetch_url"], public_only=True)
    return {
        "data": body,
        "path_or_url": d["fetch_url"],
        "url": d["fetch_url"],
        "published": d["published"],
        "content_type": ctype,
    }
