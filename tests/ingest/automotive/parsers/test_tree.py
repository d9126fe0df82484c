"""Reading an MLPerf Automotive tree: what the checker reads beside the logs, and the
published table."""

from __future__ import annotations

import pytest

from ingest.automotive.parsers.tree import parse_summary_results, read_folder
from ingest.inference.parsers.tree import Tree, find_results
from ingest.parsers.types import ParseError
from tests.automotive_data import FOLDERS, GO, NV, ROOT


def test_the_published_table_has_nine_rows_and_eight_ids() -> None:
    rows = parse_summary_results((ROOT / "summary_results.json").read_bytes())
    assert len(rows) == 9
    assert len({r.result_id for r in rows}) == 8
    first = rows[0]
    assert (first.result_id, first.location, first.scenario) == (
        "0.5-0001",
        f"{NV}/ConstantStream",
        "ConstantStream",
    )
    assert (first.value, first.unit, first.accuracy) == (
        5.319681,
        "Latency (ms)",
        "mAP_3D: 0.2672970244966856",
    )
    assert first.unique_id == "adas/closed/NVIDIA/Thor-X_TRT"
    assert (first.division, first.availability, first.row) == ("closed", "development", 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{", "summary_results.json: not JSON"),
        (b'{"ID": "x"}', "summary_results.json: not a JSON list of results"),
        (b'[{"ID": "x", "Location": "a"}, 3]', "row 2: not an object with text ID"),
        (b'[{"ID": 1, "Location": "a"}]', "row 1: not an object with text ID"),
    ],
)
def test_a_table_of_the_wrong_shape_is_refused_naming_the_row(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_summary_results(data)


def test_a_value_that_is_not_a_number_is_kept_as_none() -> None:
    rows = parse_summary_results(b'[{"ID": "x", "Location": "a/", "Performance_Result": "5"}]')
    assert (rows[0].value, rows[0].location) == (None, "a")


def test_a_folder_is_read_with_its_measurements_and_file_lists() -> None:
    tree = Tree(ROOT)
    folders = {f.path: f for f in find_results(tree)}
    assert sorted(folders) == sorted(FOLDERS)
    read = read_folder(tree, folders[f"{GO}/ssd/singlestream"])
    tree.close()
    m = read.measurement
    assert m.exists and m.empty == ()
    assert m.system_file == "intel_spr_32c-reference-cpu-onnxruntime-default_config.json"
    assert m.fields["weight_data_types"] == "fp32"
    assert "README.md" in m.files and "user.conf" in m.files
    assert read.accuracy_files == (
        "accuracy.txt",
        "mlperf_log_accuracy.json",
        "mlperf_log_detail.txt",
        "mlperf_log_summary.txt",
    )
    assert read.run_files == (
        "mlperf_log_accuracy.json",
        "mlperf_log_detail.txt",
        "mlperf_log_summary.txt",
    )
    assert read.system_bytes.startswith(b"{")
    kinds = {f.path.rsplit("/", 1)[-1]: f.kind for f in read.result.files}
    assert kinds["README.md"] == "conf" and kinds["mlperf_log_detail.txt"] in ("detail", "accuracy")
    assert tree.files == [] and tree.problems == []  # every file read went to the result
