"""The first hour (issue 23) in Debian's Chromium: the home page with every suite, and one
compare experience: two inference results ticked on a leaderboard stay in the compare
tray on the next page and open the compare page. Screenshots at 1400 and 800 px:
tests/screenshots/first-hour-*.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.browser

HPC = Path(__file__).resolve().parents[1] / "data" / "hpc"
BOARD = "/inference/v5.1/llama3.1-8b/Offline/"


@pytest.fixture(scope="module")
def first_hour_data(server_url, django_db_blocker) -> None:  # type: ignore[no-untyped-def]
    """HPC and the vendor pages besides what the server fixture loaded: the demo's data."""
    from django.core.management import call_command
    from django.db import connection

    from ingest.hpc.service import mlperf_hpc_ingest

    with django_db_blocker.unblock():
        mlperf_hpc_ingest(location=str(HPC))
        call_command("ingest", "vendor", str(settings.VENDOR_DATA))
        connection.close()


def test_the_home_page_shows_every_suite(first_hour_data, page):  # type: ignore[no-untyped-def]
    page.goto("/")
    for suite in ("training", "inference", "hpc"):
        assert page.page.locator(f"#suite-{suite} table.site-rounds tbody tr").count() >= 3
    loaded = page.page.inner_text("#loaded")
    assert re.search(r"\d+ MLPerf Training results .*\d+ MLPerf Inference results", loaded)
    assert "12 vendor pages" in loaded
    assert page.page.locator("#home-pages tbody tr").count() == 12
    assert page.page.is_visible("#home-check textarea[name=text]")
    assert page.page.is_hidden("#compare-tray")  # nothing picked yet
    for width in (1400, 800):  # every suite's table whole, without a sideways scroll
        page.page.set_viewport_size({"width": width, "height": 1000})
        page.page.wait_for_timeout(300)
        cut = page.page.eval_on_selector_all(
            ".suite .table-wrap", "ws => ws.filter(w => w.scrollWidth > w.clientWidth).length"
        )
        assert cut == 0, width
    page.page.set_viewport_size({"width": 1400, "height": 1000})
    page.screenshot("first-hour-home")
    assert page.errors == []


def test_two_inference_results_ticked_travel_to_the_compare_page(first_hour_data, page):  # type: ignore[no-untyped-def]
    page.goto(BOARD)
    boxes = page.page.locator("#inference-results tbody input[type=checkbox][name=ids]")
    assert boxes.count() == 4
    boxes.nth(0).check()
    boxes.nth(1).check()
    ids = [boxes.nth(i).get_attribute("value") for i in (0, 1)]
    bar = page.page.locator("#compare-tray")
    assert bar.is_visible() and bar.locator(".chip").count() == 2
    assert "(baseline)" in bar.locator(".chip").nth(0).inner_text()
    page.page.mouse.move(0, 0)
    page.screenshot("first-hour-inference-ticked")
    # The tray is kept across pages: the home page still holds both, ready to compare.
    page.goto("/")
    link = page.page.locator("#compare-tray a.tray-compare")
    assert link.inner_text() == "Compare 2"
    assert link.get_attribute("href") == f"/inference/compare/?ids={ids[0]}%2C{ids[1]}"
    # Back on the board both boxes are ticked; the page's own button opens the compare page.
    page.goto(BOARD)
    assert boxes.nth(0).is_checked() and boxes.nth(1).is_checked()
    page.page.click("#compare-form button[type=submit]")
    page.page.wait_for_load_state("networkidle")
    assert page.page.url.endswith(f"/inference/compare/?ids={ids[0]}%2C{ids[1]}")
    assert page.page.locator("#compare tbody tr").count() >= 2
    page.screenshot("first-hour-inference-compare")
    assert page.errors == []
