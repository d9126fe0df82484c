"""MLPerf Automotive through the one pipeline and the registry: the real v0.5 subset
(tests/data/automotive-v0.5, README: origin) ingested with ``manage.py ingest
mlperf-automotive`` stores every result with the value, unit and ID of
``summary_results.json`` (read with ``json`` alone: tests/automotive_data.py); a second
ingest writes nothing; ``export results --suite automotive`` gives the same rows."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from benchdb.models import InferenceResult, Round
from ingest.automotive.service import mlperf_automotive_ingest
from tests.automotive_data import FOLDERS, ROOT, published

pytestmark = pytest.mark.django_db


def test_the_subset_is_stored_as_published_and_a_second_ingest_writes_nothing() -> None:
    out = StringIO()
    call_command("ingest", "mlperf-automotive", str(ROOT), stdout=out)
    assert "rounds v0.5: 4 results (4 added, 0 changed, 0 unchanged); 4 valid" in out.getvalue()
    rows = published()
    stored = InferenceResult.objects.filter(round__suite="automotive", round__version="v0.5")
    assert sorted(stored.values_list("source_path", flat=True)) == sorted(FOLDERS)
    for r in stored:
        row = rows[r.source_path]
        assert (r.value, r.unit, r.result_id) == (
            row["Performance_Result"],
            row["Performance_Units"],
            row["ID"],
        )
        assert (r.benchmark, r.scenario, r.status) == (row["Model"], row["Scenario"], "valid")
        assert r.higher_is_better is False and r.system.submitter.name == row["Submitter"]
    assert Round.objects.get(suite="automotive").get_suite_display() == "Automotive"
    report = mlperf_automotive_ingest(location=str(ROOT))
    assert (report.results_seen, report.unchanged, report.added, report.changed) == (4, 4, 0, 0)


def test_export_suite_automotive_gives_the_stored_rows() -> None:
    mlperf_automotive_ingest(location=str(ROOT))
    out = StringIO()
    call_command("export", "results", "--suite", "automotive", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["schema"] == "benchdb.inference_results/1"
    got = {r["location"]: (r["result_id"], r["value"]) for r in data["rows"]}
    rows = published()
    assert got == {p: (rows[p]["ID"], rows[p]["Performance_Result"]) for p in FOLDERS}
