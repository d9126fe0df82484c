"""Page-level arithmetic, baselines and number accounting, on pages written here from
vendors' published figures (written_pages) and on the real pages in ../shared/vendor.
Expected figures are worked out by hand from the pages' numbers."""

from __future__ import annotations

import pytest

from benchdb.claims import verdicts
from ingest.parsers.claim_arithmetic import fits, page_arithmetic
from ingest.parsers.claim_baselines import describe_baselines
from ingest.parsers.claim_coverage import account_numbers
from ingest.parsers.claim_text import extract_claims
from ingest.parsers.vendor_tables import parse_vendor_tables

from .vendor_pages import page_claims
from .written_pages import HUAWEI_EN, HUAWEI_ZH, IBM_EN, IBM_ZH


def _gains(text: str):  # type: ignore[no-untyped-def]
    claims = extract_claims(text)
    pas = page_arithmetic(claims)
    return claims, pas, describe_baselines(text, claims, pas)


@pytest.mark.parametrize("text", [IBM_EN, IBM_ZH])
def test_ibm_46x_is_recomputed_as_45_9x_from_70_min_and_91_5_s(text: str) -> None:
    """70 min / 91.5 s = 4200 / 91.5 = 45.90x; "46" has no decimals: consistent. On the
    Chinese page the two times and the 46 倍 stand in three different sentences."""
    claims, pas, _ = _gains(text)
    judged = [(c, pa) for c, pa in zip(claims, pas, strict=True) if c.kind == "multiplier"]
    assert len(judged) == 2  # the headline and the text
    for c, pa in judged:
        assert c.value == 46 and pa is not None
        assert pa.verdict == "consistent-with-page"
        assert pa.implied == pytest.approx(4200 / 91.5) and round(pa.implied, 1) == 45.9
        assert {(pa.old.value, pa.old.unit), (pa.new.value, pa.new.unit)} == {
            (70.0, "min"),
            (91.5, "s"),
        }
    if text is IBM_ZH:
        assert judged[1][1] is not None and judged[1][1].where == "page"


def test_ibm_baseline_is_tensorflow_on_google_cloud_cpus_with_its_flags() -> None:
    claims, _, baselines = _gains(IBM_EN)
    b = next(b for c, b in zip(claims, baselines, strict=True) if c.kind == "multiplier" and b)
    assert b.kind == "stated" and "TensorFlow" in b.name and "Google Cloud" in b.name
    assert b.baseline.software == "TensorFlow" and b.baseline.cloud.startswith("Google Cloud")
    assert "CPU" in b.baseline.processors and b.baseline.machines == "89 CPU machines"
    assert b.baseline.quality.endswith("0.1293") and b.subject.quality.endswith("0.1292")
    assert "V100" in b.subject.processors and "CPU" not in b.subject.processors
    assert (b.baseline.run_by, b.subject.run_by) == ("Google", "IBM")
    assert {"different-hardware", "different-quality", "different-runner"} <= set(b.flags)


def test_ibm_claim_is_not_mlperf() -> None:
    (c, *_) = [c for c in extract_claims(IBM_EN) if c.kind == "multiplier"]
    v = verdicts.verify_claim(c, [])
    assert v.verdict == "not-mlperf"


def test_huawei_more_than_halved_is_a_2_32x_speedup() -> None:
    """6.25 s -> 2.69 s: 6.25 / 2.69 = 2.323x; "缩短了一倍多" (more than halved) = more
    than 2x: consistent."""
    claims, pas, _ = _gains(HUAWEI_ZH)
    ((c, pa),) = [(c, pa) for c, pa in zip(claims, pas, strict=True) if c.kind == "multiplier"]
    assert (c.value, c.qualifier) == (2.0, "more than")
    assert pa is not None and pa.verdict == "consistent-with-page" and pa.where == "sentence"
    assert pa.implied == pytest.approx(6.25 / 2.69)


def test_huawei_57_percent_is_the_time_reduction() -> None:
    """(6.25 - 2.69) / 6.25 = 56.96%."""
    claims, pas, _ = _gains(HUAWEI_EN)
    ((pa,),) = [[pa for c, pa in zip(claims, pas, strict=True) if c.kind == "percentage"]]
    assert pa is not None and pa.verdict == "consistent-with-page"
    assert (pa.reading, round(pa.implied, 2)) == ("time_reduction", 56.96)


def test_a_multiplier_the_sentence_s_figures_do_not_give_is_inconsistent() -> None:
    """30 min / 10 min is 3x, not 5x."""
    claims, pas, baselines = _gains("Training took 30 minutes before and 10 minutes now: 5x.")
    (pa,) = [pa for pa in pas if pa]
    assert pa.verdict == "inconsistent-with-page" and pa.implied == pytest.approx(3.0)
    assert [b.flags for b in baselines if b] == [("baseline-not-stated",)]


def test_a_gain_since_the_first_submission_is_not_judged_by_the_head_to_head() -> None:
    """ "28.3 minutes ... compared to 29.1 minutes for DGX A100 – a performance
    improvement of 24% since our first submission": 29.1/28.3 is no operand of 24%."""
    _, claims = page_claims("graphcore-mlperf-training-v1.1-performance-at-scale.en.txt")
    pas = page_arithmetic(claims)
    assert [pa for c, pa in zip(claims, pas, strict=True) if c.value == 24] == [None]


@pytest.mark.parametrize(
    ("claimed", "implied", "qualifier", "high", "ok"),
    [
        (46, 45.9, "", None, True),
        (45.9, 45.0, "", None, False),
        (2, 2.32, "more than", None, True),
        (2, 1.9, "more than", None, False),
        (2, 2.5, "at least", 3.0, True),
        (2, 3.5, "at least", 3.0, False),
        (3, 2.8, "nearly", None, True),
    ],
)
def test_fits(claimed: float, implied: float, qualifier: str, high: float | None, ok: bool) -> None:
    assert fits(claimed, implied, qualifier, high) is ok


def test_ranges_and_negations() -> None:
    (c,) = extract_claims("Inference is 2-3x faster.")
    assert (c.value, c.value_high, c.qualifier) == (2.0, 3.0, "at least")
    assert extract_claims("不能說 100% 超越了 GPU。") == []


def test_every_number_on_the_m2000_page_is_accounted_for() -> None:
    """From reading the page: 18 倍 (vs A100), 7nm, 250 TFlops, 900MB, 8 倍, 1 个 IPU,
    64 个 IPU and 128 个 IPU are claims; "不能說 100% 超越" is negated; 7 月 15 日 is a
    date; SDK 1.4 a version; IPU-M2000 and GC200 names; 1-2 天 a count of days; the
    forum footer's 文章 / 瀏覽量 numbers page counters."""
    text, claims = page_claims("graphcore-ipu-m2000-poplar-sdk-1.4.zh.txt")
    uses = account_numbers(text, claims)
    by_text: dict[str, set[str]] = {}
    for u in uses:
        by_text.setdefault(u.text, set()).add(u.reason or u.status)
    for t in ("18", "7", "250", "900", "8", "64", "128"):
        assert "claim" in by_text[t], t
    assert by_text["100"] == {"negated", "name"}  # and the A100 of "A100 的 18 倍"
    assert by_text["15"] == {"date"} and by_text["1.4"] == {"version"}
    assert by_text["2000"] == {"name"} and by_text["200"] == {"name"}
    assert by_text["1-2"] == {"count"}
    assert by_text["4766"] == {"page-count"} and by_text["28"] == {"page-count"}
    assert all(u.status in ("claim", "not-claim") for u in uses)


def test_one_cell_per_line_table_gives_its_accelerator_counts() -> None:
    """Intel's older Gaudi table, one cell per line: "MLPerf 3.1 - GPT3 / 384 / fp8 /
    153.58 min*" and so on (counts read from the page)."""
    text, claims = page_claims("intel-gaudi2-training-performance-table.txt")
    cells = [c for c in claims if c.kind == "time" and c.source == "text"]
    assert [(c.value, c.accelerators) for c in cells] == [
        (153.58, 384),
        (223.75, 256),
        (19.4, 64),
        (16.4, 8),
        (15.01, 8),
    ]
    uses = account_numbers(text, claims, parse_vendor_tables(text))
    line = text.index("\n384\nfp8\n153.58 min*") + 1
    (u,) = [u for u in uses if u.start == line]
    assert u.status == "claim" and claims[u.claim or 0].value == 153.58
