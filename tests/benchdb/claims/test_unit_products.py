"""A count of units times the accelerators in each, against the whole the clause
states (:mod:`benchdb.claims.unit_products`). Pure, no database.

The phrase was seen on CoreWeave's MLPerf Training v5.0 page ("2,496 NVIDIA Blackwell
GPUs across 39 racks, each containing 64 active GPUs"); the sentences tested here are
other pages'. The results are written here by hand: their counts are what the test
sets, and the expected verdicts follow from N x M against T worked out here."""

from __future__ import annotations

from dataclasses import replace

from benchdb.claims import unit_products, verdicts
from benchdb.claims.facts import ClaimFacts, Link, ResultFacts
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE

# imbue, "From bare metal to a 70B model: infrastructure set-up and scripts", as quoted
# on https://magicalbits.net/?p=230748 (found with the search tool, corpus pages)
IMBUE = (
    "This post focuses on one cluster that had 4,088 H100 GPUs spread across 511 computers,"
    " with eight GPUs to a computer."
)
# AI @ Georgia Tech with Voltage Park, https://aigt.framer.website/sponsor-projects: units
# and their size, but no whole
AIGT = (
    "We tested a bare-metal cluster consisting of four nodes, each of which was equipped"
    " with 8x NVIDIA H100 80GB HMB3 SXM5 GPUs."
)


def _result(pk: int, accelerators: int, model: str = "NVIDIA H100-SXM5-80GB") -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v3.1",
        submitter="Example",
        system_folder=f"example_n{accelerators // 8}",
        system_name=f"Example ({accelerators // 8}x 8 GPUs)",
        division="closed",
        availability="available",
        accelerators=accelerators,
        accelerator_model=model,
        framework="PyTorch",
        benchmark="gpt3",
        score_minutes=10.0,
        nodes=accelerators // 8,
    )


def _claim(sentence: str, figure: str, value: float) -> ClaimFacts:
    start = sentence.index(figure)
    c = ClaimFacts(kind="scale", value=value, unit="node", round="v3.1")
    tags = unit_products.scope_tags(c, sentence, start, start + len(figure))
    return replace(c, context=tags)


def test_the_phrase_gives_units_size_whole_and_family() -> None:
    ((units, per, total, what, _span),) = unit_products.unit_product(IMBUE)
    assert (units, per, total, what) == (511, 8, 4088, "H100")  # "eight" read as 8


def test_units_and_size_with_no_whole_are_no_product() -> None:
    assert unit_products.unit_product(AIGT) == []


def test_only_a_factor_is_tagged_not_the_whole() -> None:
    assert unit_products.TAG in _claim(IMBUE, "511", 511.0).context
    assert _claim(IMBUE, "4,088", 4088.0).context == ()


def test_product_equal_to_the_whole_of_a_stored_result_is_consistent() -> None:
    c = _claim(IMBUE, "511", 511.0)
    assert "family:H100" in c.context
    # 511 x 8 = 4,088: the result on 4,088 H100 is linked; the 4,096-GPU one is not
    v = verdicts.verify_claim(c, [_result(1, 4088), _result(2, 4096)])
    assert v.verdict == CONSISTENT
    assert [lk.result for lk in v.links] == [1]


def test_product_off_the_whole_is_inconsistent_for_every_reading() -> None:
    # the same clause, had it said 510 computers: 510 x 8 = 4,080, not the 4,088 stated
    c = _claim(IMBUE.replace("511", "510"), "510", 510.0)
    v = verdicts.verify_claim(c, [_result(1, 4088), _result(3, 4088)])
    assert v.verdict == INCONSISTENT
    assert {lk.result for lk in v.links} == {1, 3}


def test_no_stored_result_on_the_whole_is_unverifiable() -> None:
    c = _claim(IMBUE, "511", 511.0)
    # a result on 4,088 accelerators of another family is no result of the H100 whole
    v = verdicts.verify_claim(c, [_result(1, 4096), _result(4, 4088, "AMD MI300X")])
    assert v.verdict == UNVERIFIABLE
    assert "4088" in v.details["reason"]


# the units-first form, seen on NVIDIA's page (training/10: "Using 34 72-GPU NVLink
# domains combined into a 2,496-GPU cluster"); here in Oracle's words, with its MLPerf
# Training v5.0 system 18xBM.GPU.GB200.4 (18 nodes of 4 GB200: 72 GPUs)
ORACLE = "OCI ran 18 4-GPU BM.GPU.GB200.4 nodes joined into one 72-GPU cluster."


def test_the_units_first_phrase_is_a_product() -> None:
    ((units, per, total, _what, _span),) = unit_products.unit_product(ORACLE)
    assert (units, per, total) == (18, 4, 72)
    assert unit_products.unit_product(ORACLE.replace("joined into one 72-GPU cluster", "")) == []


def test_a_pinned_subject_does_not_change_the_products_verdict() -> None:
    """18 x 4 = 72 holds against the result on 72 GPUs; 17 x 4 = 68 does not, whichever
    result a person pins (the verdict is the clause's product against its whole)."""
    gb200 = "NVIDIA GB200"
    whole, unit = _result(1, 72, gb200), _result(2, 4, gb200)
    for figure, verdict in (("18", CONSISTENT), ("17", INCONSISTENT)):
        c = _claim(ORACLE.replace("18", figure), figure, float(figure))
        pinned = [Link(unit.pk, "subject")]
        v = verdicts.verify_claim(c, [whole, unit], pinned=pinned)
        assert v.verdict == verdict
        assert [lk.result for lk in v.links] == [1]
