"""A gain over the submitter's own baseline submission (:mod:`benchdb.claims.own_baseline`),
and where a claim's figure stands in its sentence (``ingest.claims.facts._figure_span``).

The phrase was seen on MosaicML's MLPerf Training v2.0 page (mosaicml.com/blog/
mlperf-2022: "a 4.5x speed-up (23.8 minutes) compared to our baseline"); the sentence
tested here is the v2.1 post's. The results are MLPerf Training v2.1's
(mlcommons/training_results_v2.1 at 158189d, as ../shared/vendor-dev/training/TRUTH.json
gives them): open MosaicML 8xA100_80GB-methods bert 7.8960 min, 8xA100_80GB-baseline bert
21.3711 min; closed NVIDIA dgxa100_ngc22.09_pytorch (8 A100) bert 16.8821 min. The
expected ratio is divided here: 21.3711 / 7.8960 = 2.707."""

from __future__ import annotations

from dataclasses import replace

from benchdb.claims import own_baseline, resolve, verdicts
from benchdb.claims.facts import ResultFacts
from benchdb.vocabulary import CONSISTENT, INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED, UNVERIFIABLE
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}
# https://www.databricks.com/blog/mlperf-nlp-nov2022 (the whole post, found with the
# search tool, corpus pages; the corpus page 04 holds only its opening)
DATABRICKS = (
    "Our system and algorithmic optimizations achieve a 2.7x speed-up on training the NLP"
    " benchmark compared to a Hugging Face baseline1 (Figure 2)."
)
TITLE = "MosaicML Delivers Leading NLP Performance in MLPerf v2.1"


def _r(pk: int, submitter: str, folder: str, division: str, minutes: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v2.1",
        submitter=submitter,
        system_folder=folder,
        system_name=folder,
        division=division,
        availability="available",
        accelerators=8,
        accelerator_model="NVIDIA A100-SXM4-80GB",
        framework="PyTorch",
        benchmark="bert",
        score_minutes=minutes,
        nodes=1,
    )


METHODS = _r(1, "MosaicML", "8xA100_80GB-methods", "open", 7.8960)
BASELINE = _r(2, "MosaicML", "8xA100_80GB-baseline", "open", 21.3711)
NVIDIA = _r(3, "NVIDIA", "dgxa100_ngc22.09_pytorch", "closed", 16.8821)


def _gain(text: str = DATABRICKS) -> verdicts.ClaimFacts:
    page_text = f"{TITLE}\n\n{text}"  # the post's title, then the sentence
    (c,) = [c for c in claim_text.extract_claims(page_text) if c.kind == "multiplier"]
    page = resolve.PageContext(TITLE, page_text, None, "MosaicML")
    facts = claim_facts.claim_facts(c, page, DATES)
    # "the NLP benchmark" (MLCommons' task name for BERT) is not read as a benchmark yet
    return replace(facts, benchmark_key="bert")


def test_a_gain_over_our_baseline_reads_the_result_named_baseline() -> None:
    c = _gain()
    assert own_baseline.GAIN in c.context
    assert (c.submitter, c.round) == ("MosaicML", "v2.1")
    v = verdicts.verify_claim(c, [METHODS, BASELINE, NVIDIA])
    assert v.verdict == CONSISTENT  # 21.3711 / 7.8960 = 2.71x
    assert {(lk.result, lk.role) for lk in v.links} == {(1, "subject"), (2, "compared")}


def test_another_companys_or_a_products_baseline_is_not_the_own() -> None:
    for other in ("NVIDIA's baseline", "the A100 baseline"):
        c = _gain(DATABRICKS.replace("a Hugging Face baseline", other))
        assert own_baseline.GAIN not in c.context


def test_no_result_named_baseline_leaves_the_compared_side_missing() -> None:
    v = verdicts.verify_claim(_gain(), [METHODS, NVIDIA])
    assert v.verdict == UNVERIFIABLE
    assert "named baseline" in v.details["reason"]


# AI @ Georgia Tech with Voltage Park, https://aigt.framer.website/sponsor-projects
AIGT = (
    "This project was an incredible opportunity for our research division, letting us"
    " combine student-led research with real-world, enterprise goals. We tested a"
    " bare-metal cluster consisting of four nodes, each of which was equipped with 8x"
    " NVIDIA H100 80GB HMB3 SXM5 GPUs."
)


def test_a_figure_is_found_in_its_sentence_after_the_space_before_it() -> None:
    (c,) = [c for c in claim_text.extract_claims(AIGT) if c.value == 8]
    start, end = claim_facts._figure_span(c, AIGT)
    # the stored sentence is stripped; its start is at the space before "We"
    assert c.sentence[start:end] == AIGT[c.start : c.end]
