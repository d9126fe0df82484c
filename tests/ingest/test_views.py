"""ingest.views: the jobs list, a job and its errors, each as HTML, CSV and JSON
(the one page pattern, schemas ``benchdb.ingest_jobs/1`` and
``benchdb.ingest_job_errors/1``); what anonymous users may see; "sync now"."""

from __future__ import annotations

import csv
import io

from django.urls import reverse

from benchdb.tables.schemas import columns
from ingest import fetch
from ingest.jobs import run as sync
from ingest.models import IngestJob, IngestJobError, Source
from ingest.training.service import NOT_STORED
from tests.ingest.gitsource import run_sync

JOBS = "benchdb.ingest_jobs/1"
ERRORS = "benchdb.ingest_job_errors/1"


def test_the_jobs_page_lists_sources_and_jobs(client, jobs_data, django_assert_num_queries):
    source, job = jobs_data
    # jobs with source (1), sources with beat entry and schedule (1), their last jobs (1)
    with django_assert_num_queries(3):
        html = client.get(reverse("ingest:jobs")).content.decode()
    assert "pages" in html and f"#{job.pk}" in html and "40%" in html
    assert "Sync now" not in html, "anonymous users get no sync button"
    # jobs with source (1): the sources are the HTML's only
    with django_assert_num_queries(1):
        data = client.get(reverse("ingest:jobs"), {"format": "json"}).json()
    assert (data["schema"], data["columns"]) == (JOBS, list(columns(JOBS)))
    (row,) = data["rows"]
    assert (row["id"], row["source"], row["state"], row["progress_percent"]) == (
        job.pk,
        "pages",
        "running",
        40,
    )
    assert row["url"] == job.get_absolute_url() and row["location"] is None


def test_the_jobs_list_is_a_csv_too_and_filters(client, three_sources):
    resp = client.get(reverse("ingest:jobs"), {"format": "csv", "source": "b"})
    assert resp["Content-Type"].startswith("text/csv")
    assert 'filename="benchdb-ingest-jobs-b.csv"' in resp["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert {r["source"] for r in rows} == {"b"} and len(rows) == 2
    assert tuple(rows[0]) == columns(JOBS)
    failed = client.get(reverse("ingest:jobs"), {"format": "json", "state": "failed"}).json()
    assert [r["state"] for r in failed["rows"]] == ["failed"] * 3
    assert client.get(reverse("ingest:jobs"), {"format": "xml"}).status_code == 400
    assert client.get(reverse("ingest:jobs"), {"state": "bogus"}).status_code == 400


def test_the_job_page_shows_progress_errors_escaped_and_json(
    client, jobs_data, django_assert_num_queries
):
    _, job = jobs_data
    # job with source (1), error rows (1)
    with django_assert_num_queries(2):
        html = client.get(job.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' in html and 'value="40"' in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # job with source (1)
    with django_assert_num_queries(1):
        data = client.get(job.get_absolute_url(), {"format": "json"}).json()
    assert data["schema"] == JOBS
    (row,) = data["rows"]
    assert (row["state"], row["progress_percent"], row["results_seen"]) == ("running", 40, 4)
    IngestJob.objects.filter(pk=job.pk).update(state="succeeded")
    assert 'http-equiv="refresh"' not in client.get(job.get_absolute_url()).content.decode()
    assert client.get(reverse("ingest:job", args=[job.pk + 1000])).status_code == 404


def test_the_errors_page_has_every_error_row(client, jobs_data):
    _, job = jobs_data
    url = reverse("ingest:job_errors", args=[job.pk])
    data = client.get(url, {"format": "json"}).json()
    assert (data["schema"], data["columns"]) == (ERRORS, list(columns(ERRORS)))
    assert data["rows"] == [
        {
            "job": job.pk,
            "path": "X/results/s/b/result_0.txt",
            "line": 7,
            "severity": "error",
            "message": "<script>alert(1)</script>",
        }
    ]
    html = client.get(url).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    csv_text = client.get(url, {"format": "csv"}).content.decode()
    assert csv_text.splitlines()[0] == ",".join(columns(ERRORS))
    assert client.get(reverse("ingest:job_errors", args=[job.pk + 1000])).status_code == 404


def test_anonymous_users_see_no_location_ref_credentials_raw_errors_or_worker(
    client, admin_client, empty, monkeypatch, closed_port
):
    monkeypatch.setattr(fetch, "_backoff", lambda seconds: None)
    url = f"https://benchdb:s3cr3t-t0ken@127.0.0.1:{closed_port}/training_results_v1.1.git"
    source = sync.source_add(name="private", kind="mlperf-training", location=url, ref="rel-4.1")
    job = run_sync(source)
    assert job.state == "failed" and "unable to access" in job.message, job.message
    Source.objects.filter(pk=source.pk).update(consecutive_failures=Source.FAILING_AFTER)
    worker = f"pid {job.worker_pid} on {job.worker_host}"
    jobs, page, errors = (
        reverse("ingest:jobs"),
        job.get_absolute_url(),
        reverse("ingest:job_errors", args=[job.pk]),
    )
    shown = f"https://127.0.0.1:{closed_port}/training_results_v1.1.git"
    for path in (jobs, page, errors):
        for fmt in ("", "csv", "json"):
            public = client.get(path, {"format": fmt}).content.decode()
            private = admin_client.get(path, {"format": fmt}).content.decode()
            where = f"{path} {fmt}"
            assert "s3cr3t" not in public + private, where
            for secret in ("unable to access", worker, shown, "rel-4.1"):
                assert secret not in public, (where, secret)
            assert "unable to access" in private, where
            if path != errors:
                assert shown in private and "rel-4.1" in private, where
    assert worker in admin_client.get(page).content.decode()
    (row,) = client.get(page, {"format": "json"}).json()["rows"]
    assert (row["location"], row["ref"], row["message"]) == (None, None, None)
    errs = client.get(errors, {"format": "json"}).json()["rows"]
    assert [e["message"] for e in errs] == [None]


def test_a_database_error_row_is_shown_to_logged_in_users_only(client, admin_client, jobs_data):
    _, job = jobs_data
    disk = f"{NOT_STORED}: OperationalError: could not write to file base/16384/2619"
    IngestJobError.objects.create(job=job, path="X/results/s/b", message=disk)
    url = reverse("ingest:job_errors", args=[job.pk])
    public = client.get(url, {"format": "json"}).json()["rows"]
    private = admin_client.get(url, {"format": "json"}).json()["rows"]
    assert [e["message"] for e in public] == ["<script>alert(1)</script>", None]
    assert private[1]["message"].endswith("base/16384/2619")
    assert "base/16384" not in client.get(job.get_absolute_url()).content.decode()


def test_the_jobs_page_query_count_does_not_grow_with_sources(
    client, three_sources, django_assert_num_queries
):
    # jobs with source (1), sources with beat entry and schedule (1), their last jobs (1)
    with django_assert_num_queries(3):
        html = client.get(reverse("ingest:jobs")).content.decode()
    assert html.count("Succeeded</a>") == 3


def test_sync_now_needs_a_login_and_a_post(client, admin_client, jobs_data):
    source, job = jobs_data
    url = reverse("ingest:source_sync", args=[source.pk])
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    assert admin_client.get(url).status_code == 405
    IngestJob.objects.filter(pk=job.pk).update(state="succeeded")
    resp = admin_client.post(url)
    new = source.jobs.get(state="queued")
    assert (resp.status_code, resp["Location"], new.trigger) == (
        302,
        new.get_absolute_url(),
        "manual",
    )
