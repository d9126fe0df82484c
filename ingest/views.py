"""Ingest jobs pages: the list, one job (with progress while it runs), and
"sync now" (POST, logged-in users)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from ingest import selectors, sync
from ingest.models import IngestJob, Source


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
