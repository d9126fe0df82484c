"""Claims phrased as vendors phrase them, checked against the real MLPerf results of
../shared/mlperf (v1.0, v1.1, v2.0; the session fixture ``ingested_shared``). The
figures in the pages below are those results' official scores rounded as vendors
round them (official_scores.csv: v1.1 Graphcore ipu-pod16-TF1 resnet 28.335, NVIDIA
dgxa100_ngc21.09_mxnet 29.147, ipu-pod256-TF1 3.795, dgxa100_n8_ngc21.09_mxnet 4.534;
v1.0 ipu-pod16-TF1 37.115; v2.0 Bow ipu-pod16-POPART-closed bert 20.654 and v1.1
ipu-pod16-POPART-closed 32.697, a 1.58x gain)."""

from __future__ import annotations

from datetime import date

import pytest

from benchdb.models import Claim
from ingest import vendor_pages as vendor

pytestmark = pytest.mark.django_db

IPU_PAGE = """Graphcore IPUs in MLPerf Training v1.1: faster than A100

December 1, 2021

In MLPerf Training v1.1, ResNet-50 trained in 28.3 min on 16 IPUs vs 29.1 min on 8 A100 GPUs.
ResNet-50 trained in 3.79 min on 256 IPUs vs 4.53 min on 64 A100 GPUs.
In the June 2021 update, 16 IPUs trained ResNet-50 in 37.1 minutes.
GPT-3 175B trained in 311.9 min on 384 Gaudi2 accelerators vs 64.3 min on 512 H100 in MLPerf \
Training v3.0.
"""

BOW_PAGE = """Bow Pod16 in MLPerf Training v2.0

Graphcore's Bow Pod16 delivered up to 1.6X vs the previous product on BERT-Large.
"""


def _ingest(text: str, name: str, vendor_name: str = "Graphcore") -> dict[float, Claim]:
    report = vendor.vendor_page_ingest(
        data=text.encode(), path_or_url=name, published=date(2021, 12, 1), vendor=vendor_name
    )
    claims = Claim.objects.filter(page_id=report.page_id).prefetch_related(
        "links__result__system", "links__result__round"
    )
    return {c.value: c for c in claims if c.kind in ("time", "head_to_head", "multiplier")}


def _linked(c: Claim) -> dict[str, tuple[str, str]]:
    return {lk.role: (lk.result.round.version, lk.result.system.folder) for lk in c.links.all()}


def test_each_side_of_a_sentence_is_judged_against_its_own_accelerators(
    ingested_shared: object,
) -> None:
    """ "28.3 min on 16 IPUs vs 29.1 min on 8 A100 GPUs": each figure is checked
    against the result of the accelerators beside it, not the sentence's first."""
    claims = _ingest(IPU_PAGE, "ipu-vs-a100.txt")
    assert claims[28.3].verdict == "consistent"
    assert _linked(claims[28.3]) == {"subject": ("v1.1", "ipu-pod16-TF1")}
    assert claims[29.1].verdict == "consistent"
    assert _linked(claims[29.1]) == {"subject": ("v1.1", "dgxa100_ngc21.09_mxnet")}
    assert _linked(claims[3.79]) == {"subject": ("v1.1", "ipu-pod256-TF1")}
    assert _linked(claims[4.53]) == {"subject": ("v1.1", "dgxa100_n8_ngc21.09_mxnet")}
    assert claims[4.53].verdict == "consistent"


def test_several_results_fit_and_the_claim_says_which_and_why(
    ingested_shared: object,
) -> None:
    """Four v1.1 ResNet-50 results ran on 8 A100s (NVIDIA, two of Baidu, Dell's
    PCIe); the claim lists them and names the one it was judged against."""
    claims = _ingest(IPU_PAGE, "ipu-vs-a100.txt")
    (subject,) = claims[29.1].details["choices"]
    tried = {t["label"].split(" (")[0] for t in subject["tried"]}
    assert "v1.1 NVIDIA dgxa100_ngc21.09_mxnet" in tried
    assert "v1.1 Baidu 1_node_8_A100_PaddlePaddle" in tried
    assert subject["n_tried"] == len(subject["tried"]) >= 3
    judged = claims[29.1].links.get().result_id
    assert subject["judged_against"] == judged
    assert "nearest the claimed 29.1 min" in subject["why"]
    assert subject["looked_for"] == "8 x A100"


def test_a_round_named_by_its_month(ingested_shared: object) -> None:
    """ "In the June 2021 update" is v1.0 (published 2021-06-30), not the v1.1 the
    earlier sentence named."""
    claims = _ingest(IPU_PAGE, "ipu-vs-a100.txt")
    assert claims[37.1].round == "v1.0"
    assert claims[37.1].verdict == "consistent"
    assert _linked(claims[37.1]) == {"subject": ("v1.0", "ipu-pod16-TF1")}


def test_a_result_not_in_the_database_is_named(ingested_shared: object) -> None:
    """v3.0 is not in ../shared/mlperf: the claim says what it looked for."""
    claims = _ingest(IPU_PAGE, "ipu-vs-a100.txt")
    c = claims[64.3]
    assert c.round == "v3.0" and c.benchmark_key == "gpt3"
    assert c.verdict == "unverifiable"
    assert c.details["reason"] == "no stored result for 512 x H100 on gpt3 in v3.0"


def test_up_to_nx_vs_the_previous_product(ingested_shared: object) -> None:
    """Bow Pod16 vs its predecessor (GC200 IPUs, last submitted in v1.1) on BERT, the
    round from the page's title: 32.697 / 20.654 = 1.58x, within 5% of 1.6x."""
    c = _ingest(BOW_PAGE, "bow.txt")[1.6]
    assert c.round == "v2.0" and c.benchmark_key == "bert"
    assert c.verdict == "consistent"
    assert _linked(c) == {
        "subject": ("v2.0", "ipu-pod16-POPART-closed"),
        "compared": ("v1.1", "ipu-pod16-POPART-closed"),
    }
    assert c.recomputed_value == pytest.approx(32.697 / 20.654, rel=1e-3)
    assert {"different-rounds", "round-from-page"} <= set(c.flags)
    compared = c.details["choices"][1]
    assert "IPU has no result in v2.0" in compared["why"]


def test_the_claim_page_shows_the_results_tried_and_the_one_judged_against(
    ingested_shared: object, client: object
) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    c = _ingest(IPU_PAGE, "ipu-vs-a100.txt")[29.1]
    html = client.get(c.get_absolute_url()).content.decode()
    assert 'id="choices"' in html
    assert "looked for as 8 x A100" in html
    judged = html.split('class="judged">')[1].split("</li>")[0]
    assert judged.startswith("v1.1 NVIDIA dgxa100_ngc21.09_mxnet")
    assert "(judged against)" in judged


def test_inference_rounds_have_publication_dates_stored_ones_first() -> None:
    """Claims about inference read their round from words or their page's date too:
    ``vocabulary.INFERENCE_ROUND_PUBLISHED`` (MLCommons' announcements), over which a
    stored round's own date wins."""
    from benchdb.models import Round
    from ingest import claim_facts

    key = {"suite": Round.Suite.INFERENCE, "version": "v4.1"}
    Round.objects.update_or_create(**key, defaults={"published": None})
    assert claim_facts.round_dates()["inference"]["v4.1"] == date(2024, 8, 28)
    Round.objects.update_or_create(**key, defaults={"published": date(2024, 8, 29)})
    dates = claim_facts.round_dates()
    assert dates["inference"]["v4.1"] == date(2024, 8, 29)
    assert dates["training"]["v4.1"] == date(2024, 11, 13)
