"""MLPerf Training result IDs (``benchdb.mlperf.training.result_ids``) against the v3.0
summarizer's own output (tests/data/result_ids, README: source) and the IDs NVIDIA's v3.0
table cites (../shared/vendor)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from benchdb.mlperf.training import result_ids as rid

ROOT = Path(__file__).resolve().parents[4]
SUMMARY = ROOT / "tests/data/result_ids/training_v3.0_summary_3.0.0-rc2.csv"
NVIDIA_V30 = ROOT.parent / "shared/vendor/nvidia-training-performance-table-mlperf-v3.0.txt"
sys.path.insert(0, str(ROOT / "bench"))

from result_ids_vs_cited import cited, named_row, read_rows  # noqa: E402


def test_summary_order_is_the_summarizers_order_of_all_91_v30_rows():
    _benches, rows = read_rows(str(SUMMARY))
    assert len(rows) == 91
    shuffled = rows[:]
    random.Random(7).shuffle(shuffled)
    assert shuffled != rows
    assert rid.summary_order(shuffled) == rows


def test_missing_scores_sort_last_and_break_ties():
    base = dict(
        division="closed",
        availability="onprem",
        submitter="S",
        system="x",
        host_processor_model_name="h",
        host_processors_count=2,
        accelerator_model_name="a",
        accelerators_count=8,
        framework="f",
        notes="",
        details_url="u",
        code_url="c",
    )
    a = rid.SummaryRow(**base, scores=(None, 1.0), key=("a",))  # type: ignore[arg-type]
    b = rid.SummaryRow(**base, scores=(3.0, None), key=("b",))  # type: ignore[arg-type]
    c = rid.SummaryRow(**base, scores=(2.0, 9.0), key=("c",))  # type: ignore[arg-type]
    assert [r.key for r in rid.summary_order([a, b, c])] == [("c",), ("b",), ("a",)]


@pytest.mark.parametrize(
    ("status", "tag", "section"),
    [
        ("onprem", "3.0.0-rc2", rid.ON_PREMISE),
        ("available", "3.1.0-rc3", rid.ON_PREMISE),
        ("preview", "3.0.0-rc2", rid.RDI),  # 3.x xlsx_config.yaml
        ("Available on premise", "3.1.0-rc3", None),  # v3.1 spelling no 3.x map has
        ("Available Cloud", "3.1.0-rc3", None),  # looked up exactly before 4.0
        ("Available Cloud", "4.0.0-rc3-rcp-prunning", rid.CLOUD),  # then lower-cased
        ("Preview", "4.1.0-rc4", rid.PREVIEW),
        ("Research, Development, or Internal (RDI)", "5.1.0-rc4", rid.RDI),
        ("on-prem", "5.1.0-rc4", None),  # the summarizer raises ValueError
    ],
)
def test_summarizer_availability_per_tag(status, tag, section):
    assert rid.summarizer_availability(status, tag) == section


def test_workbook_numbers_rows_by_section_from_zero():
    _benches, rows = read_rows(str(SUMMARY))
    ids = rid.workbook_ids(rows, "3.0.0-rc2")
    # every closed row has a section at 3.0 (preview -> RDI); the open Intel row is last
    assert len(ids) == 91
    assert ids[("Intel", "16-nodes-SPR-pytorch-open")] == "3.0-0090"
    # on-premise first: rows 0-22 then 28-84 of the CSV (80 rows), then the 5 cloud rows
    assert ids[("Dell", "XE9680x8H100-SXM-80GB")] == "3.0-0049"
    assert ids[("NVIDIA+CoreWeave", "coreweave_hgxh100_n192_ngc23.04_pytorch")] == "3.0-0080"
    with pytest.raises(ValueError):
        rid.workbook_ids(rows, "2.1.0")


def test_no_round_has_an_established_rule_so_nothing_is_derived():
    _benches, rows = read_rows(str(SUMMARY))
    assert rid.PUBLISHED_RULES == {}
    assert rid.published_ids(rows, "v3.0", "3.0.0-rc2") == {}


def test_the_cited_v30_ids_are_off_by_one_from_cloud_first_numbering(monkeypatch):
    """Why v3.0 has no rule: of the 10 IDs NVIDIA cites (12 citations), the cloud one fits
    "cloud, on-premise, RDI from 3.0-2000" and every on-premise one is one less (1999 +
    its index in the summarizer's order), so one row numbered before Dell's XE9680x8H100
    has no number of its own in the published table and the cited IDs cannot tell which."""
    benches, rows = read_rows(str(SUMMARY))
    monkeypatch.setitem(
        rid.PUBLISHED_RULES, "v3.0", rid.PublishedRule((rid.CLOUD, rid.ON_PREMISE, rid.RDI), 2000)
    )
    candidate = rid.published_ids(rows, "v3.0", "3.0.0-rc2")
    found = cited([str(NVIDIA_V30)], "v3.0")
    assert len(found) == 12 and len({v["result_id"] for v in found}) == 10
    off = {}
    for v in found:
        row = named_row(v, benches, rows, "v3.0")
        assert row is not None, v
        off[v["result_id"]] = int(v["result_id"][-4:]) - int(candidate[row.key][-4:])
    assert off.pop("3.0-2002") == 0  # NVIDIA+CoreWeave coreweave_hgxh100_n448 mxnet
    assert set(off.values()) == {-1}
    index = {r.key: i for i, r in enumerate(rows)}
    for v in found:
        if v["result_id"] != "3.0-2002":
            row = named_row(v, benches, rows, "v3.0")
            assert int(v["result_id"][-4:]) == 1999 + index[row.key]
