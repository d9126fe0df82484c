"""Ingest's pages: the jobs list, one job (with progress while it runs), and the
writes, each behind a login: "sync now", a vendor page upload, and a correction of
the results a claim rests on."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from benchdb.claims.forms import CorrectionForm
from benchdb.claims.selectors import claim_get
from benchdb.models import VendorPage
from ingest import forms, selectors, sync
from ingest.models import IngestJob, Source
from ingest.vendor_pages import (
    MAX_PAGE_BYTES,
    VendorIngestError,
    claim_links_correct,
    vendor_page_fetch,
    vendor_page_ingest,
)


def jobs(request: HttpRequest) -> HttpResponse:
    private = request.user.is_authenticated  # raw error text: see ingest.selectors
    sources = selectors.source_list(private=private)
    job_rows = selectors.ingest_job_list()
    if request.GET.get("format") == "json":
        return JsonResponse({
            "schema": "benchdb.ingest.jobs/1",
            "sources": [selectors.source_as_dict(s, private=private) for s in sources],
            "jobs": [selectors.job_as_dict(j, private=private) for j in job_rows],
        })  # fmt: skip
    return render(request, "ingest/jobs.html", {"sources": sources, "jobs": job_rows})


def job(request: HttpRequest, pk: int) -> HttpResponse:
    private = request.user.is_authenticated
    as_json = request.GET.get("format") == "json"
    page = selectors.ingest_job_get(pk=pk, private=private, errors_limit=None if as_json else selectors.JOB_ERRORS_SHOWN)  # fmt: skip
    if as_json:
        data = selectors.job_as_dict(page.job, private=private)
        return JsonResponse({"schema": "benchdb.ingest.job/1", **data, "error_rows": page.errors})  # type: ignore[dict-item]  # fmt: skip
    return render(request, "ingest/job.html", {"page": page, "job": page.job})


@login_required
@require_POST
def source_sync(request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(Source, pk=pk)
    new = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.MANUAL)
    assert new is not None  # only scheduled requests of disabled sources return None
    return redirect(new)


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
