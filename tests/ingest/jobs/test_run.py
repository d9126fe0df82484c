"""ingest.jobs.run in one process (no broker): registering sources (refused refs and
locations included), one job per source, interrupted jobs, failing sources, and
vendor page syncs. What an MLPerf job reads is in test_training.py; the same flows
with a real Redis broker, worker and beat are in test_worker.py."""

from __future__ import annotations

import hashlib
import socket
import subprocess
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from benchdb.models import VendorPage
from ingest import fetch
from ingest.jobs import run as sync
from ingest.models import IngestJob, IngestJobError, Source
from tests.ingest.gitsource import EXT_PAYLOAD, PAYLOAD, GitRepo, pwned, run_sync

# --- sources -------------------------------------------------------------------------------


def test_a_source_is_an_https_url_or_an_existing_path(empty, tmp_path):
    url = "https://github.com/mlcommons/training_results_v4.1"
    assert sync.source_add(name="web", kind="mlperf-training", location=url).location == url
    here = sync.source_add(name="here", kind="mlperf-training", location=str(tmp_path))
    assert here.location == str(tmp_path)
    refused = (
        "git@github.com:mlcommons/training_results_v4.1.git",
        "ssh://git@github.com/x/y.git",
        "http://github.com/x/y.git",
        EXT_PAYLOAD,
    )
    for location in refused:
        with pytest.raises(ValidationError, match="refused: only an https:// URL or a local path"):
            sync.source_add(name="ssh", kind="mlperf-training", location=location)
    with pytest.raises(ValidationError, match="no such file or folder"):
        sync.source_add(name="gone", kind="vendor", location=str(tmp_path / "missing.html"))
    page = "http://example.com/page.html"  # a vendor page may be http
    assert sync.source_add(name="page", kind="vendor", location=page).location == page
    assert set(Source.objects.values_list("name", flat=True)) == {"web", "here", "page"}
    assert pwned(tmp_path) == []


def test_a_ref_that_git_would_read_as_an_option_is_refused(empty, tmp_path):
    with pytest.raises(ValidationError) as err:
        sync.source_add(name="bad", kind="mlperf-training", location=str(tmp_path), ref=PAYLOAD)
    assert list(err.value.message_dict) == ["ref"]
    assert "it starts with '-'" in err.value.message_dict["ref"][0]
    assert not Source.objects.exists()


def test_a_stored_source_with_the_payload_fails_once_and_runs_nothing(empty, tmp_path, monkeypatch):
    """A source stored before the rules (or written around them): its job fails with
    the reason, no git process runs, nothing is retried, no file is made."""
    slept: list[float] = []
    monkeypatch.setattr(fetch, "_backoff", slept.append)
    calls: list[list[str]] = []
    real = fetch._run_git
    monkeypatch.setattr(fetch, "_run_git", lambda args: calls.append(args) or real(args))
    repo = GitRepo(tmp_path / "src")
    repo.add_round("v1.0")
    repo.commit("v1.0")
    for name, location, ref in (
        ("ref", str(repo.path), PAYLOAD),
        ("ext", EXT_PAYLOAD, ""),
        ("ssh", "git@github.com:mlcommons/training_results_v4.1.git", ""),
    ):
        source = Source.objects.create(
            name=name, kind="mlperf-training", location=location, ref=ref
        )
        job = run_sync(source)
        source.refresh_from_db()
        assert (job.state, source.consecutive_failures, source.last_commit) == ("failed", 1, "")
        assert job.message.startswith("RefusedError: ") and "refused" in job.message
        (row,) = job.error_rows.all()
        assert (row.path, row.message) == ("", job.message)
        assert source.jobs.count() == 1
    assert "ref '--upload-pack=touch PWNED;git-upload-pack' refused: it starts with '-'" in (
        Source.objects.get(name="ref").last_error
    )
    assert (calls, slept, pwned(tmp_path)) == ([], [], [])


def test_a_source_on_a_tag_or_a_full_sha_syncs_that_commit(empty, tmp_path):
    repo = GitRepo(tmp_path / "training_results_v1.0")
    repo.add_round("v1.0", dest="")
    first = repo.commit("v1.0")
    repo.git("tag", "v1.0-published")
    (repo.path / "README.md").write_text("later\n")
    repo.commit("later")
    tag = sync.source_add(
        name="tag", kind="mlperf-training", location=str(repo.path), ref="v1.0-published"
    )
    sha = sync.source_add(name="sha", kind="mlperf-training", location=str(repo.path), ref=first)
    for source in (tag, sha):
        job = run_sync(source)
        assert (job.state, job.commit_to) == ("succeeded", first), job.message


# --- one job per source; interrupted jobs --------------------------------------------------


def test_a_source_has_one_queued_or_running_job_at_a_time(empty, tmp_path):
    source = sync.source_add(name="one", kind="mlperf-training", location=str(tmp_path))
    first = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.COMMAND)
    again = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.MANUAL)
    assert first is not None and again is not None and again.pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        IngestJob.objects.create(source=source, trigger=IngestJob.Trigger.MANUAL)
    assert sync.ingest_job_run(job_id=first.pk) is not None
    assert sync.ingest_job_run(job_id=first.pk) is None, "a second delivery runs nothing"


def test_a_scheduled_request_for_a_disabled_source_does_nothing(empty, tmp_path):
    source = sync.source_add(
        name="off", kind="mlperf-training", location=str(tmp_path), enabled=False
    )
    assert sync.source_sync_request(source_id=source.pk, trigger="schedule") is None
    assert not source.jobs.exists()


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _running(source: Source, **kw: object) -> IngestJob:
    return IngestJob.objects.create(
        source=source, trigger="schedule", state="running", heartbeat=timezone.now(), **kw
    )


def test_a_job_whose_worker_is_gone_is_interrupted_at_the_next_request(empty, tmp_path, settings):
    source = sync.source_add(name="s", kind="mlperf-training", location=str(tmp_path))
    dead = _running(source, worker_host=socket.gethostname(), worker_pid=_dead_pid())
    job = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.COMMAND)
    dead.refresh_from_db()
    assert dead.state == "interrupted" and "is gone" in dead.message and dead.finished
    assert job is not None and job.pk != dead.pk and job.state == "queued"

    job.delete()
    alive = _running(source, worker_host="elsewhere", worker_pid=1)
    again = sync.source_sync_request(source_id=source.pk, trigger="command")
    assert again is not None and again.pk == alive.pk
    stale = timezone.now() - timezone.timedelta(seconds=settings.INGEST_JOB_STALE_SECONDS + 1)
    IngestJob.objects.filter(pk=alive.pk).update(heartbeat=stale)
    assert sync.ingest_job_reap() == 1
    alive.refresh_from_db()
    assert alive.state == "interrupted"


def test_a_redelivered_task_of_an_orphaned_job_queues_a_resume_job(empty, tmp_path):
    source = sync.source_add(name="s", kind="mlperf-training", location=str(tmp_path))
    for n in range(sync.MAX_RESUMES + 1):
        orphan = _running(source, worker_host=socket.gethostname(), worker_pid=_dead_pid())
        assert sync.ingest_job_run(job_id=orphan.pk) is None
        orphan.refresh_from_db()
        assert orphan.state == "interrupted"
        resume = source.jobs.filter(state="queued").first()
        if n < sync.MAX_RESUMES - 1:
            assert resume is not None and resume.trigger == "resume"
            resume.delete()
        else:  # MAX_RESUMES interrupted jobs in a row: no automatic resume
            assert resume is None


# --- failures ------------------------------------------------------------------------------


def test_a_source_that_keeps_failing_is_marked_and_a_success_clears_it(empty, tmp_path):
    repo = GitRepo(tmp_path / "src")
    repo.add_round("v1.0")
    repo.commit("v1.0")
    source = sync.source_add(name="flaky", kind="mlperf-training", location=str(repo.path))
    repo.path.rename(tmp_path / "moved")
    for n in range(1, Source.FAILING_AFTER + 1):
        job = run_sync(source)
        source.refresh_from_db()
        assert job.state == "failed" and "no such folder" in job.message
        assert source.consecutive_failures == n and source.failing == (n >= Source.FAILING_AFTER)
    err = IngestJobError.objects.get(job=job)
    assert (err.path, err.line, err.severity) == ("", None, "error")
    assert str(repo.path) in err.message
    (tmp_path / "moved").rename(repo.path)
    assert run_sync(source).state == "succeeded"
    source.refresh_from_db()
    assert (source.consecutive_failures, source.failing, source.last_error) == (0, False, "")


def test_an_unreachable_source_is_retried_and_its_credentials_never_logged(
    empty, monkeypatch, caplog, closed_port
):
    slept: list[float] = []
    monkeypatch.setattr(fetch, "_backoff", slept.append)
    url = f"https://benchdb:s3cr3t-t0ken@127.0.0.1:{closed_port}/training_results_v1.1.git"
    source = sync.source_add(name="private", kind="mlperf-training", location=url)
    with caplog.at_level("WARNING", logger="ingest.fetch"):
        job = run_sync(source)
    assert job.state == "failed" and "unable to access" in job.message, job.message
    assert "gave up after 4 attempts" in job.message and slept == list(fetch.RETRY_DELAYS)
    assert "retrying" in caplog.text and "s3cr3t" not in caplog.text + job.message


# --- vendor pages --------------------------------------------------------------------------


def test_a_vendor_source_with_an_unchanged_page_does_nothing(empty, server, settings):
    """304, or a 200 with the sha256 already stored: no ingest, job ``unchanged``."""
    folder = Path(settings.VENDOR_DATA)
    page = (folder / "graphcore-mlperf-training-v1.1-results.zh.txt").read_bytes()
    srv = server([(304, {}, b""), (200, {"ETag": '"new"'}, page)])
    source = sync.source_add(name="gc", kind="vendor", location=srv.url)
    Source.objects.filter(pk=source.pk).update(
        etag='"old"', content_sha256=hashlib.sha256(page).hexdigest()
    )
    first, second = run_sync(source), run_sync(source)
    assert (first.state, first.results_unchanged) == ("succeeded", 1)
    assert first.message == "not modified (HTTP 304)"
    assert srv.seen[0]["If-None-Match"] == '"old"'
    assert (second.state, second.results_unchanged, second.results_added) == ("succeeded", 1, 0)
    source.refresh_from_db()
    assert source.etag == '"new"'


def test_a_vendor_source_stores_each_new_version_of_its_page(empty, server, settings):
    folder = Path(settings.VENDOR_DATA)
    v1 = (folder / "graphcore-mlperf-training-v1.1-results.zh.txt").read_bytes()
    v2 = (folder / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt").read_bytes()
    text = {"Content-Type": "text/plain; charset=utf-8"}
    srv = server(
        [(200, {"ETag": '"a"', **text}, v1), (304, {}, b""), (200, {"ETag": '"b"', **text}, v2)]
    )
    source = sync.source_add(name="page", kind="vendor", location=srv.url)
    first, second, third = run_sync(source), run_sync(source), run_sync(source)
    assert (first.state, first.results_added, first.files_seen) == ("succeeded", 1, 1), (
        first.message
    )
    assert (second.results_unchanged, second.message) == (1, "not modified (HTTP 304)")
    assert srv.seen[1]["If-None-Match"] == '"a"'
    assert (third.state, third.results_changed) == ("succeeded", 1), third.message
    digests = [hashlib.sha256(v).hexdigest() for v in (v1, v2)]
    pages = VendorPage.objects.filter(sha256__in=digests)
    assert set(pages.values_list("url", flat=True)) == {srv.url}
    assert pages.count() == 2

    path = str(folder / "inspur-mlperf-training-v1.1.zh.txt")
    local = sync.source_add(name="file", kind="vendor", location=path)
    stored, again = run_sync(local), run_sync(local)
    assert (stored.results_added, again.results_unchanged, again.results_added) == (1, 1, 0)
    assert again.message.startswith("unchanged (sha256")
