"""MLPerf Mobile through the one pipeline and the registry: the real subsets
(tests/data/mobile-v4.0, mobile-v5.0; README: origin) ingested with ``manage.py ingest
mlperf-mobile`` store every task with the throughput the app exported in ``result.json``
(or, without one, the latency the command line printed); a second ingest writes nothing;
a broken file is a problem naming its file and line and the round goes on."""

from __future__ import annotations

import csv
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from benchdb.models import InferenceFinding, InferenceLog, InferenceResult, IngestProblem, Round
from ingest.mobile.service import mlperf_mobile_ingest
from tests.mobile_data import EXYNOS, QC, SD8G3, SDX, V40, V50, app_results, text_results

pytestmark = pytest.mark.django_db


def _snapshot() -> list[tuple[object, ...]]:
    fields = ("source_path", "value", "accuracy", "status", "reason", "content_sha256")
    rows = InferenceResult.objects.filter(round__suite="mobile").order_by("source_path")
    counts = (
        InferenceFinding.objects.count(),
        InferenceLog.objects.count(),
        IngestProblem.objects.count(),
    )
    return [*rows.values_list(*fields), counts]


def _stored(version: str = "v4.0") -> dict[str, InferenceResult]:
    rows = InferenceResult.objects.filter(round__suite="mobile", round__version=version)
    return {r.source_path: r for r in rows}


def test_the_v40_subset_is_stored_as_the_app_published_it_and_a_second_ingest_writes_nothing() -> (
    None
):
    out = StringIO()
    call_command("ingest", "mlperf-mobile", str(V40), stdout=out)
    # SD8G3's result.json lists 8 tasks, of which the subset keeps the logs of 3;
    # SDX_Elite's text 8 tasks (2 with logs); exynos2400's result.json 7 (1 with logs).
    assert "rounds v4.0: 23 results (23 added, 0 changed, 0 unchanged); 6 valid" in out.getvalue()
    stored = _stored()
    for system, logged in (
        (SD8G3, ("image_classification_v2", "image_classification_offline_v2", "super_resolution")),
        (EXYNOS, ("image_classification_v2",)),
    ):
        for task, p in app_results(V40, system).items():
            r = stored[f"{system}/{task}"]
            assert r.published_value == p["performance_run"]["throughput"]["value"]
            assert r.settings["accuracy_text"] == p["accuracy_run"]["accuracy"]["formatted"]
            if task in logged:
                assert r.status == "valid" and r.value == r.published_value, task
                assert r.higher_is_better and r.unit in ("queries/s", "samples/s")
            else:
                assert r.status == "invalid" and "no performance run log" in r.reason
    assert Round.objects.get(suite="mobile").get_suite_display() == "Mobile"
    before = _snapshot()
    report = mlperf_mobile_ingest(location=str(V40))
    assert (report.results_seen, report.unchanged, report.added, report.changed) == (23, 23, 0, 0)
    assert _snapshot() == before


def test_a_system_without_an_app_export_is_read_from_the_command_lines_text() -> None:
    """SDX_Elite (v4.0) publishes performance_results.txt: its SingleStream throughput
    is 1 / the 90th percentile latency it prints; Offline, its 'Samples per second'."""
    mlperf_mobile_ingest(location=str(V40))
    text = text_results(V40 / SDX / "performance_results.txt")
    accuracy = text_results(V40 / SDX / "accuracy_results.txt")
    ss = _stored()[f"{SDX}/image_classification_v2"]
    latency_ns = int(text["image_classification_v2"]["90th percentile latency (ns)"])
    assert ss.status == "valid" and ss.value == 1 / (latency_ns / 1e9)
    assert ss.settings["accuracy_text"] == accuracy["image_classification_v2"]["Accuracy"]
    off = _stored()[f"{SDX}/image_classification_offline_v2"]
    assert off.value == float(text["image_classification_offline_v2"]["Samples per second"])
    assert off.settings["basis"] == "LoadGen result_samples_per_second"
    assert ss.published_value is None


def test_a_broken_system_file_is_a_problem_and_its_results_are_stored() -> None:
    report = mlperf_mobile_ingest(location=str(V50))
    assert (report.results_seen, report.scored) == (7, 1)
    p = IngestProblem.objects.get(round__suite="mobile", path=f"{QC}/systems/SD8Elite.json")
    assert p.line == 9 and "not JSON" in p.message
    sd = _stored("v5.0")[f"{QC}/results/SD8Elite/stable_diffusion"]
    published = app_results(V50, f"{QC}/results/SD8Elite")["stable_diffusion"]
    assert sd.value == published["performance_run"]["throughput"]["value"]
    assert sd.system.name == ""  # no description read


def test_a_broken_log_is_a_problem_naming_its_file_and_line_and_the_round_goes_on(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mobile_results_v4.0"
    shutil.copytree(V40, root)
    rel = f"{SD8G3}/EDSR/SingleStream/log_performance/mlperf_log_detail.txt"
    lines = (root / rel).read_bytes().splitlines(keepends=True)
    lines[5] = lines[5][:40] + b"\n"  # line 6 cut short
    (root / rel).write_bytes(b"".join(lines))
    (root / EXYNOS / "result.json").write_bytes(b'{"results": [\n{"benchmark_id": 1,}\n]}')
    report = mlperf_mobile_ingest(location=str(root))
    # exynos2400's 7 tasks of result.json are gone; its logged task stays, without accuracy
    assert report.results_seen == 23 - 7 + 1 and report.failed == 0
    problems = {(p.path, p.line) for p in IngestProblem.objects.filter(round__suite="mobile")}
    assert (rel, 6) in problems
    assert (f"{EXYNOS}/result.json", 2) in problems
    assert _stored()[f"{SD8G3}/image_classification_v2"].status == "valid"
    exynos = _stored()[f"{EXYNOS}/image_classification_v2"]
    assert exynos.status == "invalid" and exynos.reason == "no accuracy reported"


def test_export_suite_mobile_gives_the_stored_rows() -> None:
    mlperf_mobile_ingest(location=str(V50))
    out = StringIO()
    call_command("export", "results", "--suite", "mobile", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["schema"] == "benchdb.mobile_results/1"
    published = app_results(V50, f"{QC}/results/SD8Elite")
    got = {r["location"]: r["published_throughput"] for r in data["rows"]}
    assert got == {
        f"{QC}/results/SD8Elite/{task}": p["performance_run"]["throughput"]["value"]
        for task, p in published.items()
    }
    csv_out = StringIO()
    call_command("export", "results", "--suite", "mobile", "--format", "csv", stdout=csv_out)
    header = next(csv.reader(StringIO(csv_out.getvalue())))
    assert header == data["columns"]


def test_a_run_with_settings_the_app_does_not_request_is_shown_not_rejected() -> None:
    """SDX_Elite ran the command line with ``min_query_count`` 1000 (its detail log's
    ``requested_min_query_count``), where the app's tasks.pbtxt asks 1024."""
    mlperf_mobile_ingest(location=str(V40))
    detail = V40 / SDX / "mobilenetV4/SingleStream/log_performance/mlperf_log_detail.txt"
    assert '"key": "requested_min_query_count", "value": 1000,' in detail.read_text()
    sdx = _stored()[f"{SDX}/image_classification_v2"]
    assert sdx.status == "valid" and sdx.settings["settings_differ"]
    finding = sdx.findings.get(rule="run settings (tasks.pbtxt)")
    assert "requested_min_query_count 1000 (the app: 1024)" in finding.message
    assert not _stored()[f"{SD8G3}/image_classification_v2"].settings["settings_differ"]
