"""Claims about scale: scaling efficiency (benchdb.claims.verdicts_scaling) and counts
of nodes (benchdb.claims.readings.node_verdict). Pure, no database.

Results are built from ../shared/mlperf (official_scores.csv and the systems JSON
files), as in test_verdicts.py. The sentences are written here in Graphcore's words
about Graphcore's own MLPerf Training v1.1 results; expected efficiencies are worked
out here from the official scores, never taken from the code under test."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from benchdb import vocabulary
from benchdb.claims import verdicts
from benchdb.claims.verdicts import ClaimFacts, ResultFacts
from benchdb.claims.verdicts_scaling import scaling_efficiency
from ingest.claims.parsers.text import extract_claims


@pytest.fixture(scope="module")
def results(mlperf_data: Path, official_scores: list[dict[str, str]]) -> list[ResultFacts]:
    out = []
    for i, row in enumerate(official_scores, start=1):
        base = mlperf_data / f"training_results_{row['round']}" / row["submitter"]
        s = json.loads((base / "systems" / f"{row['system']}.json").read_text())
        nodes, per = int(s["number_of_nodes"]), int(s["accelerators_per_node"])
        out.append(
            ResultFacts(
                pk=i,
                round=row["round"],
                submitter=row["submitter"],
                system_folder=row["system"],
                system_name=s["system_name"],
                division=row["division"],
                availability=s["status"],
                accelerators=nodes * per,
                accelerator_model=s["accelerator_model_name"],
                framework=s["framework"],
                benchmark=row["benchmark"],
                score_minutes=float(row["score_minutes"]),
                nodes=nodes,
            )
        )
    return out


def official(rows: list[dict[str, str]], system: str, bench: str) -> float:
    (row,) = [
        r for r in rows if (r["round"], r["system"], r["benchmark"]) == ("v1.1", system, bench)
    ]
    return float(row["score_minutes"])


def graphcore(value: float, bench: str = "resnet", **kw: object) -> ClaimFacts:
    base: dict[str, object] = dict(
        kind="scaling",
        value=value,
        unit="%",
        submitter="Graphcore",
        accelerators=64,
        compared_accelerators=16,
        round="v1.1",
        benchmark_key=bench,
    )
    return ClaimFacts(**{**base, **kw})  # type: ignore[arg-type]


def test_the_efficiency_is_the_speedup_over_the_growth_in_accelerators() -> None:
    """28.33 min on 16 IPUs and 8.50 min on 64: a 3.33x speedup for 4x the IPUs."""
    assert scaling_efficiency(28.3345, 16, 8.5037, 64) == pytest.approx(28.3345 / 8.5037 / 4 * 100)
    with pytest.raises(ValueError):
        scaling_efficiency(0.0, 16, 8.5, 64)


def test_it_reads_the_two_counts_of_a_scaling_sentence() -> None:
    """ "from 16 to 64 IPUs" gives the smaller and the larger count."""
    text = (
        "In MLPerf Training v1.1, Graphcore's IPU-POD64 trained ResNet-50 with 83% scaling"
        " efficiency going from 16 to 64 IPUs."
    )
    (c,) = [c for c in extract_claims(text) if c.kind == "scaling"]
    assert (c.value, c.accelerators, c.compared_accelerators) == (83.0, 64, 16)


def test_a_true_efficiency_is_consistent_on_the_submitters_own_pair(
    results: list[ResultFacts], official_scores: list[dict[str, str]]
) -> None:
    """ResNet-50, IPU-POD16 (28.33 min) -> IPU-POD64 (8.50 min): 83.3%."""
    small = official(official_scores, "ipu-pod16-TF1", "resnet")
    large = official(official_scores, "ipu-pod64-TF1", "resnet")
    want = small * 16 / (large * 64) * 100
    v = verdicts.verify_claim(graphcore(83.0), results)
    assert v.verdict == vocabulary.CONSISTENT
    assert v.recomputed_value == pytest.approx(want)
    folders = {by.system_folder for by in results if by.pk in {lk.result for lk in v.links}}
    assert folders == {"ipu-pod16-TF1", "ipu-pod64-TF1"}
    assert "scaling-efficiency" in v.flags


def test_an_overstated_efficiency_is_inconsistent(results: list[ResultFacts]) -> None:
    """95% against 83.3% is outside ResNet-50's 2.5% run-to-run tolerance."""
    v = verdicts.verify_claim(graphcore(95.0), results)
    assert v.verdict == vocabulary.INCONSISTENT


def test_every_division_the_text_leaves_open_must_agree(
    results: list[ResultFacts], official_scores: list[dict[str, str]]
) -> None:
    """BERT, no division named: closed 77.4% and open 78.9% are both readings."""
    closed = (
        official(official_scores, "ipu-pod16-POPART-closed", "bert")
        * 16
        / (official(official_scores, "ipu-pod64-POPART-closed", "bert") * 64)
    )
    opened = (
        official(official_scores, "ipu-pod16-POPART-open", "bert")
        * 16
        / (official(official_scores, "ipu-pod64-POPART-open", "bert") * 64)
    )
    assert closed * 100 < 78 < opened * 100
    v = verdicts.verify_claim(graphcore(78.0, "bert"), results)
    assert v.verdict == vocabulary.CONSISTENT
    assert v.details["n_readings"] == 2
    # 82%: within BERT's 5% of the open reading (78.9%), not of the closed one (77.4%)
    assert abs(82 - opened * 100) / (opened * 100) <= 0.05 < abs(82 - closed * 100) / (closed * 100)
    split = verdicts.verify_claim(graphcore(82.0, "bert"), results)
    assert split.verdict == vocabulary.AMBIGUOUS
    assert split.details["open_slot"] == "division"


def test_it_abstains_without_both_counts_or_without_a_pair(results: list[ResultFacts]) -> None:
    """One count named, or counts no submitter ran both of: unverifiable, saying so."""
    one = verdicts.verify_claim(graphcore(83.0, compared_accelerators=None), results)
    assert one.verdict == vocabulary.UNVERIFIABLE
    assert "two accelerator counts" in one.details["reason"]
    none = verdicts.verify_claim(graphcore(83.0, compared_accelerators=8), results)
    assert none.verdict == vocabulary.UNVERIFIABLE
    assert "no pair of results" in none.details["reason"]


def test_a_count_of_nodes_is_checked_against_the_systems_node_count(
    results: list[ResultFacts],
) -> None:
    """Graphcore v1.1: IPU-POD256 is 4 nodes of 64 IPUs, IPU-POD128 2 (systems JSON
    ``number_of_nodes``): "4 servers" names the POD256 results, "3 servers" none."""
    four = ClaimFacts(kind="scale", value=4.0, unit="node", submitter="Graphcore", round="v1.1")
    v = verdicts.verify_claim(four, results)
    assert v.verdict == vocabulary.CONSISTENT
    linked = {r.system_folder for r in results if r.pk in {lk.result for lk in v.links}}
    assert linked == {"ipu-pod256-TF1"}
    three = verdicts.verify_claim(replace(four, value=3.0), results)
    assert three.verdict == vocabulary.UNVERIFIABLE
    assert "3 nodes" in three.details["reason"]


def test_a_count_of_racks_names_no_result() -> None:
    """ "39 racks, each containing 64 active GPUs" (training/09, CoreWeave), here in
    Dell's words: a rack is no node."""
    (c,) = [
        c
        for c in extract_claims("In MLPerf Training v5.0, Dell filled 12 racks with servers.")
        if c.kind == "scale"
    ]
    assert c.unit == "rack"
    v = verdicts.verify_claim(ClaimFacts.from_mapping(c.as_dict()), [])
    assert v.verdict == vocabulary.UNVERIFIABLE
    assert "racks" in v.details["reason"]
