"""Plotly figure dicts (``benchdb.mlperf.training.figures``): valid for plotly, JSON without NaN,
submitters' text escaped for plotly's pseudo-HTML. No database."""

from __future__ import annotations

import json
import math

import pandas as pd
import plotly.graph_objects as go
import pytest

from benchdb.mlperf.training import figures, plotting


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
        plotting.label("<script>x</script> & <b>")
        == "&lt;script&gt;x&lt;/script&gt; &amp; &lt;b&gt;"
    )
    long = plotting.label("x" * 500)
    assert len(long) == plotting.LABEL_MAX and long.endswith("…")
    assert plotting.label(None) == plotting.label(float("nan")) == ""


def test_leaderboard_scatter_draws_scored_results_log_log_with_equal_accelerator_minute_lines():
    fig = _valid(figures.leaderboard_scatter(BOARD))
    points = [t for t in fig["data"] if t["mode"] == "markers"]
    # one trace per submitter x accelerator model; Nobody has no score
    assert {t["name"] for t in points} == {"Graphcore · GC200", "NVIDIA · A100"}
    nvidia = next(t for t in points if t["name"] == "NVIDIA · A100")
    assert nvidia["x"] == [8, 4320] and nvidia["y"] == [29.15, 0.347]  # apart: no dodge
    assert nvidia["customdata"] == [["/results/2/"], ["/results/3/"]]
    # models in sorted order: A100 a circle, GC200 a square; open division hollow
    assert nvidia["marker"]["symbol"] == ["circle", "circle-open"]
    assert points[0]["marker"]["symbol"] == ["square"]
    # x: 8 .. 4320 widened by 1.4 -> 5.7 .. 6048: every third power of two is labelled
    assert fig["layout"]["xaxis"]["ticktext"] == ["8", "64", "512", "4,096"]
    # y: 0.347 .. 29.15 widened by 1.5 -> 0.23 .. 43.7: the decades 1 and 10 only two,
    # so 1-2-5 steps, each written in full
    assert fig["layout"]["yaxis"]["ticktext"] == ["0.5", "1", "2", "5", "10", "20"]
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


def _software(url, rnd, line, model, family, minutes, size=16):
    return {
        "url": url,
        "round": rnd,
        "line": line,
        "accelerator_model": model,
        "framework_family": family,
        "score_minutes": minutes,
        "system_name": "s",
        "system": "s",
        "framework": family,
        "sdk": "",
        "accelerators": size,
        "progress": None,
    }


def test_software_timeline_keeps_hardware_generations_and_frameworks_on_separate_lines():
    frame = pd.DataFrame(
        [
            _software("/r/1/", "v2.0", "G Bow 16× PopART", "Bow", "PopART", 20.65),
            _software("/r/2/", "v1.0", "G GC200 16× PopART", "GC200", "PopART", 34.49),
            _software("/r/3/", "v1.1", "G GC200 16× PopART", "GC200", "PopART", 32.70),
            _software("/r/4/", "v2.0", "G Bow 16× PaddlePaddle", "Bow", "PaddlePaddle", 20.75),
        ]
    )
    fig = _valid(figures.software_timeline(frame, ["v1.0", "v1.1", "v2.0"]))
    by_name = {t["name"]: t for t in fig["data"]}
    assert set(by_name) == {"G Bow 16× PopART", "G GC200 16× PopART", "G Bow 16× PaddlePaddle"}
    gc200 = by_name["G GC200 16× PopART"]
    assert gc200["x"] == [0, 1] and gc200["y"] == [34.49, 32.70]  # v1.0, v1.1 only
    assert fig["layout"]["xaxis"]["ticktext"] == ["v1.0", "v1.1", "v2.0"]
    popart, paddle = by_name["G Bow 16× PopART"], by_name["G Bow 16× PaddlePaddle"]
    # 20.65 and 20.75 min in v2.0 would overlap: spread 0.035 round either side of x = 2
    assert sorted(popart["x"] + paddle["x"]) == [pytest.approx(1.965), pytest.approx(2.035)]
    assert popart["line"]["color"] == paddle["line"]["color"]  # same size, same colour
    assert popart["marker"]["symbol"] != gc200["marker"]["symbol"]  # another model
    assert popart["line"]["dash"] != paddle["line"]["dash"]  # another framework


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
    assert plotting.clean({"a": [value, 1.0]}) == {"a": [None, 1.0]}
