"""An MLPerf Automotive round read and judged: the subset reproduces ``summary_results.json``
value for value, and a broken log line costs its own result only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest.automotive.records import ORIGIN_DERIVED, ORIGIN_PUBLISHED, read_round
from tests.automotive_data import FOLDERS, NV, ROOT, published


def test_every_result_of_the_subset_equals_its_published_row() -> None:
    """Value, unit, accuracy, ID, model and scenario of each of the 4 results are the
    published ones; all valid, with nothing failed and no parse problem."""
    read = read_round(ROOT)
    rows = published()
    assert [r.path for r in read.records] == sorted(FOLDERS)
    for rec in read.records:
        row = rows[rec.path]
        assert rec.value == row["Performance_Result"]
        assert rec.unit == row["Performance_Units"] == "Latency (ms)"
        assert rec.accuracy_text == row["Accuracy"]
        assert (rec.result_id, rec.result_id_origin) == (row["ID"], ORIGIN_PUBLISHED)
        assert (rec.model, rec.model_folder, rec.scenario) == (
            row["Model"],
            row["UsedModel"],
            row["Scenario"],
        )
        assert (rec.division, rec.submitter, rec.system) == (
            row["Category"],
            row["Submitter"],
            row["Platform"],
        )
        assert rec.system_name == row["System"]
        assert rec.availability == row["Availability"]
        assert rec.weight_data_types == row["weight_data_types"]
        assert rec.valid and rec.reasons == () and rec.findings == () and rec.problems == ()
        assert rec.direction == "lower"
    assert read.problems == ()


def test_the_two_scenarios_read_different_keys() -> None:
    """SingleStream is the early-stopping p99.9 estimate, ConstantStream the measured
    p99.9 (the summary's ``99.9th percentile latency (ns) : 5319681``, not the estimate
    5329940)."""
    by_path = {r.path: r for r in read_round(ROOT).records}
    ss, cs = by_path[f"{NV}/SingleStream"], by_path[f"{NV}/ConstantStream"]
    assert (ss.metric, ss.value) == ("early_stopping_latency_ss", 5.209854)
    assert (cs.metric, cs.value) == ("result_99.90_percentile_latency_ns", 5.319681)
    assert cs.metric_label == "99.9th percentile latency"
    assert ss.metric_label == "99.9th percentile latency (early-stopping estimate)"


def test_the_system_description_is_parsed_as_every_suite_does() -> None:
    rec = read_round(ROOT).records[0]
    assert rec.system_description is not None
    assert rec.system_description.accelerator_model == "NVIDIA Thor-X"
    assert rec.system_description.accelerators == 1


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "automotive_results_v0.5"
    shutil.copytree(ROOT, dest)
    return dest


def test_a_broken_log_line_is_named_and_costs_its_result_only(copy: Path) -> None:
    """A detail-log line cut in half: that result is invalid with a reason naming the
    file and line; the three others are unaffected."""
    rel = f"{NV}/SingleStream/performance/run_1/mlperf_log_detail.txt"
    lines = (copy / rel).read_bytes().split(b"\n")
    lines[40] = lines[40][:60]  # line 41 of the file, no longer a JSON object
    (copy / rel).write_bytes(b"\n".join(lines))
    by_path = {r.path: r for r in read_round(copy).records}
    broken = by_path.pop(f"{NV}/SingleStream")
    assert not broken.valid
    assert f"{rel}:41: MLLOG line is not a JSON object (log cut short?)" in broken.reasons
    assert [(p.path, p.line) for p in broken.problems] == [(rel, 41)]
    rows = published()
    for rec in by_path.values():
        assert rec.valid and rec.value == rows[rec.path]["Performance_Result"]


def test_without_the_table_the_ids_are_numbered_as_the_report_tool_does(copy: Path) -> None:
    """No ``summary_results.json``: closed before open, then by unique ID (the open
    division's includes the model folder), numbered from 1 over this subset alone."""
    (copy / "summary_results.json").unlink()
    ids = {r.path: (r.result_id, r.result_id_origin) for r in read_round(copy).records}
    assert ids == {
        FOLDERS[0]: ("0.5-0001", ORIGIN_DERIVED),
        FOLDERS[1]: ("0.5-0001", ORIGIN_DERIVED),
        FOLDERS[2]: ("0.5-0002", ORIGIN_DERIVED),
        FOLDERS[3]: ("0.5-0003", ORIGIN_DERIVED),
    }


def test_an_unreadable_table_is_a_round_problem(copy: Path) -> None:
    (copy / "summary_results.json").write_text('{"ID": "0.5-0001"}')
    read = read_round(copy)
    assert [(p.path, p.message) for p in read.problems] == [
        ("summary_results.json", "not a JSON list of results")
    ]
    assert all(r.valid for r in read.records)
