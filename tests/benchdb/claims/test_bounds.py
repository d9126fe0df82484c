"""A gain stated as a bound ("less than 2%", "不到2%", "within 2%", "more than 4x") that
the pinned pair passes only within the tolerance: the bound is exceeded, the figure
holds only as an approximate one, so the claim is ambiguous, not consistent
(``benchdb.claims.readings.bounded``).

The class was shown by NVIDIA's pages training/15 and 16 ("Eos 和 Azure ... 表现相差不到
2%": 3.9172 vs 4.0085 min, 2.3% apart); the sentence here is in Microsoft's words. The
times are the official MLPerf Training v3.1 results (mlcommons/training_results_v3.1:
NVIDIA/results/eos-dfw_n1344_ngc23.09_nemo/gpt3 3.91717 min,
Azure+NVIDIA/results/ND_H100_v5_n1344_pytorch/gpt3 4.0085 min), checked in the database."""

from __future__ import annotations

import pytest

from benchdb.claims.verdicts import ClaimFacts, Link, ResultFacts, verify_claim
from ingest.claims.parsers.text import extract_claims

SENTENCE = (
    "In MLPerf Training v3.1, NVIDIA's Eos trained GPT-3 less than {}% faster than our"
    " ND H100 v5 cluster, both with 10,752 H100 GPUs."
)


def _result(pk: int, submitter: str, folder: str, minutes: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v3.1",
        submitter=submitter,
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=10752,
        accelerator_model="NVIDIA H100-SXM5-80GB",
        framework="NeMo",
        benchmark="gpt3",
        score_minutes=minutes,
        nodes=1344,
    )


EOS = _result(1, "NVIDIA", "eos-dfw_n1344_ngc23.09_nemo", 3.91717)
AZURE = _result(2, "Azure+NVIDIA", "ND_H100_v5_n1344_pytorch", 4.0085)


@pytest.mark.parametrize(
    ("bound", "verdict"),
    [
        ("3", "consistent"),  # 2.3% < 3%: the bound holds
        ("2", "ambiguous"),  # 2.3% > 2%: holds only as an approximate 2%
    ],
)
def test_a_bound_exceeded_within_the_tolerance_is_ambiguous(bound: str, verdict: str) -> None:
    (c,) = [c for c in extract_claims(SENTENCE.format(bound)) if c.kind == "percentage"]
    claim = ClaimFacts.from_mapping(c.as_dict())
    assert claim.qualifier == "less than"
    v = verify_claim(claim, [EOS, AZURE], pinned=[Link(1, "subject"), Link(2, "compared")])
    assert v.verdict == verdict
    if verdict == "ambiguous":
        assert v.details["open_slot"] == "reading"
        assert "as a bound" in v.details["reason"]
