"""The check API under hostile bodies (issue 21, items 2 and 4): every body of the
issue's list is answered within 2 s with a 4xx that says what is wrong (or, for the
texts that are merely costly, a 200 or a 422 naming what was cut), never a 500 and
never a worker held for minutes; a real page's claims beside the hostile part keep
their verdict. The readers the issue found quadratic are timed on their own."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from benchdb.claims.subjects import find_mentions
from ingest.claims import check as claims_check
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.claims.parsers.text import extract_claims

VENDOR = Path(settings.VENDOR_DATA)
EN = VENDOR / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
API = "/api/claims/check"
CLAIMS_AND_H100 = "In MLPerf v3.0, BERT trained in 2 minutes. " * 200 + "H100 " * 8000
pytestmark = [pytest.mark.django_db, pytest.mark.check_budget]

#: The issue's list: (name, body, statuses allowed, words the error must hold).
HOSTILE: list[tuple[str, str, set[int], str]] = [
    ("pipes", json.dumps({"text": "| a | b |\n" * 9000}), {200, 422}, ""),
    ("claims-and-h100", json.dumps({"text": CLAIMS_AND_H100}), {200, 422}, ""),
    ("port", json.dumps({"url": "http://host:99999/"}), {400}, "Port out of range"),
    ("userinfo", json.dumps({"url": "http://user:pw@example.com/"}), {400}, "password"),
    ("space", json.dumps({"url": "http://example.com/a b"}), {400}, "space"),
    ("cr", json.dumps({"url": "http://example.com/\r\nX-A: b"}), {400}, "control"),
    ("nul", json.dumps({"url": "http://example.com/\u0000"}), {400}, "control"),
    ("deep", "[" * 100_000 + "]" * 100_000, {400}, "nested deeper"),
    ("deep-in-text", '{"text": ' + "[" * 100_000 + "]" * 100_000 + "}", {400}, "nested"),
    ("surrogate", '{"text": "\\ud800"}', {400}, "lone surrogate"),
    ("surrogate-url", '{"url": "https://example.com/\\ud800"}', {400}, "lone surrogate"),
    ("future", json.dumps({"text": "H100 1 min", "published": "9999-12-31"}), {400}, "range"),
    ("past", json.dumps({"text": "H100 1 min", "published": "0001-01-01"}), {400}, "range"),
]


@pytest.fixture(autouse=True)
def _no_rate_limit(settings: Any) -> Iterator[None]:
    settings.CLAIMS_CHECK_RATE = "10000/m"
    cache.clear()
    # A first request imports the views and builds the URL resolver (a second or more
    # on a busy machine): paid here, not by the body timed.
    Client().post(API, {"text": "H100 1 min"}, content_type="application/json")
    yield
    cache.clear()


@pytest.mark.parametrize(
    ("name", "body", "statuses", "words"), HOSTILE, ids=[h[0] for h in HOSTILE]
)
def test_every_hostile_body_is_answered_within_2_s(
    name: str, body: str, statuses: set[int], words: str
) -> None:
    t0 = time.perf_counter()
    resp = Client().post(API, body, content_type="application/json")
    took = time.perf_counter() - t0
    assert took < 2.0, f"{name}: {took:.2f} s"
    assert resp.status_code in statuses, resp.content[:300]
    if resp.status_code != 200:
        assert words.lower() in resp.json()["error"].lower()


def test_a_real_page_beside_8000_h100_keeps_its_verdicts(
    ingested_shared: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Graphcore's v1.1 post with 8,000 "H100" after it: the same 8 claims and the
    head-to-head still consistent with the v1.1 results, in seconds, not the minutes
    it took when the page's family was searched per claim over the whole text (the
    reading's budget is lifted here: this times the verdicts, in the parent)."""
    monkeypatch.setattr(claims_check, "CHECK_SECONDS", 60.0)
    text = EN.read_text() + "\n\n" + "H100 " * 8000
    t0 = time.perf_counter()
    out = claims_check.claims_check(text=text)
    assert time.perf_counter() - t0 < 10
    assert out["counts"]["claims"] == 8
    assert out["claims"][0]["claimed"] == "28.3 min vs 29.1 min"
    assert out["claims"][0]["verdict"] == "consistent"


def test_a_text_over_the_budget_is_a_422_naming_the_stage_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reading runs in a child process killed at ``CHECK_SECONDS``: here a budget
    too small for the real page, so the answer names the stage it reached."""
    monkeypatch.setattr(claims_check, "CHECK_SECONDS", 0.001)
    t0 = time.perf_counter()
    resp = Client().post(API, {"text": EN.read_text()}, content_type="application/json")
    assert time.perf_counter() - t0 < 2.0
    assert resp.status_code == 422
    body = resp.json()
    assert body["budget_seconds"] == 0.001 and "budget" in body["error"]
    assert "nothing was checked" in body["error"] and "cut_at" in body


def test_the_form_refuses_an_out_of_range_date_with_a_message() -> None:
    resp = Client().post("/vendor/check/", {"text": "H100 1 min", "published": "9999-12-31"})
    assert resp.status_code == 400 and "out of range" in resp.content.decode()


def test_bare_pipe_lines_are_read_in_linear_time() -> None:
    """9,000 lines of "| a | b |" took 63-98 s (each line scanned all below it)."""
    t0 = time.perf_counter()
    assert parse_vendor_tables("| a | b |\n" * 9000) == []
    assert time.perf_counter() - t0 < 2.0


def test_a_real_bare_pipe_table_is_still_read_under_9000_junk_lines() -> None:
    """NVIDIA's v5.0 table form ("Benchmark | Time to Train (minutes) |"), after junk."""
    table = "Benchmark | Time to Train (minutes) |\nLLM Pretraining (Llama 3.1 405B) | 20.8 |\n"
    tables = parse_vendor_tables("| a | b |\n" * 9000 + "\n" + table)
    assert len(tables) == 1 and tables[0].rows[0].values["time_to_train"] == "20.8"
    claims = extract_claims("| a | b |\n" * 9000 + "\n" + table, tables=tables)
    assert [(c.value, c.unit) for c in claims] == [(20.8, "min")]


def test_family_mentions_of_a_page_are_found_in_linear_time() -> None:
    """8,000 "H100" on a page: each mention was compared with every earlier one."""
    t0 = time.perf_counter()
    found = find_mentions("DGX H100 " + "H100 " * 8000)
    assert time.perf_counter() - t0 < 2.0
    assert len(found) == 8001 and found[0].family == "DGX H100"
    assert {m.family for m in found[1:]} == {"H100"}
