"""Products named by their architecture or generation in MLPerf Inference claims
(issue 20, the audit of unseen pages): "the NVIDIA Blackwell architecture, delivering up
to 4x more performance on Llama 2 70B compared to the NVIDIA H100" (NVIDIA's v4.1
blog, p04) found no result, the systems JSON naming models (``NVIDIA
B200-SXM-180GB``), never the architecture; and a gain of one product over another of
the same round was read against every pair of systems, so an 8-GPU H200 system against
an open-division 4-GPU H100 run gave 28x and a false "inconsistent". Each sentence
here is in another vendor's words than the page that showed the class.

The results are mlcommons/inference_results_v4.1 rows as benchdb holds them (path
``<division>/<submitter>/results/<system>/llama2-70b-99|resnet50/<scenario>``; value in
Tokens/s or Samples/s); the expected ratios are worked out by hand in each test."""

from __future__ import annotations

from datetime import date

from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.subjects import family_matches
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}
H100, B200, H200 = "NVIDIA H100-SXM-80GB", "NVIDIA B200-SXM-180GB", "NVIDIA H200-SXM-141GB-CTS"
GH200 = "NVIDIA GH200 Grace Hopper Superchip 144GB"
PRUNED = "H200-SXM-141GBx1_TRT_DepthPruned"

# (pk, division/submitter, system folder, accelerator, count, scenario, Tokens/s)
_LLAMA = (
    (1, "closed/NVIDIA", "B200-SXM-180GBx1_TRT", B200, 1, "Offline", 11264.4),
    (2, "closed/NVIDIA", "B200-SXM-180GBx1_TRT", B200, 1, "Server", 10755.6),
    (3, "closed/NVIDIA", "DGX-H100_H100-SXM-80GBx8_TRT", H100, 8, "Offline", 24524.9),
    (4, "closed/NVIDIA", "DGX-H100_H100-SXM-80GBx8_TRT", H100, 8, "Server", 21605.8),
    (5, "closed/HPE", "HPE_Cray_XD670_H100_SXM_80GBx8_TRT", H100, 8, "Offline", 24528.3),
    (6, "closed/Supermicro", "AS_4125GS_TNHR2_LCC_H100_SXM_80GBx8_TRT", H100, 8, "Server", 23699.7),
    (7, "closed/JuniperNetworks", "DGX-H100_H100-SXM-80GBx32_TRT", H100, 32, "Offline", 82749.6),
    (8, "closed/JuniperNetworks", "DGX-H100_H100-SXM-80GBx32_TRT", H100, 32, "Server", 82273.2),
    (9, "closed/ASUSTeK", "ESC4000A_E12_4XH100_TRT", "NVIDIA H100-NVL-94GB", 4, "Offline", 6673.95),
    (
        10,
        "open/NeuralMagic",
        "4xH100-SXM-80GB_vLLM_GPTQ-reference-cpu-pytorch-v2.3.1-default_config",
        H100,
        4,
        "Server",
        1164.04,
    ),
    (11, "closed/NVIDIA", "H200-SXM-141GB-CTSx8_TRT", H200, 8, "Offline", 34864.2),
    (12, "closed/NVIDIA", "H200-SXM-141GB-CTSx8_TRT", H200, 8, "Server", 32789.7),
    (13, "closed/NVIDIA", "H200-SXM-141GB-CTSx1_TRT", H200, 1, "Offline", 4487.88),
    (14, "closed/NVIDIA", "H200-SXM-141GB-CTSx1_TRT", H200, 1, "Server", 4202.3),
    # open division, pruned: no closed-division product reading
    (15, "open/NVIDIA", PRUNED, "NVIDIA H200-SXM-141GB", 1, "Offline", 11189.1),
)


def _result(
    pk: int, where: str, folder: str, accel: str, n: int, scen: str, value: float, **kw: object
) -> ResultFacts:
    division, submitter = where.split("/")
    fields: dict[str, object] = {
        "pk": pk,
        "round": "v4.1",
        "submitter": submitter,
        "system_folder": folder,
        "system_name": "",
        "division": division,
        "availability": "available",
        "accelerators": n,
        "accelerator_model": accel,
        "framework": "",
        "benchmark": "llama2-70b-99",
        "score_minutes": None,
        "suite": "inference",
        "metric": "throughput",
        "unit": "Tokens/s",
        "higher_is_better": True,
        "value": value,
        "model": "llama2-70b",
        "scenario": scen,
    }
    return ResultFacts(**(fields | kw))  # type: ignore[arg-type]


LLAMA = [_result(*row) for row in _LLAMA]


def _facts(text: str, value: float, vendor: str) -> ClaimFacts:
    page = resolve.PageContext("", text, date(2024, 8, 28), vendor)
    c = next(c for c in claim_text.extract_claims(text) if c.value == value)
    return claim_facts.claim_facts(c, page, DATES)


def test_an_architecture_names_every_accelerator_model_of_it() -> None:
    """Blackwell is B200, GB200 and B300 (the systems JSON's model names), Hopper H100,
    H200 and GH200, Ampere A100, A30, A10 and A2, never another architecture's."""
    b200, h100 = LLAMA[0], LLAMA[2]
    gh200 = _result(20, "closed/HPE", "GH200", GH200, 1, "Offline", 1.0)
    a30 = _result(21, "closed/Dell", "R750xa_A30", "NVIDIA A30", 4, "Offline", 1.0)
    assert family_matches("Blackwell", b200) and not family_matches("Blackwell", h100)
    assert family_matches("Hopper", h100) and family_matches("Hopper", gh200)
    assert family_matches("Ampere", a30) and not family_matches("Ampere", h100)


def test_blackwell_against_h100_is_each_products_best_per_gpu() -> None:
    """Supermicro's words for NVIDIA's v4.1 claim. Per GPU, each product's best closed
    result: Offline 11264.4 / (24528.3 / 8 = 3066.0) = 3.67x; Server 10755.6 /
    (23699.7 / 8 = 2962.5) = 3.63x; "up to": 3.67x, which "4x" rounds (one figure). Not
    the 32-GPU system whole (0.14x), nor the open 4-GPU run (10755.6 / 291.0 = 37x).
    "Up to 6x" does not hold."""
    text = (
        "In MLPerf Inference v4.1, the NVIDIA Blackwell platform delivered up to 4x more"
        " performance on Llama 2 70B than the NVIDIA H100 GPU."
    )
    facts = _facts(text, 4.0, "Supermicro")
    assert (facts.system, facts.compared_system) == ("Blackwell", "H100")
    v = verdicts.verify_claim(facts, LLAMA)
    assert v.verdict == "consistent"
    assert abs((v.recomputed_value or 0.0) - 11264.4 / (24528.3 / 8)) < 1e-9
    assert {(lk.role, lk.result) for lk in v.links} == {("subject", 1), ("compared", 5)}
    more = _facts(text.replace("4x", "6x"), 6.0, "Supermicro")
    assert verdicts.verify_claim(more, LLAMA).verdict == "inconsistent"


def test_h200_against_h100_is_not_read_against_another_submitters_weakest_run() -> None:
    """Lenovo's words for NVIDIA's "H200 ... up to 1.5x ... compared to the H100
    submissions": the best H200 per GPU (closed: the open pruned run is another
    model's) against the best H100 per GPU: Offline 4487.88 / 3066.0 = 1.464x (the
    8-GPU H200, 34864.2 / 8 = 4358.0, is below the 1-GPU one), Server 4202.3 / 2962.5
    = 1.419x. It was read against the open 4-GPU H100 run (32789.7 / 1164.04 = 28x):
    inconsistent."""
    text = (
        "Lenovo's MLPerf Inference v4.1 results show NVIDIA H200 GPUs delivering up to"
        " 1.5x the Llama 2 70B performance of H100 GPUs."
    )
    v = verdicts.verify_claim(_facts(text, 1.5, "Lenovo"), LLAMA)
    assert v.verdict == "consistent"
    assert abs((v.recomputed_value or 0.0) - 4487.88 / (24528.3 / 8)) < 1e-9
    assert {(lk.role, lk.result) for lk in v.links} == {("subject", 13), ("compared", 5)}


def _cpu(pk: int, where: str, cpu: str, scen: str, value: float) -> ResultFacts:
    folder = "1-node-2S-GNR-PyTorch" if "6980P" in cpu else "1-node-2S-EMR-PyTorch"
    unit = "Samples/s" if scen == "Offline" else "Queries/s"
    kw = {"benchmark": "resnet", "model": "resnet", "unit": unit, "processors": 2}
    return _result(pk, where, folder, "", 0, scen, value, processor=cpu, **kw)


GNR, EMR = "INTEL(R) XEON(R) 6980P", "INTEL(R) XEON(R) PLATINUM 8592+"
RESNET = [
    _cpu(31, "closed/Intel", GNR, "Offline", 45617.3),
    _cpu(32, "closed/Intel", GNR, "Server", 39798.3),
    _cpu(33, "closed/Cisco", EMR, "Offline", 25643.7),
    _cpu(34, "closed/Intel", EMR, "Offline", 25204.5),
    _cpu(35, "closed/Supermicro", EMR, "Offline", 23674.2),
    _cpu(36, "closed/Intel", EMR, "Server", 22501.8),
    _cpu(37, "closed/Supermicro", EMR, "Server", 21001.6),
]


def test_a_processor_generation_compared_in_the_same_round_is_its_best_result() -> None:
    """Quanta's words for Intel's v4.1 "Xeon 6 ... compared with 5th Gen Xeon": Xeon 6
    (6980P, Granite Rapids) against 5th Gen Xeon (8592+, Emerald Rapids), each its best
    ResNet-50 result: Offline 45617.3 / 25643.7 = 1.779x, Server 39798.3 / 22501.8 =
    1.769x; "up to 1.8x" holds. Read against the weakest 8592+ system (Supermicro's,
    45617.3 / 23674.2 = 1.93x) it did not."""
    text = (
        "In MLPerf Inference v4.1, Intel Xeon 6 processors delivered up to 1.8x higher"
        " ResNet-50 throughput compared with 5th Gen Intel Xeon Scalable processors."
    )
    facts = _facts(text, 1.8, "Quanta")
    v = verdicts.verify_claim(facts, RESNET)
    assert v.verdict == "consistent"
    assert abs((v.recomputed_value or 0.0) - 45617.3 / 25643.7) < 1e-9


def test_a_gain_in_tokens_per_dollar_is_a_price_not_an_mlperf_result() -> None:
    """A figure per dollar ("169,600 tokens/dollar - 1.28x better than H100", an
    index page of v4.1 figures) is a price: no MLPerf result gives it, so no reading of
    H200 against H100 (1.46x per GPU here) decides it. In Dell's words."""
    text = (
        "On Llama 2 70B in MLPerf Inference v4.1, the PowerEdge XE9680 with H200 GPUs"
        " reaches 1.3x better than H100 at 170,000 tokens per dollar."
    )
    facts = _facts(text, 1.3, "Dell")
    assert facts.metric == "cost"
    assert verdicts.verify_claim(facts, LLAMA).verdict == "not-mlperf"
