"""MLPerf Storage through the one pipeline and the registry: the real v1.0 subset
(tests/data/storage-v1.0, README: origin) ingested with ``manage.py ingest
mlperf-storage`` stores each result with its published report's figures (read with
``json`` alone: tests/storage_data.py), flags the report copied from another result, and
a second ingest changes nothing; a broken file is a problem naming file and line and
the other results are stored."""

from __future__ import annotations

import csv
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from benchdb.models import IngestProblem, Round, StorageResult
from ingest.storage.service import mlperf_storage_ingest
from tests.storage_data import (
    FOLDERS,
    HAMMERSPACE,
    MICRON,
    OWN_REPORT,
    ROOT,
    YANRONG_COPIED,
    report,
)

pytestmark = pytest.mark.django_db

#: Relative difference left by summing five floats in another order than ``os.walk``'s.
ORDER = 1e-15


def _snapshot() -> list[tuple[object, ...]]:
    rows = StorageResult.objects.order_by("pk").values_list(
        "pk", "samples_per_second", "mb_per_second", "status", "runs", "content_sha256"
    )
    problems = IngestProblem.objects.order_by("pk").values_list("pk", "path", "line", "message")
    return [*rows, *problems]


def test_the_subset_is_stored_as_published_and_a_second_ingest_changes_nothing() -> None:
    out = StringIO()
    call_command("ingest", "mlperf-storage", str(ROOT), stdout=out)
    assert "rounds v1.0: 5 results (5 added, 0 changed, 0 unchanged); 5 valid, 0 rejected" in (
        out.getvalue()
    )
    stored = {r.source_path: r for r in StorageResult.objects.filter(round__version="v1.0")}
    assert sorted(stored) == sorted(FOLDERS)
    for folder in OWN_REPORT:
        r, rep = stored[folder], report(folder)["overall"]
        assert r.samples_per_second == pytest.approx(
            rep["train_throughput_mean_samples_per_second"], rel=ORDER
        )
        assert r.mb_per_second == pytest.approx(
            rep["train_throughput_mean_MB_per_second"], rel=ORDER
        )
        assert (r.workload, r.accelerator, str(r.accelerators)) == (
            rep["model"],
            rep["accelerator"],
            rep["train_num_accelerators"],
        )
        assert (r.status, len(r.runs)) == ("valid", 5)
    exact = stored[HAMMERSPACE]
    assert (
        exact.mb_per_second == report(HAMMERSPACE)["overall"]["train_throughput_mean_MB_per_second"]
    )
    assert Round.objects.get(suite="storage").get_suite_display() == "Storage"
    before = _snapshot()
    again = mlperf_storage_ingest(location=str(ROOT))
    assert (again.results_seen, again.unchanged, again.added, again.changed) == (5, 5, 0, 0)
    assert _snapshot() == before


def test_a_copied_report_and_an_unreadable_system_description_are_warnings() -> None:
    mlperf_storage_ingest(location=str(ROOT))
    copied = IngestProblem.objects.filter(path=f"{YANRONG_COPIED}/mlperf_storage_report.json")
    messages = sorted(p.message for p in copied)
    assert len(messages) == 2 and all(m.startswith("train_throughput_mean_") for m in messages)
    assert "published 232.10801698947762" in messages[1]
    system = IngestProblem.objects.get(
        path="Closed/Micron/systems/Micron_6500_Gen4_High_Capacity_NVMe.json"
    )
    assert (system.line, system.severity) == (19, "warning")
    assert StorageResult.objects.get(source_path=MICRON).status == "valid"


def test_a_broken_summary_is_a_problem_naming_file_and_line_and_the_round_goes_on(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "storage_results_v1.0"
    shutil.copytree(ROOT, tree)
    broken = tree / HAMMERSPACE / "run3" / "summary.json"
    broken.write_bytes(b"\n".join(broken.read_bytes().splitlines()[:20]))
    rep = mlperf_storage_ingest(location=str(tree))
    assert (rep.results_seen, rep.scored, rep.unscored, rep.failed) == (5, 4, 1, 0)
    r = StorageResult.objects.get(source_path=HAMMERSPACE)
    assert r.status == "invalid"
    assert r.reason.startswith("1 run(s) could not be read")
    problem = IngestProblem.objects.get(path=f"{HAMMERSPACE}/run3/summary.json")
    assert problem.line == 20 and problem.message.startswith("not JSON")


def test_export_results_suite_storage_gives_the_round_table() -> None:
    mlperf_storage_ingest(location=str(ROOT))
    out = StringIO()
    call_command("export", "results", "--suite", "storage", "--format", "csv", stdout=out)
    rows = list(csv.DictReader(out.getvalue().splitlines()))
    assert sorted(r["location"] for r in rows) == sorted(FOLDERS)
    by = {r["location"]: r for r in rows}
    assert (
        float(by[HAMMERSPACE]["mb_per_second"])
        == (report(HAMMERSPACE)["overall"]["train_throughput_mean_MB_per_second"])
    )


def test_runs_without_a_report_are_a_problem_not_a_result(tmp_path: Path) -> None:
    tree = tmp_path / "storage_results_v1.0"
    shutil.copytree(ROOT, tree)
    (tree / HAMMERSPACE / "mlperf_storage_report.json").unlink()
    rep = mlperf_storage_ingest(location=str(tree))
    assert rep.results_seen == 4
    assert not StorageResult.objects.filter(source_path=HAMMERSPACE).exists()
    orphans = IngestProblem.objects.filter(path__startswith=f"{HAMMERSPACE}/run")
    assert sorted(p.path for p in orphans) == [
        f"{HAMMERSPACE}/run{n}/summary.json" for n in range(1, 6)
    ]
    assert all("no mlperf_storage_report.json" in p.message for p in orphans)


def test_a_run_under_the_au_threshold_rejects_the_result_as_report_py_would(
    tmp_path: Path,
) -> None:
    """``report.py`` stops on a run whose ``train_au_meet_expectation`` is "fail"; DLIO's
    own figure (the epochs' mean AU against ``metric.au``) is checked beside it."""
    tree = tmp_path / "storage_results_v1.0"
    shutil.copytree(ROOT, tree)
    summary = tree / HAMMERSPACE / "run2" / "summary.json"
    data = summary.read_bytes()
    assert data.count(b'"success"') == 1
    summary.write_bytes(data.replace(b'"success"', b'"fail"'))
    (tree / HAMMERSPACE / "run4" / "configs" / "config.yaml").unlink()
    mlperf_storage_ingest(location=str(tree))
    r = StorageResult.objects.get(source_path=HAMMERSPACE)
    assert r.status == "invalid"
    assert r.reason == (
        f"AU value didn't pass the threshold in the run reported by {HAMMERSPACE}/run2/summary.json"
    )
    dlio = IngestProblem.objects.get(path=f"{HAMMERSPACE}/run2/summary.json")
    assert (dlio.line, dlio.severity) == (15, "error")
    au = json.loads(data)["metric"]["train_au_mean_percentage"]
    assert dlio.message == (
        f"train_au_meet_expectation 'fail': the epochs' mean AU {au:.4f}% is at or over 90%"
    )
    missing = IngestProblem.objects.get(path=f"{HAMMERSPACE}/run4/configs/config.yaml")
    assert missing.severity == "warning" and missing.message.startswith("not read")
    assert [run["au_threshold"] for run in r.runs] == [0.9, 0.9, 0.9, None, 0.9]
