"""What every chart shares (issue 13, "charts people can read"). Pure: no Django.

- Log axes carry explicit, labelled ticks only: decades of minutes (0.1, 1, 10, 100), with
  2x and 5x steps written out in full ("20", "50") when the data spans less than about two
  decades; accelerator counts as powers of two (16, 32, 64), or of eight (8, 64, 512) when
  they span many. Plotly's own log ticks print minor ticks as bare digits ("2 3 4 5").
- Markers never hide each other: the colour is the submitter, the symbol the accelerator
  model (hollow for the open division), and points that would sit on each other (same x,
  values within :data:`NEAR` decades) are spread sideways by a small dodge; the hover
  gives the exact values.
- One number format per quantity: a score in minutes shows 2 decimals in tables and on
  hover (the full value only in CSV and JSON); ratios 3 decimals; percentages 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

#: Filled shapes, one per accelerator model in the order given; open division: "-open".
SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "triangle-down",
    "pentagon",
    "hexagon",
    "star",
    "hourglass",
    "cross",
)
#: Two markers whose values differ by less than this (decades of the log axis) at the
#: same x would overlap: about one marker's height on a 440 px chart spanning 3 decades.
NEAR = 0.05
#: One dodge step on a log x axis, in decades (x 1.12): about 20 px on a chart 1400 px
#: wide spanning three decades, 11 px at 800, for 11 px markers.
DODGE = 0.05
#: A legend above the plot: beside it, it takes a third of the width at 800 px; under it,
#: at a height relative to the plot's, it covered the tick labels once the plot shrank.
LEGEND_ABOVE = {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom", "font": {"size": 11}}


def _tick_text(value: float) -> str:
    """A tick label with its magnitude: "0.2", "5", "20", "1,000"."""
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:g}"


def log_axis(values: Iterable[float], *, pad: float = 1.5) -> dict[str, Any]:
    """Plotly axis properties (``type``, ``range``, ``tickvals``, ``ticktext``) for a
    log axis of positive ``values`` (minutes, or any quantity counted in decades).

    The range is the data's span widened by ``pad`` (a factor) on each side; ticks are
    the powers of ten inside it, or 1-2-5 steps when fewer than three powers fall
    inside (then every tick is still labelled in full). ``values`` without a positive
    number: the range 1..10.
    """
    vals = [float(v) for v in values if v is not None and v == v and v > 0]
    lo, hi = (min(vals) / pad, max(vals) * pad) if vals else (1.0, 10.0)
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    ticks = [10.0**e for e in range(e0, e1 + 1) if lo <= 10.0**e <= hi]
    if len(ticks) < 3:
        steps = [m * 10.0**e for e in range(e0, e1 + 1) for m in (1, 2, 5)]
        ticks = [t for t in steps if lo <= t <= hi]
    return {
        "type": "log",
        "range": [math.log10(lo), math.log10(hi)],
        "tickvals": ticks,
        "ticktext": [_tick_text(t) for t in ticks],
    }


def accelerator_axis(values: Iterable[float], *, pad: float = 1.4) -> dict[str, Any]:
    """Plotly axis properties for a log axis of accelerator counts: ticks at powers of
    two inside the range (16, 32, 64, 128), or at powers of eight (1, 8, 64, 512, 4096)
    when more than seven powers of two would fall inside. Range: the counts widened by
    ``pad`` (a factor) on each side."""
    vals = [float(v) for v in values if v is not None and v == v and v > 0]
    lo, hi = (min(vals) / pad, max(vals) * pad) if vals else (1.0, 16.0)
    e0, e1 = math.ceil(math.log2(lo)), math.floor(math.log2(hi))
    exps = list(range(e0, e1 + 1))
    if len(exps) > 7:
        exps = [e for e in exps if e % 3 == 0]
    ticks = [2.0**e for e in exps]
    return {
        "type": "log",
        "range": [math.log10(lo), math.log10(hi)],
        "tickvals": ticks,
        "ticktext": [_tick_text(t) for t in ticks],
    }


def dodge(xs: Sequence[Any], ys: Sequence[float], *, near: float = NEAR) -> list[float]:
    """Sideways offsets, in marker steps (0, -0.5, 0.5, -1, 0, 1, ...), that keep points
    apart: points with the same ``x`` whose ``ys`` (positive; compared in decades)
    chain within ``near`` of each other form a cluster, spread evenly around its x in
    the order of their y. A lone point gets 0. ``xs`` and ``ys`` have one entry per point.
    """
    out = [0.0] * len(xs)
    by_x: dict[Any, list[int]] = {}
    for i, x in enumerate(xs):
        by_x.setdefault(x, []).append(i)
    for idx in by_x.values():
        idx.sort(key=lambda i: (ys[i], i))
        clusters = [[idx[0]]]
        for i in idx[1:]:
            if math.log10(ys[i]) - math.log10(ys[clusters[-1][-1]]) < near:
                clusters[-1].append(i)
            else:
                clusters.append([i])
        for cluster in clusters:
            for k, j in enumerate(cluster):
                out[j] = k - (len(cluster) - 1) / 2
    return out


def symbol_map(models: Iterable[str]) -> dict[str, str]:
    """Accelerator model -> marker symbol, models in sorted order (the same model keeps
    its symbol on a page whatever the filter order)."""
    return {m: SYMBOLS[k % len(SYMBOLS)] for k, m in enumerate(sorted(set(models)))}


def symbol(base: str, division: str) -> str:
    """``base`` filled for closed results, hollow for the open division."""
    return f"{base}-open" if division == "open" else base


def minutes_text(value: float) -> str:
    """A score on hover, as a person reads it and as the tables show it: 2 decimals,
    thousands grouped ("28.60 min", "1,234.50 min"); CSV and JSON keep every digit."""
    return f"{float(value):,.2f} min"


def group_by(rows: Iterable[Any], key: Any) -> list[tuple[Any, list[Any]]]:
    """Rows grouped by ``key(row)``, groups in key order, rows in their order."""
    out: dict[Any, list[Any]] = {}
    for r in rows:
        out.setdefault(key(r), []).append(r)
    return sorted(out.items(), key=lambda kv: kv[0])


def iso_levels(products: Sequence[float]) -> list[float]:
    """Accelerator-minute levels for reference lines: decades over the data's span,
    with 2x and 5x steps when the levels span at most two decades."""
    lo, hi = math.floor(math.log10(min(products))), math.ceil(math.log10(max(products)))
    steps = (1, 2, 5) if hi - lo <= 2 else (1,)
    return [m * 10**e for e in range(lo, hi + 1) for m in steps]
