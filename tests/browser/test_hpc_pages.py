"""MLPerf HPC pages in Debian's chromium on the real subset tests/data/hpc; each test
saves screenshots at 1400 and 800 px (tests/screenshots/hpc-*.png)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "hpc"


@pytest.fixture(scope="module", autouse=True)
def hpc_ingested(server_url, django_db_blocker) -> None:
    """tests/data/hpc in the server's test database, before chromium starts (the ORM
    refuses calls while Playwright's event loop runs)."""
    from django.db import connection

    from ingest.hpc.service import mlperf_hpc_ingest

    with django_db_blocker.unblock():
        mlperf_hpc_ingest(location=str(DATA))
        connection.close()


def test_rounds_to_a_weak_board_to_its_result(page):
    page.goto("/hpc/")
    assert page.page.locator("#hpc-rounds tbody tr").count() == 7
    page.screenshot("hpc-rounds")
    page.page.click("#hpc-rounds a[href='/hpc/v2.0/oc20/weak/']")
    page.page.wait_for_url(re.compile(r"/hpc/v2\.0/oc20/weak/$"))
    # the first cell is the compare tick box
    cells = page.page.locator("#results tbody tr >> nth=0").locator("td").all_inner_texts()[1:]
    # submitter, system, division, models, accelerators per model, TTTa, throughput
    assert cells[:7] == [
        "HelmholtzAI",
        "horeka_gpu_n64_pytorch1.13",
        "closed",
        "7",
        "512",
        "95.49",
        "0.073",
    ]
    page.screenshot("hpc-board-weak")
    page.page.click("#results a >> nth=0")
    page.page.wait_for_url(re.compile(r"/results/hpc/v2\.0/HelmholtzAI/.*/weak/oc20/$"))
    assert page.page.inner_text("#score") == "0.073"
    assert "7 models × 512 accelerators each" in page.page.inner_text("#weak")
    page.screenshot("hpc-result-weak")
    assert page.errors == []


def test_a_strong_board(page):
    page.goto("/hpc/v3.0/openfold/strong/")
    # the first cell is the compare tick box
    cells = page.page.locator("#results tbody tr >> nth=0").locator("td").all_inner_texts()[1:]
    assert cells[3] == "263.52"  # the summarizer's 263.52031686921305 min
    page.screenshot("hpc-board-strong")
    assert page.errors == []
