"""The claim workbench's rules (benchdb.claims.pins): pure, no database.

Results are ../shared/mlperf's: scores from official_scores.csv, system facts from the
systems JSON files beside the logs (as tests/benchdb/claims/test_verdicts.py builds
them). Expected figures are worked out here from those scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchdb.claims import pins as P
from benchdb.claims.verdicts import ClaimFacts, ResultFacts, verify_claim
from ingest.claims.parsers.text import extract_claims


@pytest.fixture(scope="module")
def results(mlperf_data: Path, official_scores: list[dict[str, str]]) -> list[ResultFacts]:
    out = []
    for i, row in enumerate(official_scores, start=1):
        rnd, sub, system = row["round"], row["submitter"], row["system"]
        s = json.loads(
            (
                mlperf_data / f"training_results_{rnd}" / sub / "systems" / f"{system}.json"
            ).read_text()
        )
        nodes, per = int(s["number_of_nodes"]), int(s["accelerators_per_node"])
        out.append(
            ResultFacts(
                pk=i,
                round=rnd,
                submitter=sub,
                system_folder=system,
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


def key(r: ResultFacts) -> str:
    return f"training/{r.round}/{r.submitter}/{r.system_folder}/{r.benchmark}"


@pytest.fixture(scope="module")
def by_key(results: list[ResultFacts]) -> dict[str, ResultFacts]:
    return {key(r): r for r in results}


def score(official: list[dict[str, str]], rnd: str, system: str) -> float:
    (row,) = [
        r for r in official if (r["round"], r["system"], r["benchmark"]) == (rnd, system, "resnet")
    ]
    return float(row["score_minutes"])


DELL = "training/v1.1/Dell/DSS8440x8A100-PCIE-40GB/resnet"
BAIDU = "training/v1.1/Baidu/1_node_8_A100_PaddlePaddle/resnet"
#: "8 A100 GPUs trained ResNet-50 in 28.3 minutes" (MLPerf Training v1.1): four systems
#: of 8 A100s ran ResNet-50 in v1.1 (../shared/mlperf), the text names none.
EIGHT_A100 = ClaimFacts(
    kind="time",
    value=28.3,
    unit="min",
    system="A100",
    accelerators=8,
    benchmark_key="resnet",
    round="v1.1",
)


def test_pins_are_read_and_refused_with_a_reason() -> None:
    """A role takes one key or several; a slot one value of its own list."""
    p = P.parse_pins({"subject": DELL, "compared": [BAIDU, BAIDU, ""], "scenario": "Server"})
    assert p.results == {"subject": (DELL,), "compared": (BAIDU,)}
    assert p.frame == {"scenario": "Server"}
    assert p.as_dict() == {"subject": DELL, "compared": BAIDU, "scenario": "Server"}
    assert not P.parse_pins({}) and not P.parse_pins(None)
    for bad, words in [
        ([DELL], "must be an object"),
        ({"system": DELL}, "unknown pins ['system']"),
        ({"scenario": "Sever"}, "must be one of"),
        ({"subject": 3}, "must be a string"),
        ({"reading": ["speedup", "time_reduction"]}, "takes one value"),
        ({"subject": ["k"] * 25}, "at most 24"),
    ]:
        with pytest.raises(P.PinError, match=words.replace("[", r"\[").replace("]", r"\]")):
            P.parse_pins(bad)


def test_result_and_claim_keys_are_natural_and_stable() -> None:
    """A result's key is its natural key; a claim's key ignores spacing, not figures."""
    assert P.key_of("training", ("training", "v1.1", "Dell", "DSS", "resnet")) == (
        "training/v1.1/Dell/DSS/resnet"
    )
    assert P.key_of("inference", ("v5.1", "closed/NVIDIA", "sys", "llama2-70b-99", "Server")) == (
        "inference/v5.1/closed/NVIDIA/sys/llama2-70b-99/Server"
    )
    a = P.claim_key("https://x.test/p", "time", "min", 28.3, None, "ResNet-50 in  28.3\nminutes")
    b = P.claim_key("https://x.test/p", "time", "min", 28.3, None, "ResNet-50 in 28.3 minutes")
    c = P.claim_key("https://x.test/p", "time", "min", 28.4, None, "ResNet-50 in 28.3 minutes")
    assert a == b != c and len(a) == 64


def test_each_open_slot_lists_its_candidates_with_their_outcome(
    results: list[ResultFacts], official_scores: list[dict[str, str]]
) -> None:
    """The four 8-A100 systems disagree: each is a candidate of the open system slot,
    with its time and the verdict its reading gives (2.5% for ResNet-50)."""
    auto = verify_claim(EIGHT_A100, results)
    assert auto.verdict == "unverifiable"
    cands = {c["value"]: c for c in P.slot_candidates(auto)}
    assert set(cands) == {
        "1_node_8_A100_NGC21.05_MXNet",
        "1_node_8_A100_PaddlePaddle",
        "DSS8440x8A100-PCIE-40GB",
        "dgxa100_ngc21.09_mxnet",
    }
    dell = cands["DSS8440x8A100-PCIE-40GB"]
    assert dell["figure"] == pytest.approx(score(official_scores, "v1.1", dell["value"]))
    assert dell["verdict"] == "inconsistent" and dell["holds"] == [False]
    nvidia = score(official_scores, "v1.1", "dgxa100_ngc21.09_mxnet")
    assert abs(28.3 / nvidia - 1) > 0.025  # 29.15 min: 2.9% off
    assert cands["dgxa100_ngc21.09_mxnet"]["verdict"] == "inconsistent"
    assert cands["1_node_8_A100_PaddlePaddle"]["verdict"] == "consistent"
    assert {c["slot"] for c in cands.values()} == {"system"}


def test_a_pinned_subject_settles_the_claim_with_the_automatic_rules(
    results: list[ResultFacts],
    by_key: dict[str, ResultFacts],
    official_scores: list[dict[str, str]],
) -> None:
    dell = P.apply_pins(EIGHT_A100, results, P.parse_pins({"subject": DELL}), by_key)
    assert dell.verdict == "inconsistent"
    assert dell.recomputed_value == pytest.approx(
        score(official_scores, "v1.1", "DSS8440x8A100-PCIE-40GB")
    )
    assert [(lk.role, lk.result) for lk in dell.links] == [("subject", by_key[DELL].pk)]
    baidu = P.apply_pins(EIGHT_A100, results, P.parse_pins({"subject": BAIDU}), by_key)
    assert baidu.verdict == "consistent" and "no-result-id" in baidu.flags


def test_pinning_one_side_keeps_the_other_side_the_text_names(
    results: list[ResultFacts], by_key: dict[str, ResultFacts]
) -> None:
    """IPU-POD16 28.3 min vs DGX A100 29.1 min: pinned against Dell's 38.87 min instead,
    the IPU-POD16 stays the subject and the claim no longer holds."""
    h2h = ClaimFacts(
        kind="head_to_head",
        value=28.3,
        unit="min",
        system="IPU-POD16",
        accelerators=16,
        benchmark_key="resnet",
        round="v1.1",
        division="closed",
        compared_value=29.1,
        compared_system="DGX A100",
    )
    assert verify_claim(h2h, results).verdict == "consistent"
    v = P.apply_pins(h2h, results, P.parse_pins({"compared": DELL}), by_key)
    assert v.verdict == "inconsistent"
    roles = {(lk.role, lk.result) for lk in v.links}
    assert roles == {
        ("subject", by_key["training/v1.1/Graphcore/ipu-pod16-TF1/resnet"].pk),
        ("compared", by_key[DELL].pk),
    }


def test_a_percentage_settled_by_its_reading(
    results: list[ResultFacts],
    official_scores: list[dict[str, str]],
    by_key: dict[str, ResultFacts],
) -> None:
    """IPU-POD16 ResNet-50, v1.0 37.12 min -> v1.1 28.33 min: "24% better" is a 23.7%
    time reduction (holds) or a 31% speedup (does not): ambiguous, until the reading
    is pinned."""
    old, new = (
        score(official_scores, "v1.0", "ipu-pod16-TF1"),
        score(official_scores, "v1.1", "ipu-pod16-TF1"),
    )
    assert round((old - new) / old * 100, 1) == 23.7 and round((old / new - 1) * 100) == 31
    gain = ClaimFacts(
        kind="percentage",
        value=24.0,
        unit="%",
        system="IPU-POD16",
        benchmark_key="resnet",
        round="v1.1",
        baseline="previous-round",
    )
    auto = verify_claim(gain, results)
    assert auto.verdict == "ambiguous"
    cands = {c["value"]: c for c in P.slot_candidates(auto)}
    assert cands["time_reduction"]["verdict"] == "consistent"
    assert cands["speedup"]["verdict"] == "inconsistent"
    assert cands["speedup"]["pin"] == {"reading": "speedup"}
    tr = P.apply_pins(gain, results, P.parse_pins({"reading": "time_reduction"}), by_key, auto)
    sp = P.apply_pins(gain, results, P.parse_pins({"reading": "speedup"}), by_key, auto)
    assert (tr.verdict, sp.verdict) == ("consistent", "inconsistent")
    assert tr.recomputed_value == pytest.approx((old - new) / old * 100)


def test_a_pin_whose_result_moved_or_went_is_flagged() -> None:
    then = {"a": 28.3345, "b": 38.87, "c": 29.1}
    now = {"a": 28.3345, "b": 38.9}
    flags = P.pin_state(then, now)
    assert flags == [
        {"key": "b", "flag": "changed", "then": 38.87, "now": 38.9},
        {"key": "c", "flag": "withdrawn", "then": 29.1, "now": None},
    ]
    assert P.pin_state({"a": 28.3345}, {"a": 28.3345}) == []


def test_a_single_figure_over_pinned_pairs_holding_for_some_is_ambiguous(
    results: list[ResultFacts], by_key: dict[str, ResultFacts]
) -> None:
    """The class of inference/05 (NVIDIA's "5x more performance for Jetson AGX Orin": 4.92x
    on BERT only, 2.4-3.8x on the others), here in Graphcore's words: its IPU-PODs on
    ResNet-50 from v1.0 to v1.1, IPU-POD16 37.12 -> 28.33 min (1.31x), IPU-POD64 14.48 ->
    8.50 min (1.70x; ../shared/mlperf official_scores.csv). With both pairs pinned,
    "1.7x" holds for IPU-POD64 only: the candidates are the person's, so the claim is
    ambiguous, not left open; "1.3x" likewise (IPU-POD16 only); "3x" for neither."""
    text = "Graphcore's IPU-PODs trained ResNet-50 {}x faster in MLPerf Training v1.1 than v1.0."
    pins = P.parse_pins(
        {
            "subject": [
                "training/v1.1/Graphcore/ipu-pod16-TF1/resnet",
                "training/v1.1/Graphcore/ipu-pod64-TF1/resnet",
            ],
            "baseline": [
                "training/v1.0/Graphcore/ipu-pod16-TF1/resnet",
                "training/v1.0/Graphcore/ipu-pod64-TF1/resnet",
            ],
        }
    )
    for figure, verdict in (("1.7", "ambiguous"), ("1.3", "ambiguous"), ("3", "inconsistent")):
        (c,) = [c for c in extract_claims(text.format(figure)) if c.kind == "multiplier"]
        v = P.apply_pins(ClaimFacts.from_mapping(c.as_dict()), results, pins, by_key)
        assert v.verdict == verdict, (figure, v.details.get("reason"))
        if verdict == "ambiguous":
            assert "pairs of the pinned results only" in v.details["reason"]
