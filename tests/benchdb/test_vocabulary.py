"""The shared vocabulary (``benchdb/vocabulary.py``): every benchmark is named, has its
claim patterns and aliases that land on it; every round has its date and rule tag."""

from __future__ import annotations

import re
from datetime import date

import pytest

from benchdb import vocabulary as v


def test_every_benchmark_has_claim_patterns() -> None:
    """A claim about any benchmark benchdb scores can be recognised in a vendor's text."""
    with_patterns = {key for _pattern, key in v.BENCHMARKS}
    assert sorted(set(v.BENCHMARK_NAMES) - with_patterns) == []


def test_each_benchmark_is_recognised_by_its_display_name() -> None:
    """The display name of a benchmark, written in a sentence, matches its own key's
    pattern first (the claim parser takes the first pattern that matches)."""
    unmatched = []
    for key, name in v.BENCHMARK_NAMES.items():
        sentence = f"Results on {name} in MLPerf Training."
        first = next((k for pat, k in v.BENCHMARKS if re.search(pat, sentence, re.I)), None)
        # ssd/retinanet share the SSD name; the verifier maps them by round.
        if first != key and {first, key} != {"ssd", "retinanet"}:
            unmatched.append((key, name, first))
    assert unmatched == []


def test_aliases_land_on_known_benchmarks() -> None:
    assert set(v.BENCHMARK_ALIASES.values()) <= set(v.BENCHMARK_NAMES)


def test_every_round_has_a_date_and_a_rule_tag_in_order() -> None:
    rounds = list(v.ROUNDS)
    assert rounds == v.round_order(rounds)
    dates = [d for d, _tag in v.ROUNDS.values()]
    assert dates == sorted(dates) and all(isinstance(d, date) for d in dates)
    assert all(tag for _d, tag in v.ROUNDS.values())
    assert v.ROUND_PUBLISHED["v1.1"] == date(2021, 12, 1)
    assert {"0.5", "1.1", "5.1"} <= v.KNOWN_ROUNDS


def test_round_parsers_agree() -> None:
    """The strict parser and the sort key read every known round the same way."""
    for r in v.ROUNDS:
        assert v.round_key(r) == v.round_tuple(r)
    with pytest.raises(ValueError):
        v.round_tuple("latest")
    assert v.round_key("latest") == (0,)


def test_availability_spellings_map_to_three_categories() -> None:
    assert set(v.AVAILABILITY.values()) == {"available", "preview", "research"}
    assert v.AVAILABILITY["onprem"] == "available"
    assert v.AVAILABILITY["rdi"] == "research"


@pytest.mark.parametrize(
    ("status", "category"),
    [
        # every spelling of a systems JSON ``status`` in training_results_v0.5 ... v5.1 and
        # hpc_results_v0.7 ... v3.0 (bench/availability_rounds.py lists them per round)
        ("cloud", "available"),
        ("research", "research"),
        ("on-premise", "available"),
        ("on-prem", "available"),
        ("preview", "preview"),
        ("onprem", "available"),
        ("available", "available"),
        ("Available on-premise", "available"),
        ("Available Cloud", "available"),
        ("Available in cloud", "available"),
        ("Available on premise", "available"),  # v3.1: 29 systems, empty before
        ("available on premise", "available"),  # v3.1: 2 systems, empty before
        ("Available cloud", "available"),
        ("Cloud", "available"),
        ("Preview", "preview"),
        ("Research, Development, or Internal (RDI)", "research"),
        (" Available  on-premise ", "available"),
        ("Available soon", ""),
        (None, ""),
    ],
)
def test_availability_of_every_spelling_seen(status: object, category: str) -> None:
    assert v.availability_of(status) == category


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("trained gpt-oss-20b in 9.4 minutes", "gpt_oss_20b"),
        ("GPT-OSS 20B pretraining", "gpt_oss_20b"),
        ("DeepSeek V3 in 2.02 minutes", "deepseekv3_671b"),
        ("DeepSeek-V3 671B at scale", "deepseekv3_671b"),
        ("Llama 3.1 8B pretraining", "llama31_8b"),
        ("FLUX.1 text-to-image", "flux1"),
    ],
)
def test_v60_benchmarks_as_vendors_write_them(text: str, key: str) -> None:
    first = next((k for pat, k in v.BENCHMARKS if re.search(pat, text, re.I)), None)
    assert first == key


def test_deepseek_r1_is_not_the_training_benchmark() -> None:
    """DeepSeek-R1 is an inference model; only V3 is MLPerf Training's."""
    assert not any(
        k == "deepseekv3_671b" for pat, k in v.BENCHMARKS if re.search(pat, "DeepSeek-R1", re.I)
    )


def test_v60_folder_names_are_canonical() -> None:
    assert v.canonical_benchmark("gpt_oss_20b", "v6.0") == "gpt_oss_20b"
    assert v.canonical_benchmark("deepseekv3_671b", "v6.0") == "deepseekv3_671b"
    assert v.canonical_benchmark("gpt-oss-20b", "v6.0") == "gpt_oss_20b"
    assert v.ROUNDS["v6.0"][1] == "6.0.0-rc6"


# Spellings of the 2026 models as press and vendor pages set them (the pages corpus of
# the search tool, stored copies): nebius.com/blog/posts/mlperf-training-v6-0-results
# ("Llama-3.1-8B", "GPT-OSS 20B"), lambda.ai/blog/mlperf-training-v6.0-... ("GPT-OSS-20B"),
# thedailyscout.com/s/lY-2mms84ho ("GPT‑OSS 120B", "DeepSeek‑R1" with U+2011, the
# non-breaking hyphen), nand-research.com/mlperf-inference-6-0-... ("GPT-OSS-120B",
# "WAN-2.2-T2V-A14B", "Qwen3-VL-235B-A22B"), storagereview.com/news/nvidia-sets-mlperf-
# inference-v6-0-records-... ("Wan 2.2", "DLRMv3", "Qwen3-VL"), machineherald-io.pages.dev/
# article/2026-04/21-mlperf-inference-v60-... ("YOLOv11 Large", "WAN-2.2").
def _first_inference_model(text: str) -> str | None:
    return next((k for pat, k in v.INFERENCE_MODEL_NAMES if re.search(pat, text, re.I)), None)


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("GPT\u2011OSS 120B", "gpt-oss-120b"),
        ("DeepSeek\u2011R1", "deepseek-r1"),
        ("GPT-OSS-120B", "gpt-oss-120b"),
        ("GPT-OSS 120B", "gpt-oss-120b"),
        ("WAN-2.2-T2V-A14B", "wan-2.2-t2v-a14b"),
        ("Wan 2.2", "wan-2.2-t2v-a14b"),
        ("Qwen3-VL-235B-A22B", "qwen3-vl-235b-a22b"),
        ("DLRMv3", "dlrm-v3"),
        ("YOLOv11 Large", "yolo"),
        ("Llama-3.1-8B", "llama3.1-8b"),
        ("Whisper", "whisper"),
    ],
)
def test_v6_inference_models_as_the_press_writes_them(text: str, model: str) -> None:
    assert _first_inference_model(text) == model


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Taiwan 2.2x faster", None),  # not Wan 2.2
        ("Qwen3.6-27B", "qwen3.6-27b"),  # not Qwen3-VL
        ("DLRM DCNv2", "dlrm-v2"),
        ("YOLOv8", None),  # not the v6.0 benchmark's model
    ],
)
def test_near_misses_are_not_the_v6_models(text: str, model: str | None) -> None:
    assert _first_inference_model(text) == model


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Llama-3.1-8B pre-training", "llama31_8b"),
        ("GPT-OSS-20B in 18.35 minutes", "gpt_oss_20b"),
        ("gpt\u2011oss\u201120b", "gpt_oss_20b"),
        ("DeepSeek\u2011V3 671B", "deepseekv3_671b"),
    ],
)
def test_v60_training_names_with_the_press_hyphens(text: str, key: str) -> None:
    first = next((k for pat, k in v.BENCHMARKS if re.search(pat, text, re.I)), None)
    assert first == key


def test_deepseek_r1_with_a_non_breaking_hyphen_is_not_the_training_benchmark() -> None:
    assert not any(
        k == "deepseekv3_671b"
        for pat, k in v.BENCHMARKS
        if re.search(pat, "DeepSeek\u2011R1", re.I)
    )


@pytest.mark.parametrize(
    ("benchmark", "model"),
    [
        ("llama2-70b-99.9", "llama2-70b"),
        ("dlrm-v2-99", "dlrm-v2"),
        ("yolo-95", "yolo"),  # rounds_v6: mAP >= 95 % of 53.4
        ("yolo-99", "yolo"),
        ("dlrm-v3", "dlrm-v3"),
        ("wan-2.2-t2v-a14b", "wan-2.2-t2v-a14b"),
        ("llama3.1-8b-edge", "llama3.1-8b-edge"),
    ],
)
def test_inference_base_model_drops_only_the_accuracy_variant(benchmark: str, model: str) -> None:
    assert v.inference_base_model(benchmark) == model
