"""Inference pages in Debian's chromium (issue 11), on ../shared/mlperf-inference; each
test saves screenshots at 1400 and 800 px (tests/screenshots/inference-*.png)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

AMD = "/inference/v5.1/results/closed/AMD/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server/"


def test_the_v51_round_table(page):
    page.goto("/inference/")
    page.page.click("#inference-rounds a:text-is('v5.1')")
    page.page.wait_for_url(re.compile(r"/inference/v5\.1/$"))
    heads = page.page.locator("#inference-round thead th").all_inner_texts()
    assert any(h.startswith("llama2-70b-99 Server") for h in heads)
    # it opens on closed datacenter, as MLCommons' table does
    cells = page.page.eval_on_selector_all(
        "#inference-round tbody tr", "rows => rows.map(r => r.cells[r.cells.length - 7].innerText)"
    )
    assert cells and set(cells) == {"closed"}
    page.screenshot("inference-round-v5.1")
    page.page.select_option("select[name=division]", "any")
    page.page.wait_for_url(re.compile(r"division=any"))
    page.page.select_option("select[name=category]", "any")
    page.page.wait_for_url(re.compile(r"category=any"))
    assert page.page.locator("#inference-round tbody tr").count() >= 20
    assert page.errors == []


def test_a_llama2_70b_server_leaderboard_with_its_chart(page):
    page.goto("/inference/v5.1/llama2-70b-99/Server/")
    page.page.wait_for_selector("#inference-chart[data-drawn='1']")
    ticks = page.page.eval_on_selector_all(
        "#inference-chart .xtick text", "els => els.map(e => e.textContent)"
    )
    # 4 and 8 accelerators (GB200, MI300X): labelled powers of two (issue 13)
    assert ticks == ["4", "8"], ticks
    rows = page.page.locator("#inference-results tbody tr").count()
    assert rows == 2 and page.page.locator("#inference-chart .point").count() == 2
    page.screenshot("inference-leaderboard-llama2-70b-server")
    assert page.errors == []


def test_a_result_page_shows_the_log_lines_and_every_rule(page):
    page.goto(AMD)
    assert page.page.inner_text("#value").startswith("24,593.8 Tokens/s")
    evidence = page.page.locator("#evidence tbody tr").all_inner_texts()
    assert any("result_completed_tokens_per_second" in e for e in evidence)
    assert "No rule failed" in page.page.inner_text("#findings")
    page.screenshot("inference-result")
    page.page.click("#evidence a >> nth=0")  # the value's line in the detail log
    page.page.wait_for_url(re.compile(r"/files/\?path=.*#L\d+$"))
    n = page.page.url.rsplit("#L", 1)[1]
    line = page.page.locator(f"#L{n}")
    assert "result_completed_tokens_per_second" in line.inner_text()
    assert line.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 243, 176)"
    page.screenshot("inference-detail-log")
    assert page.errors == []


def test_a_power_result_with_its_efficiency(page):
    page.goto("/inference/v5.1/llama3.1-8b/Offline/?power=on")
    row = page.page.locator("#inference-results tbody tr >> nth=0").inner_text()
    assert "Watts" in row and "per W" in row
    page.screenshot("inference-power")
    page.page.click("#inference-results tbody tr >> nth=0 >> td.sys a")
    assert "Power:" in page.page.inner_text("#power")
    assert page.errors == []


def test_compare_refused_across_scenarios_and_flagged_in_one(page):
    page.goto("/inference/v5.1/results/closed/AMD/8xMI300X_2xEPYC_9575F/llama2-70b-99/Offline/")
    page.page.click("#compare-with")
    page.page.wait_for_url(re.compile(r"\?ids=\d+$"))
    tray = page.page.url.split(page.base, 1)[1]
    page.goto(tray.replace("/Offline/", "/Server/"))  # the Server board, with the same tray
    page.page.locator("#inference-results tbody tr >> nth=0").locator("a.add").click()
    page.page.wait_for_url(re.compile(r"/inference/compare/\?ids="))
    assert "different scenarios" in page.page.inner_text("#refused")
    page.screenshot("inference-compare-refused")
    page.goto(AMD)
    page.page.click("#compare-with")
    page.page.locator(
        "#inference-results tbody tr", has=page.page.locator("a:text-matches('GB200')")
    ).locator("a.add").click()
    page.page.wait_for_url(re.compile(r"/inference/compare/\?ids="))
    assert page.page.locator("#refused").count() == 0
    text = page.page.inner_text("#compare")
    assert "2.007" in text and "different accelerator count (4 vs 8)" in text
    page.screenshot("inference-compare-flags")
    assert page.errors == []


def test_generations_over_rounds(page):
    page.goto("/inference/")
    page.page.click("a:text-is('Generations and software over rounds')")
    page.page.wait_for_selector("#history-chart[data-drawn='1']")
    legend = page.page.eval_on_selector_all(
        "#history-chart .legendtext", "els => els.map(e => e.textContent)"
    )
    assert "1 × NVIDIA AGX Xavier" in legend and len(legend) == len(set(legend))
    page.screenshot("inference-history")
    assert page.errors == []
