"""Systems files and scaling.json (``ingest.training.parsers.systems``), on the real
files in ../shared/mlperf and on small files written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.parsers.types import ParseError
from ingest.training.parsers import systems as mlperf

V11 = "training_results_v1.1"


def test_a_duplicate_key_in_systems_json_is_a_warning_with_its_line(mlperf_data):
    rel = f"{V11}/Graphcore/systems/ipu-pod128-POPART-closed.json"
    raw = (mlperf_data / rel).read_bytes()
    system = mlperf.parse_systems_json(raw, rel)
    [dup] = [p for p in system.problems if "duplicate key" in p.message]
    assert "host_storage_type" in dup.message and dup.severity == "warning"
    assert b'"host_storage_type"' in raw.split(b"\n")[dup.line - 1]
    assert raw.count(b'"host_storage_type"') == 2
    assert system.accelerators == int(system.raw["number_of_nodes"]) * int(
        system.raw["accelerators_per_node"]
    )


def test_invalid_systems_json_raises_with_the_line():
    data = b'{\n  "submitter": "X",\n  "division": "closed",,\n}\n'
    with pytest.raises(ParseError) as exc:
        mlperf.parse_systems_json(data, "X/systems/bad.json")
    assert exc.value.line == 3 and "X/systems/bad.json:3" in str(exc.value)


def test_a_usable_scaling_factor_is_read():
    assert mlperf.parse_scaling_json(b'{"scaling_factor": 1.023}') == 1.023


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"scaling_factor": 0}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": 1e999}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": NaN}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": -1.5}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": 1e-320}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": 1e300}', "must be in [0.01, 10]"),
        (b'{"scaling_factor": ' + b"9" * 401 + b"}", "OverflowError"),
        (b'{"scaling_factor": ' + b"9" * 5000 + b"}", "not read"),
        (b'{"scaling_factor": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested deeper"),
        (b'{"scaling_factor": "fast"}', "no usable scaling_factor"),
        (b'{"factor": 1.1}', "no usable scaling_factor"),
        (b"[1.1]", "not a JSON object"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_an_unusable_scaling_factor_is_a_parse_error_with_its_reason(data, reason):
    with pytest.raises(ParseError) as exc:
        mlperf.parse_scaling_json(data, "s/scaling.json")
    assert reason in exc.value.reason and exc.value.path == "s/scaling.json"


def test_systems_json_nested_too_deep_is_refused_not_a_recursion_error():
    deep = b'{"submitter": "X", "notes": ' + b"[" * 950 + b"]" * 950 + b"}"
    with pytest.raises(ParseError, match="nested deeper than 32"):
        mlperf.parse_systems_json(deep, "X/systems/deep.json")
    with pytest.raises(ParseError, match="nested deeper than 32"):
        mlperf.parse_entry_json(deep, "v0.5.0/x/results/s/entry.json")


def test_bad_values_in_a_systems_file_are_warnings_and_the_rest_is_kept():
    data = (
        b'{\n "submitter": "Ac\\u0000me",\n "division": "closed",\n "status": "available",\n'
        b' "number_of_nodes": "3e9",\n "accelerators_per_node": "8",\n'
        b' "host_processors_per_node": 1e400,\n "framework": "' + b"x" * 10 + b'"\n}\n'
    )
    system = mlperf.parse_systems_json(data, "Acme/systems/s.json")
    assert system.submitter == "Ac\ufffdme" and system.raw["submitter"] == "Ac\ufffdme"
    assert system.number_of_nodes is None and system.accelerators_per_node == 8
    assert (
        system.host_processors_per_node is None and system.raw["host_processors_per_node"] is None
    )
    assert system.division == "closed" and system.framework == "x" * 10
    messages = [(p.line, p.message) for p in system.problems]
    assert (5, "number_of_nodes is outside [0, 1e+06) (benchdb sanity bound): not kept: '3e9'") in (
        messages
    )
    assert any("NUL character replaced" in m for _, m in messages)
    assert any("inf is not a finite number" in m for _, m in messages)
    assert all(p.severity == "warning" for p in system.problems)


def test_a_total_of_a_million_accelerators_is_not_kept():
    data = b'{"status": "available", "number_of_nodes": 2000, "accelerators_per_node": 1000}'
    system = mlperf.parse_systems_json(data, "s.json")
    assert (system.number_of_nodes, system.accelerators_per_node) == (2000, 1000)
    assert system.accelerators is None
    assert any("total not kept" in p.message for p in system.problems)


def test_an_overlong_submitter_or_division_is_not_kept():
    data = b'{"submitter": "' + b"S" * 300 + b'", "division": "' + b"d" * 40 + b'"}'
    system = mlperf.parse_systems_json(data, "s.json")
    assert system.submitter == "" and system.division == ""
    assert sum("characters, over" in p.message for p in system.problems) == 2


def test_an_unknown_availability_spelling_is_a_warning_with_its_line_not_a_silent_blank():
    data = b'{\n "submitter": "Acme",\n "status": "Available soon",\n "division": "closed"\n}\n'
    system = mlperf.parse_systems_json(data, "Acme/systems/x.json")
    assert system.availability == ""
    [p] = [p for p in system.problems if "availability" in p.message]
    assert p.line == 3 and p.severity == "warning" and "'Available soon'" in p.message


def test_v31_available_on_premise_without_hyphen_is_available():
    data = b'{"submitter": "Acme", "status": "Available on premise", "division": "closed"}'
    system = mlperf.parse_systems_json(data, "Acme/systems/x.json")
    assert system.availability == "available"
    assert not [p for p in system.problems if "availability" in p.message]


def test_v06_nvidia_key_value_systems_file_is_read_with_its_availability():
    """All 22 of NVIDIA's v0.6 systems files are mlperf_log_utils lines, not JSON: their
    ``status`` (onprem) was lost as "not valid JSON" before."""
    path = "NVIDIA/systems/dgx1_ngc19.05_mxnet.json"
    data = (
        Path(__file__).parents[3] / "data/result_ids/v0.6/dgx1_ngc19.05_mxnet.json"
    ).read_bytes()
    with pytest.raises(ValueError):
        json.loads(data)
    system = mlperf.parse_systems_json(data, path)
    assert (system.availability, system.division, system.submitter) == (
        "available",
        "closed",
        "NVIDIA",
    )
    assert system.system_name == "1xDGX-1 with V100"
    assert (system.accelerator_model, system.number_of_nodes, system.accelerators) == (
        "Tesla V100-SXM2-16GB",
        1,
        8,
    )
    assert system.framework == "MXNet NVIDIA Release 19.05"
    [note] = system.problems
    assert note.severity == "warning" and note.line == 1 and "v0.6" in note.message


@pytest.mark.parametrize(
    "data",
    [
        b'org: {"value": "X"}\nthis is not a key-value line\n',
        b'org: {"novalue": 1}\n',
        b"org: [1, 2]\n",
        b"",
    ],
)
def test_other_non_json_systems_files_stay_errors(data):
    with pytest.raises(ParseError):
        mlperf.parse_systems_json(data, "X/systems/x.json")


def test_a_hostile_entry_literal_is_only_data():
    data = b'status: {"value": "onprem"}\nentry: {"value": "__import__(\'os\').system(\'x\')"}\n'
    system = mlperf.parse_systems_json(data, "X/systems/x.json")
    assert system.availability == "available" and system.framework == ""
