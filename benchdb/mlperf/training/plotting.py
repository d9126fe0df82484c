"""What MLPerf Training's figures share (``benchdb.mlperf.training.figures``): the palette,
labels escaped and cut for plotly's pseudo-HTML (:data:`LABEL_MAX`), axes and layout, the
figure dict made safe for ``JSON.parse`` (NaN -> null), and pandas frames read as typed
rows and groups. Pure: pandas and the standard library; no Django."""

from __future__ import annotations

import html
import math
from collections import namedtuple
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pandas as pd

LABEL_MAX = 80
PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
)
_AXIS = {
    "gridcolor": "#e6e6e6",
    "zeroline": False,
    "showline": True,
    "linecolor": "#999",
    "automargin": True,
}


def label(value: Any, limit: int = LABEL_MAX) -> str:
    """Text for a plotly label: ``str(value)`` cut to ``limit`` characters (with
    "…") and escaped, so that ``<b>`` or ``<script>`` show as typed."""
    text = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text, quote=False)


def layout(**extra: Any) -> dict[str, Any]:
    base = {
        "margin": {"l": 70, "r": 30, "t": 30, "b": 60},
        "hovermode": "closest",
        "font": {"family": "system-ui, -apple-system, Segoe UI, sans-serif", "size": 12},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "height": 460,
        "legend": {"orientation": "v", "x": 1.02, "y": 1, "font": {"size": 11}},
    }
    return base | extra


def axis(title: str, **extra: Any) -> dict[str, Any]:
    return _AXIS | {"title": {"text": label(title)}} | extra


def number(value: Any) -> float:
    """A sortable number: None and NaN -> 0."""
    return 0.0 if value is None or value != value else float(value)


def figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> dict[str, Any]:
    """The figure dict, made safe for ``JSON.parse`` (see :func:`clean`)."""
    fig: dict[str, Any] = clean({"data": data, "layout": layout})
    return fig


def clean(obj: Any) -> Any:
    """numpy scalars -> Python numbers, NaN -> None (JSON.parse rejects NaN)."""
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


@lru_cache(maxsize=32)
def row_type(cols: tuple[str, ...]) -> Any:
    return namedtuple("Row", cols)


def frame_groups(
    frame: pd.DataFrame, key: str, cols: Sequence[str]
) -> list[tuple[Any, dict[str, list[Any]]]]:
    """``(key value, {column: values})`` per group of rows, by key value. Reads each
    column once: a sub-frame per group (``groupby`` iteration, ``itertuples``)
    costs more than the rest of a page."""
    if frame.empty:
        return []
    columns = {c: frame[c].tolist() for c in cols}
    groups = sorted(frame.groupby(key, sort=False).indices.items(), key=lambda kv: kv[0])
    return [(value, {c: [v[i] for i in idx] for c, v in columns.items()}) for value, idx in groups]


def frame_rows(group: dict[str, list[Any]], cols: Sequence[str]) -> list[Any]:
    """A group's rows as named tuples over ``cols``."""
    row = row_type(tuple(cols))
    return [row(*values) for values in zip(*(group[c] for c in cols), strict=True)]


def frame_tuples(frame: pd.DataFrame, *cols: str) -> list[Any]:
    """Rows of ``frame`` as named tuples over ``cols`` only."""
    return frame_rows({c: frame[c].tolist() for c in cols}, cols)


def frame_col(frame: pd.DataFrame, name: str) -> list[Any]:
    """A column's values; [] when the frame lacks it (a frame of no rows)."""
    return frame[name].tolist() if name in frame.columns else []


def usable(frame: pd.DataFrame, *cols: str) -> pd.DataFrame:
    if frame.empty or any(c not in frame.columns for c in cols):
        return frame.iloc[0:0]
    out = frame.dropna(subset=list(cols))
    for c in cols:
        if pd.api.types.is_numeric_dtype(out[c]):
            out = out[out[c] > 0]
    return out
