"""The history pages in Debian's chromium (issue 26): /changes/ with its filters and
its feed link, /ids/ (screenshots tests/screenshots/history-*.png)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def test_the_changes_page_filters_and_links_its_feed(page):
    page.goto("/changes/")
    assert page.page.locator("h1").inner_text() == "Changes to published results"
    page.page.select_option("#change-filters select[name=kind]", "withdrawn")
    page.page.fill("#change-filters input[name=round]", "v1.1")
    page.page.click("#change-filters button[type=submit]")
    page.page.wait_for_url(re.compile(r"kind=withdrawn"))
    assert "round=v1.1" in page.page.url
    feed = page.page.get_attribute("#feed", "href")
    assert feed is not None and feed.startswith("/changes/feed/?") and "kind=withdrawn" in feed
    assert page.page.locator("#changes tbody").inner_text().startswith("No change recorded")
    page.screenshot("history-changes")
    assert page.errors == []


def test_the_ids_page_takes_a_filter(page):
    page.goto("/ids/?q=5.1-")
    assert page.page.locator("#ids").count() == 1
    page.screenshot("history-ids")
    assert page.errors == []
