"""Counts and ranges settled by pins with the automatic check's own rules
(benchdb.claims.pins, issue 27): a pin never loses a count the automatic check
counts (a Storage round's benchmarks), a record read as the round's best result, and
a range over pinned pairs. Pure, no database."""

from __future__ import annotations

from dataclasses import replace

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
