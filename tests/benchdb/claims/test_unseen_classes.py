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

