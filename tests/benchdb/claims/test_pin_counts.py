"""Counts and ranges settled by pins with the automatic check's own rules
(benchdb.claims.pins, issue 27): a pin never loses a count the automatic check
counts (a Storage round's benchmarks), a record read as the round's best result, a
count over the results a person names, and a range over pinned pairs. Pure, no
database."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from benchdb.claims import pins as P
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.round_counts import Holding, Score


def storage_result(pk: int, model: str) -> ResultFacts:
    """A stored MLPerf Storage v1.0 result of YanRongTech (F8000X, simulated H100)."""
    return ResultFacts(
        pk=pk,
        round="v1.0",
        submitter="YanRongTech",
        system_folder="F8000X",
        system_name="F8000X",
        division="closed",
        availability="",
        accelerators=1,
        accelerator_model="NVIDIA H100 (simulated)",
        framework="",
        benchmark=model,
        score_minutes=None,
        suite="storage",
        model=model,
    )


def test_a_pinned_round_keeps_the_storage_rounds_benchmark_count() -> None:
    """Blocks and Files (2024-09-26) on MLPerf Storage v1.0: "the unet3d, resnet50 and
    cosmoflow workloads", a count of the round's three benchmarks. The automatic check
    counts it by the rules' list (``other_suites.verify_count``); the pinned verdict
    runs the same sequence, so pinning the round the text names keeps it (the pinned
    path once skipped that check and answered "no check counts")."""
    three = ClaimFacts(
        kind="count",
        value=3.0,
        unit="benchmark",
        suite="storage",
        round="v1.0",
        submitter="YanRongTech",
        context=("suite-storage", "listed:unet3d,resnet50,cosmoflow"),
    )
    held = [
        storage_result(1, "unet3d"),
        storage_result(2, "resnet50"),
        storage_result(3, "cosmoflow"),
    ]
    auto = P.automatic(three, held)
    assert (auto.verdict, auto.recomputed_value) == ("consistent", 3.0)
    v = P.apply_pins(three, held, P.parse_pins({"round": "v1.0"}), {})
    assert (v.verdict, v.recomputed_value) == ("consistent", 3.0)
    # pinned to v0.5 (two benchmarks: 3D U-Net, BERT), the round's reading fails and
    # the submitter's is open (its results may be held in part): no verdict
    v05 = P.apply_pins(three, held, P.parse_pins({"round": "v0.5"}), {})
    assert v05.verdict == "unverifiable"


def _score(submitter: str, system: str, bench: str, minutes: float) -> Score:
    accelerator = "TPU v4" if submitter == "Google" else "NVIDIA A100-SXM4-80GB"
    return Score(submitter, bench, "closed", "", system, accelerator, "available", minutes, True)


#: MLPerf Training v1.0 closed, the fastest stored results of Google and NVIDIA on three
#: benchmarks (benchdb_pins, from training_results_v1.0: minutes): Google wins all three.
V10 = Holding(
    suite="training",
    round="v1.0",
    commit="50619b5",
    submitters=("Google", "NVIDIA"),
    incomplete=frozenset(),
    entries=(),
    scores=(
        _score("Google", "tpu-v4-6912-TF", "bert", 0.27603541666666664),
        _score("Google", "tpu-v4-6912-TF", "resnet", 0.2290388888888889),
        _score("Google", "tpu-v4-256-TF", "dlrm", 0.6410722222222222),
        _score("NVIDIA", "dgxa100_n8_ngc21.05_pytorch", "bert", 3.37314375),
        _score("NVIDIA", "dgxa100_n14_ngc21.05_merlin_hugectr", "dlrm", 0.9869222222222223),
    ),
)


def _records(value: float, system: str, submitter: str) -> ClaimFacts:
    """ "set records in N benchmarks" (the shape of Google's "TPUs set records in six
    of the eight benchmarks", Jeff Dean on MLPerf Training v0.7, quoted by Synced), as
    ``round_wins.scope_tags`` tags it: a count of records."""
    return ClaimFacts(
        kind="count",
        value=value,
        unit="benchmark",
        suite="training",
        round="v1.0",
        system=system,
        submitter=submitter,
        mlperf_context=True,
        context=("round-in-sentence", "round-win:record"),
    )


def test_records_read_as_the_rounds_best_are_counted_as_wins() -> None:
    """A count of records is left open by the automatic check (a record may also mean
    better than every earlier round); pinned ``reading: round-best``, it is counted as
    the round's wins with every reading of subject and field, as "won" is."""
    holdings = {("training", "v1.0"): V10}
    three = _records(3.0, "TPU v4", "Google")
    auto = P.automatic(three, [], holdings)
    assert auto.verdict == "unverifiable" and "every earlier round" in auto.details["reason"]
    pins = P.parse_pins({"reading": "round-best"})
    v = P.apply_pins(three, [], pins, {}, auto, holdings)
    assert (v.verdict, v.recomputed_value) == ("consistent", 3.0)
    two = P.apply_pins(_records(2.0, "A100", "NVIDIA"), [], pins, {}, None, holdings)
    assert (two.verdict, two.recomputed_value) == ("inconsistent", 0.0)
    # only a count is read so
    with pytest.raises(P.PinError, match="round-best"):
        P.check_applies(replace(three, kind="time"), pins)


def edge_result(pk: int, rnd: str, system: str, model: str, value: float) -> ResultFacts:
    """An MLPerf Inference closed edge Offline result of NVIDIA (samples/s)."""
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter="NVIDIA",
        system_folder=system,
        system_name=system,
        division="closed",
        availability="preview" if rnd == "v2.0" else "available",
        accelerators=1,
        accelerator_model="Jetson AGX Orin" if rnd == "v2.0" else "Jetson AGX Xavier",
        framework="TensorRT",
        benchmark=model,
        score_minutes=None,
        suite="inference",
        metric="result_samples_per_second",
        unit="Samples/s",
        higher_is_better=True,
        value=value,
        model=model,
        scenario="Offline",
        category="edge",
    )


#: Jetson AGX Orin (v2.0 Orin_TRT) over AGX Xavier (v1.1 AGX_Xavier_TRT), Offline, as
#: ../shared/vendor-dev/inference/05's truth gives them (``official``): BERT-99
#: 476.344 / 96.7259 = 4.92x, SSD-ResNet34 207.657 / 55.1556 = 3.76x, ResNet-50
#: 6,138.84 / 2,039.11 = 3.01x, RNN-T 1,110.23 / 416.126 = 2.67x, SSD-MobileNet
#: 6,883.49 / 2,833.59 = 2.43x.
FIGURES = {
    "bert-99": (476.344, 96.7259),
    "ssd-resnet34": (207.657, 55.1556),
    "resnet50": (6138.84, 2039.11),
    "rnnt": (1110.23, 416.126),
    "ssd-mobilenet": (6883.49, 2833.59),
}
ORIN = {
    m: edge_result(10 + i, "v2.0", "Orin_TRT", m, v[0]) for i, (m, v) in enumerate(FIGURES.items())
}
XAVIER = {
    m: edge_result(20 + i, "v1.1", "AGX_Xavier_TRT", m, v[1])
    for i, (m, v) in enumerate(FIGURES.items())
}
EDGE = [*ORIN.values(), *XAVIER.values()]


def _range(low: float, high: float) -> ClaimFacts:
    """ "Orin is <low>-<high>x faster than AGX Xavier" (a multiplier range against the
    previous round's Xavier, as NVIDIA's Orin post compares them)."""
    return ClaimFacts(
        kind="multiplier",
        value=low,
        value_high=high,
        unit="x",
        suite="inference",
        round="v2.0",
        system="Jetson AGX Orin",
        submitter="NVIDIA",
        baseline="previous-round",
    )


def _pinned(c: ClaimFacts, models: list[str], scenario: bool = True) -> str:
    pins = {"subject": [f"o/{m}" for m in models], "baseline": [f"x/{m}" for m in models]}
    resolved = {f"o/{m}": ORIN[m] for m in models} | {f"x/{m}": XAVIER[m] for m in models}
    if scenario:
        pins["scenario"] = "Offline"  # type: ignore[assignment]
    return P.apply_pins(c, EDGE, P.parse_pins(pins), resolved).verdict


def test_a_range_over_pinned_pairs_is_their_spread() -> None:
    """A range is read as the pinned pairs' spread: both ends given by the lowest and
    the highest pair (within a single gain's tolerance, the printed digits) is
    consistent; one end only (BERT's 4.92x beyond the high end: the range holds only
    if BERT is left out) is ambiguous; neither end is inconsistent."""
    four = ["ssd-resnet34", "resnet50", "rnnt", "ssd-mobilenet"]
    assert _pinned(_range(2.4, 3.8), four) == "consistent"  # 2.43x .. 3.76x
    assert _pinned(_range(2.4, 3.8), [*four, "bert-99"]) == "ambiguous"  # 4.92x at the top
    assert _pinned(_range(2.4, 4.9), [*four, "bert-99"]) == "consistent"
    assert _pinned(_range(1.5, 2.0), four) == "inconsistent"
    # the automatic check leaves a range over several results open
    assert P.automatic(_range(2.4, 3.8), EDGE).verdict == "unverifiable"


def test_a_range_pair_per_test_or_no_verdict() -> None:
    """Two Xavier results of one test pinned against one Orin result: which pair the
    range rests on is open, so no verdict."""
    other = replace(XAVIER["rnnt"], pk=99, system_folder="AGX_Xavier_TRT_MaxQ", value=300.0)
    pins = P.parse_pins(
        {"subject": ["o/rnnt", "o/resnet50"], "baseline": ["x/rnnt", "x2/rnnt", "x/resnet50"]}
    )
    resolved = {"o/rnnt": ORIN["rnnt"], "o/resnet50": ORIN["resnet50"], "x/rnnt": XAVIER["rnnt"]}
    resolved |= {"x2/rnnt": other, "x/resnet50": XAVIER["resnet50"]}
    v = P.apply_pins(_range(2.6, 3.0), [*EDGE, other], pins, resolved)
    assert v.verdict == "unverifiable" and "one result per test" in v.details["reason"]


def training_result(
    pk: int, submitter: str, system: str, bench: str, minutes: float
) -> ResultFacts:
    """An MLPerf Training v1.0 closed result (benchdb_pins, training_results_v1.0)."""
    return ResultFacts(
        pk=pk,
        round="v1.0",
        submitter=submitter,
        system_folder=system,
        system_name=system,
        division="closed",
        availability="available",
        accelerators=8,
        accelerator_model="TPU v4" if submitter == "Google" else "NVIDIA A100-SXM4-80GB",
        framework="",
        benchmark=bench,
        score_minutes=minutes,
    )


GOOGLE = [
    training_result(31, "Google", "tpu-v4-6912-TF", "bert", 0.27603541666666664),
    training_result(32, "Google", "tpu-v4-6912-TF", "resnet", 0.2290388888888889),
    training_result(33, "Google", "tpu-v4-256-TF", "dlrm", 0.6410722222222222),
]
NVIDIA = [
    training_result(41, "NVIDIA", "dgxa100_n8_ngc21.05_pytorch", "bert", 3.37314375),
    training_result(
        42, "NVIDIA", "dgxa100_n14_ngc21.05_merlin_hugectr", "dlrm", 0.9869222222222223
    ),
]


def _count(
    value: float, of: float | None, unit: str, subject: list[ResultFacts], field: list[ResultFacts]
) -> Any:
    """A count with the pinned subject and field (keys: the results' pks)."""
    c = ClaimFacts(kind="count", value=value, compared_value=of, unit=unit, round="v1.0")
    pins = P.parse_pins(
        {"subject": [str(r.pk) for r in subject], "compared": [str(r.pk) for r in field]}
    )
    resolved = {str(r.pk): r for r in [*subject, *field]}
    return P.apply_pins(c, [*GOOGLE, *NVIDIA], pins, resolved)


def test_a_count_over_pinned_results_counts_wins_and_places() -> None:
    """A count a person settles by naming the results (the shape of "Google showed four
    overall winning scores out of eight benchmarks", EE Times on MLPerf Training v2.0):
    wins are the tests both sides ran that the subject's best result wins (lowest
    time); "N out of M" also asks M; a place is the subject's rank in each test."""
    two_of_two = _count(2.0, 2.0, "benchmark", GOOGLE, NVIDIA)  # bert, dlrm: Google faster
    assert (two_of_two.verdict, two_of_two.recomputed_value) == ("consistent", 2.0)
    assert "bert" in two_of_two.details["reason"] and "dlrm" in two_of_two.details["reason"]
    assert _count(2.0, 3.0, "benchmark", GOOGLE, NVIDIA).verdict == "inconsistent"  # M is 2
    nvidia_wins = _count(1.0, None, "benchmark", NVIDIA, GOOGLE)
    assert (nvidia_wins.verdict, nvidia_wins.recomputed_value) == ("inconsistent", 0.0)
    second = _count(2.0, None, "rank", NVIDIA, GOOGLE)  # second in bert and in dlrm
    assert (second.verdict, second.recomputed_value) == ("consistent", 2.0)
    assert _count(3.0, None, "rank", NVIDIA, GOOGLE).verdict == "inconsistent"
    entered = _count(3.0, None, "benchmark", GOOGLE, [])  # no field: the tests entered
    assert (entered.verdict, entered.recomputed_value) == ("consistent", 3.0)


def _dc(pk: int, sub: str, model: str, value: float, power: float | None) -> ResultFacts:
    """An MLPerf Inference v3.0 closed datacenter Server result (queries/s; average
    system power in watts when measured)."""
    return replace(
        edge_result(pk, "v3.0", f"{sub}-system", model, value),
        submitter=sub,
        scenario="Server",
        category="datacenter",
        unit="Queries/s",
        power=power,
        power_unit="Watts" if power else "",
    )


def test_a_subject_without_the_figure_per_watt_wins_none_of_the_fields_tests() -> None:
    """inference/01 (Reuters on v3.0: "a Taiwanese start-up bested both in one
    category" of power efficiency; the start-up's only results, DLRM, have no power
    measured) showed the class; here as a Korean start-up's rivals would be pinned. A
    subject whose pinned results lack the figure per watt bested no one per watt: a win
    count over the field's tests is 0 (it was left unverifiable); a place stays open."""
    subject = [_dc(1, "Furiosa", "dlrm-99", 90000.0, None)]
    field = [
        _dc(2, "Qualcomm", "resnet", 145880.94, 641.53),
        _dc(3, "NVIDIA", "resnet", 240018.13, 2213.47),
    ]
    pins = P.parse_pins({"subject": ["1"], "compared": ["2", "3"], "normalisation": "per-watt"})
    resolved = {str(r.pk): r for r in [*subject, *field]}
    one = ClaimFacts(kind="count", value=1.0, unit="category", suite="inference", round="v3.0")
    v = P.apply_pins(one, [*subject, *field], pins, resolved)
    assert (v.verdict, v.recomputed_value) == ("inconsistent", 0.0)
    third = P.apply_pins(replace(one, value=3.0, unit="rank"), [*subject, *field], pins, resolved)
    assert third.verdict == "unverifiable"
