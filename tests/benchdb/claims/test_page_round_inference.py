"""The round of an undated MLPerf Inference page that names none, from a model it calls
new (benchdb.claims.page_round; issue 20). The class was shown by ../shared/vendor-dev
inference/10 (半导体行业观察 from HPCwire: "基准套件中添加了两个新的工作负载 - Llama 2 和
Stable Diffusion XL"); the sentences here are other publishers', their source beside
them. The rounds' model lists are the submission checker's (``MODEL_CONFIG[<round>]
["models"]``, benchdb.mlperf.inference.scenarios.round_models)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from benchdb.claims import page_round, verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.resolve import PageContext
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, UNVERIFIABLE
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

# atyun.com/59051.html (MLPerf Inference v4.0, 2024-03-28): two models, both first
# listed by v4.0's checker
ATYUN = "经过仔细考虑,套件中纳入了两个新的基准测试:Llama 2 70B和Stable Diffusion XL。"
# itonline (../shared/vendor/nvidia-blackwell-mlperf-inference-v5.0-itonline.en.txt):
# Llama 2 70B is v4.0's; its new Interactive scenario is v5.0's
INTERACTIVE = (
    "The new Llama 2 70B Interactive benchmark features much stricter latency requirements"
    " compared with the original Llama 2 70B benchmark, better reflecting the constraints"
    " of production deployments in delivering the best possible user experiences."
)
# developer.nvidia.com (../shared/vendor/nvidia-h200-mlperf-inference-v4.0-records.en.txt):
# the sentence names its round itself
NAMED = (
    "The latest version of the benchmark suite–MLPerf Inference v4.0–adds two new workloads"
    " that represent popular and modern generative AI use cases."
)
SUITE = "MLPerf Inference is a benchmark suite that measures inference performance."


def test_models_an_inference_page_calls_new_fix_the_round_whose_checker_first_lists_them() -> None:
    got = page_round.page_round("", f"{SUITE} {ATYUN}", "inference")
    assert got.round == "v4.0"
    assert "llama2-70b, stable-diffusion-xl are new in MLPerf Inference v4.0" in got.why


def test_the_rounds_model_lists_are_the_checkers_round_by_round() -> None:
    """v3.1 and v5.0 share their rule tables with neighbours in benchdb.mlperf.inference
    .rounds, but the checker's model lists tell the rounds apart: GPT-J is v3.1's,
    Mixtral v4.1's, Whisper and DeepSeek-R1 v5.1's (not v5.0's)."""
    v31, v40 = page_round.inference_models("v3.1"), page_round.inference_models("v4.0")
    assert v31 is not None and v40 is not None
    assert "gptj" in v31 and "llama2-70b" not in v31 and "llama2-70b" in v40
    v50, v51 = page_round.inference_models("v5.0"), page_round.inference_models("v5.1")
    assert v50 is not None and v51 is not None
    assert {"whisper", "deepseek-r1"} <= v51 - v50
    assert page_round.inference_models("v9.9") is None


def test_a_new_scenario_of_an_older_model_fixes_no_round() -> None:
    assert page_round.signals("", f"{SUITE} {INTERACTIVE}", "inference") == ()


def test_dlrm_unqualified_is_two_models_new_in_different_rounds() -> None:
    """DLRM written alone is v0.7's dlrm or v3.1's dlrm-v2: "the new DLRM test" fixes neither
    (Inspur's words at ineng.org/keji/202109/80828.html name 智能推荐(DLRM))."""
    assert page_round.benchmarks_in("智能推荐(DLRM)", "inference") == ["dlrm-v2|dlrm"]
    assert page_round.benchmarks_in("DLRM-v2 and DLRM DCNv2", "inference") == ["dlrm-v2"]
    s = f"{SUITE} 新的测试:智能推荐(DLRM)。"
    assert page_round.signals("", s, "inference") == ()


def test_refusals_shared_with_training_hold_for_inference() -> None:
    # the sentence names a round: its "new" may be that round's (and the page names it)
    assert page_round.signals("", NAMED, "inference") == ()
    # a model first listed in the first round (v0.5) is new in no round benchdb can tell
    s = f"{SUITE} 新的测试:ResNet-50。"
    assert page_round.signals("", s, "inference") == ()
    # a page on training and inference leaves the suite open
    mixed = f"MLPerf Training and MLPerf Inference results.\n{ATYUN}"
    assert page_round.page_round("", mixed, "inference").round == ""


def _r(pk: int, rnd: str, model: str, scenario: str, value: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter="NVIDIA",
        system_folder="H200-SXM-141GBx8_TRT",
        system_name="NVIDIA H200-SXM-141GB (8x H200-SXM-141GB, TensorRT)",
        division="closed",
        availability="preview",
        accelerators=8,
        accelerator_model="NVIDIA H200-SXM-141GB",
        framework="TensorRT",
        benchmark=f"{model}-99",
        score_minutes=None,
        suite="inference",
        model=model,
        scenario=scenario,
        value=value,
        unit="Tokens/s",
    )


# atyun.com/59051.html, the sentence after: the H200's Llama 2 70B record in v4.0
H200 = (
    "H200 GPU配备了141GB的HBM3e内存和4.8TB/s的带宽,在Llama 2基准测试中实现了每秒31000个令牌的记录,"
    "比H100 GPU提升了45%。"
)
DATES = {"inference": dict(INFERENCE_ROUND_PUBLISHED)}


def _claims(text: str, published: date | None) -> dict[float, ClaimFacts]:
    page = PageContext("", text, published, "NVIDIA")
    return {
        c.value: claim_facts.claim_facts(c, page, DATES)
        for c in claim_text.extract_claims(text)
        if c.value is not None
    }


def test_a_claim_of_an_undated_page_in_a_round_benchdb_lacks_abstains_naming_it() -> None:
    """atyun's H200 claims read on a page with no date: the round its words fix (v4.0)
    is not held, so each abstains naming v4.0 and never reads v4.1's H200 results
    instead (here a v4.1 result near the claimed figure)."""
    got = _claims(f"{SUITE} {ATYUN}\n{H200}", None)
    # MLPerf Inference v4.1 closed, NVIDIA H200-SXM-141GBx8_TRT llama2-70b-99 Offline
    # (inference_results_v4.1 inference_truth_v4.1.csv): 31,302.7 tokens/s
    held = [_r(1, "v4.1", "llama2-70b", "Offline", 31302.7)]
    for value in (31000.0, 45.0):
        facts = got[value]
        assert facts.round == "v4.0" and page_round.TAG in facts.context, facts
        v = verdicts.verify_claim(facts, held)
        assert v.verdict == UNVERIFIABLE, (value, v)
        assert "v4.0" in str(v.details.get("reason", "")), v.details
        assert not v.links


def test_a_dated_page_keeps_its_dates_round() -> None:
    got = _claims(f"{SUITE} {ATYUN}\n{H200}", date(2024, 9, 1))
    assert got[31000.0].round == "v4.1" and page_round.TAG not in got[31000.0].context


def _dell(pk: int, rnd: str, value: float) -> ResultFacts:
    return replace(
        _r(pk, rnd, "llama2-70b", "Offline", value),
        submitter="Dell",
        system_folder="XE9680_H200_SXM_141GBx8_TRT",
        availability="available",
    )


#: Dell XE9680_H200_SXM_141GBx8_TRT, closed, llama2-70b-99 Offline, Tokens/s:
#: inference_results_v4.1 32124.3, inference_results_v5.1 35316.7 (+9.9%).
DELL = [_dell(21, "v4.1", 32124.3), _dell(22, "v5.1", 35316.7)]


def test_the_previous_round_of_a_held_round_is_the_one_before_it_even_when_not_held() -> None:
    """A gain "compared to the last round of MLPerf submissions" (Intel's words,
    ../shared/vendor-dev/inference/07) said of v5.1: the last round is v5.0, which
    benchdb lacks; the claim abstains naming v5.0 and never reads v4.1 instead (which
    would give 9.9%)."""
    c = ClaimFacts(
        kind="percentage",
        value=10.0,
        unit="%",
        suite="inference",
        round="v5.1",
        system="H200",
        accelerators=8,
        submitter="Dell",
        benchmark_key="llama2-70b",
        scenario="Offline",
        baseline="previous-round",
    )
    v = verdicts.verify_claim(c, DELL)
    assert v.verdict == UNVERIFIABLE, v.details
    assert "v5.0" in v.details["reason"] and "v4.1" not in v.details["reason"]
    assert not v.links
