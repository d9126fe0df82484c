"""Charts people can read (issue 13), in Chromium on ../shared/mlperf: the tick labels each
log axis prints (read from the SVG), one marker per result and none on top of another at
1400 and 800 px, what a hover names, and the software and scaling pages' default views.
Screenshots: tests/screenshots/chart-*.png (1400 px) and chart-*-800.png."""

from __future__ import annotations

import math
import re

import pytest

pytestmark = pytest.mark.browser

# Centre and size of every result marker of a chart, in CSS pixels.
_MARKERS = """el => [...el.querySelectorAll('.scatterlayer .trace .points path.point')].map(p => {
  const b = p.getBoundingClientRect();
  return {x: b.x + b.width / 2, y: b.y + b.height / 2, w: b.width, h: b.height};
})"""


def _drawn(page, count: int = 1) -> None:  # type: ignore[no-untyped-def]
    page.page.wait_for_selector("[data-drawn='1'] .plotly svg", timeout=15_000)
    assert page.page.locator("[data-drawn='1']").count() == count


def _ticks(page, chart: str, axis: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The labels plotly printed on ``axis`` ("x" or "y") of the chart ``#chart``."""
    return page.page.eval_on_selector(
        f"#{chart}",
        f"el => [...el.querySelectorAll('.{axis}axislayer-above .{axis}tick text')]"
        ".map(t => t.textContent)",
    )


def _legend(page, chart: str) -> list[str]:  # type: ignore[no-untyped-def]
    return page.page.eval_on_selector(
        f"#{chart}",
        "el => [...el.querySelectorAll('.legend .traces text')].map(t => t.textContent)",
    )


def _markers(page, chart: str) -> list[dict[str, float]]:  # type: ignore[no-untyped-def]
    return page.page.eval_on_selector(f"#{chart}", _MARKERS)


def _apart(markers: list[dict[str, float]]) -> float:
    """The smallest distance between two marker centres (px)."""
    return min(
        (math.dist((a["x"], a["y"]), (b["x"], b["y"])) for i, a in enumerate(markers)
         for b in markers[i + 1 :]),
        default=math.inf,
    )  # fmt: skip


def _at_both_widths(page, chart: str, count: int) -> list[float]:  # type: ignore[no-untyped-def]
    """At 1400 and 800 px: ``count`` markers, no two closer than 7 px (11 px markers: at
    7 px apart most of each shows). Returns the smallest distances."""
    out = []
    for width in (1400, 800):
        page.page.set_viewport_size({"width": width, "height": 1000})
        page.page.wait_for_timeout(600)  # the chart follows its width
        markers = _markers(page, chart)
        assert len(markers) == count, width
        assert _apart(markers) >= 7, (width, _apart(markers))
        box = page.page.locator(f"#{chart}").bounding_box()
        svg = page.page.locator(f"#{chart} svg.main-svg").first.bounding_box()
        assert box and svg and svg["x"] + svg["width"] <= box["x"] + box["width"] + 1, width
        out.append(_apart(markers))
    page.page.set_viewport_size({"width": 1400, "height": 1000})
    page.page.wait_for_timeout(600)
    return out


def _hover(page, chart: str, index: int) -> str:  # type: ignore[no-untyped-def]
    """The hover text of marker ``index`` of ``#chart``."""
    m = _markers(page, chart)[index]
    page.page.mouse.move(m["x"], m["y"])
    page.page.wait_for_selector(f"#{chart} .hoverlayer .hovertext", timeout=5_000)
    return page.page.eval_on_selector(
        f"#{chart} .hoverlayer .hovertext",
        "g => [...g.querySelectorAll('text tspan.line')].map(t => t.textContent).join('\\n')"
        " || g.textContent",
    )


def test_v11_resnet_leaderboard_shows_baidus_two_points_apart_from_nvidias(page):
    page.goto("/leaderboard/v1.1/resnet/")
    _drawn(page)
    # 11 closed results (official_scores.csv, v1.1 resnet); 8 .. 4320 accelerators and
    # 0.347 .. 38.87 min: powers of eight, and 1-2-5 steps written in full
    assert _ticks(page, "leaderboard-chart", "x") == ["8", "64", "512", "4,096"]
    assert _ticks(page, "leaderboard-chart", "y") == ["0.5", "1", "2", "5", "10", "20", "50"]
    print(
        "v1.1 resnet: smallest gaps (px) at 1400, 800:",
        _at_both_widths(page, "leaderboard-chart", 11),
    )
    # At 8 accelerators Baidu's 28.60 and 28.61 min and NVIDIA's 29.15 min: three
    # markers side by side, Baidu's (blue) left of NVIDIA's
    markers = _markers(page, "leaderboard-chart")
    row = sorted((m for m in markers if abs(m["y"] - markers[0]["y"]) < 40), key=lambda m: m["x"])
    assert len(row) >= 3
    legend = _legend(page, "leaderboard-chart")
    assert "Baidu · NVIDIA A100-SXM4-80GB (400W)" in legend
    baidu = page.page.eval_on_selector(
        "#leaderboard-chart",
        "el => el.data.findIndex(t => t.name.startsWith('Baidu'))",
    )
    trace = page.page.eval_on_selector("#leaderboard-chart", f"el => el.data[{baidu}].x.length")
    assert trace == 2
    # the hover names submitter, system, accelerators, framework and the score for people
    index = page.page.eval_on_selector(
        "#leaderboard-chart",
        """el => { let n = 0; for (const t of el.data) { if (t.mode !== 'markers') continue;
          if (t.name.startsWith('Baidu')) return n; n += t.x.length; } }""",
    )
    text = _hover(page, "leaderboard-chart", index)
    assert "Baidu" in text and "1_node_8_A100_NGC21.05_MXNet" in text
    assert "8 × NVIDIA A100-SXM4-80GB (400W)" in text and "MXNet NVIDIA Release 21.05" in text
    assert "28.60 min" in text and "28.6046" not in text  # 2 decimals (CSV/JSON: in full)
    # a table row shows its marker: hovering Baidu's PaddlePaddle row labels that point
    page.page.mouse.move(0, 0)
    page.page.locator(
        "#results tbody tr", has=page.page.locator("a:text-is('1_node_8_A100_PaddlePaddle')")
    ).hover()
    page.page.wait_for_selector("#leaderboard-chart .hoverlayer .hovertext", timeout=5_000)
    text = page.page.eval_on_selector("#leaderboard-chart .hoverlayer", "g => g.textContent")
    assert "1_node_8_A100_PaddlePaddle" in text and "28.61 min" in text
    label = page.page.get_attribute("#leaderboard-chart", "aria-label")
    assert label.startswith("Time to train against accelerators") and label.endswith("11 points")
    page.page.mouse.move(0, 0)
    page.screenshot("chart-leaderboard-v1.1-resnet")
    assert page.errors == []


def test_v20_bert_leaderboard_draws_ten_results_as_ten_markers(page):
    page.goto("/leaderboard/v2.0/bert/")
    _drawn(page)
    # 10 closed results; three at 16 (20.65, 20.75, 20.81 min) and three at 64
    # (6.70, 6.74, 6.77 min) within 0.01 decades: each trio spread side by side
    assert page.page.locator("#results tbody tr").count() == 10
    print(
        "v2.0 bert: smallest gaps (px) at 1400, 800:",
        _at_both_widths(page, "leaderboard-chart", 10),
    )
    assert _ticks(page, "leaderboard-chart", "x") == ["8", "16", "32", "64", "128", "256"]
    assert _ticks(page, "leaderboard-chart", "y") == ["5", "10", "20"]  # 2.1 .. 31 min
    legend = _legend(page, "leaderboard-chart")
    # Baidu on IPUs and Baidu on A100s: same colour, another symbol, another legend entry
    assert {"Baidu · Graphcore Bow IPU", "Baidu · NVIDIA A100-SXM4-80GB"} <= set(legend)
    symbols = page.page.eval_on_selector(
        "#leaderboard-chart",
        "el => el.data.filter(t => t.name.startsWith('Baidu'))"
        ".map(t => [t.marker.color, t.marker.symbol[0]])",
    )
    assert len(symbols) == 2 and symbols[0][0] == symbols[1][0] and symbols[0][1] != symbols[1][1]
    page.screenshot("chart-leaderboard-v2.0-bert")
    assert page.errors == []


def test_software_timeline_draws_gc200_and_bow_ipu_on_separate_lines(page):
    page.goto(
        "/software/?benchmark=bert&accelerator=Graphcore+IPU+GC200"
        "&accelerator=Graphcore+Bow+IPU&submitter=Graphcore"
    )
    _drawn(page)
    lines = page.page.eval_on_selector(
        "#software-chart", "el => el.data.map(t => [t.name, t.x.map(Math.round)])"
    )
    rounds = _ticks(page, "software-chart", "x")
    assert rounds == ["v1.0", "v1.1", "v2.0"]
    by_name = {name: [rounds[x] for x in xs] for name, xs in lines}
    # IPU-POD16 and IPU-POD64 (GC200) in v1.0 and v1.1; Bow Pod16/64 (Bow IPU) in v2.0
    for size in ("16", "64"):
        assert by_name[f"Graphcore Graphcore IPU GC200 {size}× PopART"] == ["v1.0", "v1.1"]
        assert by_name[f"Graphcore Graphcore Bow IPU {size}× PopART"] == ["v2.0"]
    assert not any("GC200" in n and "v2.0" in r for n, r in by_name.items())
    # Graphcore's 11 results (the table; official_scores.csv: 5 GC200, in v1.0 and v1.1 at
    # 16 and 64 and in v1.1 at 128; 6 Bow IPU in v2.0), each a marker; 20.65 and 20.75 min
    # (Bow Pod16, PopART and PaddlePaddle), 6.70 and 6.77 (Bow Pod64) spread apart
    count = page.page.locator("#software tbody tr").count()
    assert count == 11
    print(
        "software: smallest gaps (px) at 1400, 800:", _at_both_widths(page, "software-chart", count)
    )
    assert _ticks(page, "software-chart", "y") == ["5", "10", "20", "50"]
    # x1.055 for GC200 IPU-POD16 v1.0 -> v1.1 (34.49 / 32.70 min), not x1.67 to Bow IPU
    progress = page.page.eval_on_selector_all(
        "#software tbody tr", "rows => rows.map(r => r.cells[10].innerText.trim())"
    )
    assert "×1.055" in progress and all(float(p[1:]) < 1.1 for p in progress if p != "—")
    page.screenshot("chart-software-gc200-bow")
    assert page.errors == []


def test_software_and_scaling_start_on_a_default_view_that_says_what_to_choose(page):
    page.goto("/software/")
    _drawn(page)
    notice = page.page.inner_text("#default-view")
    assert notice.startswith("Showing resnet on NVIDIA A100-SXM4-80GB (400W)")
    assert "Choose benchmark and accelerator above" in notice
    assert page.page.locator("#choices tbody tr").count() > 0
    assert len(_markers(page, "software-chart")) == page.page.locator("#software tbody tr").count()
    page.screenshot("chart-software-default")
    page.goto("/scaling/")
    _drawn(page, 2)
    notice = page.page.inner_text("#default-view")
    assert notice.startswith("Showing Graphcore on Graphcore IPU GC200, resnet, round v1.1")
    assert "Choose submitter, accelerator, benchmark above" in notice
    for chart in ("scaling-time-chart", "scaling-efficiency-chart"):
        assert _ticks(page, chart, "x") == ["16", "32", "64", "128", "256"]
        _at_both_widths(page, chart, 4)  # and not cut at the right (the SVG in its box)
    assert _ticks(page, "scaling-time-chart", "y") == ["2", "5", "10", "20"]
    page.screenshot("chart-scaling-default")
    page.page.select_option("#filters select[name=submitter]", "Baidu")
    page.page.wait_for_url(re.compile(r"\?submitter=Baidu"))
    _drawn(page, 2)
    assert "Choose accelerator, benchmark above" in page.page.inner_text("#default-view")
    assert page.page.locator("#choices tbody tr").count() == 1  # Baidu's only
    page.screenshot("chart-scaling-baidu")
    assert page.errors == []


CHART_PAGES = [
    ("/leaderboard/v1.1/resnet/", "results"),
    ("/results/training/v1.1/Graphcore/ipu-pod16-TF1/resnet/", "runs"),
    ("/divisions/", "divisions"),
    ("/software/", "software"),
    ("/scaling/", "scaling"),
    ("/inference/v5.1/llama2-70b-99/Server/", "inference-results"),
]


@pytest.mark.parametrize(("path", "table"), CHART_PAGES)
def test_every_chart_has_a_label_and_its_table_as_text(page, path, table):
    page.goto(path)
    page.page.wait_for_selector("[data-drawn='1']", timeout=15_000)
    for chart in page.page.locator("[data-figure]").all():
        label = chart.get_attribute("aria-label")
        assert label != "chart" and re.search(r": \d+ points?$", label), label
        caption = page.page.locator("#" + chart.get_attribute("aria-describedby"))
        assert caption.locator(f"a[href='#{table}']").count() == 1
        assert page.page.locator(f"table#{table}").count() == 1
    assert page.errors == []
    page.saved = True  # the pages' own screenshots are taken above and in test_pages


def test_inference_leaderboard_ticks_and_markers(page):
    page.goto("/inference/v5.1/llama2-70b-99/Server/")
    _drawn(page)
    # two results: 4 x GB200 at 49,359.6 tokens/s, 8 x MI300X at 24,593.8
    assert _ticks(page, "inference-chart", "x") == ["4", "8"]
    assert _ticks(page, "inference-chart", "y") == ["20,000", "50,000"]
    _at_both_widths(page, "inference-chart", 2)
    page.screenshot("chart-inference-llama2-70b-server")
    assert page.errors == []
