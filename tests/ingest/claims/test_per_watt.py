"""Figures per watt in MLPerf Inference claims (issue 20: per-watt normalisation,
``benchdb.claims.inference_frames`` and ``benchdb.claims.per_watt``). The class was
shown by Reuters' Qualcomm/NVIDIA power story (../shared/vendor-dev/inference/01, 02);
each sentence here is about other vendors (Untether AI, Lenovo), checked against the
real power results of ../shared/mlperf-inference: Untether AI's v4.1 r760_u6_slim
ResNet-50 Server 309,752 queries/s over 985.52 W = 314.30/W and Offline 334,462 /
1,021.36 W = 327.47/W, h13_u3_slim (edge) Offline 168,720 / 398.33 W = 423.57/W;
Lenovo's v5.1 SR780a_V3_B200SXMx8_TRT llama3.1-8b Server 128,689 tokens/s / 9,011.07 W
= 14.28/W and Offline 146,960 / 9,436.05 W = 15.57/W (power in watts as ingested from
the power logs: tests/ingest/inference/test_service.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from benchdb.claims.facts import ClaimFacts
from benchdb.claims.inference_frames import (
    applications_named,
    figure_subject,
    per_watt_frame,
    scenarios_in,
)
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text

pytestmark = pytest.mark.django_db


def _checked(text: str, published: date) -> list[tuple[Any, Any, Any]]:
    """The per-watt claims of ``text`` with their frames and verdicts, as a page's."""
    from benchdb.claims.resolve import PageContext

    found = claim_text.extract_claims(text)
    page = PageContext(text=text, published=published, vendor="")
    rows = claim_facts.check_claims(found, page)
    return [(c, f, v) for c, f, v in rows if f.metric == "per-watt"]


def test_each_figure_of_a_sentence_has_its_own_company() -> None:
    """ "X's chips hit A per watt versus B per watt for Y": A is X's, B is Y's; a
    company after "beat" is the compared side; "Y's B" is Y's."""
    s = (
        "Untether AI’s chips hit 314.3 server queries per watt versus 108.4 queries per"
        " watt for Nvidia."
    )
    figures = [s.index("314.3"), s.index("108.4")]
    assert figure_subject(s, figures[0], figures[0] + 5, figures)[0] == "UntetherAI"
    assert figure_subject(s, figures[1], figures[1] + 5, figures)[0] == "NVIDIA"
    s = (
        "Untether AI also beat Nvidia at image classification with 327.5 samples per watt"
        " versus Nvidia’s 95.1 samples per watt."
    )
    figures = [s.index("327.5"), s.index("95.1")]
    assert figure_subject(s, figures[0], figures[0] + 5, figures)[0] == "UntetherAI"
    assert figure_subject(s, figures[1], figures[1] + 4, figures)[0] == "NVIDIA"


def test_applications_and_scenarios_in_a_reporters_words() -> None:
    assert applications_named("beat Nvidia at classifying images") == [("resnet",)]
    assert applications_named("a test of natural-language processing") == [("bert",)]
    assert applications_named("at object detection") == [("retinanet", "ssd-large", "ssd-small")]
    assert applications_named("on Llama 3.1 8B") == [("llama3.1-8b",)]
    assert scenarios_in("how many data center server queries each chip can carry") == ["Server"]
    # "server" as the hardware names no scenario
    assert scenarios_in("Lenovo's SR780a V3 server hit 14.3 tokens per watt") == []


def test_a_frame_takes_the_product_the_page_names_for_the_company() -> None:
    text = (
        "MLPerf Inference v4.1: Untether AI's speedAI240 beat Nvidia's H100 at classifying"
        " images, based on server queries per watt. Untether AI hit 314.3 queries per watt"
        " versus 108.4 queries per watt for Nvidia."
    )
    rows = {c.value: c for c in claim_text.extract_claims(text) if c.unit == "query/W"}
    c = rows[108.4]
    s0, s1 = c.sentence_start, c.sentence_end
    f = per_watt_frame(ClaimFacts.from_mapping(c.as_dict()), text, c.start, c.end, s0, s1)
    assert (f.submitter, f.system, f.benchmark_key, f.scenario) == (
        "NVIDIA",
        "H100",
        "resnet",
        "Server",
    )
    assert {
        "per-watt",
        "system-page-product",
        "benchmark-previous-sentence",
        "scenario-page",
    } <= set(f.context)


def test_a_figure_per_watt_is_checked_on_the_results_power(ingested_inference: object) -> None:
    """One reading (Untether AI's only ResNet-50 Server power result of v4.1):
    consistent, derived and said so; the same figure for the Offline scenario, which
    two Untether systems ran, holds on one and not the other: not a verdict."""
    text = (
        "MLPerf Inference v4.1 results: Untether AI's chips hit 314.3 server queries per"
        " watt on ResNet-50. Untether AI reached 327.5 samples per watt on ResNet-50 in the"
        " offline scenario."
    )
    rows = _checked(text, date(2024, 8, 29))
    assert [(c.value, v.verdict) for c, _, v in rows] == [
        (314.3, "consistent"),
        (327.5, "unverifiable"),
    ]
    (_, f, v), (_, _, v2) = rows
    assert (f.round, f.submitter, f.scenario, f.benchmark_key) == (
        "v4.1",
        "UntetherAI",
        "Server",
        "resnet",
    )
    assert v.recomputed_value == pytest.approx(309752 / 985.5191347753744)
    assert "derived by benchdb" in v.details["derived"]
    assert [r["slots"]["system"] for r in v.details["readings_list"]] == ["r760_u6_slim"]
    assert sorted(r["holds"] for r in v2.details["readings_list"]) == [False, True]
    assert "which system" in v2.details["reason"]


def test_a_wrong_figure_per_watt_is_inconsistent_and_an_open_scenario_ambiguous(
    ingested_inference: object,
) -> None:
    text = (
        "In MLPerf Inference v5.1, Lenovo hit 12.1 tokens per watt in the Server scenario"
        " on Llama 3.1 8B. Lenovo's SR780a V3 server reached 14.3 tokens per watt on"
        " Llama 3.1 8B."
    )
    rows = _checked(text, date(2025, 9, 10))
    assert [(c.value, v.verdict) for c, _, v in rows] == [
        (12.1, "inconsistent"),
        (14.3, "ambiguous"),
    ]
    v = rows[1][2]
    assert v.details["open_slot"] == "scenario"
    outcomes = {r["slots"]["scenario"]: r["holds"] for r in v.details["readings_list"]}
    assert outcomes == {"Server": True, "Offline": False}


def test_a_company_with_no_power_result_is_unverifiable_naming_it(
    ingested_inference: object,
) -> None:
    """Reuters' original story gave Qualcomm's figure to Neuchips, which ran no ResNet-50:
    here a company with no power result in the round gives no reading, not a verdict."""
    text = (
        "MLPerf Inference v4.1: Untether AI beat Google at classifying images;"
        " Google's chips hit 150.2 server queries per watt."
    )
    rows = _checked(text, date(2024, 8, 29))
    assert [(c.value, v.verdict) for c, _, v in rows] == [(150.2, "unverifiable")]
    assert rows[0][2].details["missing"]["subject"] == "Google"


def test_each_throughput_figure_takes_its_own_scenario_and_count() -> None:
    """inference/09 (EE Times on AMD's MI300X: "A single MI300X can inference 2520.27
    tokens/s in server mode or 3062.72 tokens/s in offline mode, while 8x MI300Xs can
    do ..."), here in Intel's words: each figure's scenario is the one its own words
    name, its count the one of the accelerator named before it ("a single": one)."""
    from benchdb.claims.inference_frames import value_frame

    text = (
        "In MLPerf Inference, a single Gaudi2 can serve 1,020.5 tokens/s in server mode or"
        " 1,210.7 tokens/s in offline mode, while 8x Gaudi2s can do 8,010.2 tokens/s in"
        " server mode and 9,500.1 tokens/s in offline mode on Llama 2 70B."
    )
    got = []
    for c in claim_text.extract_claims(text):
        if c.unit != "token/s":
            continue
        f = ClaimFacts.from_mapping(c.as_dict())
        f = value_frame(f, text, c.start, c.end, c.sentence_start, c.sentence_end)
        got.append((f.value, f.scenario, f.system, f.accelerators))
    assert got == [
        (1020.5, "Server", "Gaudi2", 1),
        (1210.7, "Offline", "Gaudi2", 1),
        (8010.2, "Server", "Gaudi2", 8),
        (9500.1, "Offline", "Gaudi2", 8),
    ]


def test_a_round_pinned_as_a_products_first_is_taken_only_with_no_round_missing(
    ingested_inference: object,
) -> None:
    """inference/09 ("For the first time, the latest round of MLPerf inference
    benchmarks includes results for AMD's flagship MI300X"), here about NVIDIA's GB200:
    an undated page that names no round pins it as the first holding the product. The
    shared data holds v0.5, v0.7, v1.1, v2.1, v3.0, v4.1, v5.1: GB200 is first in v5.1
    there, but v5.0 (and v4.0...) are not held, so the round stays unknown, said so."""
    from benchdb.claims.inference_frames import pin_first_round
    from benchdb.claims.resolve import PageContext

    text = (
        "For the first time, the latest round of MLPerf Inference includes results for"
        " NVIDIA's GB200. A GB200 NVL72 rack reached 1,000 tokens/s on Llama 3.1 405B in"
        " the Offline scenario."
    )
    found = claim_text.extract_claims(text)
    rows = claim_facts.check_claims(found, PageContext(text=text, published=None))
    ((c, f, v),) = [(c, f, v) for c, f, v in rows if c.unit == "token/s"]
    assert "round-first:GB200" in f.context and f.round == ""
    assert v.verdict == "unverifiable"
    assert "first with GB200: v5.1 among the rounds benchdb holds" in v.details["reason"]
    assert "v5.0" in v.details["reason"]
    # with no round missing before it (MLPerf's rounds narrowed to the ones held), the
    # first round holding the product is the page's
    facts = claim_facts.inference_result_facts()
    pinned, why = pin_first_round(f, facts, ["v4.1", "v5.1"])
    assert (pinned.round, why) == ("v5.1", "")


def test_a_gain_in_energy_efficiency_is_a_gain_per_watt_between_its_own_products(
    ingested_inference: object,
) -> None:
    """inference/05 (NVIDIA: "Jetson AGX Orin delivers up to 5x more than Jetson AGX
    Xavier and 2.3x more energy efficiency", once read as a hardware figure), here in
    Qualcomm's words on v1.1: Qualcomm's 8-card r282_z93_q8 ResNet-50 Offline 169,231 /
    857.29 W against NVIDIA's AGX_Xavier_TRT_MaxQ 1,506.53 / 25.24 W is 3.31x; Krai's
    Xavier system is a Jetson AGX Xavier too and gives another figure, so the text
    leaves the compared result open: no verdict, each reading listed."""
    text = (
        "In MLPerf Inference v1.1, Qualcomm's Cloud AI 100 delivered 3.3x more energy"
        " efficiency than NVIDIA's Jetson AGX Xavier on ResNet-50 in the Offline scenario."
    )
    from benchdb.claims.resolve import PageContext

    found = claim_text.extract_claims(text)
    rows = claim_facts.check_claims(found, PageContext(text=text, published=date(2021, 9, 23)))
    ((c, f, v),) = [(c, f, v) for c, f, v in rows if c.unit == "x"]
    assert (f.metric, f.system, f.compared_system) == (
        "per-watt",
        "Cloud AI 100",
        "Jetson AGX Xavier",
    )
    assert v.verdict == "unverifiable" and "which compared result" in v.details["reason"]
    figures = {r["slots"]["compared"]: round(r["value"], 2) for r in v.details["readings_list"]}
    assert figures["AGX_Xavier_TRT_MaxQ"] == 3.31
    assert "derived by benchdb" in v.details["derived"]


def test_a_per_accelerator_ratio_is_derived_and_said_so(ingested_inference: object) -> None:
    """inference/03 (快科技 on NVIDIA: H100 against A100 per GPU), here on AMD and
    NVIDIA's v5.1 results: GB200 (4 GPUs) 51,736.9 tokens/s against MI300X (8 GPUs)
    27,803.9 on Llama 2 70B Offline is 1.86x as systems and 3.72x per GPU; the claim
    says per GPU, so 3.7x holds, labelled derived and flagged."""
    from benchdb.claims.resolve import PageContext

    text = (
        "In MLPerf Inference v5.1, NVIDIA's GB200 delivered 3.7x the per-GPU throughput of"
        " AMD's MI300X on Llama 2 70B in the Offline scenario."
    )
    found = claim_text.extract_claims(text)
    rows = claim_facts.check_claims(found, PageContext(text=text, published=date(2025, 9, 10)))
    ((c, f, v),) = [(c, f, v) for c, f, v in rows if c.unit == "x"]
    assert (f.per_accelerator, f.system, f.compared_system) == (True, "GB200", "MI300X")
    assert v.verdict == "consistent"
    assert v.recomputed_value == pytest.approx((51736.9 / 4) / (27803.9 / 8))
    assert "per accelerator" in v.details["derived"]
    assert "per-accelerator-normalization" in v.flags
