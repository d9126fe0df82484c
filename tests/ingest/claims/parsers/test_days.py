"""A time of training in days (ingest.claims.parsers.quantities): a claim whose metric
is no MLPerf metric (a full training run, or an extrapolation to one), kept only in a
sentence about training. Sentences written here in Intel's and Graphcore's words (the
corpus page that showed the class is an NVIDIA repost)."""

from __future__ import annotations

from benchdb.claims import verdicts
from benchdb.claims.verdicts import ClaimFacts
from ingest.claims.parsers.text import extract_claims


def test_a_training_time_in_days_is_a_claim_that_is_not_mlperf() -> None:
    text = (
        "Intel projects that a cluster of 1,024 Gaudi2 accelerators would train GPT-3"
        " from scratch in 12 days, based on its MLPerf Training v3.0 results."
    )
    (c,) = [c for c in extract_claims(text) if c.kind == "time"]
    assert (c.value, c.unit, c.metric) == (12.0, "d", "days of training")
    v = verdicts.verify_claim(ClaimFacts.from_mapping(c.as_dict(), round="v3.0"), [])
    assert v.verdict == "not-mlperf"
    assert "days of training" in v.details["reason"]


def test_chinese_days_of_training_are_read() -> None:
    text = "据Graphcore推算,使用IPU-POD256训练该模型只需3天。MLPerf"
    (c,) = [c for c in extract_claims(text) if c.kind == "time"]
    assert (c.value, c.unit) == (3.0, "d")


def test_days_that_are_no_training_time_are_left_out() -> None:
    """A deadline, a period of availability, an ordinal day: no claim."""
    for text in (
        "Systems must be available within 180 days of the MLPerf publication.",
        "第3天,Graphcore公布了MLPerf训练结果。",
    ):
        assert [c for c in extract_claims(text) if c.kind == "time"] == [], text
