"""MLPerf Tiny through the one pipeline and the registry: the real subsets
(tests/data/tiny-v1.2, tiny-v1.3; README: origin) ingested with ``manage.py ingest
mlperf-tiny`` store every result with the values of the published summary.csv and the
IDs of final_report_v1.2.xlsx (read with csv / zipfile alone: tests/tiny_data.py); a
second ingest writes nothing; a broken file is a problem naming its file and line and
the round goes on."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from benchdb.models import InferenceFinding, InferenceLog, InferenceResult, IngestProblem, Round
from ingest.tiny.service import mlperf_tiny_ingest
from tests.tiny_data import FOLDERS_V12, FOLDERS_V13, ST12, V12, V13, report_cells, summary

pytestmark = pytest.mark.django_db


def _snapshot() -> list[tuple[object, ...]]:
    fields = ("source_path", "value", "power", "accuracy", "status", "result_id", "content_sha256")
    rows = InferenceResult.objects.filter(round__suite="tiny").order_by("source_path")
    counts = (
        InferenceFinding.objects.count(),
        InferenceLog.objects.count(),
        IngestProblem.objects.count(),
    )
    return [*rows.values_list(*fields), counts]


def test_the_v12_subset_is_stored_as_published_and_a_second_ingest_writes_nothing() -> None:
    out = StringIO()
    call_command("ingest", "mlperf-tiny", str(V12), stdout=out)
    assert "rounds v1.2: 3 results (3 added, 0 changed, 0 unchanged); 3 valid" in out.getvalue()
    rows = summary()
    cells = report_cells()
    ids = {
        cells[f"B{r[1:]}"]: v
        for r, v in cells.items()
        if r[0] == "A" and r[1:].isdigit() and int(r[1:]) > 3
    }
    stored = InferenceResult.objects.filter(round__suite="tiny", round__version="v1.2")
    assert sorted(stored.values_list("source_path", flat=True)) == sorted(FOLDERS_V12)
    for r in stored:
        row = rows[r.source_path]
        assert str(r.settings["throughput"]) == row["Result"]
        assert r.value == 1000 / float(row["Result"]) and r.unit == "ms" and not r.higher_is_better
        assert (r.power or 0.0) == float(row["Power"]) and r.published_value == float(row["Result"])
        assert r.settings["accuracy_text"] == row["Accuracy"]
        assert r.result_id == ids[r.settings["unique_id"]] and r.status == "valid"
        assert r.settings["result_id_origin"] == "summary.csv"
    assert Round.objects.get(suite="tiny").get_suite_display() == "Tiny"
    before = _snapshot()
    report = mlperf_tiny_ingest(location=str(V12))
    assert (report.results_seen, report.unchanged, report.added, report.changed) == (3, 3, 0, 0)
    assert _snapshot() == before


def test_the_v13_subset_is_stored_with_the_lines_the_checker_reads() -> None:
    """Values as v1.3's files print them: Qualcomm ad median 14624.973 inf./sec. and AUC
    0.860; STMicroelectronics kws 34.489 inf./sec., Top-1 90.2, energy 664.4239 uJ/inf.;
    sww estimated throughput 85.789, F1 of 44 TP / 6 FN / 4 FP, power 11.4741 mW."""
    report = mlperf_tiny_ingest(location=str(V13))
    assert (report.results_seen, report.scored) == (3, 3)
    got = {
        r.source_path: (r.settings["throughput"], r.accuracy, r.power, r.power_unit)
        for r in InferenceResult.objects.filter(round__version="v1.3", round__suite="tiny")
    }
    qc, kws, sww = FOLDERS_V13
    assert got[qc] == (14624.973, {"auc": 0.86}, None, "")
    assert got[kws] == (34.489, {"top-1": 90.2}, 664.4239, "uJ/inf.")
    assert got[sww][0] == 85.789 and got[sww][2:] == (11.4741, "mW")
    assert got[sww][1]["f1"] == 88 / 98
    origins = InferenceResult.objects.filter(round__version="v1.3", round__suite="tiny")
    assert {r.settings["result_id_origin"] for r in origins} == {"derived"}  # no table published
    evidence = InferenceFinding.objects.filter(result__source_path=kws, rule="read: median energy")
    assert [(e.path, e.line) for e in evidence] == [(f"{kws}/energy/results.txt", 33)]


def test_a_broken_file_is_a_problem_naming_file_and_line_and_the_round_goes_on(
    tmp_path: Path,
) -> None:
    root = tmp_path / "tiny_results_v1.2"
    shutil.copytree(V12, root)
    broken = root / ST12 / "kws" / "performance" / "results.txt"
    broken.write_bytes(broken.read_bytes().replace(b"is 34.416 inf", b"is 3x.416 inf"))
    report = mlperf_tiny_ingest(location=str(root))
    assert (report.results_seen, report.scored, report.unscored) == (3, 2, 1)
    rel = f"{ST12}/kws/performance/results.txt"
    problem = IngestProblem.objects.get(path=rel)
    assert problem.line == 27 and "'3x.416' is not a number" in problem.message
    kws = InferenceResult.objects.get(source_path=f"{ST12}/kws")
    assert kws.status == "invalid" and "Median throughput" in kws.reason


def test_a_broken_system_description_is_a_problem_and_its_results_are_not_valid(
    tmp_path: Path,
) -> None:
    root = tmp_path / "tiny_results_v1.2"
    shutil.copytree(V12, root)
    rel = "closed/bosch/systems/NUCLEO_H7A3ZI_float.json"
    (root / rel).write_bytes((root / rel).read_bytes().replace(b'"Status"', b'"Status', 1))
    report = mlperf_tiny_ingest(location=str(root))
    assert (report.results_seen, report.scored, report.unscored) == (3, 2, 1)
    problem = IngestProblem.objects.get(path=rel)
    assert problem.line is not None and problem.message.startswith("not JSON")
    bosch = InferenceResult.objects.get(source_path=FOLDERS_V12[2])
    assert bosch.status == "invalid" and "system description" in bosch.reason


def test_export_suite_tiny_gives_the_stored_rows() -> None:
    mlperf_tiny_ingest(location=str(V12))
    out = StringIO()
    call_command("export", "results", "--suite", "tiny", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["schema"] == "benchdb.tiny_results/1"
    rows = summary()
    got = {r["location"]: r["throughput"] for r in data["rows"]}
    assert got == {p: float(rows[p]["Result"]) for p in FOLDERS_V12}
