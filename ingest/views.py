"""Ingest jobs pages: the list (with the sources), one job (with progress while it
runs), a job's error rows, and "sync now" (POST, logged-in users).

The three read pages are the one page pattern
(:func:`benchdb.tables.pages.table_page`): the same rows as HTML, ``?format=csv``
and ``?format=json``, with the columns of ``benchdb.ingest_jobs/1`` (the list, and a
job as one row, which is what a client polls for progress) and
``benchdb.ingest_job_errors/1``. What an anonymous user may see of a source or an
error is decided in :mod:`ingest.selectors` (``private``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from benchdb.tables.pages import ExportForm, Table, table_page
from ingest import selectors
from ingest.jobs import run as sync
from ingest.models import IngestJob, Source


class JobListForm(ExportForm):
    source = forms.SlugField(required=False, max_length=100)
    state = forms.ChoiceField(choices=[("", "any"), *IngestJob.State.choices], required=False)


def jobs(request: HttpRequest) -> HttpResponseBase:
    private = request.user.is_authenticated

    def select(d: dict[str, Any]) -> Table:
        rows = [
            selectors.job_row(j, private=private)
            for j in selectors.ingest_job_list(source=d["source"], state=d["state"])
        ]
        context = {} if d["format"] else {"sources": selectors.source_list(private=private)}
        name = ("ingest-jobs", d["source"], d["state"])
        return Table(rows, "benchdb.ingest_jobs/1", name, context)

    return table_page(request, JobListForm(request.GET), select, "ingest/jobs.html")


def job(request: HttpRequest, pk: int) -> HttpResponseBase:
    private = request.user.is_authenticated

    def select(d: dict[str, Any]) -> Table:
        page = selectors.ingest_job_get(pk=pk, private=private, errors=not d["format"])
        context = {"page": page, "job": page.job}
        return Table([page.row], "benchdb.ingest_jobs/1", ("ingest-job", pk), context)

    return table_page(request, ExportForm(request.GET), select, "ingest/job.html")


def job_errors(request: HttpRequest, pk: int) -> HttpResponseBase:
    private = request.user.is_authenticated

    def select(d: dict[str, Any]) -> Table:
        job, rows = selectors.ingest_job_error_list(pk=pk, private=private)
        shown = selectors.JOB_ERRORS_SHOWN
        context = {"job": job, "shown": shown, "shown_slice": f":{shown}"}
        name = ("ingest-job", pk, "errors")
        return Table(rows, "benchdb.ingest_job_errors/1", name, context)

    return table_page(request, ExportForm(request.GET), select, "ingest/job_errors.html")


@login_required
@require_POST
def source_sync(request: HttpRequest, pk: int) -> HttpResponseBase:
    source = get_object_or_404(Source, pk=pk)
    new = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.MANUAL)
    assert new is not None  # only scheduled requests of disabled sources return None
    return redirect(new)
