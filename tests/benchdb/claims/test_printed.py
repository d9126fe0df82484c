"""Figures as printed (``benchdb.claims.printed``): a figure with a k/M/万 suffix is found
in its own clause, so the model and system named there are its own; a count after a
bound word ("more than", "upwards of", 逾, 多) pins no system, and a count claimed as a
bound holds for a result that ran on a count it allows (issue 20, classes 1-2).

The classes were seen on NVIDIA pages ("DeepSeek R1 at ~420k tokens/s on 72× GB300;
Llama3.1 405B ~16k tokens/s on 72× GB300", ainews247.org/story/36773; "憑藉逾5,000顆
Blackwell GPU", udn.com/news/story/7240/9139170); every sentence here is another
company's, quoted from its source."""

from __future__ import annotations

import pytest

from benchdb.claims import resolve, subjects
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.printed import bound_before, figure_at, figure_values
from benchdb.claims.readings import scale_verdict
from benchdb.claims.resolve_suite import models_named
from benchdb.vocabulary import CONSISTENT, UNVERIFIABLE

#: AMD (Igor'sLAB's key takeaways on MLPerf Inference 6.0, pulse.bot, 2026-04-15), two
#: items of its list: "MI355X hits 1.04M tokens/s on Llama 2 70B across 11 nodes" and
#: "Multi-node scaling efficiency reaches 92-93% for GPT-OSS-120B".
AMD_LIST = (
    "MI355X hits 1.04M tokens/s on Llama 2 70B across 11 nodes; Multi-node scaling"
    " efficiency reaches 92-93% for GPT-OSS-120B"
)


@pytest.mark.parametrize(
    ("text", "value", "printed"),
    [
        (AMD_LIST, 1.04e6, "1.04M"),
        # Google's TPU v6e ("~120k tokens/s"), the parser's own k suffix test
        ("Google's TPU v6e pod served ~120k tokens/s on Llama 2 70B Offline.", 120e3, "120k"),
        ("昇腾集群在 Llama 2 70B 上每秒生成2万个token。", 2e4, "2万"),
        ("CoreWeave used 3,584 Nvidia HGX-H100s", 3584, "3,584"),
    ],
)
def test_a_figure_is_found_with_its_suffix_applied(text: str, value: float, printed: str) -> None:
    m = figure_at(text, value)
    assert m is not None and m.group() == printed


def test_a_suffixed_figure_is_not_its_digits() -> None:
    # "1.04M" is 1,040,000: it is no figure 1.04, and "8K80"'s K is no suffix
    assert figure_at(AMD_LIST, 1.04) is None
    assert figure_values("a Tesla K80 and 16 MB") == {80.0, 16.0}


def test_a_k_or_m_figure_binds_the_model_of_its_own_clause() -> None:
    # before: the binder looked for "1040000" among the digits, found nothing, and the
    # claim took no model (abstained) or, in a list, the side's last family
    clause = subjects.clause_of(AMD_LIST, 1.04e6)
    assert clause.startswith("MI355X hits 1.04M") and "GPT-OSS" not in clause
    assert models_named(clause) == ["llama2-70b"]
    c = ClaimFacts(kind="throughput", value=1.04e6, unit="token/s", suite="inference")
    side, _ = resolve.sides(AMD_LIST, c.value)
    assert resolve._position(side, c.value) == AMD_LIST.index("1.04M")


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # EE Times on Training v3.0: "...claimed by cloud provider CoreWeave using more
        # than 3,000 Nvidia H100 GPUs" (tests/data/vendor-pages)
        (
            "The training crown was claimed by CoreWeave using more than 3,000 Nvidia H100 GPUs",
            "H100",
        ),
        # the same EE Times sentence as a Chinese page writes a bound: 逾 before the
        # count, 多 after it (constructed: no other company's 逾 sentence was found)
        ("CoreWeave使用逾3,000顆Nvidia H100 GPU", "H100"),
        ("CoreWeave使用3000多颗H100 GPU", "H100"),
    ],
)
def test_a_bounded_count_pins_no_system(text: str, family: str) -> None:
    (m,) = subjects.find_mentions(text)
    assert (m.family, m.count, m.bounded) == (family, None, True)


def test_an_exact_count_still_pins_its_system() -> None:
    (m,) = subjects.find_mentions("CoreWeave used 3,584 Nvidia HGX-H100s")
    assert (m.count, m.bounded) == (3584, False)


def test_a_bare_bounded_count_is_no_accelerator_count() -> None:
    # XDA on MLPerf Inference v3.0: "There are over 5,300 performance results and more
    # than 2,400 power measurement results"; a bare count of GPUs after "more than"
    # (EE Times) is no size either
    assert bound_before("There are over 5,300", len("There are over "))
    # MLCommons on Inference v4.0 (atyun, ../shared/vendor-dev/inference/11):
    # "来自23家提交组织的超过8500个性能结果"
    s = "来自23家提交组织的超过8500个性能结果"
    assert bound_before(s, s.index("8500")) and not bound_before(s, s.index("23"))
    assert resolve._bare_count("using more than 3,000 GPUs") is None
    assert resolve._bare_count("using 3,000 GPUs") == 3000


def _on(pk: int, n: int) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v3.0",
        submitter="NVIDIA+CoreWeave",
        system_folder=f"coreweave_hgxh100_n{n // 8}",
        system_name="",
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model="NVIDIA H100-SXM5-80GB",
        framework="PyTorch",
        benchmark="gpt3",
        score_minutes=10.94,
    )


@pytest.mark.parametrize(
    ("qualifier", "counts", "verdict", "linked"),
    [
        # EE Times on Training v3.0: "CoreWeave using more than 3,000 Nvidia H100 GPUs"
        # (its GPT-3 record ran on 3,584): the bound holds for the 3,584-GPU result
        ("more than", (512, 3584), CONSISTENT, [2]),
        ("at least", (3000, 512), CONSISTENT, [1]),
        # no result over the bound: unknown (benchdb may hold part of a round), as an
        # exact count that no result ran on is
        ("more than", (512, 2048), UNVERIFIABLE, []),
        ("less than", (3584,), UNVERIFIABLE, []),
        # an exact 3,000 is no 3,584 (before: "逾5,000顆" read as exactly 5,000)
        ("", (512, 3584), UNVERIFIABLE, []),
    ],
)
def test_a_bounded_count_holds_for_a_result_it_allows(
    qualifier: str, counts: tuple[int, ...], verdict: str, linked: list[int]
) -> None:
    c = ClaimFacts(kind="scale", value=3000.0, unit="GPU", qualifier=qualifier, round="v3.0")
    v = scale_verdict(c, [_on(i, n) for i, n in enumerate(counts, start=1)])
    assert v.verdict == verdict
    assert [lk.result for lk in v.links] == linked
