"""Subjects as vendors name them: families, counts, rounds and benchmarks in words,
and a claim's two sides (pure: no database)."""

from __future__ import annotations

from datetime import date

import pytest

from benchdb.claims import resolve, subjects
from benchdb.claims.facts import ClaimFacts, ResultFacts, system_matches
from benchdb.vocabulary import ROUND_PUBLISHED


def _result(model: str, n: int, name: str = "", folder: str = "sys") -> ResultFacts:
    return ResultFacts(
        pk=1, round="v3.0", submitter="X", system_folder=folder, system_name=name,
        division="closed", availability="available", accelerators=n,
        accelerator_model=model, framework="", benchmark="gpt3", score_minutes=1.0,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "family", "count"),
    [
        ("311.9 min on 384 Gaudi2 accelerators", "Gaudi2", 384),
        ("64.3 min on 512 H100", "H100", 512),
        ("8x H100 DGX H100", "H100", 8),
        ("the IPU-POD16", "IPU-POD", 16),
        ("Bow Pod64 systems", "Bow Pod", 64),
        ("AMD Instinct MI350 Series GPUs", "MI350 Series", None),
        ("NVIDIA Blackwell", "Blackwell", None),
        ("在16个IPU上", "IPU", 16),
    ],
)
def test_it_finds_the_family_and_count_a_page_names(
    text: str, family: str, count: int | None
) -> None:
    first = subjects.find_mentions(text)[0]
    assert (first.family, first.count) == (family, count)


def test_a_model_number_is_not_a_count() -> None:
    """The 100 of "H100" is not the count of the DGX H100 that follows it."""
    found = subjects.find_mentions("8x H100 DGX H100")
    assert [(m.family, m.count) for m in found] == [("H100", 8), ("DGX H100", None)]


@pytest.mark.parametrize(
    ("text", "family", "count"),
    [
        # Intel newsroom, Training v2.0 (2022-06-29): the 50 ends the model's name
        ("For ResNet-50, Gaudi2 delivers a 36% reduction in time-to-train", "Gaudi2", None),
        # the comma of a count separates thousands, not a clause
        ("CoreWeave used 3,584 Nvidia HGX-H100s", "H100", 3584),
        # EE Times on Training v2.0 (2022-07-01)
        ("with 4096 Google TPUv4s or 4216 Nvidia A100s", "A100", 4216),
    ],
)
def test_the_number_ending_a_model_name_is_no_count(text: str, family: str, count: int) -> None:
    found = [m for m in subjects.find_mentions(text) if m.family == family]
    assert [(m.family, m.count) for m in found] == [(family, count)]


@pytest.mark.parametrize(
    ("mention", "model", "n", "ok"),
    [
        ("Gaudi2", "Habana Gaudi2", 384, True),
        ("Gaudi2", "Intel Gaudi2", 8, True),
        ("H100", "NVIDIA H100-SXM5-80GB", 512, True),
        ("H100", "NVIDIA A100-SXM4-80GB", 8, False),
        ("MI350 Series", "AMD Instinct MI355X", 8, True),
        ("MI350 Series", "AMD Instinct MI300X", 8, False),
        ("Blackwell", "NVIDIA B200-SXM-180GB", 8, True),
        ("IPU", "Graphcore Bow IPU", 16, False),
        ("IPU", "Graphcore IPU GC200", 16, True),
        # trademark marks as Training v4.0's systems JSON writes them (Intel-HabanaLabs
        # HLS-Gaudi2-N128-PT.json): the GPT-3 result on 1,024 Gaudi 2
        ("Gaudi2", "Intel(R) Gaudi(R) 2 AI Accelerator", 1024, True),
        ("Gaudi3", "Intel(R) Gaudi(R) 2 AI Accelerator", 1024, False),
        ("H100", "NVIDIA(R) H100(TM)", 8, True),
    ],
)
def test_a_family_matches_results_by_accelerator_model(
    mention: str, model: str, n: int, ok: bool
) -> None:
    assert system_matches(mention, _result(model, n)) is ok


def test_a_count_must_match_the_systems_accelerators() -> None:
    r = _result("Habana Gaudi2", 384)
    assert system_matches("Gaudi2", r, 384)
    assert not system_matches("Gaudi2", r, 256)


@pytest.mark.parametrize(
    ("text", "suite", "rounds"),
    [
        ("MLPerf 5.1 Training results", "training", ["v5.1"]),
        ("in MLPerf Training v3.0", "training", ["v3.0"]),
        ("浪潮信息英伟达强势霸榜MLPerf训练V1.1", "training", ["v1.1"]),
        ("In the November 2023 update of MLPerf", "training", ["v3.1"]),
        ("the June 2021 update", "training", ["v1.0"]),
        ("MLPerf Inference v4.1", "training", []),
        ("in November 2023 we shipped", "training", []),
        # a round after "results, version" or before "of MLPerf" (the class came from a
        # press page on MLPerf Training v6.0; the sentences are Google's and Intel's)
        ("Google's TPUs in the MLPerf Training results, version 4.0", "training", ["v4.0"]),
        ("Gaudi 2 in round 3.1 of MLPerf Training", "training", ["v3.1"]),
        ("the MLPerf Training benchmark round 6.0", "training", ["v6.0"]),
        ("version 4.1 of the MLPerf Inference benchmark", "training", []),
    ],
)
def test_rounds_named_in_words(text: str, suite: str, rounds: list[str]) -> None:
    assert subjects.rounds_named(text, suite, ROUND_PUBLISHED) == rounds


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Llama 2-70B LoRA", "llama2_70b_lora"),
        ("GPT-3 175B", "gpt3"),
        ("BERT-Large", "bert"),
        ("ResNet-50", "resnet"),
    ],
)
def test_benchmarks_as_marketed(text: str, key: str) -> None:
    assert subjects.benchmarks_named(f"on {text} in MLPerf")[0] == key


def test_each_side_of_a_head_to_head_gets_its_family_and_count() -> None:
    """The parser reads the faster side (64.3 min) as the claim's value; the family
    and count beside each figure become that side's."""
    sentence = "GPT-3 175B trained in 311.9 min on 384 Gaudi2 accelerators vs 64.3 min on 512 H100."
    c = ClaimFacts(
        kind="head_to_head", value=64.3, unit="min", system="H100",
        compared_value=311.9, compared_system="Gaudi2", benchmark_key="gpt3",
    )  # fmt: skip
    page = resolve.PageContext(title="Gaudi2 in MLPerf Training v3.0", published=None)
    got = resolve.resolve_claim(c, sentence, page, ROUND_PUBLISHED)
    assert (got.system, got.accelerators) == ("H100", 512)
    assert (got.compared_system, got.compared_accelerators) == ("Gaudi2", 384)
    assert got.round == "v3.0" and "round-title" in got.context


def test_the_previous_product_is_named_by_its_family() -> None:
    c = ClaimFacts(kind="multiplier", value=1.6, unit="x", system="Bow Pod16")
    page = resolve.PageContext(title="Bow Pod16 in MLPerf Training v2.0")
    got = resolve.resolve_claim(
        c, "Bow Pod16 delivered up to 1.6X vs the previous product on BERT-Large.", page,
        ROUND_PUBLISHED,
    )  # fmt: skip
    assert got.compared_system == "IPU" and "compared-previous" in got.context
    assert (got.benchmark_key, got.round) == ("bert", "v2.0")


def test_a_round_named_as_the_baseline_is_not_the_claims() -> None:
    """ "Compared with our MLPerf v0.7 submission, up to 2.1x": the round is the page's."""
    c = ClaimFacts(kind="multiplier", value=2.1, unit="x")
    page = resolve.PageContext(title="NVIDIA MLPerf Training v1.1", published=date(2021, 12, 1))
    got = resolve.resolve_claim(
        c, "与 1 年前我们自己提交的 MLPerf v0.7 相比,我们观察到芯片对芯片的改进高达 2.1 倍", page,
        ROUND_PUBLISHED,
    )  # fmt: skip
    assert got.round == "v1.1"


@pytest.mark.parametrize(
    ("named", "submitter", "ok"),
    [
        # the submitter names of Intel's Gaudi results: Training v3.1 folder and name,
        # v4.0 systems JSON ("HabanaLabs"); the trade press writes "Intel" or "Habana"
        ("Intel", "Intel-HabanaLabs", True),
        ("Intel", "HabanaLabs", True),
        ("Habana", "Intel-HabanaLabs", True),
        ("Habana", "HabanaLabs", True),
        ("Intel", "NVIDIA", False),
        ("Habana", "Intel", False),
        ("NVIDIA", "Azure+NVIDIA", True),
    ],
)
def test_a_company_names_its_submitting_arm(named: str, submitter: str, ok: bool) -> None:
    from benchdb.claims.facts import submitter_name_matches

    assert submitter_name_matches(named, submitter) is ok


@pytest.mark.parametrize(
    ("text", "mention", "count"),
    [
        # Silverton Consulting on Training v3.0 (2023-07-12), Dell's results
        (
            "another Dell submission (#16) that also had 4 Intel Platinum CPUs but used 16 NVIDIA"
            " A100-SXM-80GB GPUs, which trained the same model in 14.4 minutes",
            "A100-SXM-80GB",
            16,
        ),
        (
            "a Dell result with 4 Intel Platinum CPUs and 16 NVIDIA H100-SXM5-80GB GPUs",
            "H100-SXM5-80GB",
            16,
        ),
    ],
)
def test_a_memory_variant_is_part_of_the_mention(text: str, mention: str, count: int) -> None:
    found = subjects.find_mentions(text)[0]
    assert (found.text, found.count) == (mention, count)


@pytest.mark.parametrize(
    ("mention", "model", "ok"),
    [
        ("A100-40GB", "NVIDIA A100-SXM4-40GB", True),
        ("A100-40GB", "NVIDIA A100-SXM4-80GB", False),  # the variant the text excludes
        ("A100-SXM-80GB", "NVIDIA A100-SXM4-80GB", True),
        ("A100-SXM-80GB", "NVIDIA A100-PCIe-80GB", True),  # the size is what is named
        ("A100-80GB", "NVIDIA A100", False),  # no size stated: cannot be told
        ("A100", "NVIDIA A100-SXM4-80GB", True),
    ],
)
def test_a_result_must_be_the_memory_variant_named(mention: str, model: str, ok: bool) -> None:
    assert system_matches(mention, _result(model, 8)) is ok
