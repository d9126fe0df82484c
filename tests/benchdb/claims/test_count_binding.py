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
from tests.benchdb.claims.test_unseen_classes import _r as training_result

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}


_train = training_result  # one factory of training results for these tests


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


def _amd_inference(pk: int, model: str, scenario: str, value: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v5.1",
        submitter="AMD",
        system_folder=f"sys{pk}",
        system_name="",
        division="closed",
        availability="available",
        accelerators=8,
        accelerator_model="AMD Instinct MI325X 256GB HBM3e",
        framework="vLLM",
        benchmark=f"{model}-99" if model == "llama2-70b" else model,
        score_minutes=None,
        suite="inference",
        metric="throughput",
        unit="Tokens/s",
        higher_is_better=True,
        value=value,
        model=model,
        scenario=scenario,
        category="datacenter",
    )


def test_a_count_repeated_in_a_sentence_is_of_its_own_parenthesis_benchmark() -> None:
    """ainews247.com (NVIDIA, Inference v5.1): "Whisper (up to ~45k samples/s on 8x
    B200), Stable Diffusion XL (~33 queries/s on 8x B200)" read both "8x B200" as
    Whisper's (the clause of the first 8) and linked Whisper's results to the second.
    Here in AMD's words, on AMD's v5.1 MI325X results (Llama 2 70B Offline 34,555
    tokens/s; Mixtral 8x7B Offline 68,781 and Server 59,784): the second count is
    Mixtral's, and links Mixtral's results alone."""
    text = (
        "In MLPerf Inference v5.1, AMD highlights include Llama 2 70B (up to ~34.5k tokens/s"
        " on 8x MI325X), Mixtral 8x7B (~68.8k tokens/s on 8x MI325X) and more."
    )
    first, second = _scales(text, date(2025, 9, 10), "AMD")
    assert (first.benchmark_key, second.benchmark_key) == ("llama2-70b", "mixtral-8x7b")
    results = [
        _amd_inference(22571, "llama2-70b", "Offline", 34555.0),
        _amd_inference(22568, "mixtral-8x7b", "Offline", 68781.4),
        _amd_inference(22569, "mixtral-8x7b", "Server", 59783.6),
    ]
    v = verdicts.verify_claim(second, results)
    assert v.verdict == "consistent"
    assert {link.result for link in v.links} == {22568, 22569}
    assert [link.result for link in verdicts.verify_claim(first, results).links] == [22571]


def test_a_repeated_count_whose_own_words_name_no_benchmark_is_open() -> None:
    """The same class when the count's clause names none of the sentence's benchmarks:
    which benchmark's count it is is open, so no result is linked. In Graphcore's words
    on its Training v2.0 results (Bow IPU-POD16: BERT 20.65 min, ResNet-50 19.64 min);
    before, the last count was read in the first count's clause (BERT) and linked."""
    text = (
        "In MLPerf Training v2.0, Graphcore trained BERT in 20.7 minutes on 16 Bow IPUs and"
        " ResNet-50 in 19.6 minutes on 16 IPUs, with 16 IPUs each time."
    )
    *_, last = _scales(text, date(2022, 7, 1), "Graphcore")
    assert last.benchmark_key == ""
    results = [
        _train(1, "v2.0", "Graphcore", 16, "Graphcore Bow IPU", "bert", 20.65),
        _train(2, "v2.0", "Graphcore", 16, "Graphcore Bow IPU", "resnet", 19.64),
    ]
    v = verdicts.verify_claim(last, results)
    assert v.verdict == "unverifiable"
    assert v.links == ()


def test_a_date_compared_with_dates_the_compared_side_not_the_count() -> None:
    """blockchainnews (NVIDIA, Training v4.0, in Chinese): "其 512 个 H100 GPU 配置相比去年
    提高了 27% 的性能" moved the 512-GPU count to last year's round (v3.0) and linked
    that round's results; "last year" is what the configuration is compared with, and
    the configuration is the page's round's. In Intel's words on a page of 8 November
    2023 (Training v3.1): the count is of v3.1's 384-Gaudi2 GPT-3 result (153.58 min),
    not of a year-earlier round's (v2.1 before; v3.0's 311.94 min run is not it)."""
    text = (
        "In the latest MLPerf Training results, Intel also reported that its 384 Gaudi2"
        " accelerator configuration trained GPT-3 twice as fast compared to last year,"
        " thanks to FP8."
    )
    (facts,) = _scales(text, date(2023, 11, 8), "Intel")
    assert facts.round == "v3.1"
    results = [
        _train(1148, "v3.0", "HabanaLabs", 384, "Habana Gaudi2", "gpt3", 311.94),
        _train(1337, "v3.1", "HabanaLabs", 384, "Intel Gaudi2", "gpt3", 153.58),
    ]
    v = verdicts.verify_claim(facts, results)
    assert v.verdict == "consistent"
    assert [link.result for link in v.links] == [1337]
