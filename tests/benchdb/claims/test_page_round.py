"""The round of a page with no round named and no date, from words that fix it
(benchdb.claims.page_round; issue 20). The class was shown by ../shared/vendor-dev
training/15 and 16 (新智元 on NVIDIA Eos, "在本轮新的生成式AI测试中…Stable Diffusion");
every sentence here is another page's, its source beside it."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from benchdb.claims import page_round, verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.resolve import PageContext, resolve_claim
from benchdb.vocabulary import INCONSISTENT, INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import page_html as vendor_html
from ingest.claims.parsers import text as claim_text

PAGES = Path(__file__).resolve().parents[2] / "data" / "vendor-pages"
DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}

# businessdor.com/nvidia-intel-and-google-battle-in-generative-ai-training (tests/data/
# vendor-pages, MLPerf Training v3.1, no date and no round named)
SD_NEW = "Now, they’ve added a new test for a text-to-image generator called Stable Diffusion."
# ... and the page's next sentence but one, which names the suite (training)
TRAINING = "The competition between Intel and Nvidia in training GPT-3 continued."
# huangzhiyuan.github.io/2020/08/10/mlperf-v0-7 (MLPerf Training v0.7)
BERT_NEW = "1、BERT:用Wikipedia语料库训练BERT,这是首次将BERT引入MLPerf测试基准。"


def test_a_benchmark_the_page_calls_new_is_in_the_round_that_first_lists_it() -> None:
    got = page_round.page_round("", f"{SD_NEW} {TRAINING}", "training")
    assert got.round == "v3.1"
    assert "stable_diffusion is new in MLPerf Training v3.1" in got.why
    assert page_round.page_round("", BERT_NEW, "training").round == "v0.7"


def test_two_signals_that_disagree_fix_no_round_and_say_so() -> None:
    got = page_round.page_round("", f"{SD_NEW} {TRAINING}\n{BERT_NEW}", "training")
    assert got.round == ""
    assert "different rounds" in got.why and "v3.1" in got.why and "v0.7" in got.why


def test_a_page_naming_only_other_rounds_fixes_none() -> None:
    text = f"{SD_NEW} {TRAINING} MLPerf Training v4.0 added Llama 2 70B LoRA."
    got = page_round.page_round("", text, "training")
    assert got.round == "" and "names v4.0" in got.why
    assert page_round.page_round("", f"MLPerf Training v3.1. {SD_NEW}", "training").round == "v3.1"


def test_new_said_of_a_record_a_product_or_a_round_is_no_signal() -> None:
    not_new = [
        # ../shared/vendor-dev/training/09 (CoreWeave, v5.0): a record, not a test
        "CoreWeave is proud to be the cloud services provider to submit the fastest"
        " training results on the Llama 3.1 405B benchmark and the largest NVIDIA Blackwell"
        " cluster submission, setting a new industry benchmark.",
        # thedailyscout.com/s/w1CzUGJj78Q (v4.0): a product is new
        "The new NVIDIA H200 GPU, equipped with 141GB of HBM3e memory, also made its"
        " debut, demonstrating up to a 47% performance increase over the H100 in certain"
        " benchmarks.",
        # developer.nvidia.com/zh-cn/blog/boosting-mlperf-training-v1-1-...: 新一轮 is a round
        "自 v1.0 以来已经过去了五个月,所以是时候进行新一轮 MLPerf 培训基准了。",
    ]
    for s in not_new:
        assert not page_round.says_new(s), s
        assert page_round.signals("", s, "training") == ()
    # the words say new, but name no benchmark (nvidia.cn/data-center/resources/mlperf-benchmarks)
    s = "MLPerf 不断发展,定期举行新的测试,并添加代表 AI 技术水平的新工作负载。"
    assert page_round.says_new(s) and page_round.signals("", s, "training") == ()


def test_a_sentence_naming_another_round_gives_no_signal() -> None:
    """developer.nvidia.com/blog/setting-new-records-at-data-center-scale-using-nvidia-
    h100-gpus-and-quantum-2-infiniband (v3.1): GPT-3 was added "in the prior round";
    the sentence names two times, so its "new" is not read as the page's round."""
    s = (
        "After adding an LLM training benchmark in the prior round based on OpenAI’s GPT-3"
        " 175B parameter model, this round sees the addition of a text-to-image generative"
        " AI training benchmark based on Stable Diffusion."
    )
    assert page_round.signals("", s, "training") == ()


def test_a_signal_of_another_suite_is_not_this_suites() -> None:
    """A page on MLPerf Inference naming no training: its new benchmark fixes no
    training round (nor an inference one: Stable Diffusion without XL is no inference
    model)."""
    text = f"MLPerf Inference results. {SD_NEW}"
    assert page_round.page_round("", text, "training").round == ""
    assert page_round.page_round("", f"{SD_NEW} {TRAINING}", "inference").round == ""


def test_date_words_read_against_the_page_round() -> None:
    """A month without a year is the latest round up to the page round published that
    month (Intel's "our score of June" on a page in v4.1: v4.0); a year-relative phrase
    must mean one round from both ends of the window the page round leaves (the page
    is dated from v4.1's publication to the day before v5.0's)."""
    june = "Gaudi3 is now 1.5x faster than our score of June."
    assert page_round.relative_round(june, "v4.1", ROUND_PUBLISHED) == ("v4.0", "")
    # Huawei's words: 去年6月 from November 2024 is v3.0, from May 2025 v4.0: open
    got, why = page_round.relative_round(
        "昇腾集群的成绩比去年6月的成绩提升了2倍", "v4.1", ROUND_PUBLISHED
    )
    assert got == "" and "v4.1" in why
    assert page_round.relative_round("no date words here", "v4.1", ROUND_PUBLISHED) == ("", "")
    window = (ROUND_PUBLISHED["v4.1"], ROUND_PUBLISHED["v5.0"] - timedelta(days=1))
    assert page_round.window("v4.1", ROUND_PUBLISHED) == window


def _r(pk: int, rnd: str, who: str, n: int, folder: str, minutes: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter=who,
        system_folder=folder,
        system_name="",
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model="NVIDIA H100-SXM5-80GB",
        framework="NeMo" if "nemo" in folder else "PyTorch",
        benchmark="gpt3",
        score_minutes=minutes,
        nodes=n // 8,
    )


#: MLPerf Training gpt3, closed (mlcommons/training_results_v3.0 at 63e326c and
#: training_results_v3.1 at d06288b, scores as benchdb recomputes them).
GPT3 = [
    _r(1, "v3.0", "NVIDIA", 512, "dgxh100_n64_nemo", 64.2638),
    _r(2, "v3.0", "NVIDIA", 768, "dgxh100_n96_nemo", 44.8158),
    _r(3, "v3.0", "NVIDIA+CoreWeave", 3584, "coreweave_hgxh100_n448_ngc23.04_pytorch", 10.9404),
    _r(4, "v3.1", "NVIDIA", 10752, "eos-dfw_n1344_ngc23.09_nemo", 3.9172),
    _r(5, "v3.1", "NVIDIA", 8192, "eos-dfw_n1024_ngc23.09_nemo", 4.8700),
]


def test_a_gain_over_a_dated_result_reads_the_vendors_joint_submissions_too() -> None:
    """training/16 ("比 6 月成绩提升 3 倍"), here Intel's words: "our score of June"
    names a date, not a system line; NVIDIA's June record was NVIDIA+CoreWeave's (PyTorch),
    so NVIDIA's own NeMo results alone would call 3x inconsistent."""
    page = PageContext(text="x", published=date(2023, 11, 10), vendor="NVIDIA")
    c = ClaimFacts(
        kind="multiplier",
        value=3.0,
        unit="x",
        system="H100",
        submitter="NVIDIA",
        benchmark_key="gpt3",
        round="v3.1",
    )
    s = "H100 is now 3x faster on GPT-3 than our score of June."
    c = resolve_claim(c, s, page, ROUND_PUBLISHED)
    assert (c.baseline, "baseline-relative" in c.context) == ("v3.0", True)
    v = verdicts.verify_claim(c, GPT3)
    assert v.verdict != INCONSISTENT
    looked = {
        b["pk"] for ch in v.details["choices"] if ch["role"] == "baseline" for b in ch["tried"]
    }
    assert 3 in looked  # the joint submission is one of the June results read


def test_an_undated_pages_claims_take_the_round_its_words_fix() -> None:
    """businessdor (no date, no round named): "Eos completed the job in just under 4
    minutes" is read in v3.1 (Stable Diffusion is new in it), with the reason shown."""
    name = "businessdor-nvidia-intel-google-gpt3-training-v3.1.en.txt"
    doc = vendor_html.parse_vendor_page((PAGES / name).read_bytes(), name=name)
    page = PageContext(doc.title, doc.text, None, "NVIDIA")
    found = claim_text.extract_claims(doc.text)
    c = next(c for c in found if c.value == 4.0 and "Eos completed" in c.sentence)
    facts = claim_facts.claim_facts(c, page, DATES)
    assert facts.round == "v3.1"
    assert page_round.TAG in facts.context
    why = next(t for t in facts.context if t.startswith(page_round.WHY_TAG))
    assert "stable_diffusion is new in MLPerf Training v3.1" in why
    v = verdicts.verify_claim(facts, GPT3)
    assert "round-from-page-words" in v.flags
    assert v.details["round_source"].startswith("page round v3.1: stable_diffusion")
