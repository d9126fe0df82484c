"""Counts and ranges settled by pins with the automatic check's own rules
(benchdb.claims.pins, issue 27): a pin never loses a count the automatic check
counts (a Storage round's benchmarks), a record read as the round's best result, and
a range over pinned pairs. Pure, no database."""

from __future__ import annotations

from benchdb.claims import pins as P
from benchdb.claims.facts import ClaimFacts, ResultFacts


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
