"""Axes, markers and dodge shared by every chart (``benchdb.mlperf.chart_marks``). No
database: expected ticks are worked out by hand in each comment."""

from __future__ import annotations

import math

import pytest

from benchdb.mlperf import chart_marks as marks


@pytest.mark.parametrize(
    ("values", "texts"),
    [
        # 0.347 .. 4.53 min / x 1.5 -> 0.231 .. 6.8: decades 1 only -> 1-2-5 steps
        ([0.347, 4.53], ["0.5", "1", "2", "5"]),
        # 0.347 .. 38.87 (v1.1 ResNet-50) -> 0.231 .. 58.3: 1, 10 -> 1-2-5 steps
        ([0.347, 38.87], ["0.5", "1", "2", "5", "10", "20", "50"]),
        # 0.05 .. 900 -> 0.033 .. 1350: 0.1, 1, 10, 100, 1000: decades only
        ([0.05, 900], ["0.1", "1", "10", "100", "1,000"]),
    ],
)
def test_log_axis_labels_decades_or_full_one_two_five_steps(values, texts):
    axis = marks.log_axis(values)
    assert axis["ticktext"] == texts
    assert [float(t.replace(",", "")) for t in texts] == axis["tickvals"]
    lo, hi = axis["range"]
    assert math.isclose(10**lo, min(values) / 1.5) and math.isclose(10**hi, max(values) * 1.5)


@pytest.mark.parametrize(
    ("counts", "texts"),
    [
        # 16 .. 256 / x 1.4 -> 11.4 .. 358: 16, 32, 64, 128, 256 (five powers of two)
        ([16, 64, 128, 256], ["16", "32", "64", "128", "256"]),
        # 8 .. 4320 -> 5.7 .. 6048: eleven powers of two (8 .. 4096): every third
        ([8, 16, 64, 4320], ["8", "64", "512", "4,096"]),
    ],
)
def test_accelerator_axis_labels_powers_of_two_or_of_eight(counts, texts):
    assert marks.accelerator_axis(counts)["ticktext"] == texts


def test_dodge_spreads_only_points_that_would_overlap():
    # v1.1 ResNet-50 at 8 accelerators: Baidu 28.60 and 28.61, NVIDIA 29.15 (within
    # 0.008 decades: one cluster), Dell 38.87 (0.125 decades above: alone); GC200 at 16.
    xs = [8, 8, 8, 8, 16]
    ys = [29.15, 28.60, 28.61, 38.87, 28.33]
    assert marks.dodge(xs, ys) == [1.0, -1.0, 0.0, 0.0, 0.0]
    assert marks.dodge([64, 64], [6.70, 6.77]) == [-0.5, 0.5]
    assert marks.dodge([], []) == []


def test_symbols_follow_the_sorted_models_and_open_is_hollow():
    symbols = marks.symbol_map(["GC200", "A100", "GC200"])
    assert symbols == {"A100": "circle", "GC200": "square"}
    assert marks.symbol("square", "open") == "square-open"
    assert marks.symbol("square", "closed") == "square"


def test_a_score_on_hover_is_written_for_people():
    assert marks.minutes_text(28.334533333333336) == "28.33 min"
    assert marks.minutes_text(1234.5) == "1,234.50 min"
