"""Classes of phrasing found on pages no test had seen (the issue-20 audit of unseen
pages), each checked on a sentence in another vendor's style than the page that
showed it (pure: no database; results written by hand with the arithmetic beside
the assertion)."""

from __future__ import annotations

from datetime import date

from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}


def _r(pk: int, rnd: str, who: str, n: int, model: str, bench: str, minutes: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter=who,
        system_folder=f"sys{pk}",
        system_name="",
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model=model,
        framework="PyTorch",
        benchmark=bench,
        score_minutes=minutes,
    )


def _facts(text: str, value: float, published: date, vendor: str) -> ClaimFacts:
    page = resolve.PageContext("", text, published, vendor)
    c = next(c for c in claim_text.extract_claims(text) if c.value == value)
    return claim_facts.claim_facts(c, page, DATES)


def test_the_compared_submissions_count_after_its_product_pins_the_compared_side() -> None:
    """ "... 45 percent faster than the prior Blackwell-based submission with 2,496 GPUs"
    (epium.com, NVIDIA, Training v5.1) named the compared count away from the product:
    it was dropped, every Llama 3.1 405B result of v5.1 was a compared reading and the
    true claim was called inconsistent. Here in AMD's words: the 8-GPU MI300X result
    (30.5 min) is the baseline: 30.5 / 21.8 = 1.40x (40% faster as a speedup; as less
    time, 28.5%: one reading holds), not the 64-GPU one (5.0 min)."""
    text = (
        "In MLPerf Training v5.0, AMD trained Llama 2 70B LoRA in 21.8 minutes on eight"
        " MI325X GPUs, 40 percent faster than the prior MI300X-based submission with 8 GPUs."
    )
    facts = _facts(text, 40.0, date(2025, 6, 4), "AMD")
    assert facts.compared_accelerators == 8
    results = [
        _r(1, "v5.0", "AMD", 8, "AMD Instinct MI325X", "llama2_70b_lora", 21.8),
        _r(2, "v4.1", "AMD", 8, "AMD Instinct MI300X", "llama2_70b_lora", 30.5),
        _r(3, "v5.0", "AMD", 64, "AMD Instinct MI300X", "llama2_70b_lora", 5.0),
    ]
    v = verdicts.verify_claim(facts, results)
    assert v.verdict == "ambiguous"
    assert {link.result for link in v.links} == {1, 2}


def _inference(pk: int, acc: str, value: float, n: int = 8) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v4.1",
        submitter="AMD",
        system_folder=f"sys{pk}",
        system_name="",
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model=acc,
        framework="vLLM",
        benchmark="llama2-70b-99",
        score_minutes=None,
        suite="inference",
        metric="throughput",
        unit="Tokens/s",
        higher_is_better=True,
        value=value,
        model="llama2-70b",
        scenario="Offline",
        category="datacenter",
    )


def test_a_figure_at_batch_size_1_names_no_mlperf_result() -> None:
    """ "NVIDIA H100 SXM: ~85 tokens/sec with vLLM (FP16, batch=1), ~110 tokens/sec with
    TensorRT-LLM for Llama 2 70B" (alpha-one-index, a page titled "MLPerf Inference v4.1 -
    Official Results") was checked against the round's 8-GPU Llama 2 70B results
    (thousands of tokens/s) and called inconsistent. No MLPerf result states a batch
    size (the submitter chooses it): the figure is no result the text names, in every
    clause of the sentence. In AMD's words, against an Offline result of one MI300X
    (2,530 tokens/s, written here for the test) and AMD's v4.1 one on 8 x MI300X
    (21,028 tokens/s): before, 41 was inconsistent with the one-GPU result and 2,530
    consistent with it; neither figure is a result the text names: no verdict."""
    text = (
        "MLPerf Inference v4.1 results. A single MI300X runs Llama 2 70B at 41 tokens/s"
        " with vLLM at a batch size of 1, and 2,530 tokens/s with a larger batch."
    )
    page = resolve.PageContext("", text, date(2024, 8, 28), "AMD")
    found = claim_text.extract_claims(text)
    results = [
        _inference(1, "AMD Instinct MI300X", 21028.2),
        _inference(2, "AMD Instinct MI300X", 2530.4, n=1),
    ]
    for value in (41.0, 2530.0):
        c = next(c for c in found if c.value == value)
        facts = claim_facts.claim_facts(c, page, DATES)
        v = verdicts.verify_claim(facts, results)
        assert v.verdict == "unverifiable" and "batch size 1" in v.details["reason"]


def test_a_model_written_without_its_space_is_inferences_benchmark() -> None:
    """ "Llama2 70B" (reportify.ai's summary of MLPerf Inference v5.0) was "not an MLPerf
    Inference benchmark": the training reading found no training benchmark of that name
    and the inference reading (the sentence's tokens/s; the page never writes "MLPerf
    Inference") kept its verdict. In Lenovo's words, against a v4.1 Offline
    result of 8 x H200 (32,124.3 tokens/s, Dell XE9680 H200 in the round; written here
    for Lenovo): 32,100 is within the figure's rounding."""
    text = (
        "In the latest MLPerf round, on Llama2 70B, the ThinkSystem SR680a V3 with eight"
        " H200 GPUs delivered 32,100 tokens/s in the Offline scenario."
    )
    page = resolve.PageContext("", text, date(2024, 8, 28), "Lenovo")
    c = next(c for c in claim_text.extract_claims(text) if c.value == 32100.0)
    facts = claim_facts.claim_facts(c, page, DATES)
    assert (facts.suite, facts.benchmark_key, facts.non_mlperf) == ("inference", "llama2-70b", "")
    h200 = _inference(1, "NVIDIA H200-SXM-141GB", 32124.3)
    v = verdicts.verify_claim(facts, [h200])
    assert v.verdict == "consistent" and [link.result for link in v.links] == [1]


def test_a_training_reading_of_llama2_70b_is_the_model_of_a_benchmark() -> None:
    """ "In Llama2 70B tests, the MI325X system's speed is comparable to the H200, with
    only a 3% to 7% difference" (reportify.ai, Inference v5.0, read as training: the page
    never writes "MLPerf Inference") was not-mlperf; the model is Llama 2 70B LoRA's,
    a training benchmark, and the text does not say which it means: no verdict, not a
    not-mlperf one. In Supermicro's words."""
    text = (
        "In MLPerf Training v4.1, in Llama2 70B tests the Supermicro AS-8125GS system was"
        " 6% faster than the fastest H100 system."
    )
    facts = _facts(text, 6.0, date(2024, 11, 13), "Supermicro")
    v = verdicts.verify_claim(facts, [])
    assert v.verdict == "unverifiable" and "model of Llama 2 70B LoRA" in v.details["reason"]


def test_a_throughput_gain_on_a_training_benchmark_is_no_verdict_not_a_non_mlperf_one() -> None:
    """ "For Llama 2 70B fine-tuning, just eight GB300 GPUs achieved 5x the throughput of
    H100" (partofstyle.com, NVIDIA, Training v5.1) was not-mlperf ("throughput is not an
    MLPerf Training metric"): "Llama 2 70B fine-tuning" is the LoRA benchmark as vendors
    write it, and a gain in a training run's throughput may be its speedup; which, the
    text does not say. In AMD's words: no verdict, the benchmark named."""
    text = (
        "In MLPerf Training v5.0, on Llama 2 70B fine-tuning, eight MI355X GPUs delivered"
        " 2.8x the throughput of the MI300X."
    )
    facts = _facts(text, 2.8, date(2025, 6, 4), "AMD")
    assert facts.benchmark_key == "llama2_70b_lora"
    v = verdicts.verify_claim(facts, [])
    assert v.verdict == "unverifiable" and "throughput on llama2_70b_lora" in v.details["reason"]
