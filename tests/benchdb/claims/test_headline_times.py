"""A training time given to a product with no configuration and no record word
(benchdb.claims.headline_times, issue 20): consistent when the product's fastest result
holds, left open naming both readings when only a slower one does. The class was shown
by training/14 (51cto on NVIDIA H100: 11分钟训完GPT-3, 8秒训完BERT); here in Graphcore's
words, on Graphcore's MLPerf Training v1.1 ResNet results in ../shared (IPU-POD16,
POD64, POD128, POD256: official_scores.csv)."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from benchdb.claims import headline_times
from benchdb.claims.resolve import PageContext
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

pytestmark = pytest.mark.django_db


def _check(sentence: str) -> list[tuple[float | None, str, str]]:
    found = [c for c in claim_text.extract_claims(sentence) if c.kind == "time"]
    page = PageContext(title="", text=sentence, published=date(2021, 12, 1), vendor="Graphcore")
    rows = claim_facts.check_claims(found, page)
    return [(c.value, v.verdict, str(v.details.get("reason", ""))) for c, _f, v in rows]


def _ipu_resnet(mlperf_data: Path) -> list[float]:
    with open(mlperf_data / "official_scores.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return sorted(
        float(r["score_minutes"])
        for r in rows
        if r["round"] == "v1.1" and r["submitter"] == "Graphcore" and r["benchmark"] == "resnet"
    )


def test_the_products_fastest_result_decides_a_headline(
    ingested_shared: Any, mlperf_data: Path
) -> None:
    times = _ipu_resnet(mlperf_data)
    assert len(times) == 4 and round(times[0], 1) == 3.8 and round(times[1], 1) == 5.7
    got = _check("In MLPerf Training v1.1, the Graphcore IPU trains ResNet-50 in 3.8 minutes.")
    assert got[0][:2] == (3.8, "consistent"), got
    assert "fastest" in got[0][2]
    # a slower configuration's time: some result holds, the fastest does not
    got = _check("In MLPerf Training v1.1, the Graphcore IPU trains ResNet-50 in 5.7 minutes.")
    assert got[0][1] == "unverifiable"
    assert headline_times.HEADLINE in got[0][2] and headline_times.EXISTENCE in got[0][2]


def test_a_configuration_or_a_bound_is_no_headline(ingested_shared: Any) -> None:
    # the sentence names a count of machines: every result the frame allows is read
    got = _check(
        "In MLPerf Training v1.1, the Graphcore IPU trains ResNet-50 in 3.8 minutes on 64"
        " Graphcore servers."
    )
    assert "fastest" not in got[0][2]
    assert headline_times.scope_tags("time", "训练在3584块H100上完成") == ("config-named",)
    assert headline_times.scope_tags("time", "on 8x H100 in 11 minutes") == ("config-named",)
    assert headline_times.scope_tags("time", "11分钟内训练一遍GPT-3,8秒训完BERT。") == ()
    # a bound ("under 5 minutes") is not read as the fastest result
    got = _check("In MLPerf Training v1.1, the Graphcore IPU trains ResNet-50 in under 5 minutes.")
    assert "fastest" not in got[0][2]
