"""Page-level arithmetic, baselines and number accounting, on pages written here from
vendors' published figures (written_pages) and on the real pages in ../shared/vendor.
Expected figures are worked out by hand from the pages' numbers."""

from __future__ import annotations

import pytest

from benchdb.claims import verdicts
from ingest.claims.parsers.arithmetic import fits, page_arithmetic
from ingest.claims.parsers.baselines import describe_baselines
from ingest.claims.parsers.coverage import account_numbers
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.claims.parsers.text import extract_claims

from .vendor_pages import FILES, page_claims
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


def _reasons(name: str) -> dict[str, list[str]]:
    """Number as written -> its uses on a shared page, in text order."""
    text, claims = page_claims(name)
    out: dict[str, list[str]] = {}
    for u in account_numbers(text, claims, parse_vendor_tables(text)):
        out.setdefault(u.text, []).append(u.reason or u.status)
    return out


def test_nvidia_v1_1_table_takes_its_unit_from_the_header() -> None:
    """The zh v1.1 page's table: header "v1.1 Max-Scale Records (min) ... v1.1
    Per-Accelerator Records* (min)", row "Recommendation (DLRM) 0.63 (DGX SuperPOD)
    (1.6×) (5.3×) 13.68 (A100) (1.1×) (1.9×)": two DLRM times in minutes, the second
    a per-accelerator figure. ../shared/mlperf holds no v1.1 DLRM result to check
    them against."""
    text, claims = page_claims("nvidia-mlperf-training-v1.1-full-stack-optimization.zh.txt")
    times = [c for c in claims if c.kind == "time"]
    assert [
        (c.value, c.unit, c.system, c.benchmark_key, c.round, c.per_accelerator) for c in times
    ] == [
        (0.63, "min", "DGX SuperPOD", "dlrm", "v1.1", False),
        (13.68, "min", "A100", "dlrm", "v1.1", True),
    ]
    assert [text[c.start : c.start + 5] for c in times] == ["0.63 ", "13.68"]
    assert verdicts.verify_claim(times[0], []).verdict == "unverifiable"
    reasons = _reasons("nvidia-mlperf-training-v1.1-full-stack-optimization.zh.txt")
    assert reasons["0.63"] == ["claim"] and reasons["13.68"] == ["claim"]
    assert reasons["五"] == ["count"]  # 五个月 (five months since v1.0)


def test_numbers_get_real_reasons_not_other() -> None:
    """From reading the pages: Graphcore's "1比8" is a ratio and 四個/兩個/三個月
    counts; the Paddle page's "2022-07-04 22:38:00" and "7 month 6 ... 20:00" are
    dates, its "3000万美元" a price, "framework 2.3 Version" a version, "IPU-POD16&64"
    and "chart 1" names; Intel's LLM table (Model / # HPU / Precision / Throughput /
    Sequence Length / TP,PP,DP / Batch Size) gives counts 8, 16, 64 and settings 4,096,
    1,1,8, 1,024, 256; its "Gaudi® 2" and "Xeon Platinum 8380" are names; Azure's "18
    ND GB200 v6 virtual machines" and NVIDIA's "72 Nvidia Blackwell GPUs" counts."""
    gc = _reasons("graphcore-mlperf-training-v1.1-results.zh.txt")
    assert gc["1"].count("ratio") == 1 and gc["8"].count("ratio") == 1
    assert gc["四"] == ["count"] and gc["兩"] == ["count"] and gc["三"] == ["count"]
    pp = _reasons("paddlepaddle-graphcore-mlperf-training-v2.0-joint-submission.en.txt")
    assert pp["22:38:00"] == ["date"] and pp["20:00"] == ["date"] and pp["3000"] == ["price"]
    assert set(pp["2.3"]) == {"version"} and "name" in pp["64"]
    intel = _reasons("intel-gaudi2-training-performance-table.txt")
    assert intel["1,1,8"] == intel["2,2,4"] == intel["8,2,4"] == ["setting"]
    # sequence length 4,096 (three rows); batch sizes 1,024 (two rows and the 70B bf16
    # row of the reference table) and 256 (the 13B rows of both tables)
    assert intel["4,096"].count("setting") == 3 and intel["1,024"].count("setting") == 3
    assert intel["256"].count("setting") == 2
    assert intel["8380"] == ["name", "name"] and intel["8480"] == ["name"]
    # "the 18 ND GB200 v6 virtual machines of one NVL72 rack": a scale claim (machines)
    assert _reasons("azure-nd-gb200-mlperf-inference-v4.1-unverified.en.txt")["18"] == ["claim"]
    # "connecting 72 Nvidia Blackwell GPUs": a scale claim; NVL72 a name
    assert _reasons("nvidia-blackwell-mlperf-inference-v5.0-itonline.en.txt")["72"] == [
        "name",
        "name",
        "claim",
    ]
    for name in FILES:
        if name.endswith(".txt"):
            assert "other" not in {r for rs in _reasons(name).values() for r in rs}, name


def test_quality_shares_and_chinese_numerals_on_written_text() -> None:
    """A loss, an accuracy and a share are no gains (no claims); 四个 and 两周 are
    counted numbers, 提升一倍 a claim (2x)."""
    text = (
        "TensorFlow reached a test loss of 0.1293. ResNet-50 trains to 75.9% top-1 accuracy."
        " 30% of the servers run it. 准确率 76.1%。我们用了四个节点，两周完成，性能提升一倍。"
    )
    uses = {u.text: u.reason or u.status for u in account_numbers(text, extract_claims(text))}
    assert uses["0.1293"] == uses["75.9"] == uses["76.1"] == "quality"
    assert uses["30"] == "share"
    assert uses["四"] == uses["两"] == "count" and uses["提升一倍"] == "claim"


def test_every_number_of_ibm_s_page_has_its_use() -> None:
    """By reading IBM_EN: 46 (twice), 91.5 s, 70 min and "16 NVIDIA Tesla V100 GPUs" (a
    scale) are claims; AC922 and V100 are names; 89 CPU machines a count; the losses
    0.1292 and 0.1293 quality figures."""
    uses = [(u.text, u.reason or u.status) for u in account_numbers(IBM_EN, extract_claims(IBM_EN))]
    assert uses == [
        ("46", "claim"),
        ("91.5", "claim"),
        ("922", "name"),
        ("16", "claim"),
        ("100", "name"),
        ("46", "claim"),
        ("70", "claim"),
        ("89", "count"),
        ("0.1292", "quality"),
        ("0.1293", "quality"),
    ]


def test_a_gain_over_the_last_round_takes_no_figures_of_other_systems() -> None:
    """An Intel-style summary ("we saw gains of 8% for Gaudi2 and 15% for Gaudi3 over the
    last round") after two sentences giving other systems' times (256 and 512
    accelerators): the figures around it are not its operands, so no page verdict."""
    text = (
        "Training GPT-3 took 153.6 minutes on the 384-accelerator Gaudi2 cluster. "
        "The 256-accelerator Gaudi2 cluster took 223.8 minutes. "
        "Overall, we saw gains of 8% for Gaudi2 and 15% for Gaudi3 compared to the last"
        " MLPerf training round."
    )
    claims = extract_claims(text)
    pas = page_arithmetic(claims)
    assert [pa for c, pa in zip(claims, pas, strict=True) if c.unit == "%"] == [None, None]
