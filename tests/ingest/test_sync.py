"""Source syncs in one process (Celery eager, no broker): incremental git reads,
one job per source, interrupted jobs, failing sources, retries, conditional vendor
fetches, the ``source`` command, the jobs pages and the admin. The same flows with a
real Redis broker, worker and beat are in test_worker.py."""

from __future__ import annotations

import hashlib
import http.server
import json
import logging
import socket
import subprocess
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from benchdb.celery import app as celery_app
from benchdb.models import Claim, IngestProblem, Result, Run, VendorPage
from ingest import fetch, selectors, sync, tasks
from ingest import vendor_pages as vendor
from ingest.models import IngestJob, IngestJobError, Source
from ingest.tasks import ingest_job_run_task
from tests.ingest.gitsource import GitRepo, db_content, result_folders, wipe_results


@pytest.fixture
def empty(db: None, settings: Any, tmp_path: Path) -> None:
    """No result rows (a session fixture may have committed some), a private cache."""
    settings.BENCHDB_CACHE = tmp_path / "cache"
    wipe_results()


def run_sync(source: Source, trigger: str = IngestJob.Trigger.COMMAND, **kw: Any) -> IngestJob:
    """What the task does, in this process (the test transaction never commits, so
    the on_commit queueing does not fire here)."""
    job = sync.source_sync_request(source_id=source.pk, trigger=trigger, **kw)
    assert job is not None
    ran = sync.ingest_job_run(job_id=job.pk, worker="test")
    assert ran is not None
    return ran


# --- MLPerf git sources --------------------------------------------------------------------


def test_a_git_source_reads_only_the_result_folders_each_commit_changes(empty, tmp_path, mlperf_data):  # fmt: skip
    repo = GitRepo(tmp_path / "src")
    v10 = result_folders(repo.add_round("v1.0"))
    c1 = repo.commit("v1.0")
    source = sync.source_add(name="mlperf", kind="mlperf-training", location=str(repo.path), ref="main")  # fmt: skip

    job = run_sync(source)
    assert (job.state, job.incremental, job.commit_to) == ("succeeded", False, c1)
    assert (job.results_seen, job.results_added, job.results_unchanged) == (len(v10), len(v10), 0)
    assert job.files_seen == sum(v10.values())

    v11 = result_folders(repo.add_round("v1.1"))
    c2 = repo.commit("v1.1 published")
    job = run_sync(source)
    assert (job.incremental, job.commit_from, job.commit_to) == (True, c1, c2)
    assert (job.results_total, job.results_seen, job.results_added, job.results_unchanged) == (len(v11), len(v11), len(v11), 0)  # fmt: skip
    assert job.files_seen == sum(v11.values())
    assert Result.objects.count() == len(v10) + len(v11)
    # Its error rows: the problems stored with the v1.1 results, with file and line.
    rows = set(job.error_rows.values_list("path", "line", "message"))
    stored = IngestProblem.objects.filter(round__version="v1.1").values_list("path", "line", "message")  # fmt: skip
    assert rows == {(f"training_results_v1.1/{p}", n, m) for p, n, m in stored}
    aborted = Run.objects.get(result__round__version="v1.1", path="Graphcore/results/ipu-pod16-TF1/resnet/result_0.txt")  # fmt: skip
    assert ("training_results_v1.1/" + aborted.path, aborted.run_stop_line) in {(p, n) for p, n, _ in rows}  # fmt: skip

    before = db_content()
    log = "training_results_v1.1/NVIDIA/results/dgxa100_ngc21.09_mxnet/resnet/result_0.txt"
    repo.shift_run_stop(log, 60_000)
    c3 = repo.commit("one log corrected")
    job = run_sync(source)
    assert (job.commit_from, job.results_seen, job.results_changed, job.results_added) == (c2, 1, 1, 0)  # fmt: skip
    assert job.files_seen == v11["NVIDIA/results/dgxa100_ngc21.09_mxnet/resnet"]
    after = db_content()
    key = ((("training", "v1.1"), "NVIDIA", "dgxa100_ngc21.09_mxnet"), "resnet")
    assert {k for k in after["result"] if after["result"][k] != before["result"][k]} == {key}
    assert after["result"][key]["commit"] == c3
    changed_runs = {k for k in after["run"] if after["run"][k] != before["run"][k]}
    assert changed_runs and {k[0] for k in changed_runs} == {key}
    moved = after["run"][(key, "result_0.txt")]["time_to_train_minutes"]
    assert moved - before["run"][(key, "result_0.txt")]["time_to_train_minutes"] == pytest.approx(1.0)  # fmt: skip
    assert {k for k in after["runlog"] if after["runlog"][k] != before["runlog"][k]} == {(key, "result_0.txt")}  # fmt: skip

    job = run_sync(source)
    assert (job.state, job.commit_from, job.commit_to, job.results_seen, job.files_seen) == ("succeeded", c3, c3, 0, 0)  # fmt: skip
    assert job.message.startswith("up to date")
    full = run_sync(source, full=True)
    assert (full.incremental, full.results_seen, full.results_unchanged) == (False, len(v10) + len(v11), len(v10) + len(v11))  # fmt: skip


def test_a_repository_root_is_a_source_too(empty, tmp_path):
    """A tree that is one repository, named as MLCommons names it, gives its round."""
    repo = GitRepo(tmp_path / "training_results_v1.0")
    folders = result_folders(repo.add_round("v1.0", dest=""))
    repo.commit("v1.0")
    source = sync.source_add(name="v1-0", kind="mlperf-training", location=str(repo.path))
    job = run_sync(source)
    assert (job.state, job.results_added) == ("succeeded", len(folders)), job.message
    assert set(Result.objects.values_list("round__version", flat=True)) == {"v1.0"}
    assert set(Result.objects.values_list("source_path", flat=True)) == set(folders)


def test_a_plain_folder_is_read_in_place_and_unchanged_results_are_skipped(empty, mlperf_data):
    source = sync.source_add(name="plain", kind="mlperf-training", location=str(mlperf_data / "training_results_v1.0"))  # fmt: skip
    n = len(result_folders(mlperf_data / "training_results_v1.0"))
    first, second = run_sync(source), run_sync(source)
    assert (first.incremental, first.commit_to, first.results_added) == (False, "", n)
    assert (second.results_seen, second.results_unchanged, second.results_added) == (n, n, 0)


def test_changed_files_map_to_the_result_folders_that_read_them(tmp_path):
    """A systems file is read by every benchmark of its system; a run file only by
    its folder; a deleted folder is reported, not read."""
    repo = tmp_path / "training_results_v9.9"
    for bench in ("resnet", "bert"):
        (repo / "X/results/sys1" / bench).mkdir(parents=True)
        (repo / "X/results/sys1" / bench / "result_0.txt").write_text("")
    (repo / "X/results/sys2/resnet").mkdir(parents=True)
    (repo / "X/systems").mkdir()
    (repo / "X/systems/sys1.json").write_text("{}")
    changed = [
        "training_results_v9.9/X/systems/sys1.json",
        "training_results_v9.9/X/results/sys2/resnet/result_3.txt",
        "training_results_v9.9/X/results/gone/bert/result_0.txt",
        "training_results_v9.8/X/results/sys2/resnet/result_0.txt",  # another repository
        "README.md",
    ]
    touched, removed = sync.changed_result_dirs(str(repo), "training_results_v9.9", changed)
    assert touched == {"X/results/sys1/resnet", "X/results/sys1/bert", "X/results/sys2/resnet"}
    assert removed == ["X/results/gone/bert"]
    assert sync.changed_result_dirs(str(repo), "training_results_v9.9", ["README.md"]) == (set(), [])  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), [
    ("https://github.com/mlcommons/training_results_v4.1", True),
    ("HTTP://example.com/page.html", True),
    ("https://user:token@github.com/x/y.git", True),
    ("https://", False), ("http:/no-host", False),
    ("git@github.com:mlcommons/training_results_v4.1.git", False),
    ("ssh://git@github.com/x/y.git", False), ("file:///etc/passwd", False),
    ("ftp://example.com/x", False), ("/srv/mlperf/training_results_v1.1", False),
    ("training_results_v1.1", False),
])  # fmt: skip
def test_only_http_and_https_urls_are_urls(text, expected):
    assert fetch.is_http_url(text) is expected


def test_userinfo_is_stripped_from_urls_and_from_messages_that_quote_them():
    assert fetch.strip_userinfo("https://bot:ghp_x1@github.com/a/b.git") == "https://github.com/a/b.git"  # fmt: skip
    msg = "git fetch: fatal: unable to access 'https://bot:ghp_x1@h.example/a/': 403; see http://u@h2/x"
    assert fetch.strip_userinfo(msg) == "git fetch: fatal: unable to access 'https://h.example/a/': 403; see http://h2/x"  # fmt: skip
    plain = "mail me: a@b.example, /srv/x@y"
    assert fetch.strip_userinfo(plain) == plain


def test_a_location_that_is_neither_an_http_url_nor_a_path_is_refused(empty):
    for location in ("git@github.com:mlcommons/training_results_v4.1.git", "ssh://git@github.com/x/y.git"):  # fmt: skip
        with pytest.raises(ValidationError, match="not an http\\(s\\) URL, and no such file"):
            sync.source_add(name="ssh", kind="mlperf-training", location=location)
    url = "https://github.com/mlcommons/training_results_v4.1"
    assert sync.source_add(name="web", kind="mlperf-training", location=url).location == url


def test_cache_dir_keeps_the_repository_name_under_the_cache_setting(settings, tmp_path):
    settings.BENCHDB_CACHE = tmp_path / "a"
    url = "https://bot:token@github.com/mlcommons/training_results_v4.1.git"
    assert fetch.cache_dir(url) == str(tmp_path / "a" / "training_results_v4.1")
    settings.BENCHDB_CACHE = tmp_path / "b"  # read at each call, not at import
    assert fetch.cache_dir(url, source_id=7) == str(tmp_path / "b" / "sources" / "7" / "training_results_v4.1")  # fmt: skip
    assert fetch.cache_dir("file:///srv/x/training_results_v1.0/") == str(tmp_path / "b" / "training_results_v1.0")  # fmt: skip
    assert fetch.cache_dir("https://h.example/") == str(tmp_path / "b" / "repository")


def test_a_git_source_is_checked_out_in_its_cache_dir(empty, tmp_path):
    repo = GitRepo(tmp_path / "training_results_v1.0")
    repo.add_round("v1.0", dest="")
    commit = repo.commit("v1.0")
    source = sync.source_add(name="v10", kind="mlperf-training", location=str(repo.path))
    assert run_sync(source).state == "succeeded"
    dest = Path(fetch.cache_dir(f"file://{repo.path}", source_id=source.pk))
    assert dest.parent == tmp_path / "cache" / "sources" / str(source.pk)
    assert fetch.git(["-C", str(dest), "rev-parse", "HEAD"]).strip() == commit


# --- one job per source; interrupted jobs ----------------------------------------------------


def test_a_source_has_one_queued_or_running_job_at_a_time(empty, tmp_path):
    source = sync.source_add(name="one", kind="mlperf-training", location=str(tmp_path))
    first = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.COMMAND)
    again = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.MANUAL)
    assert first is not None and again is not None and again.pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        IngestJob.objects.create(source=source, trigger=IngestJob.Trigger.MANUAL)
    assert sync.ingest_job_run(job_id=first.pk) is not None
    assert sync.ingest_job_run(job_id=first.pk) is None, "a second delivery runs nothing"


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_job_whose_worker_is_gone_is_interrupted_at_the_next_request(empty, tmp_path, settings):  # fmt: skip
    source = sync.source_add(name="s", kind="mlperf-training", location=str(tmp_path))
    now = timezone.now()
    here = socket.gethostname()
    dead = IngestJob.objects.create(source=source, trigger="schedule", state="running", heartbeat=now, worker_host=here, worker_pid=_dead_pid())  # fmt: skip
    job = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.COMMAND)
    dead.refresh_from_db()
    assert dead.state == "interrupted" and "is gone" in dead.message and dead.finished
    assert job is not None and job.pk != dead.pk and job.state == "queued"

    job.delete()
    alive = IngestJob.objects.create(source=source, trigger="schedule", state="running", heartbeat=now, worker_host="elsewhere", worker_pid=1)  # fmt: skip
    assert sync.source_sync_request(source_id=source.pk, trigger="command").pk == alive.pk  # type: ignore[union-attr]
    IngestJob.objects.filter(pk=alive.pk).update(heartbeat=now - timezone.timedelta(seconds=settings.INGEST_JOB_STALE_SECONDS + 1))  # fmt: skip
    assert sync.ingest_job_reap() == 1
    alive.refresh_from_db()
    assert alive.state == "interrupted"


def test_a_redelivered_task_of_an_orphaned_job_queues_a_resume_job(empty, tmp_path):
    source = sync.source_add(name="s", kind="mlperf-training", location=str(tmp_path))
    for n in range(sync.MAX_RESUMES + 1):
        orphan = IngestJob.objects.create(source=source, trigger="schedule", state="running", heartbeat=timezone.now(), worker_host=socket.gethostname(), worker_pid=_dead_pid())  # fmt: skip
        assert sync.ingest_job_run(job_id=orphan.pk) is None
        orphan.refresh_from_db()
        assert orphan.state == "interrupted"
        resume = source.jobs.filter(state="queued").first()
        if n < sync.MAX_RESUMES - 1:
            assert resume is not None and resume.trigger == "resume"
            resume.delete()
        else:  # MAX_RESUMES interrupted jobs in a row: no automatic resume
            assert resume is None


# --- failures and retries --------------------------------------------------------------------


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
    assert (err.path, err.line, err.severity) == ("", None, "error") and str(repo.path) in err.message
    (tmp_path / "moved").rename(repo.path)
    assert run_sync(source).state == "succeeded"
    source.refresh_from_db()
    assert (source.consecutive_failures, source.failing, source.last_error) == (0, False, "")


def test_network_errors_are_retried_with_backoff_then_fail(monkeypatch, tmp_path):
    slept: list[float] = []
    monkeypatch.setattr(fetch, "_backoff", slept.append)
    with socket.socket() as s:  # a local port nothing listens on: refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(fetch.SyncError, match="gave up after 4 attempts"):
        fetch.git_checkout(url=f"http://127.0.0.1:{port}/training_results_v9.9.git", ref="", dest=str(tmp_path / "c"))  # fmt: skip
    assert slept == list(fetch.RETRY_DELAYS)


def test_a_result_that_fails_to_store_fails_the_job_and_the_next_sync_stores_it(empty, tmp_path, django_db_blocker):  # fmt: skip
    """A database error rolls back one result folder: an error row names it, the job
    fails and the synced commit stays, so the next sync reads that folder again."""
    repo = GitRepo(tmp_path / "src")
    repo.add_round("v1.0")
    c1 = repo.commit("v1.0")
    source = sync.source_add(name="mlperf", kind="mlperf-training", location=str(repo.path))
    assert run_sync(source).state == "succeeded"
    v11 = result_folders(repo.add_round("v1.1"))
    c2 = repo.commit("v1.1")
    broken = "Graphcore/results/ipu-pod16-TF1/resnet"
    with connection.cursor() as cur:  # a real database error, for that folder only
        cur.execute(f"""
            CREATE FUNCTION refuse_result() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'disk full (test)'; END $$;
            CREATE TRIGGER refuse_result BEFORE INSERT OR UPDATE ON {Result._meta.db_table}
            FOR EACH ROW WHEN (NEW.source_path = '{broken}') EXECUTE FUNCTION refuse_result();
        """)  # fmt: skip

    job = run_sync(source)
    source.refresh_from_db()
    assert (job.state, job.results_seen, job.results_added) == ("failed", len(v11), len(v11) - 1), job.message  # fmt: skip
    assert job.results_seen == job.results_added + job.results_changed + job.results_unchanged + 1
    assert selectors.results_failed(job) == 1 and "1 result folder not stored" in job.message
    (row,) = job.error_rows.filter(message__startswith=sync.NOT_STORED)
    assert row.path == f"training_results_v1.1/{broken}" and "disk full (test)" in row.message
    assert not job.error_rows.filter(path="").exists()
    assert (source.last_commit, source.consecutive_failures) == (c1, 1)
    assert not Result.objects.filter(source_path=broken, round__version="v1.1").exists()

    with connection.cursor() as cur:
        cur.execute(f"DROP TRIGGER refuse_result ON {Result._meta.db_table}")
    again = run_sync(source)
    source.refresh_from_db()
    assert (again.state, again.commit_from, again.incremental) == ("succeeded", c1, True), again.message  # fmt: skip
    assert (again.results_added, again.results_unchanged, selectors.results_failed(again)) == (1, len(v11) - 1, 0)  # fmt: skip
    assert Result.objects.filter(source_path=broken, round__version="v1.1").exists()
    assert (source.last_commit, source.consecutive_failures) == (c2, 0)


def test_claims_read_before_their_results_are_checked_again_by_the_sync_that_brings_them(empty, tmp_path, settings):  # fmt: skip
    name = "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
    page = vendor.vendor_page_ingest(data=None, path_or_url=str(Path(settings.VENDOR_DATA) / name), published=date(2021, 12, 1))  # fmt: skip
    # IPU-POD128, ResNet-50
    claim = Claim.objects.get(page_id=page.page_id, kind="time", value=5.67)
    assert (claim.verdict, claim.links.count()) == ("unverifiable", 0)

    repo = GitRepo(tmp_path / "src")
    repo.add_round("v1.1")
    repo.commit("v1.1")
    job = run_sync(sync.source_add(name="v11", kind="mlperf-training", location=str(repo.path)))
    assert job.state == "succeeded" and "claims of 1 vendor page checked again" in job.message
    claim.refresh_from_db()
    assert claim.verdict == "consistent"
    (link,) = claim.links.select_related("result__system")
    assert (link.role, link.result.system.folder) == ("subject", "ipu-pod128-TF1")
    assert claim.recomputed_value == pytest.approx(link.result.score_minutes)


# --- vendor pages ----------------------------------------------------------------------------


class Server:
    """A local HTTP server answering from a script of (status, headers, body); it
    records the request headers it got."""

    def __init__(self, script: list[tuple[int, dict[str, str], bytes]]) -> None:
        self.script, self.seen = list(script), []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                outer.seen.append(dict(self.headers))
                status, headers, body = outer.script.pop(0)
                self.send_response(status)
                for k, v in {**headers, "Content-Length": str(len(body))}.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/page.html"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Any]:
    made: list[Server] = []

    def make(script: list[tuple[int, dict[str, str], bytes]]) -> Server:
        made.append(Server(script))
        return made[-1]

    yield make
    for s in made:
        s.close()


def test_vendor_fetch_is_conditional_and_retries_server_errors(server, monkeypatch):
    monkeypatch.setattr(fetch, "RETRY_DELAYS", (0.0, 0.0))
    page = b"<html><body>IPU-POD16 trains ResNet-50 in 28.3 minutes</body></html>"
    tag, date = '"v1"', "Wed, 01 Dec 2021 10:00:00 GMT"
    srv = server([
        (503, {}, b"busy"), (200, {"ETag": tag, "Last-Modified": date}, page),
        (304, {}, b""),
    ])  # fmt: skip
    got = fetch.retry(lambda: fetch.vendor_fetch(url=srv.url), "GET")
    assert (got.status, got.body, got.etag, got.last_modified) == (200, page, tag, date)
    again = fetch.vendor_fetch(url=srv.url, etag=got.etag, last_modified=got.last_modified)
    assert again.status == 304 and again.body == b""
    assert srv.seen[2]["If-None-Match"] == tag and srv.seen[2]["If-Modified-Since"] == date
    assert "If-None-Match" not in srv.seen[0]
    with pytest.raises(fetch.SyncError, match="only http and https"):
        fetch.vendor_fetch(url="file:///etc/passwd")


def test_a_vendor_source_with_an_unchanged_page_does_nothing(empty, server, settings):
    """304, or a 200 with the sha256 already stored: no ingest, job ``unchanged``."""
    page = (Path(settings.VENDOR_DATA) / "graphcore-mlperf-training-v1.1-results.zh.txt").read_bytes()  # fmt: skip
    srv = server([(304, {}, b""), (200, {"ETag": '"new"'}, page)])
    source = sync.source_add(name="gc", kind="vendor", location=srv.url)
    Source.objects.filter(pk=source.pk).update(etag='"old"', content_sha256=hashlib.sha256(page).hexdigest())  # fmt: skip
    first, second = run_sync(source), run_sync(source)
    assert (first.state, first.results_unchanged, first.message) == ("succeeded", 1, "not modified (HTTP 304)")  # fmt: skip
    assert srv.seen[0]["If-None-Match"] == '"old"'
    assert (second.state, second.results_unchanged, second.results_added) == ("succeeded", 1, 0)
    source.refresh_from_db()
    assert source.etag == '"new"'


def test_a_vendor_source_stores_each_new_version_of_its_page(empty, server, settings):
    folder = Path(settings.VENDOR_DATA)
    v1 = (folder / "graphcore-mlperf-training-v1.1-results.zh.txt").read_bytes()
    v2 = (folder / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt").read_bytes()
    text = {"Content-Type": "text/plain; charset=utf-8"}
    srv = server([(200, {"ETag": '"a"', **text}, v1), (304, {}, b""), (200, {"ETag": '"b"', **text}, v2)])  # fmt: skip
    source = sync.source_add(name="page", kind="vendor", location=srv.url)
    first, second, third = run_sync(source), run_sync(source), run_sync(source)
    assert (first.state, first.results_added, first.files_seen) == ("succeeded", 1, 1), first.message
    assert (second.results_unchanged, second.message) == (1, "not modified (HTTP 304)")
    assert srv.seen[1]["If-None-Match"] == '"a"'
    assert (third.state, third.results_changed) == ("succeeded", 1), third.message
    pages = VendorPage.objects.filter(sha256__in=[hashlib.sha256(v).hexdigest() for v in (v1, v2)])  # fmt: skip
    assert set(pages.values_list("url", flat=True)) == {srv.url}
    assert pages.count() == 2

    local = sync.source_add(name="file", kind="vendor", location=str(folder / "inspur-mlperf-training-v1.1.zh.txt"))  # fmt: skip
    stored, again = run_sync(local), run_sync(local)
    assert (stored.results_added, again.results_unchanged, again.results_added) == (1, 1, 0), stored.message  # fmt: skip
    assert again.message.startswith("unchanged (sha256")


# --- schedules, the command, the pages, the admin -----------------------------------------------


def test_a_schedule_is_a_beat_entry_for_the_sync_task(empty, tmp_path):
    source = sync.source_add(name="nightly", kind="mlperf-training", location=str(tmp_path), schedule="0 3 * * *")  # fmt: skip
    pt = PeriodicTask.objects.get(pk=source.periodic_task_id)
    assert pt.task == sync.SCHEDULE_TASK and pt.task in celery_app.tasks
    assert json.loads(pt.kwargs) == {"source_id": source.pk} and pt.enabled
    assert (pt.crontab.minute, pt.crontab.hour, pt.crontab.day_of_week) == ("0", "3", "*")
    sync.source_schedule_set(source=source, schedule="every 6h")
    pt.refresh_from_db()
    assert (pt.crontab, pt.interval.every, pt.interval.period) == (None, 6, "hours")
    assert sync.schedule_text(source) == "every 6h"
    for bad in ("0 3 * *", "61 3 * * *", "every 0h", "daily"):
        with pytest.raises(ValidationError):
            sync.source_schedule_set(source=source, schedule=bad)
    sync.source_remove(source=source)
    assert not PeriodicTask.objects.filter(pk=pt.pk).exists()


def test_a_sync_task_is_not_redelivered_while_it_may_still_run_as_documented(settings):
    """Redis redelivers an unacknowledged task after the visibility timeout: it must
    outlast the task's time limit, and the module says how long it is."""
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert tasks.ingest_job_run_task.time_limit < timeout
    assert f"{timeout // 3600} hours" in " ".join((tasks.__doc__ or "").split())


def test_a_scheduled_request_for_a_disabled_source_does_nothing(empty, tmp_path):
    source = sync.source_add(name="off", kind="mlperf-training", location=str(tmp_path), enabled=False)  # fmt: skip
    assert sync.source_sync_request(source_id=source.pk, trigger="schedule") is None
    assert not source.jobs.exists()


@pytest.fixture
def eager(transactional_db: None, settings: Any, tmp_path: Path) -> Iterator[None]:
    """Committed rows, so that on_commit queueing runs the task in this process."""
    settings.BENCHDB_CACHE = tmp_path / "cache"
    wipe_results()
    old = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = old


def test_the_source_command_adds_syncs_and_lists(eager, tmp_path, capsys):
    repo = GitRepo(tmp_path / "src")
    n = len(result_folders(repo.add_round("v1.0")))
    repo.commit("v1.0")
    call_command("source", "add", "--name", "mine", "--kind", "mlperf-training", "--location", str(repo.path), "--ref", "main", "--schedule", "0 3 * * *")  # fmt: skip
    call_command("source", "sync", "mine", "--wait")
    capsys.readouterr()
    call_command("source", "list", "--format", "json")
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["name"], row["schedule"], row["failing"]) == ("mine", "0 3 * * *", False)
    last = row["last_job"]
    assert (last["state"], last["trigger"], last["results_added"], last["results_unchanged"], last["errors"]) == ("succeeded", "command", n, 0, 0)  # fmt: skip
    assert last["files_seen"] > n
    call_command("source", "list")
    assert f"{n} added" in capsys.readouterr().out

    call_command("source", "add", "--name", "broken", "--kind", "mlperf-training", "--location", str(tmp_path))  # fmt: skip
    with pytest.raises(CommandError, match="failed: SyncError"):
        call_command("source", "sync", "broken", "--wait")
    with pytest.raises(CommandError, match="no source named"):
        call_command("source", "sync", "nope")
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("source", "add", "--name", "x", "--kind", "vendor", "--location", str(tmp_path / "missing.html"))  # fmt: skip


def test_the_task_runs_a_job_in_process_without_a_broker(eager, tmp_path):
    source = sync.source_add(name="t", kind="mlperf-training", location=str(tmp_path))
    job = IngestJob.objects.create(source=source, trigger="command")
    assert ingest_job_run_task.apply(args=[job.pk]).get() == "failed"  # tmp_path holds no repository
    job.refresh_from_db()
    assert "no MLPerf results repository" in job.message


@pytest.fixture
def jobs_data(empty, tmp_path):  # type: ignore[no-untyped-def]
    source = sync.source_add(name="pages", kind="mlperf-training", location=str(tmp_path), schedule="every 1d")  # fmt: skip
    job = IngestJob.objects.create(source=source, trigger="schedule", state="running", results_total=10, results_seen=4)  # fmt: skip
    IngestJobError.objects.create(job=job, path="X/results/s/b/result_0.txt", line=7, message="<script>alert(1)</script>")  # fmt: skip
    return source, job


def test_the_jobs_page_lists_sources_and_jobs(client, jobs_data, django_assert_num_queries):
    source, job = jobs_data
    # sources with beat entry and schedule (1), their last jobs (1), jobs with source (1)
    with django_assert_num_queries(3):
        html = client.get(reverse("ingest:jobs")).content.decode()
    assert "pages" in html and f"#{job.pk}" in html and "40%" in html
    assert "Sync now" not in html, "anonymous users get no sync button"
    data = client.get(reverse("ingest:jobs"), {"format": "json"}).json()
    assert data["sources"][0]["last_job"]["id"] == job.pk and data["sources"][0]["schedule"] == "every 1d"  # fmt: skip


def test_the_job_page_shows_progress_errors_escaped_and_json(client, jobs_data, django_assert_num_queries):  # fmt: skip
    _, job = jobs_data
    # job with source (1), error rows (1)
    with django_assert_num_queries(2):
        html = client.get(job.get_absolute_url()).content.decode()
    assert 'http-equiv="refresh"' in html and 'value="40"' in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    data = client.get(job.get_absolute_url(), {"format": "json"}).json()
    assert (data["state"], data["progress_percent"], data["results_seen"]) == ("running", 40, 4)
    assert data["error_rows"] == [{"path": "X/results/s/b/result_0.txt", "line": 7, "severity": "error", "message": "<script>alert(1)</script>"}]  # fmt: skip
    IngestJob.objects.filter(pk=job.pk).update(state="succeeded")
    assert 'http-equiv="refresh"' not in client.get(job.get_absolute_url()).content.decode()


def test_anonymous_users_see_no_credentials_no_raw_errors_and_no_worker(client, admin_client, empty, monkeypatch, caplog):  # fmt: skip
    monkeypatch.setattr(fetch, "_backoff", lambda seconds: None)
    with socket.socket() as s:  # a local port nothing listens on: git fails at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://benchdb:s3cr3t-t0ken@127.0.0.1:{port}/training_results_v1.1.git"
    source = sync.source_add(name="private", kind="mlperf-training", location=url)
    with caplog.at_level(logging.WARNING, logger="ingest.fetch"):
        job = run_sync(source)
    assert job.state == "failed" and "unable to access" in job.message, job.message
    assert "retrying" in caplog.text and "s3cr3t" not in caplog.text
    Source.objects.filter(pk=source.pk).update(consecutive_failures=Source.FAILING_AFTER)
    source.refresh_from_db()
    assert "unable to access" in source.last_error
    worker = f"pid {job.worker_pid} on {job.worker_host}"
    pages = {
        "jobs": reverse("ingest:jobs"), "jobs.json": reverse("ingest:jobs") + "?format=json",
        "job": job.get_absolute_url(), "job.json": job.get_absolute_url() + "?format=json",
    }  # fmt: skip
    shown = f"http://127.0.0.1:{port}/training_results_v1.1.git"
    for name, page in pages.items():
        public, private = client.get(page).content.decode(), admin_client.get(page).content.decode()
        assert "s3cr3t" not in public and "benchdb:" not in public and "s3cr3t" not in private, name
        assert "unable to access" not in public and worker not in public, name
        assert "unable to access" in private, name
        assert name == "job.json" or shown in public and shown in private, name  # no location there
    assert worker in admin_client.get(pages["job"]).content.decode()
    data = client.get(pages["job.json"]).json()
    assert data["message"] is None and [e["message"] for e in data["error_rows"]] == [None]
    (src,) = client.get(pages["jobs.json"]).json()["sources"]
    assert (src["location"], src["last_error"], src["last_job"]["message"], src["failing"]) == (shown, None, None, True)  # fmt: skip


def test_a_database_error_row_is_shown_to_logged_in_users_only(client, admin_client, jobs_data):
    _, job = jobs_data
    IngestJobError.objects.create(job=job, path="X/results/s/b", message=f"{sync.NOT_STORED}: OperationalError: could not write to file base/16384/2619")  # fmt: skip
    public = client.get(job.get_absolute_url(), {"format": "json"}).json()["error_rows"]
    private = admin_client.get(job.get_absolute_url(), {"format": "json"}).json()["error_rows"]
    assert [e["message"] for e in public] == ["<script>alert(1)</script>", None]
    assert private[1]["message"].endswith("base/16384/2619") and "base/16384" not in client.get(job.get_absolute_url()).content.decode()  # fmt: skip


@pytest.fixture
def three_sources(empty, tmp_path):  # type: ignore[no-untyped-def]
    """Three sources (crontab, interval, no schedule), each with two jobs."""
    for name, schedule in (("a", "0 3 * * *"), ("b", "every 6h"), ("c", "")):
        source = sync.source_add(name=name, kind="mlperf-training", location=str(tmp_path), schedule=schedule)  # fmt: skip
        for state in ("failed", "succeeded"):
            IngestJob.objects.create(source=source, trigger="schedule", state=state, results_total=3, results_seen=3, results_added=3)  # fmt: skip


def test_the_jobs_pages_and_source_list_query_counts_do_not_grow_with_sources(client, three_sources, django_assert_num_queries, capsys):  # fmt: skip
    # sources with beat entry and schedule (1), their last jobs with source (1), jobs with source (1)
    with django_assert_num_queries(3):
        html = client.get(reverse("ingest:jobs")).content.decode()
    assert html.count("Succeeded</a>") == 3
    with django_assert_num_queries(3):
        data = client.get(reverse("ingest:jobs"), {"format": "json"}).json()
    assert [(s["name"], s["schedule"], s["last_job"]["source"]) for s in data["sources"]] == [("a", "0 3 * * *", "a"), ("b", "every 6h", "b"), ("c", "", "c")]  # fmt: skip
    capsys.readouterr()
    # sources with beat entry and schedule (1), their last jobs with source (1)
    with django_assert_num_queries(2):
        call_command("source", "list", "--format", "json")
    rows = json.loads(capsys.readouterr().out)
    assert [r["last_job"]["state"] for r in rows] == ["succeeded"] * 3


def test_sync_now_needs_a_login_and_a_post(client, admin_client, jobs_data):
    source, job = jobs_data
    url = reverse("ingest:source_sync", args=[source.pk])
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    assert admin_client.get(url).status_code == 405
    IngestJob.objects.filter(pk=job.pk).update(state="succeeded")
    resp = admin_client.post(url)
    new = source.jobs.get(state="queued")
    assert (resp.status_code, resp["Location"], new.trigger) == (302, new.get_absolute_url(), "manual")  # fmt: skip


def test_the_admin_pages_load(admin_client, jobs_data):
    source, job = jobs_data
    for url in (
        reverse("admin:ingest_source_changelist"), reverse("admin:ingest_source_change", args=[source.pk]),  # fmt: skip
        reverse("admin:ingest_ingestjob_changelist"), reverse("admin:ingest_ingestjob_change", args=[job.pk]),  # fmt: skip
        reverse("admin:benchdb_ingestproblem_changelist"),
    ):
        assert admin_client.get(url).status_code == 200, url
    resp = admin_client.post(reverse("admin:ingest_source_change", args=[source.pk]), {
        "name": "pages", "kind": "mlperf-training", "location": source.location, "ref": "",
        "round_version": "", "enabled": "on", "schedule": "30 4 * * 1",
    })  # fmt: skip
    assert resp.status_code == 302
    source.refresh_from_db()
    assert sync.schedule_text(source) == "30 4 * * 1"
