"""Derived rows (benchdb/mlperf/training/derived.py: compare, divisions, software, scaling,
olympic steps, source links) and the framework labels they use. Pure: no database;
figures worked by hand."""

from __future__ import annotations

import csv
import io
import json

import pytest

from benchdb import vocabulary
from benchdb.mlperf.training import derived
from benchdb.tables import schemas, writers


def _row(id_: int, **kw) -> dict:
    base = {
        "id": id_,
        "round": "v1.1",
        "submitter": "S",
        "system": f"sys{id_}",
        "system_name": "",
        "division": "closed",
        "availability": "available",
        "benchmark": "resnet",
        "accelerator_model": "A",
        "accelerators": 8,
        "nodes": 1,
        "framework": "MXNet",
        "score_minutes": 10.0,
        "result_id": "",
        "url": f"/results/{id_}/",
    }
    return base | kw


@pytest.mark.parametrize(
    ("framework", "family"),
    [
        ("TensorFlow 1.15 Poplar SDK 2.3.0", "TensorFlow"),
        ("PopART Poplar SDK 2.1.0", "PopART"),
        ("PaddlePaddle (branch: develop, commitID: b2d8f6d)", "PaddlePaddle"),
        ("MxNet NVIDIA Release 21.09", "MXNet"),
        ("PyTorch NVIDIA Release 21.05", "PyTorch"),
        ("NGC MXNet 21.09 , NGC PyTorch 21.09 , NGC TensorFlow 21.09-tf1", "MXNet"),
        ("Lingvo-JAX", "JAX"),
        ("Lingvo-TF, https://github.com/tensorflow/lingvo", "TensorFlow"),
        ("SomethingNew 3", "SomethingNew"),
        ("", ""),
    ],
)
def test_framework_family(framework, family):
    assert vocabulary.framework_family(framework) == family


@pytest.mark.parametrize(
    ("framework", "stack", "sdk"),
    [
        ("PopART Poplar SDK 2.1.0", "POD-SW 2.0.0", "Poplar SDK 2.1.0"),
        ("MxNet NVIDIA Release 21.09", "", "NGC 21.09"),
        ("NGC MXNet 21.09 , NGC PyTorch 21.09", "", "NGC 21.09"),
        ("PaddlePaddle (branch: develop)", "POD-SW 2.5.1 Ubuntu 18.04.6", "POD-SW 2.5.1"),
        ("Lingvo-JAX", "{'lingvo_CL': '404060414'}", ""),
    ],
)
def test_sdk_version(framework, stack, sdk):
    assert vocabulary.sdk_version(framework, stack) == sdk


def test_compare_rows_default_baseline_is_the_first_picked_and_speedup_is_a_ratio_of_scores():
    first = derived.compare_rows([_row(2, score_minutes=29.0), _row(1, score_minutes=28.0)])
    assert first[0]["baseline"] and first[1]["speedup"] == 29.0 / 28.0
    rows = derived.compare_rows(
        [_row(1, score_minutes=28.0, accelerators=16), _row(2, score_minutes=29.0)], base_id=2
    )
    a, b = rows
    assert b["baseline"] and not a["baseline"]
    assert a["speedup"] == 29.0 / 28.0
    assert a["speedup_per_accelerator"] == (29.0 / 28.0) * 8 / 16
    assert a["flags"] == "different accelerator count (16 vs 8)" and b["flags"] == ""
    again = derived.compare_rows(
        [_row(1, score_minutes=28.0), _row(2, score_minutes=29.0)], base_id=1
    )
    assert again[1]["speedup"] == 28.0 / 29.0 and again[0]["baseline"]


@pytest.mark.parametrize(
    ("benchmark", "other", "within"),
    [("resnet", 28.6, True), ("resnet", 27.2, False), ("bert", 27.0, True), ("bert", 26.0, False)],
)
def test_a_difference_below_run_to_run_variation_is_called_noise(benchmark, other, within):
    """2.5% for imaging benchmarks, 5% for the others."""
    rows = derived.compare_rows(
        [
            _row(1, score_minutes=28.0, benchmark=benchmark),
            _row(2, score_minutes=other, benchmark=benchmark),
        ]
    )
    assert ("within run-to-run variation" in rows[1]["flags"]) is within


def test_comparison_flags_name_every_difference_the_guidelines_require():
    base = _row(1)
    other = _row(
        2, round="v1.0", division="open", availability="research", accelerators=16, benchmark="bert"
    )
    flags = derived.comparison_flags(other, base)
    assert flags == [
        "different benchmark (bert vs resnet): not comparable",
        "different round (v1.0 vs v1.1)",
        "different division (open vs closed)",
        "different availability category (research vs available)",
        "different accelerator count (16 vs 8)",
        "open division: model, hyperparameters or quality target may differ from closed rules",
    ]
    assert derived.comparison_flags(_row(3), base) == []
    assert derived.compare_rows([base, other], base_id=1)[1]["speedup"] is None


def test_scaling_rows_efficiency_relative_to_the_smallest_system_of_each_series():
    rows = [
        _row(1, accelerators=64, score_minutes=8.0, framework="TF"),
        _row(2, accelerators=16, score_minutes=28.0, framework="TF"),
        _row(3, accelerators=16, score_minutes=30.0, framework="PopART"),
        _row(4, accelerators=64, score_minutes=None, framework="TF"),
    ]
    out = derived.scaling_rows(rows)
    assert [(r["framework_family"], r["accelerators"]) for r in out] == [
        ("PopART", 16),
        ("TensorFlow", 16),
        ("TensorFlow", 64),
    ]
    r64 = out[2]
    assert r64["efficiency"] == (28.0 * 16) / (8.0 * 64) == 0.875
    assert r64["ideal_minutes"] == 7.0 and r64["speedup"] == 3.5
    assert r64["reference_system"] == "sys2" and r64["accelerator_minutes"] == 512.0
    assert out[0]["efficiency"] == out[1]["efficiency"] == 1.0


def test_software_rows_progress_along_a_line_and_against_the_fastest_of_the_same_size():
    rows = [
        _row(
            1,
            round="v1.0",
            accelerators=16,
            framework="PopART Poplar SDK 2.1.0",
            score_minutes=34.0,
        ),
        _row(
            2,
            round="v2.0",
            accelerators=16,
            framework="PopART Poplar SDK 2.5.1",
            score_minutes=20.0,
        ),
        _row(3, round="v2.0", accelerators=16, framework="PaddlePaddle", score_minutes=21.0),
    ]
    out = {r["id"]: r for r in derived.software_rows(rows, {3: "POD-SW 2.5.1"})}
    model = rows[0]["accelerator_model"]
    assert out[1]["line"] == out[2]["line"] == f"S {model} 16× PopART"
    assert out[2]["progress"] == 34.0 / 20.0 and out[1]["progress"] == 1.0
    assert out[3]["relative_to_fastest"] == 21.0 / 20.0 and out[2]["relative_to_fastest"] == 1.0
    assert out[3]["sdk"] == "POD-SW 2.5.1" and out[1]["sdk"] == "Poplar SDK 2.1.0"


def test_division_rows_pair_open_with_the_closed_twin_and_list_hyperparameter_differences():
    rows = [
        _row(
            1, division="closed", system="pod16-closed", system_name="IPU-POD16", score_minutes=32.0
        ),
        _row(2, division="open", system="pod16-open", system_name="IPU-POD16", score_minutes=26.0),
        _row(3, division="open", system="tpu", system_name="tpu", score_minutes=800.0),
    ]
    hyper = {1: {"lr": 0.1, "bs": 64}, 2: {"lr": 0.2, "bs": 64, "warmup": 5}}
    pair, alone = derived.division_rows(rows, hyper)
    assert (pair["closed_id"], pair["open_id"], pair["open_speedup"]) == (1, 2, 32.0 / 26.0)
    assert pair["differences"] == "lr: 0.1 -> 0.2; warmup: - -> 5"
    assert alone["closed_id"] is None and alone["open_speedup"] is None


def test_olympic_steps_from_run_roles():
    runs = [
        {"file": "result_0.txt", "index": 0, "role": "failed", "time_to_train_minutes": 29.5},
        {
            "file": "result_1.txt",
            "index": 1,
            "role": "dropped_fastest",
            "time_to_train_minutes": 28.0,
        },
        {"file": "result_2.txt", "index": 2, "role": "counted", "time_to_train_minutes": 28.5},
        {"file": "result_3.txt", "index": 3, "role": "counted", "time_to_train_minutes": 29.0},
        {"file": "result_4.txt", "index": 4, "role": "counted", "time_to_train_minutes": 28.3},
    ]
    steps = derived.olympic_steps(runs, 1.5)
    assert [f for f, _, _ in steps.ordered] == [
        "result_1.txt",
        "result_4.txt",
        "result_2.txt",
        "result_3.txt",
    ]
    assert steps.failed == ("result_0.txt",)
    assert steps.mean == pytest.approx((28.5 + 29.0 + 28.3) / 3)
    assert steps.score == pytest.approx(steps.mean * 1.5)


def test_eval_points_take_a_dict_metric_part_and_skip_non_numbers():
    curve = [
        [1, {"BBOX": 0.2, "SEGM": 0.18}, 0, 10],
        [2, {"BBOX": 0.3}, 0, 20],
        [None, 0.5, 0, 30],
        [3, "x", 0, 40],
    ]
    assert derived.eval_points(curve, "BBOX") == [(1.0, 0.2), (2.0, 0.3)]
    assert derived.eval_points([[1, 0.5, 0, 1]], None) == [(1.0, 0.5)]


def test_line_url_highlights_run_start_to_run_stop_on_github_only():
    gh = "https://github.com/mlcommons/training_results_v1.1"
    assert derived.line_url(gh, "abc", "G/r.txt", 27, 138) == f"{gh}/blob/abc/G/r.txt#L27-L138"
    assert derived.line_url("/data/repo", "", "G/r.txt", 27, 138) == "/data/repo/G/r.txt"


def test_derived_rows_read_the_same_as_csv_and_json():
    cols = schemas.columns("benchdb.scaling/1")
    rows = derived.scaling_rows(
        [_row(1, accelerators=16, score_minutes=28.0), _row(2, accelerators=64, score_minutes=8.0)]
    )
    doc = json.loads(writers.to_json(rows, cols, "benchdb.scaling/1"))
    parsed = list(csv.DictReader(io.StringIO(writers.to_csv(rows, cols))))
    assert doc["columns"] == list(cols) == list(parsed[0])
    assert [float(r["efficiency"]) for r in parsed] == [r["efficiency"] for r in doc["rows"]]


def test_hyperparameter_differences_take_a_one_element_list_for_its_element():
    # v1.1 Graphcore BERT: the closed log writes eval_samples [10000], the open one 10000
    closed = {"eval_samples": [10000], "train_samples": [3872218], "seed": [1, 2]}
    opened = {"eval_samples": 10000, "train_samples": [3664856], "seed": [1, 2]}
    assert derived.hyperparameter_differences(closed, opened) == [
        "train_samples: 3872218 -> 3664856"
    ]


def test_software_lines_keep_accelerator_models_apart():
    rows = [
        _row(1, round="v1.1", accelerators=16, accelerator_model="GC200", framework="PopART"),
        _row(2, round="v2.0", accelerators=16, accelerator_model="Bow IPU", framework="PopART"),
    ]
    out = {r["id"]: r for r in derived.software_rows(rows, {})}
    assert (out[1]["line"], out[2]["line"]) == ("S GC200 16× PopART", "S Bow IPU 16× PopART")
    assert out[2]["progress"] == 1.0  # the first round of its own line


def test_matching_choices_keep_what_agrees_with_every_value_chosen():
    choices = [
        {"submitter": "Graphcore", "accelerator": "GC200", "benchmark": "resnet", "sizes": 4},
        {"submitter": "Baidu", "accelerator": "Bow", "benchmark": "bert", "sizes": 2},
    ]
    wanted = {"submitter": "Baidu", "accelerator": "", "benchmark": "", "format": ""}
    assert derived.matching_choices(choices, wanted) == [choices[1]]
    assert derived.matching_choices(choices, {"accelerator": ["GC200", "Bow"]}) == choices
    assert derived.matching_choices(choices, {"benchmark": "ssd"}) == []
    assert derived.missing_choices(wanted, ("submitter", "accelerator", "benchmark")) == [
        "accelerator",
        "benchmark",
    ]
