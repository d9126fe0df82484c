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
