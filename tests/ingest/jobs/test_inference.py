"""Syncs of an MLPerf Inference source (``ingest.jobs.inference``): a git repository of
real inference results read in full, then only what a commit touches; the second sync of
the same commit reads nothing. Run in this process (``run_sync``)."""

from __future__ import annotations

import shutil

import pytest

from benchdb.models import InferenceResult, Round
from ingest.jobs import run as sync
from ingest.jobs.inference import touched
from tests.inference_data import INFERENCE_DATA as DATA
from tests.ingest.gitsource import GitRepo, run_sync

pytestmark = pytest.mark.django_db


def _repo(tmp_path) -> GitRepo:
    repo = GitRepo(tmp_path / "src")
    shutil.copytree(DATA / "inference_results_v3.0", repo.path / "inference_results_v3.0")
    return repo


def test_an_inference_source_is_read_then_only_what_a_commit_touches(tmp_path, settings):
    settings.BENCHDB_CACHE = tmp_path / "cache"
    Round.objects.filter(suite="inference").delete()  # the session's (rolled back after)
    repo = _repo(tmp_path)
    first = repo.commit("v3.0")
    source = sync.source_add(name="inf", kind="mlperf-inference", location=str(repo.path))
    job = run_sync(source)
    assert (job.state, job.commit_to, job.incremental) == ("succeeded", first, False), job.message
    assert job.results_seen == job.results_added == 20
    assert InferenceResult.objects.filter(round__version="v3.0", commit=first).count() == 20
    job = run_sync(source)  # the same commit: nothing to read
    assert (job.state, job.results_seen) == ("succeeded", 0), job.message
    folder = "closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/resnet50/Offline"
    summary = (
        repo.path / "inference_results_v3.0" / folder / "performance/run_1/mlperf_log_summary.txt"
    )
    summary.write_text(summary.read_text().replace("Result is : VALID", "Result is : INVALID"))
    second = repo.commit("one summary changed")
    job = run_sync(source)
    assert (job.state, job.incremental, job.results_seen, job.results_changed) == (
        "succeeded",
        True,
        1,
        1,
    ), job.message
    changed = InferenceResult.objects.get(source_path=folder)
    assert (
        changed.commit == second
        and changed.findings.filter(rule="summary_detail_disagree").exists()
    )


def test_a_diff_touches_the_folder_its_compliance_and_measurements_and_its_system():
    folders = [
        "closed/A/results/s1/resnet50/Offline",
        "closed/A/results/s1/resnet50/Server",
        "closed/A/results/s2/bert-99/Offline",
    ]
    changed = [
        "r/closed/A/compliance/s1/resnet50/Server/TEST01/verify_accuracy.txt",
        "r/closed/A/systems/s2.json",
        "r/README.md",
    ]
    assert touched(folders, "r", changed) == folders[1:]
    assert touched(
        folders, "r", ["r/closed/A/results/s1/resnet50/Offline/accuracy/accuracy.txt"]
    ) == [folders[0]]
