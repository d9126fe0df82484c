"""Claim extraction on the real pages in ../shared/vendor (figures from the pages' own
text) and on sentences written here."""

from __future__ import annotations

import re
import time

import pytest

from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.claims.parsers.text import (
    MAX_COUNT,
    MAX_SENTENCE_CHARS,
    MAX_VALUE,
    extract_claims,
    to_count,
    to_number,
)

from .vendor_pages import NV_ROW, find, nv_page, page_claims


@pytest.mark.parametrize(
    "name",
    [
        "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt",
        "graphcore-mlperf-training-v1.1-results.zh.txt",
    ],
)
def test_graphcore_v11_claims_in_both_languages(name: str) -> None:
    text, claims = page_claims(name)
    (h2h,) = [c for c in claims if c.kind == "head_to_head"]
    assert (h2h.value, h2h.compared_value, h2h.unit) == (28.3, 29.1, "min")
    assert (h2h.system, h2h.compared_system, h2h.benchmark_key) == (
        "IPU-POD16",
        "DGX A100",
        "resnet",
    )
    assert "28.3" in text[h2h.start : h2h.end] and "29.1" in text[h2h.start : h2h.end]
    for value, system in ((5.67, "IPU-POD128"), (3.79, "IPU-POD256")):
        (c,) = find(claims, "time", value)
        assert (c.system, c.benchmark_key, c.unit) == (system, "resnet", "min")
    (bert,) = find(claims, "time", 5.78)
    assert (bert.system, bert.benchmark_key) == ("IPU-POD128", "bert")
    for value, system, bench in (
        (24, "IPU-POD16", "resnet"),
        (41, "IPU-POD64", "resnet"),
        (5, "IPU-POD16", "bert"),
        (12, "IPU-POD64", "bert"),
    ):
        found = find(claims, "percentage", value, system=system, benchmark_key=bench)
        assert found, (value, system)
        assert all(c.baseline in ("first-submission", "previous-round") for c in found)


def test_english_open_submission_names_the_division() -> None:
    """ "5.78 minutes on the new IPU-POD128, in our open submission" -> open."""
    _, claims = page_claims("graphcore-mlperf-training-v1.1-performance-at-scale.en.txt")
    (bert,) = find(claims, "time", 5.78)
    assert bert.division == "open"


def test_chinese_repost_single_server_bert_takes_its_system_from_context() -> None:
    """ "為BERT提供了最快的單服務器訓練時間結果,為10.6分鐘": the system is the IPU-POD64
    of the sentences before; the round is named ("本輪MLPerf 1.1訓練")."""
    _, claims = page_claims("graphcore-mlperf-training-v1.1-results.zh.txt")
    (c,) = find(claims, "time", 10.6)
    assert (c.system, c.benchmark_key, c.round, c.context) == (
        "IPU-POD64",
        "bert",
        "v1.1",
        ("system",),
    )
    (eff,) = find(claims, "time", 1.8)
    assert eff.unit == "h" and eff.non_mlperf == "EfficientNet-B4"


def test_v10_article_just_over_nine_minutes() -> None:
    _, claims = page_claims("graphcore-mlperf-training-v1.0-first-results.en.txt")
    (bert,) = find(claims, "time", 9.0)
    assert (bert.qualifier, bert.system, bert.benchmark_key) == ("just over", "IPU-POD64", "bert")
    (resnet,) = find(claims, "time", 14.5)
    assert (resnet.system, resnet.benchmark_key) == ("IPU-POD64", "resnet")


def test_paddlepaddle_matches_popart_is_a_parity_claim() -> None:
    """ "The performance of the propeller (飞桨, PaddlePaddle) is similar to ... PopART"."""
    _, claims = page_claims("paddlepaddle-graphcore-mlperf-training-v2.0-joint-submission.en.txt")
    (parity,) = [c for c in claims if c.kind == "parity"]
    assert (parity.framework, parity.compared_framework, parity.benchmark_key, parity.round) == (
        "PaddlePaddle",
        "PopART",
        "bert",
        "v2.0",
    )
    (clock,) = find(claims, "multiplier", 1.4)
    assert (clock.system, clock.compared_system, clock.metric) == ("Bow-2000", "M2000", "clock")


def test_inspur_respectively_lists_map_numbers_to_benchmarks_in_order() -> None:
    _, claims = page_claims("inspur-mlperf-training-v1.1.zh.txt")
    pct = [(c.value, c.benchmark_key) for c in claims if c.kind == "percentage"]
    assert pct[:4] == [(18, "unet3d"), (14, "rnnt"), (11, "dlrm"), (8, "bert")]
    assert pct[5:8] == [(22, "bert"), (18, "maskrcnn"), (14, "rnnt")]
    assert all(c.baseline == "v1.0" for c in claims if c.kind == "percentage")


def test_nvidia_chip_to_chip_multiplier_is_per_accelerator_against_v07() -> None:
    _, claims = page_claims("nvidia-mlperf-training-v1.1-full-stack-optimization.zh.txt")
    (chip,) = find(claims, "multiplier", 2.1)
    assert (chip.qualifier, chip.baseline, chip.per_accelerator) == ("up to", "v0.7", True)
    (scale,) = [c for c in find(claims, "multiplier", 5.3) if c.baseline]
    assert (scale.qualifier, scale.per_accelerator) == ("up to", False)


def test_table_rows_are_claims_and_not_read_again_as_prose() -> None:
    """NVIDIA's table: one time claim per row with its MLPerf-ID; "75.90%" and "8x H100"
    inside the rows are not percentage or scale claims."""
    _, claims = page_claims("nvidia-training-performance-table-mlperf-v3.0.txt")
    assert len(claims) == 12 and {c.source for c in claims} == {"table"}
    first = claims[0]
    assert (
        first.value,
        first.benchmark_key,
        first.round,
        first.division,
        first.result_ids,
        first.accelerators,
    ) == (13.466, "resnet", "v3.0", "closed", ("3.0-2053",), 8)


def test_intel_mlperf_rows_are_marked_unverified_by_thepage_claims() -> None:
    _, claims = page_claims("intel-gaudi2-training-performance-table.txt")
    table = [c for c in claims if c.source == "table"]
    assert len(table) == 10 and all(c.unverified and c.round == "v3.1" for c in table)
    assert {c.benchmark_key for c in table} == {"gpt3", "stable_diffusion", "resnet", "bert"}


# --- claims on synthetic sentences ------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "kind", "value", "unit", "qualifier"),
    [
        ("Our system is up to 47% faster on BERT.", "percentage", 47, "%", "up to"),
        ("It trains ResNet-50 nearly 30x faster.", "multiplier", 30, "x", "nearly"),
        ("DLRM improved by more than 20 percent.", "percentage", 20, "%", "more than"),
        ("在BERT上性能提升近3倍。", "multiplier", 3, "x", "nearly"),
        ("训练速度提升逾50%。", "percentage", 50, "%", "more than"),
        ("訓練速度提高20%以上。", "percentage", 20, "%", "more than"),
        ("性能最高提升 2.5 倍。", "multiplier", 2.5, "x", "up to"),
        ("ResNet-50 trains in 16.4 mins on 8 Gaudi 2.", "time", 16.4, "min", ""),
        ("BERT 训练仅需 20 分钟。", "time", 20, "min", ""),
        ("BERT 訓練只要 45 秒。", "time", 45, "s", ""),
        ("It took 1.8 hours on 1,024 GPUs.", "scale", 1024, "GPU", ""),
        ("使用 8 颗 IPU 训练。", "scale", 8, "chip", ""),
        ("We used 3,584x H100 for ResNet-50.", "scale", 3584, "GPU", ""),
    ],
)
def test_units_and_qualifiers(
    sentence: str, kind: str, value: float, unit: str, qualifier: str
) -> None:
    claims = find(extract_claims(sentence), kind, value)
    assert claims, [(c.kind, c.value) for c in extract_claims(sentence)]
    assert (claims[0].unit, claims[0].qualifier) == (unit, qualifier)


def test_a_sentences_own_arithmetic_is_kept() -> None:
    """70 min against 91.5 s is 45.9x."""
    (mult,) = [
        c
        for c in extract_claims("Training took 70 minutes before and 91.5 s now, a 45.9x speedup.")
        if c.kind == "multiplier"
    ]
    assert mult.implied_value == pytest.approx(70 * 60 / 91.5)


def test_result_ids_are_collected_and_not_read_as_numbers() -> None:
    claims = extract_claims(
        "MLPerf Training v1.1 closed division ResNet-50 on IPU-POD16: 28.3 minutes"
        " (result 1.1-2040)."
    )
    (c,) = claims
    assert (c.value, c.result_ids, c.round, c.division) == (28.3, ("1.1-2040",), "v1.1", "closed")


def test_round_named_after_a_comparison_word_is_the_baseline() -> None:
    (c,) = extract_claims(
        "NVIDIA trains BERT 22% faster in MLPerf v1.1 compared with v1.0 on DGX A100."
    )
    assert (c.round, c.baseline, c.benchmark_key) == ("v1.1", "v1.0", "bert")


def test_spans_point_into_glossed_text() -> None:
    text = "在IPU-POD16上實(shí)現(xiàn)了24%的性能提升"
    (c,) = extract_claims(text)
    assert text[c.start : c.end] == "24%" and c.system == "IPU-POD16"
    assert re.search("實\\(shí\\)", c.sentence)


def test_chinese_faster_than_names_the_compared_system_and_the_count() -> None:
    """ "比 V100 快 30%": a 30% claim against V100; "8 张 A100": eight accelerators."""
    claims = extract_claims("在 8 张 A100 上训练 BERT 仅需 20 分钟,比 V100 快 30%。")
    (pct,) = [c for c in claims if c.kind == "percentage"]
    assert (pct.value, pct.system, pct.compared_system, pct.accelerators, pct.baseline) == (
        30,
        "A100",
        "V100",
        8,
        "",
    )
    (t,) = [c for c in claims if c.kind == "time"]
    assert (t.value, t.unit, t.accelerators, t.benchmark_key) == (20, "min", 8, "bert")


def test_head_to_head_with_a_shared_unit_in_the_order_named() -> None:
    text = "IPU-POD16 vs DGX A100 on ResNet-50: 28.3 vs 29.1 minutes."
    (c,) = extract_claims(text)
    assert (c.kind, c.value, c.compared_value, c.system, c.compared_system) == (
        "head_to_head",
        28.3,
        29.1,
        "IPU-POD16",
        "DGX A100",
    )
    assert text[c.start : c.end] == "28.3 vs 29.1 minutes"


def test_counts_of_wins_results_and_organizations() -> None:
    """Inspur: "包揽15个冠军", "14家公司", "共提交180项固定任务(Closed)成绩"; Graphcore:
    "more than 50 other members"."""
    _, claims = page_claims("inspur-mlperf-training-v1.1.zh.txt")
    counts = [(c.value, c.unit) for c in claims if c.kind == "count"]
    assert counts[:2] == [(16, "task"), (15, "win")]
    assert (14, "organization") in counts and (180, "task") in counts and (6, "task") in counts
    _, claims = page_claims("graphcore-mlperf-training-v1.0-first-results.en.txt")
    (members,) = [c for c in claims if c.kind == "count"]
    assert (members.value, members.qualifier, members.unit) == (50, "more than", "organization")


def test_places_in_a_top_m() -> None:
    """ "N of the top M" (training/13's 前5名中占据4位, here in English words): a count of
    places, M kept as the compared figure."""
    (c,) = [c for c in extract_claims("Dell systems took 3 of the top 10 spots in MLPerf.")]
    assert (c.kind, c.value, c.compared_value, c.unit) == ("count", 3, 10, "rank")
    (c,) = extract_claims("A100 systems took four out of the top five places in MLPerf HPC.")
    assert (c.value, c.compared_value, c.unit) == (4, 5, "rank")


# --- numbers that are no figure -------------------------------------------------------

BIG = "9" * 400  # float() reads it as infinity


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("28.3", 28.3),
        ("3,584", 3584.0),
        ("1000000000000000", MAX_VALUE),
        ("1000000000000001", None),
        (BIG, None),
        ("9" * 5000, None),
        ("nan", None),
        ("NaN", None),
        ("inf", None),
        ("-inf", None),
        ("1e400", None),
        ("", None),
        ("abc", None),
    ],
)
def test_to_number_keeps_finite_figures_only(text: str, expected: float | None) -> None:
    assert to_number(text) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (8.0, 8),
        (2.5, 2),
        (float(MAX_COUNT), MAX_COUNT),
        (MAX_COUNT + 1.0, None),
        (-1.0, None),
        (None, None),
    ],
)
def test_to_count_fits_an_integer_column(value: float | None, expected: int | None) -> None:
    assert to_count(value) == expected


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            f"MLPerf v1.1: IPU-POD16 trains ResNet-50 in {BIG} minutes on {BIG} GPUs.",
            ["time", "scale"],
        ),
        (f"MLPerf v1.1: ResNet-50 on {BIG} GPUs in 20 minutes.", ["scale", "time"]),
        (f"MLPerf v1.1: IPU-POD16 is {BIG}x faster than DGX A100 on ResNet-50.", ["multiplier"]),
        (f"MLPerf v1.1: IPU-POD16 trains BERT {BIG}% faster.", ["percentage"]),
        (
            f"IPU-POD16 takes {BIG} minutes vs 29.1 minutes on DGX A100, {BIG}x faster.",
            ["time", "time", "multiplier"],
        ),
    ],
)
def test_a_400_digit_number_is_a_claim_without_a_value(text: str, kinds: list[str]) -> None:
    """The claim keeps its sentence and span; its value, count and arithmetic are None."""
    claims = extract_claims(text)
    assert [c.kind for c in claims] == kinds
    for c in claims:
        assert c.sentence == text and c.accelerators is None and c.implied_value is None
        assert (c.value is None) == text[c.start : c.end].startswith(BIG)


def test_a_table_row_with_a_huge_accelerator_count_keeps_its_time() -> None:
    row = NV_ROW.replace("8x H100", "99999999999x H100")
    page = nv_page(row, NV_ROW.replace("8x H100", "9" * 800 + "x H100"))
    tables = parse_vendor_tables(page)
    rows = [c for c in extract_claims(page, tables=tables) if c.source == "table"]
    assert [(c.value, c.accelerators) for c in rows] == [(13.466, None), (13.466, None)]


def test_a_100k_character_sentence_is_read_in_pieces() -> None:
    """Text without a sentence end is cut at spaces into pieces of at most
    MAX_SENTENCE_CHARS: the work per piece is bounded, and a cut loses at most the
    one claim whose number and unit it separates."""
    text = "IPU-POD16 trains ResNet-50 in 28.3 minutes " * 2500
    claims = extract_claims(text)
    assert all(c.sentence_end - c.sentence_start <= MAX_SENTENCE_CHARS for c in claims)
    times = [
        c
        for c in claims
        if (c.kind, c.value, c.unit, c.system) == ("time", 28.3, "min", "IPU-POD16")
    ]
    pieces = (
        -(-len(text) // MAX_SENTENCE_CHARS) * 2
    )  # cuts fall at spaces, so pieces are a little shorter
    assert 2500 - pieces <= len(times) <= 2500
    assert all(text[c.start : c.end].startswith("28.3") for c in times)


def test_a_page_on_one_line_is_read_in_linear_time() -> None:
    """Every '.' on a line searched the whole line before it for an abbreviation: a
    0.4 MB page on one line took 23 s, 1 MB about four minutes."""
    sentence = "IPU-POD16 trains ResNet-50 in 28.3 minutes, 1.2x faster than before. "
    text = sentence * (1_000_000 // len(sentence))
    started = time.process_time()
    claims = extract_claims(text)
    assert time.process_time() - started < 60
    assert len(claims) > 1.9 * (1_000_000 // len(sentence))  # a few cut at piece ends


def test_a_version_after_a_model_name_in_a_table_is_no_round():
    """Intel's Gaudi 2 table: "LLaMA V3.1 8B" is a model's version; "MLPerf 3.1 - GPT3"
    on the same page names round v3.1."""
    from ingest.claims.parsers.tables import round_in

    assert round_in("LLaMA V3.1 8B") == ""
    assert round_in("MLPerf 3.1 - GPT3") == "v3.1"
    assert round_in("LLaMA V3.1 70B in MLPerf v4.1") == "v4.1"


def test_results_published_by_mlcommons_are_mlperf_claims() -> None:
    """A press story that names MLCommons but never the word MLPerf (as Reuters wrote
    of the v3.0 power results) speaks of MLPerf results; a page naming neither does
    not. The sentence is written in another vendor's words (Intel, Gaudi 2)."""
    text = (
        "In results published on Wednesday by MLCommons, an industry consortium, Intel's"
        " Gaudi 2 trained GPT-3 in 311 minutes on 384 accelerators."
    )
    (c,) = [c for c in extract_claims(text) if c.kind == "time"]
    assert c.mlperf_context is True
    bare = text.replace("by MLCommons, an industry consortium", "by Intel")
    (b,) = [c for c in extract_claims(bare) if c.kind == "time"]
    assert b.mlperf_context is False


def test_a_product_code_before_a_number_is_no_accelerator_count() -> None:
    """ "Radeon RX 7900 GPU": 7900 names the product, no count of GPUs (the class came
    from a report naming the Biren BR 104 GPU; the sentence is AMD's); the count
    beside it still is one."""
    found = extract_claims(
        "The Radeon RX 7900 GPU trails the 8 Instinct MI300X GPUs in the MLPerf Inference"
        " v4.1 Offline scenario."
    )
    scales = sorted(c.value for c in found if c.kind == "scale")
    assert scales == [8.0]


def test_a_host_processor_count_is_no_multiplier() -> None:
    """ "2x Intel Xeon Platinum 8480+ processors": two CPUs in the configuration, a
    hardware figure, not a gain (the class came from an AMD EPYC configuration line;
    the sentence is Intel's)."""
    found = extract_claims(
        "Each Gaudi 2 server pairs 8 Gaudi 2 accelerators with 2x Intel Xeon Platinum 8480+"
        " processors, and trained GPT-3 in 153.58 minutes in MLPerf Training v3.1."
    )
    assert not [c for c in found if c.kind == "multiplier"]
    cpu = [c for c in found if c.unit == "CPU"]
    assert [(c.kind, c.value, c.metric) for c in cpu] == [("spec", 2.0, "hardware")]
    found = extract_claims("2x 5th Gen Intel Xeon Platinum 8592+ processors host the accelerators.")
    assert [(c.kind, c.unit) for c in found if c.value == 2.0] == [("spec", "CPU")]


@pytest.mark.parametrize(
    ("text", "system"),
    [
        # a GPU cloud price list in a public repository (search index file 52613633240)
        ("| Lambda | H100 SXM (8x) | $2.76 | Cluster pricing |", "H100"),
        # a hosting guide in a public repository (search index file 54862174795)
        ("- H100 SXM (8x), 640 GB: fits mid-to-large models", "H100"),
    ],
)
def test_a_count_in_parentheses_after_a_product_is_its_count_not_a_gain(
    text: str, system: str
) -> None:
    """alpha-one-index's "H100 SXM (8×) | Llama 2 70B | 84.2 | DGX H100 | NVIDIA" row was
    read as "8x" faster than a DGX H100 and called inconsistent: "(8x)" after a product
    counts it. A figure in parentheses followed by a comparison stays a gain."""
    claims = extract_claims(text)
    assert [(c.kind, c.value, c.system) for c in claims if c.value == 8] == [("scale", 8.0, system)]
    assert not [c for c in claims if c.kind == "multiplier"]
    (gain,) = extract_claims("the H100 (3x) faster than A100")
    assert (gain.kind, gain.value) == ("multiplier", 3.0)
