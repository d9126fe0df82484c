"""Plotly figures (plain dicts) of MLPerf Mobile's leaderboards. Pure: no Django, no
queries. Rows are those of ``benchdb.mobile_board/1`` (rank order, with ``url``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchdb.mlperf import chart_marks as marks

_FONT = {"family": "system-ui, sans-serif", "size": 13}
_OPEN, _CLOSED = "#ff7f0e", "#1f77b4"


def _label(value: Any, limit: int = 60) -> str:
    """Chart text with ``<``, ``>`` and ``&`` escaped (plotly renders some HTML)."""
    text = str(value or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board(rows: Sequence[dict[str, Any]], *, unit: str, title: str) -> dict[str, Any]:
    """One bar per result, best (rank 1, the highest throughput) on top, on a log axis
    of throughput in ``unit``; orange: open division. Rows without a positive
    throughput are left out (the table lists them)."""
    usable = [r for r in rows if r.get("throughput") and r["throughput"] > 0]
    names = [
        _label(f"{r['rank']}. {r['submitter']} {r['device'] or r['system']}", 70) for r in usable
    ]
    data = [
        {
            "type": "bar",
            "orientation": "h",
            "x": [r["throughput"] for r in usable],
            "y": names,
            "customdata": [[r["url"]] for r in usable],
            "hoverinfo": "text",
            "text": [
                f"{n}<br>{r['throughput']:.4g} {_label(unit)}"
                for n, r in zip(names, usable, strict=True)
            ],
            "textposition": "none",
            "marker": {"color": [_OPEN if r["division"] == "open" else _CLOSED for r in usable]},
        }
    ]
    layout = {
        "title": {"text": _label(title, 100), "font": {"size": 14}},
        "font": _FONT,
        "margin": {"l": 260, "r": 20, "t": 40, "b": 50},
        "height": max(200, 60 + 24 * len(usable)),
        "showlegend": False,
        "xaxis": {"title": {"text": f"{_label(unit)} (log), higher is better"},
                  **marks.log_axis(r["throughput"] for r in usable)},
        "yaxis": {"autorange": "reversed", "automargin": True},
    }  # fmt: skip
    return {"data": data, "layout": layout}
