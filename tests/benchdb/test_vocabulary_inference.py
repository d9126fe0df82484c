"""MLPerf Inference names: folder spellings of every era."""

from __future__ import annotations

import pytest

from benchdb.vocabulary import (
    INFERENCE_BENCHMARKS,
    INFERENCE_LLM_BENCHMARKS,
    higher_is_better,
    inference_benchmark_for,
    inference_scenario_for,
)


@pytest.mark.parametrize(
    ("version", "folder", "benchmark"),
    [
        ("v0.5", "ssd-large", "ssd-large"),
        ("v0.7", "ssd-resnet34", "ssd-large"),
        ("v2.1", "ssd-resnet34", "retinanet"),
        ("v1.1", "ssd-mobilenet", "ssd-small"),
        ("v5.1", "llama3_1-8b", "llama3.1-8b"),
        ("v5.1", "mobilenet-v1-precision_float-1.0-128", "resnet"),
        ("v5.1", "llama3_1-70b-fp8_dyn", "llama3_1-70b-fp8_dyn"),
    ],
)
def test_model_folders_map_as_the_round_checker_maps_them(
    version: str, folder: str, benchmark: str
) -> None:
    assert inference_benchmark_for(version, folder) == benchmark


def test_a_submitter_mapping_is_used_when_the_round_has_none() -> None:
    assert inference_benchmark_for(
        "v5.1", "llama3_1-70b-fp8_dyn", {"llama3_1-70b-fp8_dyn": "llama2-70b-99.9"}
    ) == ("llama2-70b-99.9")


def test_scenario_spellings() -> None:
    assert [
        inference_scenario_for(s) for s in ("offline", "SingleStream", "Single Stream", "x")
    ] == [
        "Offline",
        "SingleStream",
        "SingleStream",
        None,
    ]


def test_units_and_benchmarks_are_consistent() -> None:
    assert set(INFERENCE_BENCHMARKS) >= INFERENCE_LLM_BENCHMARKS
    assert higher_is_better("Tokens/s") and not higher_is_better("Latency (ms)")
