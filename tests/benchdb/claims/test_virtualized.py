"""Shares of bare-metal performance ("from 94% to 105% of the equivalent bare metal
performance": :mod:`benchdb.claims.virtualized`), checked against Dell's MLPerf
Inference v3.0 results (mlcommons/inference_results_v3.0 @ 1948f9b5, closed: the
values as the results table gives them, the path under each result); the expected
shares are divided by hand in the test."""

from __future__ import annotations

import pytest

from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import ResultFacts
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

DATES = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}


def _verify(text: str, value: float, results: list[ResultFacts]) -> verdicts.Verification:
    c = next(c for c in claim_text.extract_claims(text) if c.value == value)
    page = resolve.PageContext("", text, None, "Dell")
    return verdicts.verify_claim(claim_facts.claim_facts(c, page, DATES), results)


def _linked(v: verdicts.Verification) -> set[int]:
    return {lk.result for lk in v.links}


def _r750(pk: int, virtual: bool, model: str, scenario: str, value: float) -> ResultFacts:
    # closed/Dell/results/<folder>/<model>/<scenario> (inference_results_v3.0)
    folder = "vR750xa_H100_PCIe_80Cx2_TRT" if virtual else "R750xa_H100_PCIe_80GBx2_TRT"
    name = (
        "Dell PowerEdge R750xa, VMware vSphere 8.0.1 (2x H100-80C, TensorRT)"
        if virtual
        else "Dell PowerEdge R750xa (2x H100-PCIe-80GB, TensorRT)"
    )
    return ResultFacts(
        pk=pk,
        round="v3.0",
        submitter="Dell",
        system_folder=folder,
        system_name=name,
        division="closed",
        availability="available",
        accelerators=2,
        accelerator_model="NVIDIA H100-80C" if virtual else "NVIDIA H100-PCIe-80GB",
        framework="",
        benchmark=model,
        score_minutes=None,
        suite="inference",
        metric="throughput",
        unit="Samples/s" if scenario == "Offline" else "Queries/s",
        higher_is_better=True,
        value=value,
        model=model,
        scenario=scenario,
    )


R750XA = [
    _r750(50, True, "retinanet", "Offline", 1800.6),
    _r750(51, False, "retinanet", "Offline", 1892.09),
    _r750(52, True, "retinanet", "Server", 1772.81),
    _r750(53, False, "retinanet", "Server", 1852.24),
    _r750(54, True, "rnnt", "Offline", 32771.4),
    _r750(55, False, "rnnt", "Offline", 33741.5),
    _r750(56, True, "rnnt", "Server", 31131.2),
    _r750(57, False, "rnnt", "Server", 32004.5),
]
VIRTUAL = (
    "With MLPerf Inference v3.0, Dell and NVIDIA showed a virtualized PowerEdge R750xa"
    " delivering from {} of its bare metal performance."
)


@pytest.mark.parametrize(
    ("words", "verdict", "linked"),
    [
        # shares: RetinaNet Offline 1,800.6 / 1,892.09 = 95.16%, Server 95.71%; RNN-T
        # Offline 32,771.4 / 33,741.5 = 97.12%, Server 31,131.2 / 32,004.5 = 97.27%
        ("95% to 97%", "consistent", {50, 51, 56, 57}),
        ("94% to 105%", "inconsistent", {50, 51, 56, 57}),
    ],
)
def test_virtualized_over_bare_metal_range(words: str, verdict: str, linked: set[int]) -> None:
    """inference/08 (VMware: "from 94% to 105% of the equivalent bare metal
    performance"), here in Dell's words: each virtualized system against the one
    bare-metal system of the same submitter, server and accelerators."""
    v = _verify(VIRTUAL.format(words), float(words.split("%")[0]), R750XA)
    assert v.verdict == verdict
    assert _linked(v) == linked


def test_no_bare_metal_equivalent_abstains() -> None:
    virtual_only = [r for r in R750XA if r.system_folder.startswith("v")]
    v = _verify(VIRTUAL.format("95% to 97%"), 95.0, virtual_only)
    assert v.verdict == "unverifiable"
    assert "0 bare-metal equivalents" in v.details["reason"]


@pytest.mark.parametrize(
    ("count", "verdict", "linked"),
    [("2x", "consistent", {50, 52, 54, 56}), ("4x", "unverifiable", set())],
)
def test_the_accelerators_of_a_named_virtualized_server(
    count: str, verdict: str, linked: set[int]
) -> None:
    """inference/08 ("Dell PowerEdge XE8545 server with 4x virtualized NVIDIA SXM
    A100-80GB GPU cards"), here in Dell's words: the count is read on the virtualized
    system of the server the sentence names (its two GPUs), not on every system with
    that many; a count it did not run on is not called inconsistent."""
    text = (
        "For MLPerf Inference v3.0, Dell ran a PowerEdge R750xa with"
        f" {count} virtualized NVIDIA H100 GPUs under VMware vSphere."
    )
    v = _verify(text, float(count[0]), R750XA)
    assert v.verdict == verdict
    assert _linked(v) == linked
