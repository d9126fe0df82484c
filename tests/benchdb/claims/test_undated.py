"""benchdb.claims.undated: a claim on a page that names no round and has no date is
read in every round in which its frame has results (pure: no database).

The pages that showed the class are NVIDIA's (Eos GPT-3, Chinese reposts) and a Dell
blog (training/12-, 15-, 16- of ../shared/vendor-dev); the sentences here are written
in Google's and Intel's words on their own results. The results are the rounds'
systems with their official times to train, written by hand with their sources:

* Google TPU v4, v1.0 (mlcommons/training_results_v1.0 at 50619b5, as
  ../shared/vendor-dev/training/TRUTH.json cites them for page 02): tpu-v4-6912-TF
  (3,456 chips) bert 0.2760, resnet 0.2290 min; tpu-v4-1024-JAX (512) unet3d 6.1659.
* Google TPU v4, v2.0 (mlcommons/training_results_v2.0 at 8437fbb): cloud-tpu-v4-6912-TF
  (3,456) bert: the olympic mean of Google/results/cloud-tpu-v4-6912-TF/bert/result_0-9
  (run_stop - run_start, best and worst dropped) = 0.2275 min; resnet 0.2298;
  cloud-tpu-v4-8192-TF (4,096) bert 0.1795.
* Intel Gaudi2 GPT-3 on 384 accelerators: v3.0 311.94 min, v3.1 153.58 min (Intel's
  slides, tests/data/vendor-pages/README.md, se7enesport page); on 1,024: v4.0
  HLS-Gaudi2-N128-PT 66.9058 min (TRUTH.json, training page 08).

Accelerator models as the systems JSON files write them ("TPU" in v1.0, "TPU-v4" in
v2.0); the system's name is its folder here (no sentence names a system).
The expected verdicts come from reading each sentence against those figures, with the
arithmetic next to the assertion. benchdb holds training v0.7-v5.1 (:data:`HELD`):
v0.5, v0.6 and v6.0 are rounds it does not hold.
"""

from __future__ import annotations

from benchdb.claims import round_facts, undated, verdicts
from benchdb.claims.facts import ResultFacts
from benchdb.claims.resolve import PageContext
from benchdb.claims.round_counts import Holding
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}
HELD = frozenset(
    f"v{r}" for r in ("0.7", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0", "5.1")
)
ROUNDS = round_facts.suite_rounds("training")
#: The submitters whose listed result folders benchdb's all-rounds database does not
#: store, by round (``ingest.round_trees.round_holdings`` there): every other training
#: round of :data:`HELD` is held whole.
INCOMPLETE = {
    "v0.7": {"NVIDIA"},
    "v1.0": {"NVIDIA", "Supermicro"},
    "v1.1": {"Azure"},
    "v4.0": {"JuniperNetworks"},
    "v5.1": {"Dell"},
}
HOLDINGS = {
    ("training", rnd): Holding("training", rnd, "", (), frozenset(INCOMPLETE.get(rnd, ())), ())
    for rnd in HELD
}


def _r(
    pk: int, rnd: str, who: str, folder: str, n: int, model: str, bench: str, minutes: float
) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter=who,
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model=model,
        framework="TensorFlow",
        benchmark=bench,
        score_minutes=minutes,
    )


GOOGLE = [
    _r(1, "v1.0", "Google", "tpu-v4-6912-TF", 3456, "TPU", "bert", 0.2760),
    _r(2, "v1.0", "Google", "tpu-v4-6912-TF", 3456, "TPU", "resnet", 0.2290),
    _r(3, "v1.0", "Google", "tpu-v4-1024-JAX", 512, "TPU", "unet3d", 6.1659),
    _r(4, "v2.0", "Google", "cloud-tpu-v4-6912-TF", 3456, "TPU-v4", "bert", 0.2275),
    _r(5, "v2.0", "Google", "cloud-tpu-v4-6912-TF", 3456, "TPU-v4", "resnet", 0.2298),
    _r(6, "v2.0", "Google", "cloud-tpu-v4-8192-TF", 4096, "TPU-v4", "bert", 0.1795),
]
INTEL = [
    _r(11, "v3.0", "Intel-HabanaLabs", "HLS-Gaudi2-N48-PT", 384, "Habana Gaudi2", "gpt3", 311.94),
    _r(12, "v3.1", "Intel-HabanaLabs", "HLS-Gaudi2-N48-PT", 384, "Intel Gaudi2", "gpt3", 153.58),
    _r(
        13,
        "v4.0",
        "Intel-HabanaLabs",
        "HLS-Gaudi2-N128-PT",
        1024,
        "Intel(R) Gaudi(R) 2 AI Accelerator",
        "gpt3",
        66.9058,
    ),
]


def _claims(text: str, vendor: str, published=None) -> list[verdicts.ClaimFacts]:  # type: ignore[no-untyped-def]
    page = PageContext("MLPerf Training results", text, published, vendor)
    return [claim_facts.claim_facts(c, page, DATES) for c in claim_text.extract_claims(text)]


def _one(text: str, vendor: str, kind: str) -> verdicts.ClaimFacts:
    return next(c for c in _claims(text, vendor) if c.kind == kind)


def _verify(c: verdicts.ClaimFacts, results: list[ResultFacts]) -> verdicts.Verification:
    assert undated.applies(c), c
    return undated.verify_each_round(
        c, results, ROUNDS, lambda x: verdicts.verify_claim(x, results), HOLDINGS, held=HELD
    )


def test_an_undated_page_leaves_the_round_open_and_says_so() -> None:
    c = _one(
        "Google's TPU v4 trained BERT on 3,456 chips in 0.28 minutes in MLPerf Training.",
        "Google",
        "time",
    )
    assert c.round == "" and undated.TAG in c.context
    assert (c.benchmark_key, c.accelerators) == ("bert", 3456)


def test_a_dated_page_takes_its_round_from_the_date() -> None:
    from datetime import date

    text = "Google's TPU v4 trained BERT on 3,456 chips in 0.28 minutes in MLPerf Training."
    c = next(c for c in _claims(text, "Google", date(2021, 7, 1)) if c.kind == "time")
    assert c.round == "v1.0" and undated.TAG not in c.context and not undated.applies(c)


def test_two_rounds_that_disagree_leave_the_claim_unverifiable_naming_each() -> None:
    """3,456 TPU v4 chips ran BERT in v1.0 (0.2760 min: 0.28 is 1.4% off, within 5%)
    and in v2.0 (0.2275 min: 0.28 is 23% off): the text allows both rounds."""
    c = _one(
        "Google's TPU v4 trained BERT on 3,456 chips in 0.28 minutes in MLPerf Training.",
        "Google",
        "time",
    )
    v = _verify(c, GOOGLE)
    assert v.verdict == "unverifiable"
    assert v.details["round_outcomes"] == {"v1.0": "consistent", "v2.0": "inconsistent"}
    assert "v1.0: consistent; v2.0: inconsistent" in v.details["reason"]


def test_one_round_with_the_frame_gives_that_rounds_verdict() -> None:
    """512 TPU v4 chips ran 3D U-Net only in v1.0 (6.1659 min; U-Net3D is no v0.5/v0.6
    benchmark and v2.0 has no Google U-Net3D): 6.17 is 0.07% off."""
    c = _one(
        "Google's TPU v4 trained 3D U-Net on 512 chips in 6.17 minutes in MLPerf Training.",
        "Google",
        "time",
    )
    v = _verify(c, GOOGLE)
    assert v.verdict == "consistent" and v.details["round_outcomes"] == {"v1.0": "consistent"}
    assert [lk.result for lk in v.links] == [3]


def test_a_round_one_claim_pins_is_not_taken_for_the_others() -> None:
    """On one page, the U-Net3D sentence admits v1.0 only; the BERT sentence still
    admits v1.0 and v2.0 (a page may recall last year's result beside this year's), so
    it stays unverifiable rather than taking v1.0 from its neighbour."""
    text = (
        "Google's TPU v4 trained 3D U-Net on 512 chips in 6.17 minutes in MLPerf Training. "
        "Google's TPU v4 trained BERT on 3,456 chips in 0.28 minutes in MLPerf Training."
    )
    unet, bert = (c for c in _claims(text, "Google") if c.kind == "time")
    assert _verify(unet, GOOGLE).verdict == "consistent"
    assert bert.round == "" and _verify(bert, GOOGLE).verdict == "unverifiable"


def test_every_round_agreeing_still_abstains_when_a_round_benchdb_lacks_has_the_benchmark() -> None:
    """ResNet on 3,456 TPU v4 chips: v1.0 0.2290 and v2.0 0.2298 both give 0.23, but
    ResNet is a v0.5 and v0.6 benchmark, rounds benchdb does not hold."""
    c = _one(
        "Google's TPU v4 trained ResNet-50 on 3,456 chips in 0.23 minutes in MLPerf Training.",
        "Google",
        "time",
    )
    v = _verify(c, GOOGLE)
    assert v.verdict == "unverifiable"
    assert v.details["round_outcomes"] == {"v1.0": "consistent", "v2.0": "consistent"}
    assert v.details["rounds_not_held"] == ["v0.5", "v0.6"]


def test_every_round_failing_is_inconsistent_and_one_round_is_its_verdict() -> None:
    """GPT-3 is a benchmark of v3.0-v4.1 only (all held). 384 Gaudi2: 311.94 (v3.0) and
    153.58 min (v3.1): 100 minutes fails in both; 153.6 holds in v3.1 only. 1,024 Gaudi2
    ran GPT-3 in v4.0 only: 66.9 is 0.01% off 66.9058."""
    c = _one(
        "Intel Gaudi2 trained GPT-3 on 384 accelerators in 100 minutes in MLPerf Training.",
        "Intel",
        "time",
    )
    v = _verify(c, INTEL)
    assert v.verdict == "inconsistent"
    assert v.details["round_outcomes"] == {"v3.0": "inconsistent", "v3.1": "inconsistent"}
    assert {lk.result for lk in v.links} == {11, 12}
    c = _one(
        "Intel Gaudi2 trained GPT-3 on 384 accelerators in 153.6 minutes in MLPerf Training.",
        "Intel",
        "time",
    )
    assert _verify(c, INTEL).details["round_outcomes"] == {
        "v3.0": "inconsistent",
        "v3.1": "consistent",
    }
    c = _one(
        "Intel Gaudi2 trained GPT-3 on 1,024 accelerators in 66.9 minutes in MLPerf Training.",
        "Intel",
        "time",
    )
    v = _verify(c, INTEL)
    assert v.verdict == "consistent" and v.details["round_outcomes"] == {"v4.0": "consistent"}


def test_as_many_as_a_count_is_the_largest_in_every_round() -> None:
    """ "As many as 3,456 TPU v4 chips": Google's largest v1.0 system had 3,456 chips,
    its v2.0 one 4,096 (cloud-tpu-v4-8192-TF), so the v2.0 reading does not hold."""
    c = _one(
        "Google used as many as 3,456 TPU v4 chips for BERT in MLPerf Training.", "Google", "scale"
    )
    assert (c.qualifier, c.accelerators) == ("up to", 3456)
    v = _verify(c, GOOGLE)
    assert v.verdict == "unverifiable" and v.details["round_outcomes"] == {
        "v1.0": "consistent",
        "v2.0": "unverifiable",
    }


def test_chinese_as_many_as_is_up_to() -> None:
    """多达 ("as many as") before a count in words, as 高达 before a multiplier."""
    found = claim_text.extract_claims("谷歌在MLPerf训练中使用了多达3,456个TPU v4芯片。")
    assert [(c.kind, c.value, c.qualifier) for c in found] == [("scale", 3456.0, "up to")]
    found = claim_text.extract_claims("谷歌在MLPerf训练中使用了3,456个TPU v4芯片。")
    assert [(c.kind, c.value, c.qualifier) for c in found] == [("scale", 3456.0, "")]


def test_a_claim_with_no_subject_or_benchmark_keeps_its_own_reason() -> None:
    c = verdicts.ClaimFacts(kind="time", value=4.0, unit="min", context=(undated.TAG,))
    assert not undated.applies(c)
    assert verdicts.verify_claim(c, INTEL).details["reason"] == (
        "no round named and no publication date"
    )


def test_the_v0_5_benchmarks_are_the_result_folders_of_its_repository() -> None:
    """mlcommons/training_results_v0.5 at c71f2e7: seven benchmarks; SSD there is
    SSD-ResNet34 (``ssd``), not RetinaNet."""
    assert undated.round_benchmarks("training", "v0.5") == frozenset(
        {"gnmt", "maskrcnn", "minigo", "ncf", "resnet", "ssd", "transformer"}
    )
    assert "gpt3" not in undated.round_benchmarks("training", "v0.5")  # type: ignore[operator]


def test_verify_claim_reads_every_round_and_a_round_it_does_not_hold_stays_open() -> None:
    """Through :func:`verdicts.verify_claim`, the rounds held are those with a result:
    with only Intel's v3.0-v4.0 results, v4.1 (a GPT-3 round) is not held, so the
    1,024-Gaudi2 claim that v4.0 alone confirms gets no verdict."""
    c = _one(
        "Intel Gaudi2 trained GPT-3 on 1,024 accelerators in 66.9 minutes in MLPerf Training.",
        "Intel",
        "time",
    )
    v = verdicts.verify_claim(c, INTEL, holdings=HOLDINGS)
    assert v.verdict == "unverifiable"
    assert v.details["round_outcomes"] == {"v4.0": "consistent"}
    assert v.details["rounds_not_held"] == ["v4.1"]
    # without the rounds' trees no round is known to be held whole
    v = verdicts.verify_claim(c, INTEL)
    assert v.verdict == "unverifiable" and v.details["round_outcomes"] == {}
    assert v.details["rounds_not_held"] == [
        "v3.0 (held in part)",
        "v3.1 (held in part)",
        "v4.0 (held in part)",
        "v4.1",
    ]


def test_a_products_first_round_bounds_the_rounds_only_when_every_earlier_round_is_held() -> None:
    """Gaudi2's first round among the results given is v3.0, but benchdb does not hold
    training v0.5 and v0.6, which might (for all benchdb knows) hold one: no bound."""
    c = _one(
        "Intel Gaudi2 trained GPT-3 on 384 accelerators in 100 minutes in MLPerf Training.",
        "Intel",
        "time",
    )
    assert "page-family:Gaudi2" in c.context
    bound, why = undated.lower_bound(c, INTEL, ROUNDS, HELD)
    assert bound == "" and why == "Gaudi2: benchdb does not hold v0.5, v0.6"


#: AMD's own 8-GPU MI325X systems (systems/*.json: 1 node x 8, "AMD Instinct MI325X
#: 256GB HBM3e"/"HBM3E") in mlcommons/training_results_v5.0 (MI325X_EPYC_9575F_pytorch)
#: and v5.1 (MI325X_EPYC_9575F_pytorch_llama2_70b), Llama 2 70B LoRA. The times are not
#: under test (a count of accelerators is): the olympic means of their ten run logs
#: (run_stop - run_start), before the round's convergence normalization.
AMD = [
    ResultFacts(
        pk=21 + i,
        round=rnd,
        submitter="AMD",
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=8,
        accelerator_model=model,
        framework="PyTorch",
        benchmark="llama2_70b_lora",
        score_minutes=minutes,
    )
    for i, (rnd, folder, model, minutes) in enumerate(
        [
            ("v5.0", "MI325X_EPYC_9575F_pytorch", "AMD Instinct MI325X 256GB HBM3e", 20.9643),
            (
                "v5.1",
                "MI325X_EPYC_9575F_pytorch_llama2_70b",
                "AMD Instinct MI325X 256GB HBM3E",
                20.6608,
            ),
        ]
    )
]


def test_a_later_round_benchdb_lacks_stays_open_when_it_has_the_benchmark() -> None:
    """8 MI325X ran Llama 2 70B LoRA in v5.0 (and v5.1), and Llama 2 70B LoRA is a
    benchmark of Training v6.0 too, which benchdb does not hold: the page may be about
    it, so no verdict. The sentence names no submitter, so v4.0 and v5.1, where
    benchdb lacks some of Juniper's and Dell's result folders, are open too (one of
    them could be an MI325X result)."""
    c = _one(
        "AMD trained Llama 2 70B LoRA on 8 Instinct MI325X GPUs in MLPerf Training.",
        "AMD",
        "scale",
    )
    assert (c.accelerators, c.benchmark_key) == (8, "llama2_70b_lora")
    v = _verify(c, AMD)
    assert v.verdict == "unverifiable"
    assert v.details["round_outcomes"] == {"v5.0": "consistent"}
    assert v.details["rounds_not_held"] == ["v4.0 (held in part)", "v5.1 (held in part)", "v6.0"]
    whole = {**HOLDINGS, ("training", "v5.1"): Holding("training", "v5.1", "", (), frozenset(), ())}
    v = undated.verify_each_round(
        c, AMD, ROUNDS, lambda x: verdicts.verify_claim(x, AMD), whole, held=HELD
    )
    assert v.details["round_outcomes"] == {"v5.0": "consistent", "v5.1": "consistent"}


def test_a_round_held_in_part_for_the_subject_stays_open() -> None:
    """Were some of Google's v2.0 result folders not stored, its v2.0 U-Net3D result
    could be among them: the claim v1.0 alone confirms gets no verdict. NVIDIA's and
    Supermicro's missing v1.0 folders do not matter to a claim about Google's TPU v4."""
    c = _one(
        "Google's TPU v4 trained 3D U-Net on 512 chips in 6.17 minutes in MLPerf Training.",
        "Google",
        "time",
    )
    part = dict(HOLDINGS)
    part["training", "v2.0"] = Holding("training", "v2.0", "", (), frozenset({"Google"}), ())
    v = undated.verify_each_round(
        c, GOOGLE, ROUNDS, lambda x: verdicts.verify_claim(x, GOOGLE), part, held=HELD
    )
    assert v.verdict == "unverifiable" and v.details["rounds_not_held"] == ["v2.0 (held in part)"]
    assert undated.held_whole(c, GOOGLE, "v1.0", HOLDINGS["training", "v1.0"])
