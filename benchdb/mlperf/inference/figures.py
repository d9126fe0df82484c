"""Plotly figures (plain dicts) of MLPerf Inference results. Pure: no Django, no queries.

Rows are those of ``benchdb.inference_results/1`` (with ``url``). Log axes carry explicit,
labelled ticks only (:mod:`benchdb.mlperf.chart_marks`), markers are coloured by submitter
and shaped by accelerator (hollow: open division), and each point names its submitter,
system, accelerators, software and value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from benchdb.mlperf import chart_marks as marks

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
    "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
)  # fmt: skip
_FONT = {"family": "system-ui, sans-serif", "size": 13}


def _label(value: Any, limit: int = 60) -> str:
    """Text for a chart: plotly renders a subset of HTML in labels, so ``<`` and ``&``
    are escaped; cut to ``limit`` characters."""
    text = str(value or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def decades(values: Sequence[float]) -> tuple[list[float], list[str], list[float]]:
    """Tick values, their texts and the (log10) axis range for positive ``values``: every
    power of ten across them (1, 10, 100 ...; 0.1 as "0.1"), with one decade of margin."""
    lo = math.floor(math.log10(min(values))) if values else 0
    hi = math.ceil(math.log10(max(values))) if values else 1
    if hi == lo:
        hi += 1
    ticks = [10.0**k for k in range(lo, hi + 1)]
    texts = [f"{t:,.0f}" if t >= 1 else f"{t:g}" for t in ticks]
    return ticks, texts, [lo - 0.1, hi + 0.1]


def leaderboard(rows: Sequence[dict[str, Any]], *, unit: str, title: str) -> dict[str, Any]:
    """The results of one model and scenario: value (``unit``) against accelerator count,
    log-log, one trace per submitter and accelerator: colour by submitter, symbol by
    accelerator (hollow: open division), points that would overlap spread sideways
    (:func:`chart_marks.dodge`). Rows without a value or an accelerator count are left
    out (the table lists them)."""
    usable = [r for r in rows if r["value"] and r["value"] > 0 and r["accelerators"]]
    offsets = marks.dodge([r["accelerators"] for r in usable], [r["value"] for r in usable])
    shift = {id(r): 10 ** (marks.DODGE * k) for r, k in zip(usable, offsets, strict=True)}
    submitters = sorted({r["submitter"] for r in usable})
    colours = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(submitters)}
    symbols = marks.symbol_map(r["accelerator"] for r in usable)
    data = []
    for (submitter, accelerator), group in marks.group_by(
        usable, lambda r: (r["submitter"], r["accelerator"])
    ):
        color = colours[submitter]
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": f"{_label(submitter, 30)} · {_label(accelerator, 40)}",
                "legendgroup": _label(submitter, 30),
                "x": [r["accelerators"] * shift[id(r)] for r in group],
                "y": [r["value"] for r in group],
                "customdata": [[r["url"]] for r in group],
                "hoverinfo": "text",
                "text": [_point_text(r) for r in group],
                "marker": {
                    "size": 11,
                    "color": color,
                    "line": {"color": color, "width": 2},
                    "symbol": [marks.symbol(symbols[accelerator], r["division"]) for r in group],
                },
            }
        )
    layout = {
        "title": {"text": _label(title, 100), "font": {"size": 14}, "automargin": True,
                  "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 6}},
        "font": _FONT,
        "margin": {"l": 70, "r": 20, "t": 40, "b": 60},
        "height": 480,
        "hovermode": "closest",
        "legend": marks.LEGEND_ABOVE,
        "xaxis": {**_AXIS, "title": {"text": "Accelerators (log)"},
                  **marks.accelerator_axis(r["accelerators"] for r in usable)},
        "yaxis": {**_AXIS, "title": {"text": _label(unit) + " (log)"},
                  **marks.log_axis(r["value"] for r in usable)},
    }  # fmt: skip
    return {"data": data, "layout": layout}


_AXIS = {"showgrid": True, "gridcolor": "#e5e7eb", "zeroline": False}


def _point_text(r: dict[str, Any]) -> str:
    return "<br>".join(
        [
            f"<b>{_label(r['submitter'], 40)}</b> {_label(r['system_name'] or r['system'])}",
            f"{r['accelerators']} × {_label(r['accelerator'])}",
            _label(r["software"]),
            f"{r['value']:,.6g} {_label(r['unit'])} · {_label(r['division'])} · {r['status']}",
        ]
    )


def history(rows: Sequence[dict[str, Any]], *, unit: str, title: str) -> dict[str, Any]:
    """One line per series (accelerator count x model) across rounds; the rounds in
    order on a category axis, the value (``unit``) on a log axis with labelled decades."""
    rounds = sorted({r["round"] for r in rows}, key=lambda v: [int(p) for p in v[1:].split(".")])
    data = []
    for i, series in enumerate(sorted({r["series"] for r in rows})):
        group = [r for r in rows if r["series"] == series]
        color = PALETTE[i % len(PALETTE)]
        data.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": _label(series, 50),
                "x": [r["round"] for r in group],
                "y": [r["value"] for r in group],
                "customdata": [[r["url"]] for r in group],
                "hoverinfo": "text",
                "text": [_point_text(r) for r in group],
                "line": {"color": color},
                "marker": {"color": color, "size": 9},
            }
        )
    yt, ytext, yr = decades([float(r["value"]) for r in rows])
    layout = {
        "title": {"text": _label(title, 100), "font": {"size": 14}},
        "font": _FONT,
        "margin": {"l": 70, "r": 20, "t": 40, "b": 55},
        "height": 440,
        "hovermode": "closest",
        "legend": {"orientation": "h", "y": -0.2},
        "xaxis": {"type": "category", "categoryorder": "array", "categoryarray": rounds,
                  "title": {"text": "Round"}},
        "yaxis": {"type": "log", "title": {"text": _label(unit)}, "tickvals": yt,
                  "ticktext": ytext, "range": yr, "gridcolor": "#e5e7eb"},
    }  # fmt: skip
    return {"data": data, "layout": layout}
