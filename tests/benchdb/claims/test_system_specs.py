"""Hardware figures checked against the MLPerf systems JSON (:mod:`benchdb.claims.system_specs`).

The systems are real: ``host_processor_model_name``, ``host_processor_core_count`` and
``host_processor_frequency`` as the submitters wrote them in
``closed/<submitter>/systems/<folder>.json`` of mlcommons/inference_results_v3.0 and
inference_results_v4.1 (read from the bare mirrors). The classes were shown by
Intel's Xeon 8480+ "56个核心" on an NVIDIA H100 page (kuaikeji) and Deci/Intel's
"1.4GHz Intel quad core i5-8257U" and "(n2-highcpu-2, n2-highcpu-16)" (Intel's blog);
the sentences here are other vendors'.
"""

from __future__ import annotations

import time

import pytest

from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import Link, ResultFacts
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}


def _system(
    pk: int, rnd: str, submitter: str, folder: str, processor: str, cores: str, clock: str
) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter=submitter,
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=0,
        accelerator_model="",
        framework="",
        benchmark="resnet50",
        score_minutes=None,
        suite="inference",
        metric="throughput",
        unit="Samples/s",
        higher_is_better=True,
        value=1000.0,
        model="resnet50",
        scenario="Offline",
        processor=processor,
        processors=2,
        processor_cores=cores,
        processor_clock=clock,
    )


SPR = "Intel(R) Xeon(R) Platinum 8480+"
EPYC_9374F = "AMD EPYC 9374F 32-Core Processor"
SYSTEMS = [
    # v3.0 closed: every system JSON naming the Xeon Platinum 8480+ (Dell writes 224)
    _system(1, "v3.0", "Dell", "1-node-2S-SPR-PyTorch-INT8", SPR, "224", ""),
    _system(2, "v3.0", "GIGABYTE", "GIGABYTE-G493-SB0_H100-PCIe-80GBx8_TRT", SPR, "56", ""),
    _system(3, "v3.0", "HPE", "1-node-2S-SPR-PyTorch-INT8", SPR, "56", "2000MHz"),
    _system(4, "v3.0", "Intel", "1-node-2S-SPR-PyTorch-INT8", SPR, "56", ""),
    _system(5, "v3.0", "Nettrix", "L4x8_Custom_X640_G50_TRT", SPR, "56", ""),
    _system(6, "v3.0", "Quanta_Cloud_Technology", "1-node-2S-SPR-PyTorch-INT8", SPR, "56", ""),
    # v3.0 closed: the one system on the AMD EPYC 7763
    _system(7, "v3.0", "Dell", "XE8545_A100_SXM4_80GBx4_TRT", "AMD EPYC 7763", "64", ""),
    # v4.1 closed: the systems on the AMD EPYC 9374F
    _system(8, "v4.1", "AMD", "1xMI300X_2xEPYC-9374F", "2xAMD EPYC 9374F", "32", ""),
    _system(9, "v4.1", "AMD", "8xMI300X_2xEPYC-9374F", "2xAMD EPYC 9374F", "32", ""),
    _system(10, "v4.1", "ASUSTeK", "ESC8000A_E12_H100x8_TRT", EPYC_9374F, "32", ""),
]


def _verify(text: str, value: float, pinned: list[Link] | None = None) -> verdicts.Verification:
    c = next(c for c in claim_text.extract_claims(text) if c.value == value)
    page = resolve.PageContext("", text, None, "")
    facts = claim_facts.claim_facts(c, page, DATES)
    return verdicts.verify_claim(facts, SYSTEMS, pinned=pinned)


@pytest.mark.parametrize(
    ("text", "value", "verdict", "cited"),
    [
        # the processor's model number names the systems; AMD's (and ASUSTeK's) say 32
        (
            "In MLPerf Inference v4.1, AMD paired the Instinct MI300X with two AMD EPYC 9374F"
            " processors of 32 cores each.",
            32.0,
            "consistent",
            ["1xMI300X_2xEPYC-9374F", "8xMI300X_2xEPYC-9374F"],
        ),
        # the figure's clause names nothing: the sentence's processor and submitter do
        (
            "AMD在MLPerf Inference v4.1中公布了EPYC 9374F平台的成绩,"
            "虽然有32个核心,但主力仍是MI300X。",
            32.0,
            "consistent",
            ["AMD closed 1xMI300X_2xEPYC-9374F gives host_processor_core_count '32'"],
        ),
        # Dell's XE8545 JSON gives 64 cores of its EPYC 7763
        (
            "For MLPerf Inference v3.0, the Dell PowerEdge XE8545 ran on two AMD EPYC 7763 CPUs"
            " with 48 cores.",
            48.0,
            "inconsistent",
            ["XE8545_A100_SXM4_80GBx4_TRT"],
        ),
        # Dell's JSON gives 224 for its two 56-core 8480+: the node's threads, not another
        # core count -- left open, not inconsistent
        (
            "In MLPerf Inference v3.0, Dell's PowerEdge R760 ran two Xeon Platinum 8480+"
            " processors with 56 cores.",
            56.0,
            "unverifiable",
            ["Dell closed 1-node-2S-SPR-PyTorch-INT8 gives host_processor_core_count '224'"],
        ),
        # no submitter named: Dell's JSON says 224, the others 56 -- which is left open
        (
            "MLPerf Inference v3.0 servers built on the Xeon Platinum 8480+ bring 56 cores per"
            " processor to the data center.",
            56.0,
            "unverifiable",
            ["GIGABYTE-G493-SB0_H100-PCIe-80GBx8_TRT", "224"],
        ),
        # a folder named whole, narrowed to the one submitter named; 2000MHz is 2GHz
        (
            "In MLPerf Inference v3.0, HPE's 1-node-2S-SPR-PyTorch-INT8 system clocked its"
            " 8480+ CPUs at 2.0GHz.",
            2.0,
            "consistent",
            ["HPE closed 1-node-2S-SPR-PyTorch-INT8", "'2000MHz'"],
        ),
    ],
)
def test_spec_read_from_the_system_description(
    text: str, value: float, verdict: str, cited: list[str]
) -> None:
    v = _verify(text, value)
    assert v.verdict == verdict, v.details
    reason = v.details["reason"]
    assert "the MLPerf system description of" in reason
    assert "not a performance result" in reason
    for name in cited:
        assert name in reason


def test_gpu_cores_and_unnamed_systems_stay_hardware_figures() -> None:
    # CUDA cores are no CPU's core count, whatever the sentence's CPU says
    text = (
        "In MLPerf Inference v3.0, Dell's XE8545 paired A100 GPUs of 6912 CUDA cores with AMD"
        " EPYC 7763 processors."
    )
    assert _verify(text, 6912.0).verdict == "not-mlperf"
    # nor when a person pins the system: its JSON's CPU cores are not the GPU's
    pin = [Link(result=7, role="subject", suite="inference")]
    assert _verify(text, 6912.0, pinned=pin).verdict == "not-mlperf"
    # a turbo clock is not the JSON's frequency (HPE's gives 2000MHz, the base clock)
    text = (
        "In MLPerf Inference v3.0, HPE's 1-node-2S-SPR-PyTorch-INT8 system has 8480+ CPUs"
        " that turbo to 3.8GHz."
    )
    assert _verify(text, 3.8).verdict == "not-mlperf"
    # a core count of no system the sentence names
    text = "In MLPerf Inference v4.1, ASUSTeK's new server offers up to 128 cores."
    assert _verify(text, 128.0).verdict == "not-mlperf"


def test_pinned_subject_reads_its_own_system() -> None:
    # the sentence names no system; the person's pin (HPE's result) settles it
    text = "In MLPerf Inference v3.0, the CPU-only entry had 56 cores per socket."
    pin = [Link(result=3, role="subject", suite="inference")]
    v = _verify(text, 56.0, pinned=pin)
    assert v.verdict == "consistent"
    assert "HPE closed 1-node-2S-SPR-PyTorch-INT8" in v.details["reason"]
    pin = [Link(result=7, role="subject", suite="inference")]  # Dell's XE8545 JSON: 64
    assert _verify(text, 56.0, pinned=pin).verdict == "inconsistent"
    pin = [Link(result=1, role="subject", suite="inference")]  # Dell's R760: 224 = 56 x 4
    assert _verify(text, 56.0, pinned=pin).verdict == "unverifiable"


@pytest.mark.parametrize(
    ("order", "value", "verdict"),
    [
        # 224 is the second of two figures, paired with the second system named: Dell's
        # 1-node-2S-SPR-PyTorch-INT8 JSON gives 224
        ("64 and 224", 224.0, "consistent"),
        # swapped: 64 is paired with the same system, which gives 224
        ("224 and 64", 64.0, "inconsistent"),
    ],
)
def test_respectively_pairs_figures_with_systems(order: str, value: float, verdict: str) -> None:
    text = (
        f"In MLPerf Inference v3.0, Dell ran {order} core CPU configurations"
        " (XE8545_A100_SXM4_80GBx4_TRT, 1-node-2S-SPR-PyTorch-INT8 servers, respectively)."
    )
    v = _verify(text, value)
    assert v.verdict == verdict, v.details
    assert (
        "Dell closed 1-node-2S-SPR-PyTorch-INT8 gives host_processor_core_count '224'"
        in (v.details["reason"])
    )
    assert "XE8545" not in v.details["reason"]


def test_a_long_list_before_a_figure_is_read_in_bounded_time() -> None:
    """The list a "respectively" figure ends is searched in the 400 characters before
    it: a bracketed run of 8,000 items that no "and" closes ("(a, a, ..., 8 core
    respectively)") took 6.0 s unbounded (the list pattern fails at every start); 10x
    the items must not take 5x the time."""
    from benchdb.claims.facts import ClaimFacts
    from benchdb.claims.system_specs import scope_tags

    def tags_time(n: int) -> float:
        # commas inside brackets do not end the clause: the whole list is the figure's
        sentence = "Dell ran CPUs (" + "a, " * n + "8 core respectively)."
        start = sentence.index("8 core")
        c = ClaimFacts(kind="spec", value=8.0, unit="core", metric="hardware", suite="inference")
        best = 1e9
        for _ in range(3):
            t = time.perf_counter()
            scope_tags(c, sentence, start, start + len("8 core"))
            best = min(best, time.perf_counter() - t)
        return best

    small, large = tags_time(800), tags_time(8000)
    assert large < 5 * small + 0.05, (small, large)
