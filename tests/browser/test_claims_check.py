"""Check this text, the guideline report and the claim families in Chromium (issue 14).
Screenshots: tests/screenshots/check-*.png, vendor-guidelines*.png,
vendor-families*.png at 1400 and 800 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.browser
VENDOR = Path(settings.VENDOR_DATA)
EN = VENDOR / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"


@pytest.fixture(scope="module", autouse=True)
def _vendor_pages(server_url, django_db_blocker) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """The shared vendor pages ingested before Chromium starts (idempotent)."""
    from django.db import connection

    from ingest.claims.pages import vendor_page_ingest

    with django_db_blocker.unblock():
        ids = {
            p.name: vendor_page_ingest(data=None, path_or_url=str(p)).page_id
            for p in sorted(VENDOR.glob("*.txt"))
        }
        connection.close()
    return ids


def test_the_form_checks_a_pasted_article(page):  # type: ignore[no-untyped-def]
    """Graphcore's v1.1 post pasted into the form: its 8 claims with verdicts and flags
    explained, and the guideline report (§3.2 and §5 broken by the 28.3 vs 29.1
    comparison, the first claim)."""
    page.goto("/vendor/check/")
    page.page.fill("textarea[name=text]", EN.read_text())
    page.page.click("#check-form button[type=submit]")
    page.page.wait_for_load_state("networkidle")
    rows = page.page.locator("#check-claims tbody tr")
    assert rows.count() == 8
    assert rows.nth(0).locator("td.claimed").inner_text().strip() == "28.3 min vs 29.1 min"
    assert rows.nth(0).get_attribute("data-verdict") == "consistent"
    flags = rows.nth(0).locator("li.flag")
    codes = {flags.nth(i).get_attribute("data-flag") for i in range(flags.count())}
    assert {"no-result-id", "different-accelerator-counts"} <= codes
    broken = page.page.locator("#guidelines tr[data-status=breaks]")
    clauses = {broken.nth(i).get_attribute("data-clause") for i in range(broken.count())}
    assert {"3.2", "5", "11.1", "11.2"} <= clauses
    page.screenshot("check-result")
    assert page.errors == []


def test_the_form_refuses_a_text_over_the_limit_with_the_limit(page):  # type: ignore[no-untyped-def]
    page.goto("/vendor/check/")
    page.page.fill("textarea[name=text]", "x" * 100_001)
    page.page.click("#check-form button[type=submit]")
    page.page.wait_for_load_state("networkidle")
    error = page.page.locator("#check-errors").inner_text()
    assert "too large" in error and "100,000" in error
    page.screenshot("check-too-large")
    assert [e for e in page.errors if "413" not in e] == []


def test_the_vendor_page_shows_its_guideline_report(page, _vendor_pages):  # type: ignore[no-untyped-def]
    pk = _vendor_pages[EN.name]
    page.goto(f"/vendor/pages/{pk}/")
    gain = page.page.locator(
        "#guidelines tr[data-clause='5'][data-status=breaks]", has_text="12% for IPU-POD64"
    )
    assert gain.count() == 1 and "open division" in gain.inner_text()
    page.screenshot("vendor-guidelines")
    page.goto("/vendor/")
    row = page.page.locator("#pages tbody tr", has_text="Performance at Scale")
    assert "breaking" in row.locator("td.guidelines").inner_text()
    assert int(row.locator("td.families").inner_text().strip()) == 8
    page.goto("/vendor/families/?repeated=on")
    fams = page.page.locator("#families tbody tr")
    values = {fams.nth(i).locator("td.value").inner_text() for i in range(fams.count())}
    assert {"28.3 min vs 29.1 min", "24%", "12%"} <= values
    page.screenshot("vendor-families")
    assert page.errors == []
