"""Fuzz targets (Hypothesis) over the vendor page readers: the real pages in
../shared/vendor cut into lines and mutated (lines deleted, duplicated, swapped, cut;
numbers made huge; tags, deep nesting, control characters and odd encodings added),
read as HTML and as text, then their tables and claims.

Each target asserts that only :class:`ParseError` escapes ``parse_vendor_page`` (an
empty page, nothing left after cleaning, HTML nested too deep) and that
``parse_vendor_tables`` and ``extract_claims`` raise nothing and return spans inside
the text. Run with ``pytest -m fuzz tests/fuzz`` (``make fuzz``); ``FUZZ_EXAMPLES``
sets the cases per target (default 200).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import event, given
from hypothesis import strategies as st

from ingest.claims.parsers.page_html import parse_vendor_page
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.claims.parsers.text import extract_claims
from ingest.parsers.types import ParseError
from tests.fuzz.budget import FUZZ, stage, timed_cases

VENDOR = Path(django_settings.VENDOR_DATA)
PAGES = [p.read_bytes() for p in sorted(VENDOR.glob("*.txt"))]
LINES = [ln for page in PAGES for ln in page.split(b"\n") if ln.strip()]

pytestmark = pytest.mark.fuzz

NUMBERS = [b"9" * 401, b"1e400", b"nan", b"inf", b"-0", b"0.000", b"3,584,000,000,000", b"1.7e308"]
UNITS = [b" min", b" minutes", b"x", b"%", b" GPUs", b" \xe5\x88\x86\xe9\x92\x9f", b" tokens/s"]
TAGS = [
    b"<div>",
    b"</div>",
    b"<table><tr><td>",
    b"</td></tr></table>",
    b"<title>",
    b"<!--",
    b"-->",
    b"<script>",
    b"<br/>",
    b"<li>",
    b"|---|---|",
    b" | ",
]
ENCODINGS = ["utf-8", "utf-16", "gb18030", "big5", "latin-1", "cp1252"]


@st.composite
def vendor_bytes(draw: st.DrawFn) -> bytes:
    """A page of real lines, mutated."""
    lines = draw(st.lists(st.sampled_from(LINES), min_size=0, max_size=30))
    for _ in range(draw(st.integers(0, 6))):
        if not lines:
            break
        k = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["del", "dup", "swap", "cut", "num", "tag", "ctl"]))
        event(op)
        line = lines[k]
        if op == "del":
            del lines[k]
        elif op == "dup":
            lines.insert(k, line)
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "cut":
            lines[k] = line[: draw(st.integers(0, len(line)))]
        elif op == "num":
            lines[k] = line + b" " + draw(st.sampled_from(NUMBERS)) + draw(st.sampled_from(UNITS))
        elif op == "tag":
            at = draw(st.integers(0, len(line)))
            lines[k] = line[:at] + draw(st.sampled_from(TAGS)) + line[at:]
        else:
            lines[k] = line + bytes([draw(st.integers(0, 31))])
    return b"\n".join(lines)


@st.composite
def html_bytes(draw: st.DrawFn) -> bytes:
    """Real lines as an HTML document: in paragraphs, tables or nested elements (up to
    100k deep), maybe re-encoded."""
    body = draw(vendor_bytes()).decode("utf-8", errors="replace")
    depth = draw(st.sampled_from([0, 1, 50, 255, 257, 1_000, 100_000]))
    event(f"depth {depth}")
    tag = draw(st.sampled_from(["div", "span", "b", "p", "li", "table", "td"]))
    wrapped = "".join(f"<p>{ln}</p>" for ln in body.split("\n"))
    if draw(st.booleans()):
        cells = "".join(f"<tr><td>{ln}</td><td>{ln[:8]}</td></tr>" for ln in body.split("\n"))
        wrapped = f"<table><caption>MLPerf v3.0 Closed Division</caption>{cells}</table>"
    html = (
        "<!doctype html><html><head><title>t</title></head><body>"
        + f"<{tag}>" * depth
        + wrapped
        + f"</{tag}>" * draw(st.sampled_from([0, depth]))
        + "</body></html>"
    )
    codec = draw(st.sampled_from(ENCODINGS))
    event(codec)
    return html.encode(codec, errors="replace")


def _check_claims(text: str) -> None:
    stage("finding the tables")
    tables = parse_vendor_tables(text)
    for t in tables:
        assert 0 <= t.start <= t.end <= len(text)
    stage("finding the claims")
    for c in extract_claims(text, tables=tables):
        assert 0 <= c.start <= c.end <= len(text)
        assert 0 <= c.sentence_start <= c.sentence_end <= len(text)
        for v in (c.value, c.compared_value, c.implied_value):
            assert v is None or math.isfinite(v)


@FUZZ
@given(data=vendor_bytes(), codec=st.sampled_from(ENCODINGS))
@timed_cases
def test_text_pages_never_crash(data: bytes, codec: str) -> None:
    raw = data.decode("utf-8", errors="replace").encode(codec, errors="replace")
    stage("cleaning the page")
    try:
        doc = parse_vendor_page(raw, name="page.txt")
    except ParseError:
        event("ParseError")
        return
    _check_claims(doc.text)


@FUZZ
@given(data=html_bytes())
@timed_cases
def test_html_pages_never_crash(data: bytes) -> None:
    stage("cleaning the page")
    try:
        doc = parse_vendor_page(data, name="page.html")
    except ParseError as exc:
        event("ParseError: " + exc.reason[:30])
        return
    _check_claims(doc.text)


@FUZZ
@given(text=st.text(max_size=3000) | vendor_bytes().map(lambda b: b.decode("utf-8", "replace")))
@timed_cases
def test_tables_and_claims_of_any_text_never_crash(text: str) -> None:
    _check_claims(text)
