"""Quality targets a page states (benchdb.claims.targets, ingest.claims.parsers.targets).

Sentences are written in Google's and Graphcore's words (the corpus page that showed the
class, training/12, is Dell's). Expected targets are those of the official compliance
configs (mlcommons/logging, ``mlperf_logging/compliance_checker/training_<ruleset>/
closed_<benchmark>.yaml``, ``ATLEAST_ONE_CHECK``): resnet ``eval_accuracy >= 0.759`` in
every ruleset; bert ``>= 0.712`` in 0.7.0 and ``>= 0.720`` from 1.0.0; maskrcnn
``BBOX >= 0.377 and SEGM >= 0.339``."""

from __future__ import annotations

import pytest

from benchdb.claims import verdicts
from benchdb.claims.facts import ClaimFacts
from benchdb.claims.targets import target_threshold
from ingest.claims.parsers.text import extract_claims


def _target(text: str) -> ClaimFacts:
    (c,) = [c for c in extract_claims(text) if c.kind == "target"]
    return ClaimFacts.from_mapping(c.as_dict())


@pytest.mark.parametrize(
    ("bench", "rnd", "part", "want"),
    [
        ("resnet", "v0.7", "", 0.759),
        ("resnet", "v3.1", "", 0.759),
        ("bert", "v0.7", "", 0.712),
        ("bert", "v1.0", "", 0.720),
        ("maskrcnn", "v2.0", "BBOX", 0.377),
        ("maskrcnn", "v2.0", "SEGM", 0.339),
        ("resnet", "v2.0", "SEGM", None),
    ],
)
def test_the_rounds_targets(bench: str, rnd: str, part: str, want: float | None) -> None:
    assert target_threshold(bench, rnd, part) == want


def test_a_stated_target_is_checked_in_every_round_the_text_allows() -> None:
    """No round named: 75.9% is ResNet-50's target in every round; 76.1% in none."""
    c = _target(
        "Google notes that MLPerf requires ResNet-50 to reach a target of 75.9% top-1 accuracy."
    )
    assert (c.value, c.unit, c.benchmark_key) == (75.9, "%", "resnet")
    assert verdicts.verify_claim(c, []).verdict == "consistent"
    wrong = _target(
        "Google notes that MLPerf requires ResNet-50 to reach a target of 76.1% top-1 accuracy."
    )
    assert verdicts.verify_claim(wrong, []).verdict == "inconsistent"


def test_a_target_that_changed_between_rounds_needs_the_round() -> None:
    """BERT's 0.720 holds from v1.0, not in v0.7: without a round the readings disagree."""
    text = "In MLPerf, Graphcore's BERT runs must reach the target masked-LM accuracy of 0.720."
    c = _target(text)
    open_round = verdicts.verify_claim(c, [])
    assert open_round.verdict == "unverifiable"
    assert "which round" in open_round.details["reason"]
    named = ClaimFacts.from_mapping({**c.__dict__, "round": "v1.1"})
    assert verdicts.verify_claim(named, []).verdict == "consistent"


def test_a_part_of_a_two_part_target_names_its_benchmark() -> None:
    """ "Minimum Box mAP" is Mask R-CNN's box target even after a sentence about SSD."""
    text = (
        "Google trained SSD in 0.5 minutes. The MLPerf benchmark specifies that the model must"
        " reach Minimum Box mAP: 0.377."
    )
    (c,) = [c for c in extract_claims(text) if c.kind == "target"]
    assert c.metric == "quality:BBOX"
    v = verdicts.verify_claim(ClaimFacts.from_mapping(c.as_dict()), [])
    assert v.verdict == "consistent"


def test_an_accuracy_reached_is_no_target() -> None:
    """A figure no word calls required: the number accounting's quality figure."""
    text = "Graphcore's ResNet-50 reached 75.9% top-1 accuracy in MLPerf Training v1.1."
    assert [c for c in extract_claims(text) if c.kind == "target"] == []


def test_a_target_the_benchmark_specifies() -> None:
    """ "specifies ... mAP of 34%" states the target as "must reach" does (the class of
    training/12, Dell's "specifies an overall mAP (mean Average Precision) score of 34%";
    here in Lenovo's words). RetinaNet's target is 34.0% mAP in every ruleset that has it (v2.1 on:
    ``eval_accuracy >= 0.340``); 35% is not."""
    text = "For RetinaNet, the MLPerf Training rules specify a mAP of {}%, which Lenovo reached."
    c = _target(text.format("34.0"))
    assert (c.value, c.unit) == (34.0, "%")
    assert verdicts.verify_claim(c, []).verdict == "consistent"
    assert verdicts.verify_claim(_target(text.format("35")), []).verdict == "inconsistent"
