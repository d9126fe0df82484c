"""MLPerf Automotive's pages (``benchdb/mlperf/automotive``), mounted from the registry:
the rounds, a round's results with the published IDs and values, its CSV; the
Inference pages do not show the Automotive round; the home page lists the suite."""

from __future__ import annotations

import pytest
from django.test import Client

from benchdb.mlperf.inference.selectors import inference_result_rows, inference_rounds
from benchdb.models import InferenceResult
from ingest.automotive.service import mlperf_automotive_ingest
from tests.automotive_data import FOLDERS, ROOT, published

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored() -> None:
    mlperf_automotive_ingest(location=str(ROOT))


def test_the_round_page_lists_each_result_with_its_published_id_and_value(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    page = c.get("/automotive/").content.decode()
    assert 'href="/automotive/v0.5/"' in page
    page = c.get("/automotive/v0.5/").content.decode()
    rows = published()
    for location in FOLDERS:
        assert f"<td>{rows[location]['ID']}</td>" in page
        assert f'<td class="num">{rows[location]["Performance_Result"]}</td>' in page
    csv = c.get("/automotive/v0.5/?format=csv").content.decode()
    assert csv.count("\n") == 5  # header and 4 results


def test_inference_pages_do_not_show_automotive_results(stored) -> None:  # type: ignore[no-untyped-def]
    """The two suites share InferenceResult (and a round version, v0.5): Inference's reads
    leave the Automotive round out; the home page lists it under its own suite."""
    assert not {r["location"] for r in inference_result_rows()} & set(FOLDERS)
    counted = sum(r["results"] for r in inference_rounds())
    assert counted == InferenceResult.objects.filter(round__suite="inference").count()
    c = Client()
    home = c.get("/").content.decode()
    assert "MLPerf Automotive" in home and 'href="/automotive/v0.5/"' in home
