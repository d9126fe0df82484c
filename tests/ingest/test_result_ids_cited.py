"""Result IDs vendor pages cite (``ingest.result_ids.result_ids_cite``), on a byte-for-byte
real subset of MLPerf Training v3.0 (tests/data/result_ids/v3.0-subset, README: source)
and NVIDIA's v3.0 table (../shared/vendor), which cites 3.0-2063 for the DGX H100 HugeCTR
DLRM-dcnv2 result (8 GPUs, 4.184 min) and 3.0-2064 for the DGX H100 PyTorch RetinaNet
result (8 GPUs, 37.009 min), both in the subset."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchdb.models import Claim, Result, ResultIdCitation
from ingest.claims.pages import claims_reverify, vendor_page_ingest
from ingest.result_ids import result_ids_import
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

SUBSET = Path(__file__).resolve().parents[1] / "data/result_ids/v3.0-subset"
NVIDIA = Path(settings.VENDOR_DATA) / "nvidia-training-performance-table-mlperf-v3.0.txt"
DLRM = "NVIDIA Merlin HugeCTR DLRM-dcnv2 4.184 0.80275 AUC 8x H100 DGX H100 {} Mixed Criteo 4TB"


def _result(system: str, bench: str) -> Result:
    return Result.objects.get(round__version="v3.0", system__folder=system, benchmark_folder=bench)


def _dlrm() -> Result:
    return _result("dgxh100_ngc23.04_merlin_hugectr", "dlrm_dcnv2")


def _retinanet() -> Result:
    return _result("dgxh100_ngc23.04_pytorch", "ssd")


def _ids(*results: Result) -> list[tuple[str, str]]:
    out = []
    for r in results:
        r.refresh_from_db()
        out.append((r.result_id, r.result_id_origin))
    return out


def _another_page(row: str) -> int:
    """A page in NVIDIA's table layout (the real page's first 13 lines) with one row."""
    head = NVIDIA.read_text(encoding="utf-8").splitlines()[:13]
    text = "\n".join([*head, row, ""])
    return vendor_page_ingest(data=text.encode(), path_or_url="another.txt").page_id


def _statuses() -> set[tuple[str, str, str]]:
    return {
        (c.page.file_name, c.cited_id, c.status)
        for c in ResultIdCitation.objects.select_related("page")
    }


@pytest.fixture
def cited() -> int:
    mlperf_training_ingest(location=str(SUBSET), round_version="v3.0", workers=1)
    return vendor_page_ingest(data=None, path_or_url=str(NVIDIA)).page_id


def test_each_cited_id_lands_on_the_result_the_page_names_and_its_system_row(cited, client):
    dlrm, retinanet = _dlrm(), _retinanet()
    # the page names them by benchmark, GPU count and time (3 decimals): these are they
    assert (dlrm.system.accelerators, round(dlrm.score_minutes, 3)) == (8, 4.184)
    assert (retinanet.system.accelerators, round(retinanet.score_minutes, 3)) == (8, 37.009)
    assert _ids(dlrm, retinanet) == [("3.0-2063", "vendor-cited"), ("3.0-2064", "vendor-cited")]
    assert _statuses() == {
        (NVIDIA.name, "3.0-2063", "stored"),
        (NVIDIA.name, "3.0-2064", "stored"),
    }
    # the 10 other IDs cite results not in the subset: their claims link none
    assert Claim.objects.filter(page_id=cited, verdict="consistent").count() == 2
    page = client.get(dlrm.get_absolute_url()).content.decode()
    assert '<dd id="result-id">3.0-2063 (vendor-cited)</dd>' in page
    assert "3.0-2063 by <a href=" in page


def test_reverifying_and_reingesting_write_nothing(cited):
    with CaptureQueriesContext(connection) as q:
        claims_reverify(page_id=cited)
        again = vendor_page_ingest(data=None, path_or_url=str(NVIDIA))
    writes = [x["sql"] for x in q.captured_queries if x["sql"].split()[0] in ("INSERT", "UPDATE")]
    assert (again.created, writes) == (False, [])
    assert ResultIdCitation.objects.count() == 2


def test_two_ids_for_one_row_are_a_conflict_shown_and_nothing_is_stored(cited, client):
    other = _another_page(DLRM.format("3.0-2099"))
    assert _ids(_dlrm(), _retinanet()) == [("", ""), ("3.0-2064", "vendor-cited")]
    assert _statuses() == {
        (NVIDIA.name, "3.0-2063", "ids-differ"),
        (NVIDIA.name, "3.0-2064", "stored"),
        ("another.txt", "3.0-2099", "ids-differ"),
    }
    claim = Claim.objects.get(page_id=other)
    page = client.get(claim.get_absolute_url()).content.decode()
    shown = '<li data-status="ids-differ">3.0-2099 for NVIDIA/dgxh100_ngc23.04_merlin_hugectr'
    assert shown in page and "is also cited as 3.0-2063" in page
    result_page = client.get(_dlrm().get_absolute_url()).content.decode()
    assert 'data-status="ids-differ"' in result_page


def test_one_id_for_two_rows_is_a_conflict_and_neither_row_keeps_it(cited):
    _another_page(DLRM.format("3.0-2064"))  # the PyTorch DGX H100 row's ID, for DLRM
    assert _ids(_dlrm(), _retinanet()) == [("", ""), ("", "")]
    assert _statuses() == {
        (NVIDIA.name, "3.0-2063", "ids-differ"),
        (NVIDIA.name, "3.0-2064", "rows-differ"),
        ("another.txt", "3.0-2064", "ids-differ"),
    }


def test_an_imported_id_wins_and_the_disagreement_is_recorded(cited, client):
    table = b"round,id,submitter,system\nv3.0,3.0-2000,NVIDIA,dgxh100_ngc23.04_merlin_hugectr\n"
    report = result_ids_import(data=table, path="ids.csv")
    assert len(report.conflicts) == 1 and "had 3.0-2063 (vendor-cited)" in report.conflicts[0]
    assert _ids(_dlrm(), _retinanet()) == [("3.0-2000", "imported"), ("3.0-2064", "vendor-cited")]
    c = ResultIdCitation.objects.get(cited_id="3.0-2063")
    assert (c.status, c.note) == ("imported-differs", "imported 3.0-2000 kept")
    claims_reverify(page_id=cited)  # the citation stays recorded; the import still wins
    assert _ids(_dlrm()) == [("3.0-2000", "imported")]
    page = client.get(_dlrm().get_absolute_url()).content.decode()
    assert "an imported ID differs (imported kept): imported 3.0-2000 kept" in page
