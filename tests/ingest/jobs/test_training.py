"""ingest.jobs.training: what a job of an MLPerf Training source reads. A git source
reads only the result folders each commit changes, in its own checkout; a plain
folder is read in place; a folder whose transaction rolls back fails the job and is
read again by the next one; claims read before their results are checked again."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.db import connection

from benchdb.models import Claim, IngestProblem, Result, Run
from ingest import fetch, selectors
from ingest.claims import pages as vendor
from ingest.jobs import run as sync
from ingest.jobs import training as sync_mlperf
from ingest.training.service import NOT_STORED
from tests.ingest.gitsource import GitRepo, db_content, result_folders, run_sync


def test_a_git_source_reads_only_the_result_folders_each_commit_changes(
    empty, tmp_path, mlperf_data
):
    repo = GitRepo(tmp_path / "src")
    v10 = result_folders(repo.add_round("v1.0"))
    c1 = repo.commit("v1.0")
    source = sync.source_add(
        name="mlperf", kind="mlperf-training", location=str(repo.path), ref="main"
    )

    job = run_sync(source)
    assert (job.state, job.incremental, job.commit_to) == ("succeeded", False, c1)
    assert (job.results_seen, job.results_added, job.results_unchanged) == (len(v10), len(v10), 0)
    assert job.files_seen == sum(v10.values())

    v11 = result_folders(repo.add_round("v1.1"))
    c2 = repo.commit("v1.1 published")
    job = run_sync(source)
    assert (job.incremental, job.commit_from, job.commit_to) == (True, c1, c2)
    assert (job.results_total, job.results_seen, job.results_added, job.results_unchanged) == (
        len(v11),
        len(v11),
        len(v11),
        0,
    )
    assert job.files_seen == sum(v11.values())
    assert Result.objects.count() == len(v10) + len(v11)
    # Its error rows: the problems stored with the v1.1 results, with file and line.
    rows = set(job.error_rows.values_list("path", "line", "message"))
    stored = IngestProblem.objects.filter(round__version="v1.1").values_list(
        "path", "line", "message"
    )
    assert rows == {(f"training_results_v1.1/{p}", n, m) for p, n, m in stored}
    aborted = Run.objects.get(
        result__round__version="v1.1", path="Graphcore/results/ipu-pod16-TF1/resnet/result_0.txt"
    )
    assert ("training_results_v1.1/" + aborted.path, aborted.run_stop_line) in {
        (p, n) for p, n, _ in rows
    }

    before = db_content()
    log = "training_results_v1.1/NVIDIA/results/dgxa100_ngc21.09_mxnet/resnet/result_0.txt"
    repo.shift_run_stop(log, 60_000)
    c3 = repo.commit("one log corrected")
    job = run_sync(source)
    assert (job.commit_from, job.results_seen, job.results_changed, job.results_added) == (
        c2,
        1,
        1,
        0,
    )
    assert job.files_seen == v11["NVIDIA/results/dgxa100_ngc21.09_mxnet/resnet"]
    after = db_content()
    key = ((("training", "v1.1"), "NVIDIA", "dgxa100_ngc21.09_mxnet"), "resnet")
    assert {k for k in after["result"] if after["result"][k] != before["result"][k]} == {key}
    assert after["result"][key]["commit"] == c3
    changed_runs = {k for k in after["run"] if after["run"][k] != before["run"][k]}
    assert changed_runs and {k[0] for k in changed_runs} == {key}
    moved = after["run"][(key, "result_0.txt")]["time_to_train_minutes"]
    assert moved - before["run"][(key, "result_0.txt")]["time_to_train_minutes"] == pytest.approx(
        1.0
    )
    assert {k for k in after["runlog"] if after["runlog"][k] != before["runlog"][k]} == {
        (key, "result_0.txt")
    }

    job = run_sync(source)
    assert (job.state, job.commit_from, job.commit_to, job.results_seen, job.files_seen) == (
        "succeeded",
        c3,
        c3,
        0,
        0,
    )
    assert job.message.startswith("up to date")
    full = run_sync(source, full=True)
    assert (full.incremental, full.results_seen, full.results_unchanged) == (
        False,
        len(v10) + len(v11),
        len(v10) + len(v11),
    )


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
    source = sync.source_add(
        name="plain", kind="mlperf-training", location=str(mlperf_data / "training_results_v1.0")
    )
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
    touched, removed = sync_mlperf.changed_result_dirs(str(repo), "training_results_v9.9", changed)
    assert touched == {"X/results/sys1/resnet", "X/results/sys1/bert", "X/results/sys2/resnet"}
    assert removed == ["X/results/gone/bert"]
    assert sync_mlperf.changed_result_dirs(str(repo), "training_results_v9.9", ["README.md"]) == (
        set(),
        [],
    )


def test_a_git_source_is_checked_out_in_its_cache_dir(empty, tmp_path):
    repo = GitRepo(tmp_path / "training_results_v1.0")
    repo.add_round("v1.0", dest="")
    commit = repo.commit("v1.0")
    source = sync.source_add(name="v10", kind="mlperf-training", location=str(repo.path))
    assert run_sync(source).state == "succeeded"
    dest = Path(fetch.cache_dir(f"file://{repo.path}", source_id=source.pk))
    assert dest.parent == tmp_path / "cache" / "sources" / str(source.pk)
    assert fetch.git(["-C", str(dest), "rev-parse", "HEAD"]).strip() == commit


def test_a_result_that_fails_to_store_fails_the_job_and_the_next_sync_stores_it(
    empty, tmp_path, django_db_blocker
):
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
        """)

    job = run_sync(source)
    source.refresh_from_db()
    assert (job.state, job.results_seen, job.results_added) == ("failed", len(v11), len(v11) - 1), (
        job.message
    )
    assert job.results_seen == job.results_added + job.results_changed + job.results_unchanged + 1
    assert selectors.results_failed(job) == 1 and "1 result folder not stored" in job.message
    (row,) = job.error_rows.filter(message__startswith=NOT_STORED)
    assert row.path == f"training_results_v1.1/{broken}" and "disk full (test)" in row.message
    assert not job.error_rows.filter(path="").exists()
    assert (source.last_commit, source.consecutive_failures) == (c1, 1)
    assert not Result.objects.filter(source_path=broken, round__version="v1.1").exists()

    with connection.cursor() as cur:
        cur.execute(f"DROP TRIGGER refuse_result ON {Result._meta.db_table}")
    again = run_sync(source)
    source.refresh_from_db()
    assert (again.state, again.commit_from, again.incremental) == ("succeeded", c1, True), (
        again.message
    )
    assert (again.results_added, again.results_unchanged, selectors.results_failed(again)) == (
        1,
        len(v11) - 1,
        0,
    )
    assert Result.objects.filter(source_path=broken, round__version="v1.1").exists()
    assert (source.last_commit, source.consecutive_failures) == (c2, 0)


def test_claims_read_before_their_results_are_checked_again_by_the_sync_that_brings_them(
    empty, tmp_path, settings
):
    name = "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
    page = vendor.vendor_page_ingest(
        data=None, path_or_url=str(Path(settings.VENDOR_DATA) / name), published=date(2021, 12, 1)
    )
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
