"""The pin kinds of the claim workbench beyond a result's key (benchdb.claims.pins):
a figure per watt settled on pinned power results (the automatic check's company rule
kept), the ``per-watt`` normalisation, a round or benchmark the text leaves empty
taken from the pinned results, a count settled by its round and by what it counts,
and the kinds no result settles. Pure, no database.

Power results: MLPerf Inference v3.0 closed, ResNet-50 Server, as the truths of
../shared/vendor-dev/inference/01-reuters-* give them (``official``: the system's
throughput over its average power in LoadGen's power window; the same result folders
are in tests/data/workbench/inference_results_v3.0). Training results: ../shared/mlperf
(test_pins.py's fixtures)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchdb.claims import pins as P
from benchdb.claims.round_counts import Holding
from benchdb.claims.verdicts import ClaimFacts, ResultFacts, verify_claim
from tests.benchdb.claims.test_pins import DELL, EIGHT_A100, by_key, results, score

__all__ = ["by_key", "results"]  # test_pins' fixtures, used here


def power_result(pk: int, submitter: str, system: str, value: float, watts: float) -> ResultFacts:
    """A v3.0 closed ResNet-50 Server power result."""
    return ResultFacts(
        pk=pk,
        round="v3.0",
        submitter=submitter,
        system_folder=system,
        system_name=system,
        division="closed",
        availability="available",
        accelerators=8,
        accelerator_model=(
            "NVIDIA H100-PCIe-80GB"
            if submitter == "NVIDIA"
            else "QUALCOMM Cloud AI 100 PCIe/HHHL Pro"
        ),
        framework="",
        benchmark="resnet",
        score_minutes=None,
        suite="inference",
        metric="result_scheduled_samples_per_sec",
        unit="Queries/s",
        higher_is_better=True,
        value=value,
        model="resnet",
        scenario="Server",
        category="datacenter",
        power=watts,
        power_unit="Watts",
    )


#: official: "290,033.61 samples/s / 1,467.63 W = 197.62", "145,880.94 / 641.53 W =
#: 227.40", "240,018.13 / 2,213.47 W = 108.43"
G292 = power_result(1, "Qualcomm", "g292_z43_q16e-qaic-v1.8.3.7-aic100", 290033.61, 1467.63)
R282 = power_result(2, "Qualcomm", "r282_z93_q8e-qaic-v1.8.3.7-aic100", 145880.94, 641.53)
MAXQ = power_result(3, "NVIDIA", "H100-PCIe-80GBx8_TRT_MaxQ", 240018.13, 2213.47)
POWER = [G292, R282, MAXQ]
BY_KEY = {f"k{r.pk}": r for r in POWER}


def per_watt_claim(value: float, submitter: str, unit: str = "query/W") -> ClaimFacts:
    return ClaimFacts(
        kind="throughput",
        value=value,
        unit=unit,
        submitter=submitter,
        benchmark_key="resnet",
        round="v3.0",
        suite="inference",
    )


def test_a_figure_per_watt_is_settled_by_the_pinned_power_result() -> None:
    """ "Qualcomm's chips hit 197.6 server queries per watt" (Reuters, 01): Qualcomm has
    two ResNet-50 Server power results, 197.62/W and 227.40/W; pinning the 16-card one
    settles the claim (consistent), pinning the 8-card one refutes it."""
    claim = per_watt_claim(197.6, "Qualcomm")
    assert verify_claim(claim, POWER).verdict == "unverifiable"  # the two disagree
    v = P.apply_pins(claim, POWER, P.parse_pins({"subject": "k1"}), BY_KEY)
    assert v.verdict == "consistent"
    assert v.recomputed_value == pytest.approx(290033.61 / 1467.63)
    assert [(lk.role, lk.result) for lk in v.links] == [("subject", 1)]
    v = P.apply_pins(claim, POWER, P.parse_pins({"subject": "k2"}), BY_KEY)
    assert v.verdict == "inconsistent"
    assert v.recomputed_value == pytest.approx(145880.94 / 641.53)


def test_a_figure_per_watt_on_another_companys_result_does_not_hold() -> None:
    """ "Neuchips ... took the top spot with 227 queries per watt" (Reuters, 01): 227.40/W
    is Qualcomm's r282_z93_q8e. The automatic check reads only the named company's
    results; pinned, Qualcomm's result gives the figure but not to Neuchips:
    inconsistent, the reading saying whose it is."""
    claim = per_watt_claim(227.0, "Neuchips")
    v = P.apply_pins(claim, POWER, P.parse_pins({"subject": "k2"}), BY_KEY)
    assert v.verdict == "inconsistent"
    (reading,) = v.details["readings_list"]
    assert "a result of Qualcomm, not of Neuchips" in reading["label"]
    # the same figure given to Qualcomm holds (227.40 within the printed digits' 0.5)
    ok = P.apply_pins(
        per_watt_claim(227.0, "Qualcomm"), POWER, P.parse_pins({"subject": "k2"}), BY_KEY
    )
    assert ok.verdict == "consistent"


def test_the_per_watt_normalisation_is_a_pin() -> None:
    """A figure read as a plain throughput ("108.4 queries") is a figure per watt once
    pinned so: NVIDIA's H100-PCIe MaxQ 240,018.13 / 2,213.47 W = 108.43."""
    claim = per_watt_claim(108.4, "NVIDIA", unit="query/s")
    pins = P.parse_pins({"subject": "k3", "normalisation": "per-watt"})
    v = P.apply_pins(claim, POWER, pins, BY_KEY)
    assert v.verdict == "consistent"
    assert v.recomputed_value == pytest.approx(240018.13 / 2213.47)
    assert P.pinned_frame(claim, pins).metric == "per-watt"
    back = P.parse_pins({"normalisation": "system"})
    assert P.pinned_frame(P.pinned_frame(claim, pins), back).metric == ""


def test_a_benchmark_the_text_leaves_empty_is_the_pinned_results(
    results: list[ResultFacts],
    by_key: dict[str, ResultFacts],
    official_scores: list[dict[str, str]],
) -> None:
    """ "8 A100 GPUs trained in 28.3 minutes" with no benchmark named: no check (the
    benchmark is missing); pinning Dell's ResNet-50 result names it, and the claim is
    checked against it with ResNet-50's rules (Dell's 8-GPU PCIe system is far slower:
    inconsistent)."""
    claim = replace(EIGHT_A100, benchmark_key="")
    assert "no MLPerf benchmark named" in verify_claim(claim, results).details["reason"]
    v = P.apply_pins(claim, results, P.parse_pins({"subject": DELL}), by_key)
    assert v.verdict == "inconsistent"
    assert v.recomputed_value == pytest.approx(
        score(official_scores, "v1.1", "DSS8440x8A100-PCIE-40GB")
    )
    framed = P.pinned_frame(claim, P.parse_pins({"subject": DELL}), "", [by_key[DELL]])
    assert (framed.benchmark_key, framed.round) == ("resnet", "v1.1")
    # a benchmark and round the text names are kept
    named = P.pinned_frame(EIGHT_A100, P.Pins(), "", [by_key[DELL]])
    assert named is EIGHT_A100
    # a round only the page's date gave (the check API dates an undated text today)
    # is the pinned result's
    dated = replace(EIGHT_A100, round="v6.0", context=("round-date",))
    assert P.pinned_frame(dated, P.Pins(), "", [by_key[DELL]]).round == "v1.1"


#: "MLPerf Inference v3.0 ... the seventh version": the round's place (v0.5, v0.7, v1.0,
#: v1.1, v2.0, v2.1, v3.0: 7) or its major version numbers counted (0, 1, 2, 3: 4).
SEVENTH = ClaimFacts(
    kind="count",
    value=7.0,
    unit="version",
    round="v3.0",
    suite="inference",
    context=("round-fact:version", "round-in-sentence"),
)


def test_a_count_is_settled_by_what_it_counts() -> None:
    auto = verify_claim(SEVENTH, [])
    assert auto.verdict == "unverifiable"
    cands = {c["value"]: c for c in P.slot_candidates(auto, "inference")}
    place = "the round's place among its suite's rounds"
    assert cands[place]["verdict"] == "consistent"
    assert cands[place]["pin"] == {"counted": place}
    assert cands["the version's major number counted"]["verdict"] == "inconsistent"
    v = P.apply_pins(SEVENTH, [], P.parse_pins({"counted": place}), {}, auto)
    assert (v.verdict, v.recomputed_value) == ("consistent", 7.0)


def test_a_pinned_round_is_a_named_round() -> None:
    """The same count dated only by its page: a count over a round needs the round
    named; a person's round pin names it."""
    dated = replace(SEVENTH, context=("round-fact:version", "round-date"))
    assert "names no round" in verify_claim(dated, []).details["reason"]
    pins = P.parse_pins({"round": "v3.0", "counted": "the round's place among its suite's rounds"})
    assert P.apply_pins(dated, [], pins, {}).verdict == "consistent"


def test_a_quality_target_takes_no_result_pins_and_a_count_needs_its_subject() -> None:
    """A count over pinned results counts the subject's (benchdb.claims.pin_counts):
    a field pinned without them is refused; a quality target takes no results."""
    with pytest.raises(P.PinError, match="needs the subject's results"):
        P.check_applies(SEVENTH, P.parse_pins({"compared": "k1"}))
    P.check_applies(SEVENTH, P.parse_pins({"subject": "k1"}))
    target = ClaimFacts(kind="target", value=0.377, unit="fraction", round="v3.0")
    with pytest.raises(P.PinError, match="a target is not settled by results"):
        P.check_applies(target, P.parse_pins({"compared": "k1"}))
    P.check_applies(SEVENTH, P.parse_pins({"suite": "inference", "round": "v3.0"}))
    with pytest.raises(P.PinError, match="must be one of"):
        P.parse_pins({"suite": "Inference"})


def test_a_pinned_count_is_counted_over_the_rounds_held_whole() -> None:
    """ "The number of submitters ... dipped to five this year" (HPCwire on MLPerf HPC
    v2.0): counted over the round's recorded tree (v2.0's submitter folders, as the
    truth lists them: Dell, Fujitsu+RIKEN, HelmholtzAI, NVIDIA, tacc). Its frame pinned,
    the count is checked as ingest checks it, over the rounds held whole; without them
    it stays open."""
    five = ClaimFacts(
        kind="count",
        value=5.0,
        unit="submitter",
        round="v2.0",
        suite="hpc",
        context=("round-count:submitters:0",),
    )
    held = Holding(
        suite="hpc",
        round="v2.0",
        commit="ad77f6ceae98bf1236a4a0bb79257c2b739197b9",
        submitters=("Dell", "Fujitsu+RIKEN", "HelmholtzAI", "NVIDIA", "tacc"),
        incomplete=frozenset(),
        entries=(),
    )
    pins = P.parse_pins({"suite": "hpc", "round": "v2.0"})
    v = P.apply_pins(five, [], pins, {}, holdings={("hpc", "v2.0"): held})
    assert (v.verdict, v.recomputed_value) == ("consistent", 5.0)
    assert P.apply_pins(five, [], pins, {}).verdict == "unverifiable"
