"""Counts of accelerators ("scale" claims) bound to the results their own words name:
classes found by the precision audit of 26 unseen pages (issue 20), each checked on a
sentence in another vendor's style than the page that showed it (pure: no database;
results transcribed by hand from the official rows, named beside each)."""

from __future__ import annotations

from datetime import date

from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}


def _train(
    pk: int, rnd: str, who: str, n: int, model: str, bench: str, minutes: float
) -> ResultFacts:
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


def _scales(text: str, published: date, vendor: str) -> list[ClaimFacts]:
    """The frames of the sentence's accelerator counts, in order."""
    page = resolve.PageContext("", text, published, vendor)
    found = [c for c in claim_text.extract_claims(text) if c.kind == "scale"]
    return [claim_facts.claim_facts(c, page, DATES) for c in found]


def test_a_bounded_count_is_of_the_generation_it_counts() -> None:
    """epium.com (NVIDIA, Training v5.1): "a 5.2 minute training time using up to 512
    Blackwell Ultra GPUs" dropped Blackwell Ultra from the count ("up to" pins no
    system), so NVIDIA's 512-GPU GB200 result was linked beside the GB300 one. Here in
    AMD's words, on AMD's Training v5.1 Llama 2 70B LoRA results (all on 8 GPUs:
    MI300X 27.97 min, MI325X 21.05, MI350X 12.23, MI355X 10.18): the count is the
    MI355X's alone."""
    text = (
        "In MLPerf Training v5.1, AMD reported a 10.2 minute Llama 2 70B LoRA training"
        " time using up to 8 Instinct MI355X GPUs."
    )
    (facts,) = _scales(text, date(2025, 11, 12), "AMD")
    assert facts.system == "MI355X"
    results = [
        _train(2030, "v5.1", "AMD", 8, "AMD Instinct MI300X 192GB HBM3", "llama2_70b_lora", 27.97),
        _train(2031, "v5.1", "AMD", 8, "AMD Instinct MI325X 256GB HBM3E", "llama2_70b_lora", 21.05),
        _train(2033, "v5.1", "AMD", 8, "AMD Instinct MI350X", "llama2_70b_lora", 12.23),
        _train(2035, "v5.1", "AMD", 8, "AMD Instinct MI355X", "llama2_70b_lora", 10.18),
    ]
    v = verdicts.verify_claim(facts, results)
    assert v.verdict == "consistent"
    assert [link.result for link in v.links] == [2035]
