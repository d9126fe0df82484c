"""Idioms that are no gain ("double down", "double-digit") and bound words before a
figure ("upwards of", "in excess of", 逾) (issue 20, classes 2-3).

The classes were seen on NVIDIA pages (a "doubles down" headline read as a 2x gain;
"憑藉逾5,000顆Blackwell GPU", udn.com/news/story/7240/9139170); the sentences here are
other companies', quoted from their sources.
"""

from __future__ import annotations

import pytest

from ingest.claims.parsers.text import extract_claims


def rows(text: str) -> list[tuple[str, float | None, str, str]]:
    return [(c.kind, c.value, c.unit, c.qualifier) for c in extract_claims(text)]


@pytest.mark.parametrize(
    "text",
    [
        # XDA Developers on MLPerf Inference v3.0 (2023-04-05), about MLCommons
        "With MLPerf Inference v3.0, the MLCommons group aims to double down on the philosophy"
        " of providing a fair and rigorous test of the machine-learning capabilities of devices"
        " while providing verifiable and reproducible results.",
        # the same sentence as the idiom's other forms
        "With MLPerf Inference v3.0, the MLCommons group doubled down on the philosophy of"
        " providing a fair and rigorous test.",
        "With MLPerf Inference v3.0, MLCommons is doubling down on a fair and rigorous test.",
        "With MLPerf Inference v3.0, submitters reported double-digit gains.",
    ],
)
def test_double_down_and_double_digit_are_no_multiplier(text: str) -> None:
    assert [r for r in rows(text) if r[0] == "multiplier"] == []


def test_a_gain_in_words_is_still_a_multiplier() -> None:
    # NVIDIA on Inference v4.0 (../shared/vendor/nvidia-h200-mlperf-inference-v4.0-records):
    # "the NVIDIA H100 Tensor Core GPU nearly tripled performance on the GPT-J LLM test"
    got = rows(
        "In MLPerf Inference v4.0, with TensorRT-LLM software, the NVIDIA H100 Tensor Core GPU"
        " nearly tripled performance on the GPT-J LLM test."
    )
    assert ("multiplier", 3.0, "x", "nearly") in got


@pytest.mark.parametrize(
    ("text", "qualifier"),
    [
        # EE Times on Training v3.0 (tests/data/vendor-pages): "more than 3,000"
        (
            "The training crown was claimed by cloud provider CoreWeave using more than 3,000"
            " Nvidia H100 GPUs",
            "more than",
        ),
        # the same count with the other English bound words
        ("CoreWeave trained GPT-3 on upwards of 3,000 Nvidia H100 GPUs", "more than"),
        ("CoreWeave trained GPT-3 on in excess of 3,000 Nvidia H100 GPUs", "more than"),
    ],
)
def test_bound_words_before_a_count_make_it_a_bound(text: str, qualifier: str) -> None:
    assert ("scale", 3000.0, "GPU", qualifier) in rows(text)
