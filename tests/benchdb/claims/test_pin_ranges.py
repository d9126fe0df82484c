"""A range over pinned pairs (benchdb.claims.pin_ranges) that states a deficit.

The class was shown by EE Times on AMD (inference/09: "AMD is more like 30-40% behind"
NVIDIA's H200); the sentence here is in Supermicro's words. The figures are the
official MLPerf Inference v4.1 closed results (llama2-70b-99.9, tokens/s), checked in
the database: AMD 8xMI300X_2xEPYC-9374F Offline 23,514.8, Server 21,028.2; NVIDIA
H200-SXM-141GBx8_TRT Offline 31,302.7, Server 29,228.2. With AMD pinned as the subject
every pair is a loss (-24.9%, -28.1%); read as a gain, the range would be
inconsistent, but the text states a deficit (H200 1.33x / 1.39x faster: the truth
holds it under one reading), which benchdb does not read: no verdict."""

from __future__ import annotations

from benchdb.claims.facts import ClaimFacts, Verification
from benchdb.claims.pin_ranges import settle_range
from ingest.claims.parsers.text import extract_claims

AMD = {"Offline": 23514.8, "Server": 21028.2}
H200 = {"Offline": 31302.7, "Server": 29228.2}


def _pairs() -> Verification:
    rows = [
        {
            "label": f"{sc}: AMD against H200",
            "value": (AMD[sc] / H200[sc] - 1.0) * 100.0,
            "holds": False,
            "slots": {"benchmark": "llama2-70b-99.9", "scenario": sc},
            "links": [["subject", i], ["compared", 10 + i]],
        }
        for i, sc in enumerate(("Offline", "Server"), start=1)
    ]
    return Verification("inconsistent", details={"readings_list": rows, "n_readings": 2})


def test_a_range_whose_pinned_pairs_are_all_losses_is_left_open() -> None:
    text = "Supermicro's MI300X servers run Llama 2 70B about 30-40% behind H200 systems."
    (c,) = [c for c in extract_claims(text) if c.kind == "percentage"]
    claim = ClaimFacts.from_mapping(c.as_dict())
    assert (claim.value, claim.value_high) == (30.0, 40.0)
    v = settle_range(claim, _pairs(), scenario_pinned=False)
    assert v.verdict == "unverifiable"
    assert "deficit" in v.details["reason"]
