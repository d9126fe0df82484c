"""Source syncs with a real Redis broker, a real ``celery worker`` process and a real
``celery beat``, all started here against this test database.

Redis: ``BENCHDB_TEST_REDIS_URL``, else an empty database chosen for the run
(:mod:`tests.redis_db`), flushed before each test. For the kill tests the worker runs
through ``tests.ingest.slowworker``, which makes its syncs sleep after each result
folder, so that the kill lands mid-job every time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count

from benchdb.models import Result
from ingest.jobs import run as sync
from ingest.models import IngestJob, Source
from ingest.training.service import mlperf_training_ingest
from tests.ingest.gitsource import GitRepo, db_content, result_folders, wipe_results
from tests.redis_db import CLAIM, redis_url_for_tests

pytestmark = pytest.mark.worker

FINISHED = ("succeeded", "failed", "interrupted")
T = TypeVar("T")


class Cluster:
    """Worker and beat processes of one test, with their logs."""

    def __init__(self, tmp_path: Path) -> None:
        db = connection.settings_dict
        auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        self.env = {
            **os.environ,
            "DATABASE_URL": (
                f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
            ),
            "CELERY_BROKER_URL": redis_url_for_tests(),
            "CELERY_RESULT_BACKEND": redis_url_for_tests(),
            "BENCHDB_CACHE": str(settings.BENCHDB_CACHE),
            "INGEST_JOB_STALE_SECONDS": "60",
            "DJANGO_SETTINGS_MODULE": "benchdb.settings",
            "LOG_LEVEL": "INFO",
        }
        self.tmp = tmp_path
        self.procs: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    def _start(
        self, name: str, args: list[str], ready: str, command: list[str]
    ) -> subprocess.Popen[bytes]:
        logfile = self.tmp / f"{name}-{len(self.logs)}.log"
        self.logs.append(logfile)
        with open(self.tmp / f"{name}.stderr", "ab") as stderr:
            proc = subprocess.Popen(
                [*command, "-A", "benchdb", *args, "-l", "INFO", "-f", str(logfile)],
                cwd=settings.BASE_DIR,
                env=self.env,
                start_new_session=True,  # own process group: killpg
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        self.procs.append(proc)

        def started() -> bool:
            return logfile.exists() and ready in logfile.read_text(errors="replace")

        wait_for(started, 60, f"{name} to start", self)
        return proc

    def worker(self, *, slow: float = 0.0) -> subprocess.Popen[bytes]:
        """A worker; ``slow``: seconds its syncs sleep after each result folder."""
        args = ["worker", "--pool=prefork", "-c", "1", "-n", "synctest@%h"]
        args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        command = [sys.executable, "-m", "celery"]
        if slow:
            command = [sys.executable, "-m", "tests.ingest.slowworker", str(slow)]
        return self._start("worker", args, " ready.", command)

    def beat(self) -> subprocess.Popen[bytes]:
        args = ["beat", "--max-interval", "1", "--pidfile", str(self.tmp / "beat.pid")]
        args += ["-s", str(self.tmp / "beat-schedule")]
        return self._start("beat", args, "beat: Starting", [sys.executable, "-m", "celery"])

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python manage.py ARGS`` as a user runs it, with the broker set."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=settings.BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()

    def tail(self) -> str:
        return "\n".join(
            f"--- {p.name}\n" + p.read_text(errors="replace")[-3000:]
            for p in self.logs
            if p.exists()
        )


def wait_for(fn: Callable[[], T], timeout: float, what: str, cluster: Cluster) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out after {timeout} s waiting for {what}\n{cluster.tail()}")


@pytest.fixture
def cluster(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[Cluster]:
    try:
        broker = redis.Redis.from_url(redis_url_for_tests())
        broker.flushdb()  # messages left by an earlier run (a killed worker's, say)
        broker.set(CLAIM, os.getpid(), ex=6 * 3600)  # still this run's (tests.redis_db)
    except (redis.ConnectionError, RuntimeError) as exc:
        pytest.fail(f"Redis is needed (make services; BENCHDB_TEST_REDIS_URL): {exc}")
    settings.BENCHDB_CACHE = tmp_path / "cache"
    wipe_results()  # rows a session fixture may have committed
    c = Cluster(tmp_path)
    yield c
    c.stop()
    broker.flushdb()
    broker.close()


def finished_job(source: Source, **filters: Any) -> IngestJob | None:
    return source.jobs.filter(state__in=FINISHED, **filters).order_by("created").first()


def test_beat_syncs_a_git_source_and_each_commit_is_read_alone(cluster, tmp_path):
    repo = GitRepo(tmp_path / "src")
    v10 = result_folders(repo.add_round("v1.0"))
    c1 = repo.commit("v1.0")
    source = sync.source_add(
        name="mlperf",
        kind="mlperf-training",
        location=str(repo.path),
        ref="main",
        schedule="every 2s",
    )
    cluster.worker()
    cluster.beat()

    job = wait_for(
        lambda: finished_job(source, commit_to=c1), 60, "the first scheduled sync", cluster
    )
    assert (job.trigger, job.state, job.incremental) == ("schedule", "succeeded", False), (
        job.message
    )
    assert (job.results_seen, job.results_added, job.files_seen) == (
        len(v10),
        len(v10),
        sum(v10.values()),
    )
    assert job.worker == f"synctest@{os.uname().nodename}"

    v11 = result_folders(repo.add_round("v1.1"))
    c2 = repo.commit("v1.1 published")
    job = wait_for(lambda: finished_job(source, commit_to=c2), 60, "the sync of commit 2", cluster)
    assert (job.trigger, job.state, job.incremental, job.commit_from) == (
        "schedule",
        "succeeded",
        True,
        c1,
    ), job.message
    assert (job.results_seen, job.results_added, job.results_unchanged) == (len(v11), len(v11), 0)
    assert job.files_seen == sum(v11.values())

    before = db_content()
    repo.shift_run_stop(
        "training_results_v1.1/Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt", 60_000
    )
    c3 = repo.commit("one log corrected")
    job = wait_for(lambda: finished_job(source, commit_to=c3), 60, "the sync of commit 3", cluster)
    assert (
        job.state,
        job.commit_from,
        job.results_seen,
        job.results_changed,
        job.results_added,
    ) == ("succeeded", c2, 1, 1, 0)
    after = db_content()
    key = ((("training", "v1.1"), "Graphcore", "ipu-pod16-TF1"), "resnet")
    assert {k for k in after["result"] if after["result"][k] != before["result"][k]} == {key}
    assert {k[0] for k in after["run"] if after["run"][k] != before["run"][k]} == {key}
    run = (key, "result_1.txt")
    assert after["run"][run]["time_to_train_minutes"] - before["run"][run][
        "time_to_train_minutes"
    ] == pytest.approx(1.0)

    # The next tick finds nothing new and reads nothing.
    idle = wait_for(
        lambda: finished_job(source, commit_from=c3, commit_to=c3),
        30,
        "a tick with nothing new",
        cluster,
    )
    assert (idle.trigger, idle.state, idle.results_seen, idle.files_seen) == (
        "schedule",
        "succeeded",
        0,
        0,
    )
    assert not source.jobs.filter(state="failed").exists()

    # `source sync --wait` through the broker: exit status 0, or 1 when the job fails.
    ok = cluster.manage("source", "sync", "mlperf", "--wait")
    assert ok.returncode == 0, ok.stderr
    sync.source_add(name="broken", kind="mlperf-training", location=str(tmp_path))
    bad = cluster.manage("source", "sync", "broken", "--wait")
    assert bad.returncode == 1 and "no MLPerf results repository" in bad.stderr, bad.stderr


def _kill_mid_sync(cluster: Cluster, tmp_path: Path) -> tuple[GitRepo, str, Source, IngestJob, int]:
    """A source of all of ../shared/mlperf at one commit, a slow worker, a sync
    queued through the broker, and that job once it has stored 10 results."""
    repo = GitRepo(tmp_path / "src")
    total = sum(len(result_folders(repo.add_round(v))) for v in ("v1.0", "v1.1", "v2.0"))
    commit = repo.commit("three rounds")
    source = sync.source_add(name="rounds", kind="mlperf-training", location=str(repo.path))
    cluster.worker(slow=0.2)
    queued = cluster.manage("source", "sync", "rounds")
    assert queued.returncode == 0, queued.stderr
    job = wait_for(
        lambda: source.jobs.filter(state="running", results_seen__gte=10).first(),
        60,
        "10 results stored",
        cluster,
    )
    return repo, commit, source, job, total


def _assert_equals_a_clean_ingest(repo: GitRepo, commit: str) -> None:
    synced = db_content()
    wipe_results()
    mlperf_training_ingest(location=str(repo.path), commit=commit, workers=1)
    assert db_content() == synced


def _assert_no_half_written_result() -> None:
    for r in Result.objects.annotate(n=Count("runs"), logs=Count("runs__log")):
        assert r.n == r.logs == r.runs_total > 0, r.source_path


def test_a_worker_killed_mid_sync_leaves_whole_results_and_the_next_sync_finishes(
    cluster, tmp_path
):
    repo, commit, source, job, total = _kill_mid_sync(cluster, tmp_path)
    worker = cluster.procs[0]
    os.killpg(worker.pid, signal.SIGKILL)  # the worker and its pool process, at once
    worker.wait()

    job.refresh_from_db()
    assert job.state == "running", "nobody was left to say otherwise"
    stored = Result.objects.count()
    assert 10 <= stored < total
    _assert_no_half_written_result()

    cluster.worker()  # a new worker marks the dead one's job interrupted when it starts
    wait_for(
        lambda: IngestJob.objects.get(pk=job.pk).state == "interrupted",
        30,
        "the job to be marked interrupted",
        cluster,
    )
    done = cluster.manage("source", "sync", "rounds", "--wait")
    assert done.returncode == 0, done.stderr + cluster.tail()
    again = source.jobs.exclude(pk=job.pk).get()
    assert (again.state, again.commit_to, again.results_seen) == ("succeeded", commit, total)
    assert (again.results_unchanged, again.results_added) == (stored, total - stored)
    assert Result.objects.count() == total
    _assert_equals_a_clean_ingest(repo, commit)


def test_a_killed_pool_process_is_requeued_and_its_work_resumed(cluster, tmp_path):
    """reject_on_worker_lost: the worker survives its pool process, puts the message
    back; the second delivery marks the job interrupted and queues a resume job."""
    repo, commit, source, job, total = _kill_mid_sync(cluster, tmp_path)
    assert job.worker_pid != cluster.procs[0].pid
    os.kill(job.worker_pid, signal.SIGKILL)  # type: ignore[arg-type]

    resume = wait_for(lambda: finished_job(source, trigger="resume"), 90, "the resume job", cluster)
    job.refresh_from_db()
    assert job.state == "interrupted" and "is gone" in job.message
    assert (resume.state, resume.results_seen, resume.commit_to) == ("succeeded", total, commit)
    assert (
        resume.results_unchanged >= 10 and resume.results_unchanged + resume.results_added == total
    )
    _assert_no_half_written_result()
    _assert_equals_a_clean_ingest(repo, commit)


def test_a_round_sync_fans_out_one_task_per_submitter_folder_over_two_workers(cluster, tmp_path):
    """``INGEST_FANOUT=1``: the job plans the read, queues one Celery task per submitter
    folder and a join; two worker processes share the parts; the join ends the job with
    the counts of all parts, and the database holds what a plain ingest stores. A second
    sync (no new commit) reads nothing."""
    repo = GitRepo(tmp_path / "src")
    total, submitters = 0, set()
    for version in ("v1.0", "v1.1", "v2.0"):
        found = result_folders(repo.add_round(version))
        total += len(found)
        submitters |= {(version, p.split("/")[0]) for p in found}
    commit = repo.commit("three rounds")
    source = sync.source_add(name="rounds", kind="mlperf-training", location=str(repo.path))
    cluster.env["INGEST_FANOUT"] = "1"
    first, second = cluster.worker(), cluster.worker()
    assert first.pid != second.pid
    done = cluster.manage("source", "sync", "rounds", "--wait")
    assert done.returncode == 0, done.stderr + cluster.tail()
    job = finished_job(source, commit_to=commit)
    assert job is not None and job.state == "succeeded", job and job.message
    assert job.parts_total == len(submitters) and job.parts_done == job.parts_total
    assert (job.results_seen, job.results_added) == (total, total)
    assert "Celery tasks (one per submitter folder)" in job.message
    source.refresh_from_db()
    assert source.last_commit == commit
    logs = "".join(p.read_text(errors="replace") for p in cluster.logs if p.exists())
    assert logs.count("ingest_job_part_task") >= len(submitters)
    _assert_equals_a_clean_ingest(repo, commit)
    again = cluster.manage("source", "sync", "rounds", "--wait")
    assert again.returncode == 0, again.stderr
    job = source.jobs.order_by("-created").first()
    assert (job.state, job.results_seen) == ("succeeded", 0), job.message


def test_an_inference_round_sync_fans_out_over_two_workers(cluster, tmp_path):
    """The same for an MLPerf Inference source: one part per ``<division>/<submitter>``
    folder, every result of the round stored once, the job's counts those of all parts."""
    import shutil

    from benchdb.models import InferenceResult
    from tests.inference_data import INFERENCE_DATA

    repo = GitRepo(tmp_path / "src")
    shutil.copytree(INFERENCE_DATA / "inference_results_v4.1", repo.path / "inference_results_v4.1")
    commit = repo.commit("v4.1")
    root = repo.path / "inference_results_v4.1"
    groups = {f"{d.name}/{s.name}" for d in root.iterdir() if d.is_dir() for s in d.iterdir()}
    source = sync.source_add(name="inf", kind="mlperf-inference", location=str(repo.path))
    cluster.env["INGEST_FANOUT"] = "1"
    cluster.worker(), cluster.worker()
    done = cluster.manage("source", "sync", "inf", "--wait")
    assert done.returncode == 0, done.stderr + cluster.tail()
    job = finished_job(source, commit_to=commit)
    assert job is not None and job.state == "succeeded", job and job.message
    assert job.parts_total == len(groups) and job.parts_done == job.parts_total
    assert job.results_seen == job.results_added == 23
    assert InferenceResult.objects.filter(round__version="v4.1", commit=commit).count() == 23
