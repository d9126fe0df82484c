"""Vendor tables (NVIDIA's whitespace tables, Intel's pipe tables) on the real pages and
on rows written here."""

from __future__ import annotations

import pytest

from ingest.claims.parsers.page_tables import MAX_ROW_CHARS, parse_vendor_tables
from ingest.claims.parsers.text import (
    extract_claims,
)

from .vendor_pages import NV_ROW, nv_page, page_claims


def test_nvidia_whitespace_tables_carry_blank_cells_down() -> None:
    text, _ = page_claims("nvidia-training-performance-table-mlperf-v3.0.txt")
    single, multi = parse_vendor_tables(text)
    assert single.style == multi.style == "whitespace"
    assert "Single Node, Closed Division" in single.caption
    assert len(single.rows) == 7 and len(multi.rows) == 5
    unet = single.rows[1]  # "3D U-Net 11.796 ..." under "MXNet ResNet-50 v1.5 ..."
    assert unet.values["framework"] == "MXNet" and unet.carried == (0,)
    assert unet.values["model"] == "3D U-Net" and unet.values["time_to_train"] == "11.796"
    dlrm = single.rows[6]
    assert (
        dlrm.values["framework"] == "NVIDIA Merlin HugeCTR"
        and dlrm.values["result_id"] == "3.0-2063"
    )
    row512 = multi.rows[1]  # "0.509 75.90% classification 512x H100 ..."
    assert row512.carried == (0, 1)
    assert (row512.values["framework"], row512.values["model"]) == ("MXNet", "ResNet-50 v1.5")
    assert row512.values["accelerators"] == "512x H100" and row512.values["result_id"] == "3.0-2068"
    assert multi.rows[3].values["accelerators"] == "3,584x H100"
    assert multi.rows[3].values["system"] == "coreweave_hgxh100_n448"


@pytest.mark.parametrize(
    "crafted",
    [
        "1 1x a "
        # time, gpus, word, again and again, no MLPerf-ID: the lazy groups of one
        # regex backtrack over every split
        * 14_300,
        "1 a 1x a 1.1-1 " * 7_000,  # every typed cell, repeated: could be read many ways
        "1 " * 50_000,
    ],
)
def test_a_100k_character_line_under_an_nvidia_header_is_no_row(crafted: str) -> None:
    """A line longer than MAX_ROW_CHARS ends the table, whatever it holds (a row is
    read in one pass over its words, so this returns at once); the real row above it
    is still read."""
    assert len(crafted) >= 100_000 > MAX_ROW_CHARS
    (table,) = parse_vendor_tables(nv_page(NV_ROW, crafted.strip(), NV_ROW))
    assert [r.values["result_id"] for r in table.rows] == ["3.0-2053"]
    assert parse_vendor_tables(nv_page(crafted.strip())) == []
    extract_claims(nv_page(crafted.strip()))


def test_an_nvidia_row_over_the_length_cap_is_not_read() -> None:
    """A well-formed row whose dataset cell runs past MAX_ROW_CHARS is no row."""
    long_row = NV_ROW.replace("ImageNet", "ImageNet" + " x" * MAX_ROW_CHARS)
    assert parse_vendor_tables(nv_page(long_row)) == []
    (table,) = parse_vendor_tables(nv_page(NV_ROW))
    assert table.rows[0].values["dataset"] == "ImageNet"


def test_an_nvidia_row_near_the_cap_is_read_word_by_word() -> None:
    """Crafted words before a real row's cells (times, counts with x, MLPerf-IDs) up
    to the cap: the earliest time, then count, then MLPerf-ID that leave a whole row."""
    filler = " ".join(["7 1x 2.2-22"] * 70)
    row = f"{filler} {NV_ROW}"
    assert len(row) <= MAX_ROW_CHARS
    (table,) = parse_vendor_tables(nv_page(row))
    v = table.rows[0].values
    assert v["time_to_train"] == "7" and v["accelerators"] == "1x 2.2-22"
    assert v["result_id"] == "2.2-22" and v["accelerator"] == "H100-SXM5-80GB"


def test_intel_pipe_tables_and_continuation_rows() -> None:
    text, _ = page_claims("intel-gaudi2-training-performance-table.txt")
    tables = parse_vendor_tables(text)
    assert [len(t.rows) for t in tables] == [5, 5, 5, 5, 24]
    mlperf = tables[1]
    assert "MLPerf* 3.1" in mlperf.caption and "officially submitted" in mlperf.caption
    assert mlperf.rows[0].values == {
        "model": "MLPerf 3.1 - GPT3",
        "accelerators": "384",
        "precision": "fp8",
        "time_to_train": "153.58 min†",
    }
    grouped = tables[2]  # version B: a group header above the real one
    assert grouped.columns[0] == "Model" and grouped.rows[0].values["throughput"] == "70523"
    gaudi3 = tables[4]  # "1 | fp8 | 128 | 2,048 | 217 | 6,763 | |" under "LLaMA 2 7b | 1 | ..."
    row = gaudi3.rows[1]
    assert row.carried == (0,)
    assert row.values["model"] == "LLaMA 2 7b" and row.values["throughput"] == "6,763"
    assert gaudi3.rows[-1].values == {
        "model": "Mistral 7b",
        "accelerators": "1",
        "precision": "fp8",
        "input_length": "2,048",
        "output_length": "2,048",
        "batch_size": "44",
        "throughput": "4,970",
    }


# --- claims on the real pages -----------------------------------------------------------
