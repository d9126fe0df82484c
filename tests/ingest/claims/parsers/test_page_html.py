"""Reading vendor pages: decoding, HTML cleaning, language and date, on the real pages
in ../shared/vendor (read in place) and on small pages written here."""

from __future__ import annotations

import time

import pytest

from ingest.claims.parsers.page_html import (
    MAX_HTML_DEPTH,
    decode,
    detect_language,
    guess_published,
    is_html,
    parse_vendor_page,
)
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.parsers.types import ParseError

from .vendor_pages import FILES, VENDOR, page_claims


def _readme_languages() -> dict[str, str]:
    """file -> language, from the table in ../shared/vendor/README.md."""
    out = {}
    for line in (VENDOR / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0].endswith(".txt"):
            out[cells[0]] = cells[3]
    return out


# --- pages ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_every_vendor_file_parses_to_text_and_claims(name: str) -> None:
    """Each file, spam and script debris included, gives text, tables and claims
    without raising, and every claim's span lies inside its sentence."""
    text, claims = page_claims(name)
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
    text = (
        "在IPU-POD16上訓練ResNet-50需要28.3分鐘"
        if codec == "big5"
        else "在IPU-POD16上训练ResNet-50需要28.3分钟"
    )
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


# --- bounds: depth, time ---------------------------------------------------------------


def _nested(depth: int, tag: str = "div") -> bytes:
    return (
        b"<!doctype html><html><body>"
        + f"<{tag}>".encode() * depth
        + b"MLPerf 28.3 min"
        + f"</{tag}>".encode() * depth
        + b"</body></html>"
    )


@pytest.mark.parametrize(("depth", "tag"), [(1_000, "div"), (100_000, "span"), (100_000, "table")])
def test_html_nested_too_deep_is_a_clear_error_not_a_recursion_error(depth: int, tag: str) -> None:
    started = time.process_time()
    with pytest.raises(ParseError, match=r"deep\.html: HTML elements nested more than 256 deep"):
        parse_vendor_page(_nested(depth, tag), name="deep.html")
    assert time.process_time() - started < 30  # 100k deep ran past 60 s before the limit


def test_html_nested_within_the_limit_is_read() -> None:
    doc = parse_vendor_page(_nested(MAX_HTML_DEPTH - 3), name="ok.html")
    assert doc.text == "MLPerf 28.3 min\n"  # and no "html" from the doctype


def test_many_unclosed_title_tags_cost_one_pass() -> None:
    """A lazy ``<title>(.*?)</title>`` rescanned the page from every unclosed ``<title``."""
    page = b"<html><body><p>MLPerf 28.3 min</p><script>" + b"<title>x" * 50_000
    page += b"</script></body></html>"
    started = time.process_time()
    doc = parse_vendor_page(page, name="titles.html")
    assert time.process_time() - started < 30
    assert doc.title == "MLPerf 28.3 min"  # no <title> element: the first line
