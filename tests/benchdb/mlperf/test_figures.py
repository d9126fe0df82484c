"""Plotly figure dicts (``benchdb.mlperf.figures``): valid for plotly, JSON without NaN,
submitters' text escaped for plotly's pseudo-HTML. No database."""

from __future__ import annotations

import json
import math

import pandas as pd
import plotly.graph_objects as go
import pytest

from benchdb.mlperf import figures


def _valid(fig: dict) -> dict:
    """plotly itself accepts the figure and it is strict JSON (no NaN)."""
    go.Figure(fig)  # raises ValueError on any property plotly does not know
    json.dumps(fig, allow_nan=False)
    return fig


BOARD = pd.DataFrame(
    [
        {
            "url": "/results/1/",
            "submitter": "Graphcore",
            "system": "ipu-pod16-TF1",
            "system_name": "IPU-POD16",
            "division": "closed",
            "accelerators": 16,
            "accelerator_model": "GC200",
            "framework": "TF",
            "score_minutes": 28.33,
        },
        {
            "url": "/results/2/",
            "submitter": "NVIDIA",
            "system": "dgxa100",
            "system_name": "",
            "division": "closed",
            "accelerators": 8,
            "accelerator_model": "A100",
            "framework": "MXNet",
            "score_minutes": 29.15,
        },
        {
            "url": "/results/3/",
            "submitter": "NVIDIA",
            "system": "n540",
            "system_name": "",
            "division": "open",
            "accelerators": 4320,
            "accelerator_model": "A100",
            "framework": "MXNet",
            "score_minutes": 0.347,
        },
        {
            "url": "/results/4/",
            "submitter": "Nobody",
            "system": "broken",
            "system_name": "",
            "division": "closed",
            "accelerators": None,
            "accelerator_model": "",
            "framework": "",
            "score_minutes": None,
        },
    ]
)


def test_label_escapes_plotly_pseudo_html_and_cuts_long_text():
    assert (
        figures.label("<script>x</script> & <b>")
        == "&lt;script&gt;x&lt;/script&gt; &amp; &lt;b&gt;"
    )
    long = figures.label("x" * 500)
    assert len(long) == figures.LABEL_MAX and long.endswith("…")
    assert figures.label(None) == figures.label(float("nan")) == ""


def test_leaderboard_scatter_draws_scored_results_log_log_with_equal_accelerator_minute_lines():
    fig = _valid(figures.leaderboard_scatter(BOARD))
    points = [t for t in fig["data"] if t["mode"] == "markers"]
    assert {t["name"] for t in points} == {"Graphcore", "NVIDIA"}  # Nobody has no score
    nvidia = next(t for t in points if t["name"] == "NVIDIA")
    assert nvidia["x"] == [8, 4320] and nvidia["y"] == [29.15, 0.347]
    assert nvidia["customdata"] == [["/results/2/"], ["/results/3/"]]
    assert nvidia["marker"]["symbol"] == ["circle", "circle-open"]  # open division hollow
    lines = [t for t in fig["data"] if t["mode"] == "lines"]
    products = sorted({round(t["x"][0] * t["y"][0], 6) for t in lines})
    for t in lines:
        assert all(
            math.isclose(x * y, t["x"][0] * t["y"][0]) for x, y in zip(t["x"], t["y"], strict=True)
        )
    # data span 226.6 .. 1499 accelerator-minutes: lines from 100 to 10,000 in 1-2-5 steps
    assert products[0] <= 8 * 29.15 and products[-1] >= 4320 * 0.347
    assert fig["layout"]["xaxis"]["type"] == fig["layout"]["yaxis"]["type"] == "log"
    lo, hi = fig["layout"]["xaxis"]["range"]
    assert 10**lo < 8 and 10**hi > 4320


def test_leaderboard_scatter_of_nothing_is_an_empty_valid_figure():
    assert _valid(figures.leaderboard_scatter(pd.DataFrame()))["data"] == []
    assert _valid(figures.leaderboard_scatter(BOARD.iloc[3:]))["data"] == []


def test_hover_text_carries_submitter_text_escaped():
    board = BOARD.copy()
    board.loc[0, "system_name"] = '<script>alert("x")</script>'
    fig = _valid(figures.leaderboard_scatter(board))
    text = json.dumps(fig)
    assert "<script>" not in text and "&lt;script&gt;alert" in text


def test_eval_curves_one_trace_per_run_and_the_target_line():
    frame = pd.DataFrame(
        [("result_0.txt", "counted", e, 0.5 + e / 100) for e in (1, 2, 3)]
        + [("result_1.txt", "failed", e, 0.4 + e / 100) for e in (1, 2)],
        columns=["run", "role", "at", "value"],
    )
    fig = _valid(figures.eval_curves(frame, unit="epochs", target=0.759))
    assert [t["name"] for t in fig["data"]] == ["result_0.txt (counted)", "result_1.txt (failed)"]
    assert fig["data"][0]["x"] == [1, 2, 3] and fig["data"][1]["line"]["dash"] == "dot"
    assert fig["layout"]["shapes"][0]["y0"] == fig["layout"]["shapes"][0]["y1"] == 0.759
    assert "shapes" not in _valid(figures.eval_curves(frame, unit="epochs", target=None))["layout"]


def test_software_timeline_orders_rounds_and_draws_one_line_per_size_and_framework():
    frame = pd.DataFrame(
        [
            {
                "url": "/results/1/",
                "round": "v2.0",
                "line": "Graphcore 16× PopART",
                "framework_family": "PopART",
                "score_minutes": 20.65,
                "system_name": "Bow Pod16",
                "system": "a",
                "framework": "PopART",
                "sdk": "Poplar SDK 2.5.1",
                "accelerators": 16,
                "progress": 1.67,
            },
            {
                "url": "/results/2/",
                "round": "v1.0",
                "line": "Graphcore 16× PopART",
                "framework_family": "PopART",
                "score_minutes": 34.49,
                "system_name": "IPU-POD16",
                "system": "b",
                "framework": "PopART",
                "sdk": "Poplar SDK 2.1.0",
                "accelerators": 16,
                "progress": 1.0,
            },
            {
                "url": "/results/3/",
                "round": "v2.0",
                "line": "Graphcore 16× PaddlePaddle",
                "framework_family": "PaddlePaddle",
                "score_minutes": 20.75,
                "system_name": "Bow-Pod16",
                "system": "c",
                "framework": "PaddlePaddle",
                "sdk": "POD-SW 2.5.1",
                "accelerators": 16,
                "progress": None,
            },
        ]
    )
    fig = _valid(figures.software_timeline(frame, ["v1.0", "v1.1", "v2.0"]))
    popart = next(t for t in fig["data"] if t["name"] == "Graphcore 16× PopART")
    assert popart["x"] == ["v1.0", "v2.0"] and popart["y"] == [34.49, 20.65]
    assert fig["layout"]["xaxis"]["categoryarray"] == ["v1.0", "v1.1", "v2.0"]
    assert len(fig["data"]) == 2
    paddle = next(t for t in fig["data"] if t["name"] == "Graphcore 16× PaddlePaddle")
    assert paddle["line"]["color"] == popart["line"]["color"]  # same size, same colour
    assert paddle["marker"]["symbol"] != popart["marker"]["symbol"]


def test_scaling_figures_draw_the_ideal_line_and_efficiency_one():
    frame = pd.DataFrame(
        {
            "url": ["/results/1/", "/results/2/"],
            "series": ["v1.1 TensorFlow"] * 2,
            "accelerators": [16, 64],
            "score_minutes": [28.0, 8.0],
            "ideal_minutes": [28.0, 7.0],
            "efficiency": [1.0, 0.875],
            "system_name": ["IPU-POD16", "IPU-POD64"],
            "system": ["a", "b"],
        }
    )
    time = _valid(figures.scaling_time(frame))
    ideal = next(t for t in time["data"] if t["name"].startswith("ideal"))
    assert ideal["y"] == [28.0, 7.0] and ideal["line"]["dash"] == "dash"
    eff = _valid(figures.scaling_efficiency(frame))
    assert eff["data"][0]["y"] == [1.0, 0.875]
    assert eff["layout"]["shapes"][0]["y0"] == 1 and eff["layout"]["yaxis"]["range"][0] == 0


def test_compare_bars_mark_the_baseline_and_speedups():
    frame = pd.DataFrame(
        {
            "url": ["/results/1/", "/results/2/"],
            "submitter": ["Graphcore", "NVIDIA"],
            "system_name": ["IPU-POD16", ""],
            "system": ["a", "dgx"],
            "round": ["v1.1"] * 2,
            "score_minutes": [28.33, 29.15],
            "speedup": [29.15 / 28.33, 1.0],
            "baseline": [False, True],
        }
    )
    fig = _valid(figures.compare_bars(frame))
    assert fig["data"][0]["text"] == ["×1.029", "baseline"]


def test_division_bars_pair_closed_and_open():
    frame = pd.DataFrame(
        {
            "round": ["v1.1"],
            "submitter": ["Graphcore"],
            "benchmark": ["bert"],
            "system_name": ["IPU-POD16"],
            "accelerators": [16],
            "closed_score_minutes": [32.7],
            "open_score_minutes": [26.05],
            "closed_url": ["/results/1/"],
            "open_url": ["/results/2/"],
        }
    )
    fig = _valid(figures.division_bars(frame))
    assert [(t["name"], t["y"]) for t in fig["data"]] == [("closed", [32.7]), ("open", [26.05])]
    assert _valid(figures.division_bars(frame.iloc[0:0]))["data"] == []


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_numbers_plotly_cannot_read_become_null(value):
    assert figures._clean({"a": [value, 1.0]}) == {"a": [None, 1.0]}
