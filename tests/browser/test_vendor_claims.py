"""The analyst's desk in Chromium (issue 13): a claim that explains its flags with the
guideline clauses they come from, the claims list with its facets, and the vendor pages
list with vendors and verdict counts. The vendor pages of ../shared/vendor are ingested
with the source URLs of its README (as ``manage.py ingest vendor FILE --url URL``).
Screenshots: tests/screenshots/vendor-*.png at 1400 and 800 px."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from benchdb.claims.explain import GUIDELINES_URL

pytestmark = pytest.mark.browser
VENDOR = Path(settings.VENDOR_DATA)


def _readme_urls() -> dict[str, str]:
    """file -> source URL, from ../shared/vendor/README.md's table."""
    out = {}
    for line in (VENDOR / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].endswith(".txt"):
            src = cells[1].split(" ")[0]
            out[cells[0]] = "https://" + src if "/" in src and "." in src.split("/")[0] else ""
    return out


@pytest.fixture(scope="module", autouse=True)
def _vendor_pages(server_url, django_db_blocker) -> None:  # type: ignore[no-untyped-def]
    """The vendor pages ingested before Chromium starts (an autouse fixture comes
    first; no ORM while Playwright runs); idempotent (the same bytes are one page)."""
    from django.db import connection

    from ingest.claims.pages import vendor_page_ingest

    with django_db_blocker.unblock():
        for name, url in sorted(_readme_urls().items()):
            vendor_page_ingest(data=None, path_or_url=str(VENDOR / name), url=url)
        connection.close()


def test_the_28_3_vs_29_1_claim_explains_each_flag_with_its_clause(page):  # type: ignore[no-untyped-def]
    """Graphcore's v1.1 post: "28.3 minutes on the IPU-POD16, compared to 29.1 minutes
    for DGX A100". Its flags, by hand: the page cites no result ID (§3.2 Required
    Footnote), names no round in the sentence (§3.1, round from the page's date
    2021-12-01: v1.1), and the systems differ in chip count (§5): IPU-POD16 has 16
    accelerators, dgxa100_ngc21.09_mxnet 8 (``accelerators_per_node`` of their
    systems JSON in training_results_v1.1)."""
    page.goto("/vendor/claims/?vendor=Graphcore&kind=head_to_head&round=v1.1")
    row = page.page.locator("#claims tbody tr", has_text="Training ResNet-50 takes 28.3 minutes")
    assert row.count() == 1
    assert row.locator("td.claimed").inner_text().strip() == "28.3 min vs 29.1 min"
    row.locator("td.sys a").first.click()
    page.page.wait_for_load_state("networkidle")
    assert re.search(r"/vendor/claims/\d+/$", page.page.url)
    assert "IPU-POD16 vs DGX A100" in page.page.locator("h1").inner_text()
    assert page.page.locator("#claimed").inner_text().strip() == "28.3 min vs 29.1 min"
    flags = page.page.locator("#explanations li.flag")
    codes = [flags.nth(i).get_attribute("data-flag") for i in range(flags.count())]
    assert sorted(codes) == ["different-accelerator-counts", "no-result-id", "round-from-date"]
    clauses = {
        "different-accelerator-counts": "§5 When comparing MLPerf results",
        "no-result-id": "§3.2 Required Footnote",
        "round-from-date": "§3.1 Required Information",
    }
    for i, code in enumerate(codes):
        li = flags.nth(i)
        text = li.inner_text()
        assert clauses[code] in text and len(text.split()) > 12  # a sentence, not a code
        assert li.locator("a").get_attribute("href").startswith(GUIDELINES_URL + "#")
    chips = page.page.locator("li[data-flag='different-accelerator-counts']").inner_text()
    assert "16 accelerators" in chips and "8 accelerators" in chips
    verdict = page.page.locator("#verdict-note").inner_text()
    assert "consistent" in verdict and "§10" in verdict
    links = page.page.locator("#links tbody a[href*='/results/training/v1.1/']")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert any("/Graphcore/ipu-pod16-TF1/resnet/" in h for h in hrefs)
    assert any("/NVIDIA/dgxa100_ngc21.09_mxnet/resnet/" in h for h in hrefs)
    page.screenshot("vendor-claim-28.3-vs-29.1")
    assert page.errors == []


def test_the_claims_list_has_facets_and_hides_hardware_figures(page):  # type: ignore[no-untyped-def]
    page.goto("/vendor/claims/")
    toggle = page.page.locator("#hardware-toggle").inner_text()
    # 11 hardware figures in the pages: 4 TB, 3 GHz, 2 TFLOPS, 1 nm, 1 MB (the
    # IPU-M2000 briefing and the Azure post); none of their units is in the table
    hidden = int(re.match(r"(\d+) hardware figure", toggle).group(1))
    assert hidden >= 5
    units = page.page.locator("#claims td.claimed").all_inner_texts()
    assert not any(re.search(r"\d (nm|MB|GHz)$", u) for u in units)
    for facet in ("vendor", "vendor_page", "round", "benchmark", "verdict", "kind"):
        assert page.page.locator(f".facet[data-facet='{facet}'] li").count() >= 1
    page.screenshot("vendor-claims")
    page.page.locator(".facet[data-facet='vendor'] a", has_text="Graphcore").first.click()
    page.page.wait_for_load_state("networkidle")
    assert "vendor=Graphcore" in page.page.url
    vendors = page.page.locator("#claims tbody td.sys strong").all_inner_texts()
    assert vendors and set(vendors) == {"Graphcore"}
    page.page.locator(".facet[data-facet='verdict'] a", has_text="Consistent").first.click()
    page.page.wait_for_load_state("networkidle")
    verdicts = page.page.locator("#claims tbody span.verdict").all_inner_texts()
    assert verdicts and set(verdicts) == {"consistent"}
    page.screenshot("vendor-claims-facets")
    page.goto("/vendor/claims/?hardware=on&kind=spec")
    units = page.page.locator("#claims td.claimed").all_inner_texts()
    assert len(units) == hidden and any(u.endswith(" nm") for u in units)
    assert page.errors == []


def test_the_vendor_pages_list_has_vendors_and_verdict_counts(page):  # type: ignore[no-untyped-def]
    """Vendors by hand from the README's sources; the verdict counts of a page agree
    with its claims listed under that verdict."""
    page.goto("/vendor/")
    rows = page.page.locator("#pages tbody tr")
    assert rows.count() == len(_readme_urls())
    by_title = {}
    for i in range(rows.count()):
        r = rows.nth(i)
        by_title[r.locator("td.sys a").inner_text()] = (
            r.locator("td.vendor").inner_text().strip(),
            r.locator("td.verdicts").inner_text(),
            r.locator("td.sys a").get_attribute("href"),
        )
    gc = by_title["Performance at Scale: Graphcore’s Latest MLPerf Training Results"]
    assert gc[0] == "Graphcore"
    assert by_title["NVIDIA Performance on MLPerf 3.0 Training Benchmarks"][0] == "NVIDIA"
    assert by_title["Model Performance Data for Intel® Gaudi® 2 AI Accelerators"][0] == "Intel"
    # every page's numbers not treated as claims are counted (the shared pages hold some)
    not_claims = page.page.locator("#pages tbody td.not-claims").all_inner_texts()
    assert len(not_claims) == rows.count() and all(int(n) > 0 for n in not_claims)
    page.screenshot("vendor-pages")
    pk = re.search(r"/pages/(\d+)/", gc[2]).group(1)
    for n, verdict in re.findall(r"(\d+) (consistent|ambiguous)", gc[1]):
        page.goto(f"/vendor/claims/?vendor_page={pk}&verdict={verdict}&hardware=on")
        assert page.page.locator("#claims tbody tr[id^='claim-']").count() == int(n)
    assert page.errors == []


def _section_screenshot(page, selector: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """Screenshots of one section at 1400 and 800 px (``<name>.png``, ``<name>-800.png``)."""
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width, suffix in ((1400, ""), (800, "-800")):
        page.page.set_viewport_size({"width": width, "height": 1000})
        page.page.wait_for_timeout(300)
        # nothing of the section runs off the page at this width
        assert page.page.evaluate("document.documentElement.scrollWidth") <= width
        page.page.locator(selector).screenshot(path=str(SCREENSHOTS / f"{name}{suffix}.png"))
    page.page.set_viewport_size({"width": 1400, "height": 1000})
    page.saved = True


def test_the_vendor_page_lists_its_numbers_not_treated_as_claims(page):  # type: ignore[no-untyped-def]
    """Graphcore's v1.1 post, read by hand: 35 numbers, 10 in claims, 25 not: its
    three date numbers ("November 2021", "Dec 01, 2021") and 22 digits of names
    (IPU-POD16, A100, ResNet-50...)."""
    page.goto("/vendor/")
    title = "Performance at Scale: Graphcore’s Latest MLPerf Training Results"
    row = page.page.locator("#pages tbody tr", has_text=title)
    row.locator("td.sys a").first.click()
    page.page.wait_for_load_state("networkidle")
    assert page.page.locator("#numbers-in-claims").inner_text() == "10"
    assert page.page.locator("#numbers-not-claims").inner_text() == "25"
    reasons = page.page.locator("#number-reasons tbody tr")
    counts = [
        (
            reasons.nth(i).get_attribute("data-reason"),
            reasons.nth(i).locator("td.count").inner_text(),
        )
        for i in range(reasons.count())
    ]
    assert counts == [("name", "22"), ("date", "3")]
    dates = page.page.locator("#numbers-date td.context").all_inner_texts()
    assert dates[0] == "Graphcore MLPerf Performance November 2021"
    assert all("Dec 01, 2021" in d for d in dates[1:]) and len(dates) == 3
    page.page.locator("#number-reasons a", has_text="date").click()
    assert page.page.url.endswith("#numbers-date")
    _section_screenshot(page, "#numbers", "vendor-page-numbers")
    assert page.errors == []


def test_the_claims_list_by_family(page):  # type: ignore[no-untyped-def]
    """The pages list's families of a page are the rows of the claims list, one per
    family; each row's family links to its row on the families page."""
    page.goto("/vendor/")
    title = "Performance at Scale: Graphcore’s Latest MLPerf Training Results"
    cell = page.page.locator("#pages tbody tr", has_text=title).locator("td.families a")
    n = int(cell.inner_text())
    cell.click()
    page.page.wait_for_load_state("networkidle")
    assert "families=on" in page.page.url
    assert page.page.locator("#claims tbody tr[id^='claim-']").count() == n
    assert "One row per claim family" in page.page.locator("#families-toggle").inner_text()
    page.screenshot("vendor-claims-by-family")
    link = page.page.locator("#claims td.family a[data-family]").first
    number = link.get_attribute("data-family")
    link.click()
    page.page.wait_for_load_state("networkidle")
    assert page.page.url.endswith(f"/vendor/families/#family-{number}")
    assert page.page.locator(f"#family-{number}").count() == 1
    assert page.errors == []
