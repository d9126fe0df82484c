"""Vendor page parsing and claim extraction, on the real pages in ../shared/vendor
(read in place) and on small synthetic pages written here. Expected figures come from
the pages' own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from ingest.parsers.claim_text import (
    MAX_COUNT,
    MAX_SENTENCE_CHARS,
    MAX_VALUE,
    Claim,
    extract_claims,
    to_count,
    to_number,
)
from ingest.parsers.types import ParseError
from ingest.parsers.vendor_html import (
    MAX_ROW_CHARS,
    decode,
    detect_language,
    guess_published,
    is_html,
    parse_vendor_page,
    parse_vendor_tables,
)

VENDOR = Path(settings.VENDOR_DATA)
FILES = sorted(p.name for p in VENDOR.iterdir() if p.is_file())


def _readme_languages() -> dict[str, str]:
    """file -> language, from the table in ../shared/vendor/README.md."""
    out = {}
    for line in (VENDOR / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0].endswith(".txt"):
            out[cells[0]] = cells[3]
    return out


def _page(name: str) -> tuple[str, list[Claim]]:
    doc = parse_vendor_page((VENDOR / name).read_bytes(), name=name)
    return doc.text, extract_claims(doc.text, tables=parse_vendor_tables(doc.text))


def _find(claims: list[Claim], kind: str, value: float, **attrs: object) -> list[Claim]:
    return [c for c in claims if c.kind == kind and c.value == value and all(getattr(c, k) == v for k, v in attrs.items())]  # fmt: skip


# --- pages ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_every_vendor_file_parses_to_text_and_claims(name: str) -> None:
    """Each file, spam and script debris included, gives text, tables and claims
    without raising, and every claim's span lies inside its sentence."""
    text, claims = _page(name)
    assert text.strip()
    for c in claims:
        assert 0 <= c.sentence_start <= c.start < c.end <= c.sentence_end <= len(text)


@pytest.mark.parametrize(("name", "expected"), sorted(_readme_languages().items()))
def test_language_matches_the_readme(name: str, expected: str) -> None:
    """README says zh-Hant, en or plain "zh"; the NVIDIA and Inspur pages are
    simplified (人工智能/深度学习, 浪潮信息英伟达)."""
    doc = parse_vendor_page((VENDOR / name).read_bytes(), name=name)
    assert doc.language == ("zh-Hans" if expected == "zh" else expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("IPU-POD16 trains ResNet-50 in 28.3 minutes", "en"),
        ("在IPU-POD16上實現了24%的性能提升,這是軟件優化的結果", "zh-Hant"),
        ("在IPU-POD16上实现了24%的性能提升,这是软件优化的结果", "zh-Hans"),
        ("12345 !!!", "und"),
    ],
)
def test_detect_language(text: str, expected: str) -> None:
    assert detect_language(text) == expected


def test_text_file_with_stray_tags_is_kept_as_it_is() -> None:
    """The EEPW repost starts with <meter><nav> junk: a text file, not HTML."""
    raw = (VENDOR / "graphcore-mlperf-training-v1.1-results.zh.txt").read_bytes()
    doc = parse_vendor_page(raw, name="graphcore-mlperf-training-v1.1-results.zh.txt")
    assert doc.format == "text"
    assert doc.text.startswith('<meter id="pryje">')
    assert "document.createElement('script')" in doc.text
    assert "實(shí)現(xiàn)" in doc.text  # pinyin glosses are not removed from the text


def test_html_drops_scripts_styles_navigation_and_comments_and_keeps_tables() -> None:
    html = b"""<!doctype html><html><head><title>Bench &amp; co</title><style>p{color:red}</style>
    <script>var x = "<b>28.3 minutes</b>";</script></head><body>
    <nav><a href="/">Home</a> 99 minutes</nav><div role="navigation">Menu 77%</div>
    <!-- hidden comment 55x -->
    <p>IPU-POD16 trains ResNet-50 in <b>28.3</b> minutes.</p>
    <table><tr><th>Model</th><th># HPU</th><th>Time To Train</th></tr>
    <tr><td>MLPerf 3.1 - BERT</td><td>8</td><td>15.01 min</td></tr></table>
    <noscript>enable js</noscript></body></html>"""
    doc = parse_vendor_page(html, name="page.html")
    assert doc.format == "html" and doc.title == "Bench & co"
    for gone in ("var x", "color:red", "Home", "Menu", "hidden comment", "enable js", "99 minutes"):
        assert gone not in doc.text
    assert "IPU-POD16 trains ResNet-50 in 28.3 minutes." in doc.text
    (table,) = parse_vendor_tables(doc.text)
    assert table.columns == ("Model", "# HPU", "Time To Train")
    assert table.rows[0].cells == ("MLPerf 3.1 - BERT", "8", "15.01 min")


def test_is_html_by_name_type_or_document_start() -> None:
    assert is_html("plain", name="x.html")
    assert is_html("plain", content_type="text/html; charset=utf-8")
    assert is_html("  <!DOCTYPE html><p>x</p>")
    assert not is_html('<meter id="a"></meter> text', name="page.txt")


@pytest.mark.parametrize("codec", ["utf-8", "gb18030", "big5"])
def test_decode_chinese_encodings(codec: str) -> None:
    text = "在IPU-POD16上訓練ResNet-50需要28.3分鐘" if codec == "big5" else "在IPU-POD16上训练ResNet-50需要28.3分钟"  # fmt: skip
    decoded, _ = decode(text.encode(codec))
    assert decoded == text


def test_empty_page_is_an_error_naming_the_file() -> None:
    with pytest.raises(ParseError, match="blank.txt"):
        parse_vendor_page(b"  \n", name="blank.txt")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("graphcore-mlperf-training-v1.1-performance-at-scale.en.txt", (2021, 12, 1)),
        ("graphcore-mlperf-training-v1.1-results.zh.txt", (2021, 12, 2)),
        ("graphcore-mlperf-training-v1.0-first-results.en.txt", (2021, 6, 30)),
        ("paddlepaddle-graphcore-mlperf-training-v2.0-joint-submission.en.txt", (2022, 7, 4)),
    ],
)
def test_guess_published_reads_the_page_date(name: str, expected: tuple[int, int, int]) -> None:
    """Dates as the pages print them: "Dec 01, 2021", "時間:2021-12-02", ..."""
    assert guess_published((VENDOR / name).read_text()) == expected


# --- vendor tables --------------------------------------------------------------------


def test_nvidia_whitespace_tables_carry_blank_cells_down() -> None:
    text, _ = _page("nvidia-training-performance-table-mlperf-v3.0.txt")
    single, multi = parse_vendor_tables(text)
    assert single.style == multi.style == "whitespace"
    assert "Single Node, Closed Division" in single.caption
    assert len(single.rows) == 7 and len(multi.rows) == 5
    unet = single.rows[1]  # "3D U-Net 11.796 ..." under "MXNet ResNet-50 v1.5 ..."
    assert unet.values["framework"] == "MXNet" and unet.carried == (0,)
    assert unet.values["model"] == "3D U-Net" and unet.values["time_to_train"] == "11.796"
    dlrm = single.rows[6]
    assert dlrm.values["framework"] == "NVIDIA Merlin HugeCTR" and dlrm.values["result_id"] == "3.0-2063"  # fmt: skip
    row512 = multi.rows[1]  # "0.509 75.90% classification 512x H100 ..."
    assert row512.carried == (0, 1)
    assert (row512.values["framework"], row512.values["model"]) == ("MXNet", "ResNet-50 v1.5")
    assert row512.values["accelerators"] == "512x H100" and row512.values["result_id"] == "3.0-2068"  # fmt: skip
    assert multi.rows[3].values["accelerators"] == "3,584x H100"
    assert multi.rows[3].values["system"] == "coreweave_hgxh100_n448"


NV_HEADER = "Framework Network Time to Train\n(mins) MLPerf Quality Target GPU Server MLPerf-ID Precision Dataset GPU Version"  # fmt: skip
NV_ROW = "MXNet ResNet-50 v1.5 13.466 75.90% classification 8x H100 XE9680x8H100-SXM-80GB 3.0-2053 Mixed ImageNet H100-SXM5-80GB"  # fmt: skip


def _nv_page(*rows: str) -> str:
    return "NVIDIA Performance on MLPerf 3.0: Single Node, Closed Division\n\n" + NV_HEADER + "\n" + "\n".join(rows) + "\n"  # fmt: skip


@pytest.mark.parametrize(
    "crafted",
    [
        "1 1x a " * 14_300,  # time, gpus, word, again and again, no MLPerf-ID: the lazy groups of one regex backtrack over every split
        "1 a 1x a 1.1-1 " * 7_000,  # every typed cell, repeated: could be read many ways
        "1 " * 50_000,
    ],
)  # fmt: skip
def test_a_100k_character_line_under_an_nvidia_header_is_no_row(crafted: str) -> None:
    """A line longer than MAX_ROW_CHARS ends the table, whatever it holds (a row is
    read in one pass over its words, so this returns at once); the real row above it
    is still read."""
    assert len(crafted) >= 100_000 > MAX_ROW_CHARS
    (table,) = parse_vendor_tables(_nv_page(NV_ROW, crafted.strip(), NV_ROW))
    assert [r.values["result_id"] for r in table.rows] == ["3.0-2053"]
    assert parse_vendor_tables(_nv_page(crafted.strip())) == []
    extract_claims(_nv_page(crafted.strip()))


def test_an_nvidia_row_over_the_length_cap_is_not_read() -> None:
    """A well-formed row whose dataset cell runs past MAX_ROW_CHARS is no row."""
    long_row = NV_ROW.replace("ImageNet", "ImageNet" + " x" * MAX_ROW_CHARS)
    assert parse_vendor_tables(_nv_page(long_row)) == []
    (table,) = parse_vendor_tables(_nv_page(NV_ROW))
    assert table.rows[0].values["dataset"] == "ImageNet"


def test_an_nvidia_row_near_the_cap_is_read_word_by_word() -> None:
    """Crafted words before a real row's cells (times, counts with x, MLPerf-IDs) up
    to the cap: the earliest time, then count, then MLPerf-ID that leave a whole row."""
    filler = " ".join(["7 1x 2.2-22"] * 70)
    row = f"{filler} {NV_ROW}"
    assert len(row) <= MAX_ROW_CHARS
    (table,) = parse_vendor_tables(_nv_page(row))
    v = table.rows[0].values
    assert v["time_to_train"] == "7" and v["accelerators"] == "1x 2.2-22"
    assert v["result_id"] == "2.2-22" and v["accelerator"] == "H100-SXM5-80GB"


def test_intel_pipe_tables_and_continuation_rows() -> None:
    text, _ = _page("intel-gaudi2-training-performance-table.txt")
    tables = parse_vendor_tables(text)
    assert [len(t.rows) for t in tables] == [5, 5, 5, 5, 24]
    mlperf = tables[1]
    assert "MLPerf* 3.1" in mlperf.caption and "officially submitted" in mlperf.caption
    assert mlperf.rows[0].values == {"model": "MLPerf 3.1 - GPT3", "accelerators": "384", "precision": "fp8", "time_to_train": "153.58 min†"}  # fmt: skip
    grouped = tables[2]  # version B: a group header above the real one
    assert grouped.columns[0] == "Model" and grouped.rows[0].values["throughput"] == "70523"
    gaudi3 = tables[4]  # "1 | fp8 | 128 | 2,048 | 217 | 6,763 | |" under "LLaMA 2 7b | 1 | ..."
    row = gaudi3.rows[1]
    assert row.carried == (0,)
    assert row.values["model"] == "LLaMA 2 7b" and row.values["throughput"] == "6,763"
    assert gaudi3.rows[-1].values == {"model": "Mistral 7b", "accelerators": "1", "precision": "fp8", "input_length": "2,048", "output_length": "2,048", "batch_size": "44", "throughput": "4,970"}  # fmt: skip


# --- claims on the real pages -----------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["graphcore-mlperf-training-v1.1-performance-at-scale.en.txt", "graphcore-mlperf-training-v1.1-results.zh.txt"],  # fmt: skip
)
def test_graphcore_v11_claims_in_both_languages(name: str) -> None:
    text, claims = _page(name)
    (h2h,) = [c for c in claims if c.kind == "head_to_head"]
    assert (h2h.value, h2h.compared_value, h2h.unit) == (28.3, 29.1, "min")
    assert (h2h.system, h2h.compared_system, h2h.benchmark_key) == ("IPU-POD16", "DGX A100", "resnet")  # fmt: skip
    assert "28.3" in text[h2h.start : h2h.end] and "29.1" in text[h2h.start : h2h.end]
    for value, system in ((5.67, "IPU-POD128"), (3.79, "IPU-POD256")):
        (c,) = _find(claims, "time", value)
        assert (c.system, c.benchmark_key, c.unit) == (system, "resnet", "min")
    (bert,) = _find(claims, "time", 5.78)
    assert (bert.system, bert.benchmark_key) == ("IPU-POD128", "bert")
    for value, system, bench in ((24, "IPU-POD16", "resnet"), (41, "IPU-POD64", "resnet"), (5, "IPU-POD16", "bert"), (12, "IPU-POD64", "bert")):  # fmt: skip
        found = _find(claims, "percentage", value, system=system, benchmark_key=bench)
        assert found, (value, system)
        assert all(c.baseline in ("first-submission", "previous-round") for c in found)


def test_english_open_submission_names_the_division() -> None:
    """"5.78 minutes on the new IPU-POD128, in our open submission" -> open."""
    _, claims = _page("graphcore-mlperf-training-v1.1-performance-at-scale.en.txt")
    (bert,) = _find(claims, "time", 5.78)
    assert bert.division == "open"


def test_chinese_repost_single_server_bert_takes_its_system_from_context() -> None:
    """"為BERT提供了最快的單服務器訓練時間結果,為10.6分鐘": the system is the IPU-POD64
    of the sentences before; the round is named ("本輪MLPerf 1.1訓練")."""
    _, claims = _page("graphcore-mlperf-training-v1.1-results.zh.txt")
    (c,) = _find(claims, "time", 10.6)
    assert (c.system, c.benchmark_key, c.round, c.context) == ("IPU-POD64", "bert", "v1.1", ("system",))  # fmt: skip
    (eff,) = _find(claims, "time", 1.8)
    assert eff.unit == "h" and eff.non_mlperf == "EfficientNet-B4"


def test_v10_article_just_over_nine_minutes() -> None:
    _, claims = _page("graphcore-mlperf-training-v1.0-first-results.en.txt")
    (bert,) = _find(claims, "time", 9.0)
    assert (bert.qualifier, bert.system, bert.benchmark_key) == ("just over", "IPU-POD64", "bert")
    (resnet,) = _find(claims, "time", 14.5)
    assert (resnet.system, resnet.benchmark_key) == ("IPU-POD64", "resnet")


def test_paddlepaddle_matches_popart_is_a_parity_claim() -> None:
    """"The performance of the propeller (飞桨, PaddlePaddle) is similar to ... PopART"."""
    _, claims = _page("paddlepaddle-graphcore-mlperf-training-v2.0-joint-submission.en.txt")
    (parity,) = [c for c in claims if c.kind == "parity"]
    assert (parity.framework, parity.compared_framework, parity.benchmark_key, parity.round) == ("PaddlePaddle", "PopART", "bert", "v2.0")  # fmt: skip
    (clock,) = _find(claims, "multiplier", 1.4)
    assert (clock.system, clock.compared_system, clock.metric) == ("Bow-2000", "M2000", "clock")


def test_inspur_respectively_lists_map_numbers_to_benchmarks_in_order() -> None:
    _, claims = _page("inspur-mlperf-training-v1.1.zh.txt")
    pct = [(c.value, c.benchmark_key) for c in claims if c.kind == "percentage"]
    assert pct[:4] == [(18, "unet3d"), (14, "rnnt"), (11, "dlrm"), (8, "bert")]
    assert pct[5:8] == [(22, "bert"), (18, "maskrcnn"), (14, "rnnt")]
    assert all(c.baseline == "v1.0" for c in claims if c.kind == "percentage")


def test_nvidia_chip_to_chip_multiplier_is_per_accelerator_against_v07() -> None:
    _, claims = _page("nvidia-mlperf-training-v1.1-full-stack-optimization.zh.txt")
    (chip,) = _find(claims, "multiplier", 2.1)
    assert (chip.qualifier, chip.baseline, chip.per_accelerator) == ("up to", "v0.7", True)
    (scale,) = [c for c in _find(claims, "multiplier", 5.3) if c.baseline]
    assert (scale.qualifier, scale.per_accelerator) == ("up to", False)


def test_table_rows_are_claims_and_not_read_again_as_prose() -> None:
    """NVIDIA's table: one time claim per row with its MLPerf-ID; "75.90%" and "8x H100"
    inside the rows are not percentage or scale claims."""
    _, claims = _page("nvidia-training-performance-table-mlperf-v3.0.txt")
    assert len(claims) == 12 and {c.source for c in claims} == {"table"}
    first = claims[0]
    assert (first.value, first.benchmark_key, first.round, first.division, first.result_ids, first.accelerators) == (13.466, "resnet", "v3.0", "closed", ("3.0-2053",), 8)  # fmt: skip


def test_intel_mlperf_rows_are_marked_unverified_by_the_page() -> None:
    _, claims = _page("intel-gaudi2-training-performance-table.txt")
    table = [c for c in claims if c.source == "table"]
    assert len(table) == 10 and all(c.unverified and c.round == "v3.1" for c in table)
    assert {c.benchmark_key for c in table} == {"gpt3", "stable_diffusion", "resnet", "bert"}


# --- claims on synthetic sentences ------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "kind", "value", "unit", "qualifier"),
    [
        ("Our system is up to 47% faster on BERT.", "percentage", 47, "%", "up to"),
        ("It trains ResNet-50 nearly 30x faster.", "multiplier", 30, "x", "nearly"),
        ("DLRM improved by more than 20 percent.", "percentage", 20, "%", "more than"),
        ("在BERT上性能提升近3倍。", "multiplier", 3, "x", "nearly"),
        ("训练速度提升逾50%。", "percentage", 50, "%", "more than"),
        ("訓練速度提高20%以上。", "percentage", 20, "%", "more than"),
        ("性能最高提升 2.5 倍。", "multiplier", 2.5, "x", "up to"),
        ("ResNet-50 trains in 16.4 mins on 8 Gaudi 2.", "time", 16.4, "min", ""),
        ("BERT 训练仅需 20 分钟。", "time", 20, "min", ""),
        ("BERT 訓練只要 45 秒。", "time", 45, "s", ""),
        ("It took 1.8 hours on 1,024 GPUs.", "scale", 1024, "GPU", ""),
        ("使用 8 颗 IPU 训练。", "scale", 8, "chip", ""),
        ("We used 3,584x H100 for ResNet-50.", "scale", 3584, "GPU", ""),
    ],
)
def test_units_and_qualifiers(sentence: str, kind: str, value: float, unit: str, qualifier: str) -> None:  # fmt: skip
    claims = _find(extract_claims(sentence), kind, value)
    assert claims, [(c.kind, c.value) for c in extract_claims(sentence)]
    assert (claims[0].unit, claims[0].qualifier) == (unit, qualifier)


def test_a_sentences_own_arithmetic_is_kept() -> None:
    """70 min against 91.5 s is 45.9x."""
    (mult,) = [c for c in extract_claims("Training took 70 minutes before and 91.5 s now, a 45.9x speedup.") if c.kind == "multiplier"]  # fmt: skip
    assert mult.implied_value == pytest.approx(70 * 60 / 91.5)


def test_result_ids_are_collected_and_not_read_as_numbers() -> None:
    claims = extract_claims("MLPerf Training v1.1 closed division ResNet-50 on IPU-POD16: 28.3 minutes (result 1.1-2040).")  # fmt: skip
    (c,) = claims
    assert (c.value, c.result_ids, c.round, c.division) == (28.3, ("1.1-2040",), "v1.1", "closed")


def test_round_named_after_a_comparison_word_is_the_baseline() -> None:
    (c,) = extract_claims("NVIDIA trains BERT 22% faster in MLPerf v1.1 compared with v1.0 on DGX A100.")  # fmt: skip
    assert (c.round, c.baseline, c.benchmark_key) == ("v1.1", "v1.0", "bert")


def test_spans_point_into_glossed_text() -> None:
    text = "在IPU-POD16上實(shí)現(xiàn)了24%的性能提升"
    (c,) = extract_claims(text)
    assert text[c.start : c.end] == "24%" and c.system == "IPU-POD16"
    assert re.search("實\\(shí\\)", c.sentence)


def test_chinese_faster_than_names_the_compared_system_and_the_count() -> None:
    """"比 V100 快 30%": a 30% claim against V100; "8 张 A100": eight accelerators."""
    claims = extract_claims("在 8 张 A100 上训练 BERT 仅需 20 分钟,比 V100 快 30%。")
    (pct,) = [c for c in claims if c.kind == "percentage"]
    assert (pct.value, pct.system, pct.compared_system, pct.accelerators, pct.baseline) == (30, "A100", "V100", 8, "")  # fmt: skip
    (t,) = [c for c in claims if c.kind == "time"]
    assert (t.value, t.unit, t.accelerators, t.benchmark_key) == (20, "min", 8, "bert")


def test_head_to_head_with_a_shared_unit_in_the_order_named() -> None:
    text = "IPU-POD16 vs DGX A100 on ResNet-50: 28.3 vs 29.1 minutes."
    (c,) = extract_claims(text)
    assert (c.kind, c.value, c.compared_value, c.system, c.compared_system) == ("head_to_head", 28.3, 29.1, "IPU-POD16", "DGX A100")  # fmt: skip
    assert text[c.start : c.end] == "28.3 vs 29.1 minutes"


def test_counts_of_wins_results_and_organizations() -> None:
    """Inspur: "包揽15个冠军", "14家公司", "共提交180项固定任务(Closed)成绩"; Graphcore:
    "more than 50 other members"."""
    _, claims = _page("inspur-mlperf-training-v1.1.zh.txt")
    counts = [(c.value, c.unit) for c in claims if c.kind == "count"]
    assert counts[:2] == [(16, "task"), (15, "win")]
    assert (14, "organization") in counts and (180, "task") in counts and (6, "task") in counts
    _, claims = _page("graphcore-mlperf-training-v1.0-first-results.en.txt")
    (members,) = [c for c in claims if c.kind == "count"]
    assert (members.value, members.qualifier, members.unit) == (50, "more than", "organization")


# --- numbers that are no figure -------------------------------------------------------

BIG = "9" * 400  # float() reads it as infinity


@pytest.mark.parametrize(
    ("text", "expected"),
    [("28.3", 28.3), ("3,584", 3584.0), ("1000000000000000", MAX_VALUE), ("1000000000000001", None),
     (BIG, None), ("9" * 5000, None), ("nan", None), ("NaN", None), ("inf", None), ("-inf", None),
     ("1e400", None), ("", None), ("abc", None)],
)  # fmt: skip
def test_to_number_keeps_finite_figures_only(text: str, expected: float | None) -> None:
    assert to_number(text) == expected


@pytest.mark.parametrize(("value", "expected"), [(8.0, 8), (2.5, 2), (float(MAX_COUNT), MAX_COUNT), (MAX_COUNT + 1.0, None), (-1.0, None), (None, None)])  # fmt: skip
def test_to_count_fits_an_integer_column(value: float | None, expected: int | None) -> None:
    assert to_count(value) == expected


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (f"MLPerf v1.1: IPU-POD16 trains ResNet-50 in {BIG} minutes on {BIG} GPUs.", ["time", "scale"]),
        (f"MLPerf v1.1: ResNet-50 on {BIG} GPUs in 20 minutes.", ["scale", "time"]),
        (f"MLPerf v1.1: IPU-POD16 is {BIG}x faster than DGX A100 on ResNet-50.", ["multiplier"]),
        (f"MLPerf v1.1: IPU-POD16 trains BERT {BIG}% faster.", ["percentage"]),
        (f"IPU-POD16 takes {BIG} minutes vs 29.1 minutes on DGX A100, {BIG}x faster.", ["time", "time", "multiplier"]),
    ],
)  # fmt: skip
def test_a_400_digit_number_is_a_claim_without_a_value(text: str, kinds: list[str]) -> None:
    """The claim keeps its sentence and span; its value, count and arithmetic are None."""
    claims = extract_claims(text)
    assert [c.kind for c in claims] == kinds
    for c in claims:
        assert c.sentence == text and c.accelerators is None and c.implied_value is None
        assert (c.value is None) == text[c.start : c.end].startswith(BIG)


def test_a_table_row_with_a_huge_accelerator_count_keeps_its_time() -> None:
    row = NV_ROW.replace("8x H100", "99999999999x H100")
    page = _nv_page(row, NV_ROW.replace("8x H100", "9" * 800 + "x H100"))
    tables = parse_vendor_tables(page)
    rows = [c for c in extract_claims(page, tables=tables) if c.source == "table"]
    assert [(c.value, c.accelerators) for c in rows] == [(13.466, None), (13.466, None)]


def test_a_100k_character_sentence_is_read_in_pieces() -> None:
    """Text without a sentence end is cut at spaces into pieces of at most
    MAX_SENTENCE_CHARS: the work per piece is bounded, and a cut loses at most the
    one claim whose number and unit it separates."""
    text = "IPU-POD16 trains ResNet-50 in 28.3 minutes " * 2500
    claims = extract_claims(text)
    assert all(c.sentence_end - c.sentence_start <= MAX_SENTENCE_CHARS for c in claims)
    times = [c for c in claims if (c.kind, c.value, c.unit, c.system) == ("time", 28.3, "min", "IPU-POD16")]  # fmt: skip
    pieces = -(-len(text) // MAX_SENTENCE_CHARS) * 2  # cuts fall at spaces, so pieces are a little shorter
    assert 2500 - pieces <= len(times) <= 2500
    assert all(text[c.start : c.end].startswith("28.3") for c in times)
