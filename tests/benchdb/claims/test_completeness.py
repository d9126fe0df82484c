"""A verdict on a best result needs the round held whole (pure: no database)."""

from __future__ import annotations

from benchdb.claims.completeness import best_needs_whole_rounds
from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification
from benchdb.claims.round_counts import Holding


def _r(pk: int, rnd: str, submitter: str, folder: str, minutes: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter=submitter,
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=408,
        accelerator_model="NVIDIA A100-SXM4-80GB",
        framework="",
        benchmark="maskrcnn",
        score_minutes=minutes,
    )


def _holding(rnd: str, incomplete: frozenset[str]) -> Holding:
    return Holding("training", rnd, "c" * 40, ("Google", "NVIDIA"), incomplete, ())


# Inspur's Training v1.1 release: NVIDIA's Mask R-CNN "18%" over v1.0's best, read
# against Google's 4.68 min while NVIDIA's v1.0 dgxa100_n34 Mask R-CNN (listed in
# training_results_v1.0, its blobs missing from the snapshot read here) was not stored
NEW, OLD = _r(420, "v1.1", "NVIDIA", "dgxa100_n51", 3.2417), _r(156, "v1.0", "Google", "tpu", 4.683)
CLAIM = ClaimFacts(
    kind="percentage",
    value=18.0,
    unit="%",
    round="v1.1",
    submitter="NVIDIA",
    benchmark_key="maskrcnn",
    baseline="best:v1.0:multi-node",
)
V = Verification(
    "inconsistent",
    links=(Link(420, "subject"), Link(156, "baseline")),
    details={"tolerance": 0.025},
)
BY_PK = {420: NEW, 156: OLD}


def test_an_earlier_rounds_best_needs_that_round_whole() -> None:
    holdings = {
        ("training", "v1.0"): _holding("v1.0", frozenset({"NVIDIA", "Supermicro"})),
        ("training", "v1.1"): _holding("v1.1", frozenset()),
    }
    out = best_needs_whole_rounds(CLAIM, V, holdings, BY_PK)
    assert out.verdict == "unverifiable" and out.details["was"] == "inconsistent"
    assert out.details["rounds_held_in_part"] == {"v1.0": ["NVIDIA", "Supermicro"]}
    assert "v1.0: NVIDIA, Supermicro" in out.details["reason"] and not out.links


def test_whole_rounds_and_unknown_rounds_keep_the_verdict() -> None:
    whole = {
        ("training", "v1.0"): _holding("v1.0", frozenset()),
        ("training", "v1.1"): _holding("v1.1", frozenset()),
    }
    assert best_needs_whole_rounds(CLAIM, V, whole, BY_PK) is V
    assert best_needs_whole_rounds(CLAIM, V, None, BY_PK) is V  # no tree recorded


def test_the_subjects_own_fastest_needs_only_its_submitter_whole() -> None:
    record = ClaimFacts(
        kind="time",
        value=3.24,
        unit="min",
        round="v1.1",
        submitter="NVIDIA",
        benchmark_key="maskrcnn",
        context=("record",),
    )
    v = Verification("consistent", links=(Link(420, "subject"),))
    others_missing = {("training", "v1.1"): _holding("v1.1", frozenset({"Supermicro"}))}
    assert best_needs_whole_rounds(record, v, others_missing, BY_PK) is v
    nvidia_missing = {("training", "v1.1"): _holding("v1.1", frozenset({"NVIDIA"}))}
    assert best_needs_whole_rounds(record, v, nvidia_missing, BY_PK).verdict == "unverifiable"


def test_a_claim_that_takes_no_best_result_is_left_alone() -> None:
    plain = ClaimFacts(kind="time", value=3.24, unit="min", round="v1.1", benchmark_key="maskrcnn")
    v = Verification("consistent", links=(Link(420, "subject"),))
    held_in_part = {("training", "v1.1"): _holding("v1.1", frozenset({"NVIDIA"}))}
    assert best_needs_whole_rounds(plain, v, held_in_part, BY_PK) is v
