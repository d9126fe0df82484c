"""ingest.selectors: the rows of the jobs pages and ``source list``, what they hide
from anonymous users, and their query counts (which do not grow with sources)."""

from __future__ import annotations

import json

from django.core.management import call_command

from benchdb.tables.schemas import columns
from ingest import selectors
from ingest.jobs import run as sync
from ingest.models import IngestJob, IngestJobError, Source
from ingest.training.service import NOT_STORED


def _secret_source(tmp_path) -> tuple[Source, IngestJob]:  # type: ignore[no-untyped-def]
    url = "https://bot:s3cr3t@github.com/mlcommons/training_results_v4.1.git"
    source = sync.source_add(name="s", kind="mlperf-training", location=url, ref="v4.1")
    Source.objects.filter(pk=source.pk).update(last_error="fatal: unable to access ...")
    job = IngestJob.objects.create(
        source=source,
        trigger="schedule",
        state="failed",
        message=f"SyncError: git fetch {url}: fatal: unable to access",
        worker="w@box",
        worker_pid=4242,
        worker_host="box",
    )
    IngestJobError.objects.create(job=job, path="", message=job.message)
    IngestJobError.objects.create(
        job=job, path="X/results/s/b", message=f"{NOT_STORED}: OperationalError: disk full"
    )
    IngestJobError.objects.create(job=job, path="X/results/s/b/result_0.txt", line=3, message="m")
    return source, job


def test_rows_have_the_published_columns(empty, tmp_path):
    _, job = _secret_source(tmp_path)
    assert tuple(selectors.job_row(job)) == columns("benchdb.ingest_jobs/1")
    errors = selectors.ingest_job_error_list(pk=job.pk)[1]
    assert [tuple(e) for e in errors] == [columns("benchdb.ingest_job_errors/1")] * 3


def test_anonymous_rows_hide_location_ref_raw_errors_and_the_worker(empty, tmp_path):
    source, job = _secret_source(tmp_path)
    public = selectors.job_row(job)
    assert (public["location"], public["ref"], public["message"]) == (None, None, None)
    private = selectors.job_row(job, private=True)
    shown = "https://github.com/mlcommons/training_results_v4.1.git"
    assert (private["location"], private["ref"]) == (shown, "v4.1")
    assert "unable to access" in private["message"] and "s3cr3t" not in private["message"]
    page = selectors.ingest_job_get(pk=job.pk)
    assert page.worker is None and page.errors_total == 3
    assert [e["message"] for e in page.errors] == [None, None, "m"]
    assert selectors.ingest_job_get(pk=job.pk, private=True).worker == "w@box (pid 4242 on box)"
    (src,) = selectors.source_list()
    assert (src.location_shown, src.ref_shown, src.error_shown) == (None, None, None)
    assert selectors.source_as_dict(src)["last_job"]["id"] == job.pk
    (mine,) = selectors.source_list(private=True)
    assert (mine.location_shown, mine.ref_shown) == (shown, "v4.1")
    assert "s3cr3t" not in json.dumps(selectors.source_as_dict(mine, private=True))


def test_the_job_list_filters_by_source_and_state(empty, three_sources):
    assert len(selectors.ingest_job_list()) == 6
    assert {j.source.name for j in selectors.ingest_job_list(source="b")} == {"b"}
    assert {j.state for j in selectors.ingest_job_list(state="failed")} == {"failed"}
    assert list(selectors.ingest_job_list(source="nope")) == []


def test_results_failed_is_known_once_a_job_that_read_everything_ends(empty, tmp_path):
    source = sync.source_add(name="s", kind="mlperf-training", location=str(tmp_path))
    job = IngestJob(source=source, state="running", results_total=5, results_seen=5)
    job.results_added, job.results_unchanged = 2, 2
    assert selectors.results_failed(job) is None
    job.state = "failed"
    assert selectors.results_failed(job) == 1
    job.results_seen = 4
    assert selectors.results_failed(job) is None


def test_source_list_queries_do_not_grow_with_sources(
    three_sources, django_assert_num_queries, capsys
):
    # sources with beat entry and schedule (1), their last jobs with source (1)
    with django_assert_num_queries(2):
        sources = selectors.source_list()
    assert [s.last_job.state for s in sources] == ["succeeded"] * 3
    capsys.readouterr()
    with django_assert_num_queries(2):
        call_command("source", "list", "--format", "json")
    rows = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["schedule"]) for r in rows] == [
        ("a", "0 3 * * *"),
        ("b", "every 6h"),
        ("c", ""),
    ]
