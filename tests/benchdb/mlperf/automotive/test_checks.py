"""One result judged as ``check_results_dir()`` does: the published results pass every
gate; each gate, broken on a copy of a real result, keeps the result out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from benchdb.mlperf.automotive.checks import (
    accuracy_read,
    accuracy_text,
    files_diff,
    judge,
)
from benchdb.mlperf.automotive.rules import V0_5
from ingest.automotive.parsers.tree import AutomotiveFolder, Measurement
from ingest.inference.parsers.types import TextFile
from tests.automotive_data import FOLDERS, NV, published, read_folders

READ = read_folders()
SS = f"{NV}/SingleStream"
OPEN_SSD = FOLDERS[3]


@pytest.mark.parametrize("path", FOLDERS)
def test_the_published_results_pass_every_gate(path: str) -> None:
    j = judge(V0_5, READ[path])
    row = published()[path]
    assert (j.status, j.findings) == ("valid", ())
    assert (j.benchmark, j.scenario, j.value.value) == (
        row["Model"],
        row["Scenario"],
        row["Performance_Result"],
    )
    assert j.accuracy_text == row["Accuracy"] and j.accuracy_valid is True


def test_the_accuracy_is_read_from_the_metric_line_only() -> None:
    """NVIDIA's accuracy.txt also has ``mAP: 0.2673`` (line 41): the bevformer metric is
    ``mAP_3D:0.2672970244966856`` (line 62), the published text."""
    text = READ[SS].result.accuracy
    assert text is not None and text.lines[40] == "mAP: 0.2673"
    assert accuracy_read(V0_5, "bevformer", text) == ({"mAP_3D": "0.2672970244966856"}, True, True)


def _with_accuracy(folder: AutomotiveFolder, lines: tuple[str, ...]) -> AutomotiveFolder:
    text = TextFile(f"{folder.result.folder.path}/accuracy/accuracy.txt", lines)
    return replace(folder, result=replace(folder.result, accuracy=text))


def test_an_accuracy_under_target_keeps_a_closed_result_out() -> None:
    """bevformer's target is 0.99 x 0.2683556 = 0.265672."""
    j = judge(V0_5, _with_accuracy(READ[SS], ("mAP_3D: 0.2656", "hash=ab")))
    assert j.status == "invalid" and j.accuracy_valid is False
    assert [f.rule for f in j.findings] == ["accuracy_target"]
    assert judge(V0_5, _with_accuracy(READ[SS], ("mAP_3D: 0.2657", "hash=ab"))).status == "valid"


def test_the_open_division_takes_any_accuracy_it_can_read() -> None:
    """An open result under target, without a hash line: logged, still published."""
    j = judge(V0_5, _with_accuracy(READ[OPEN_SSD], ("mAP: 0.5",)))
    assert j.status == "valid" and j.accuracy_text == "mAP: 0.5" and j.accuracy_valid is False
    assert [(f.rule, f.invalidates) for f in j.findings] == [
        ("accuracy_target", False),
        ("accuracy_hash", False),
    ]
    j = judge(V0_5, _with_accuracy(READ[OPEN_SSD], ("no metric here",)))
    assert j.status == "invalid"


def test_two_metrics_print_as_the_csv_prints_them() -> None:
    assert accuracy_text({"a": "1", "b": "2"}) == "a: 1  b: 2"
    assert accuracy_text({}) == ""


def test_file_lists_tolerate_only_the_optional_files() -> None:
    required = ("mlperf_log_summary.txt", "mlperf_log_detail.txt")
    assert files_diff((*required, "mlperf_log_trace.json", ".gitkeep"), required) == set()
    assert files_diff((*required, "notes.txt"), required) == {"notes.txt"}
    assert files_diff(required[:1], required) == {"mlperf_log_detail.txt"}


def _system(folder: AutomotiveFolder, **changes: Any) -> AutomotiveFolder:
    system = {**folder.result.system_json, **changes}
    return replace(folder, result=replace(folder.result, system_json=system))


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"status": "available"}, "system_status"),
        ({"system_type": "edge"}, "system_type"),
        ({"is_network": "True"}, "network_mode"),
        ({"submitter": "Someone"}, "system_submitter"),
        ({"cooling": ""}, "system_field_empty"),
    ],
)
def test_a_bad_system_description_keeps_its_results_out(changes: dict[str, Any], rule: str) -> None:
    j = judge(V0_5, _system(READ[SS], **changes))
    assert j.status == "invalid" and rule in [f.rule for f in j.findings]


def test_a_closed_scenario_must_be_required_or_optional() -> None:
    folder = READ[SS]
    moved = replace(folder.result.folder, scenario="Offline")
    j = judge(V0_5, replace(folder, result=replace(folder.result, folder=moved)))
    assert [f.rule for f in j.findings] == ["scenario_not_allowed"]


def test_an_open_model_the_round_does_not_know_is_refused_unless_mapped() -> None:
    folder = READ[OPEN_SSD]
    renamed = replace(folder.result.folder, model="ssd-small")
    other = replace(folder, result=replace(folder.result, folder=renamed))
    assert [f.rule for f in judge(V0_5, other).findings] == ["model_not_in_suite"]
    assert judge(V0_5, other, {"ssd-small": "ssd"}).status == "valid"


@pytest.mark.parametrize(
    ("measurement", "rule"),
    [
        (Measurement("m", False), "measurement_dir_missing"),
        (Measurement("m", True, ("README.md", "s.json"), (), "s.json", {}), "measurement_file"),
        (
            Measurement("m", True, ("README.md", "user.conf"), ("user.conf",), "", {}),
            "measurement_system_json",
        ),
    ],
)
def test_the_measurement_folder_is_checked(measurement: Measurement, rule: str) -> None:
    j = judge(V0_5, replace(READ[SS], measurement=measurement))
    assert j.status == "invalid" and rule in [f.rule for f in j.findings]


def test_a_measurement_json_without_weight_types_is_refused() -> None:
    m = READ[SS].measurement
    fields = {k: v for k, v in m.fields.items() if k != "weight_data_types"}
    j = judge(V0_5, replace(READ[SS], measurement=replace(m, fields=fields)))
    assert [(f.rule, f.message) for f in j.findings] == [
        ("measurement_field", "field weight_data_types is missing")
    ]


def test_an_extra_file_in_the_run_folder_keeps_the_result_out() -> None:
    folder = READ[SS]
    run_files = (*(folder.run_files or ()), "notes.txt")
    j = judge(V0_5, replace(folder, run_files=run_files))
    assert [f.rule for f in j.findings] == ["run_files"]
    assert judge(V0_5, replace(folder, run_files=None)).findings[0].rule == "run_missing"
