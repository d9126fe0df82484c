"""Plotly figures as plain dicts (``{"data": [...], "layout": {...}}``), built from
pandas frames. Pure: no Django, no queries; pages embed the dict with
``json_script`` and ``static/benchdb.js`` draws it with the plotly.js that the
``plotly`` package ships (served from ``/static/plotly/``, no CDN).

Dicts rather than ``plotly.graph_objects.Figure``: the page needs the JSON only,
and building and validating a ``Figure`` took about 6 ms for one 50-point trace
(measured with plotly 7.1), on every request; the tests check each dict with
``plotly.graph_objects.Figure(fig)``, which raises on any property plotly does
not know.

Text from submitters' files (system names, frameworks) goes into labels escaped
for plotly's pseudo-HTML (``<`` -> ``&lt;``), so plotly shows it as text; labels
are cut to :data:`LABEL_MAX` characters (tables show the whole text). Each point
that stands for a result carries its page's path in ``customdata[0]``: a click
opens it.
"""

from __future__ import annotations

import html
import math
from collections import Counter, namedtuple
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pandas as pd

from benchdb.mlperf import chart_marks as marks

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


def _layout(**extra: Any) -> dict[str, Any]:
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


def _axis(title: str, **extra: Any) -> dict[str, Any]:
    return _AXIS | {"title": {"text": label(title)}} | extra


def _number(value: Any) -> float:
    """A sortable number: None and NaN -> 0."""
    return 0.0 if value is None or value != value else float(value)


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> dict[str, Any]:
    """The figure dict, made safe for ``JSON.parse`` (see :func:`_clean`)."""
    fig: dict[str, Any] = _clean({"data": data, "layout": layout})
    return fig


def _clean(obj: Any) -> Any:
    """numpy scalars -> Python numbers, NaN -> None (JSON.parse rejects NaN)."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


@lru_cache(maxsize=32)
def _row_type(cols: tuple[str, ...]) -> Any:
    return namedtuple("Row", cols)


def _groups(
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


def _rows(group: dict[str, list[Any]], cols: Sequence[str]) -> list[Any]:
    """A group's rows as named tuples over ``cols``."""
    row = _row_type(tuple(cols))
    return [row(*values) for values in zip(*(group[c] for c in cols), strict=True)]


def _tuples(frame: pd.DataFrame, *cols: str) -> list[Any]:
    """Rows of ``frame`` as named tuples over ``cols`` only."""
    return _rows({c: frame[c].tolist() for c in cols}, cols)


def _col(frame: pd.DataFrame, name: str) -> list[Any]:
    """A column's values; [] when the frame lacks it (a frame of no rows)."""
    return frame[name].tolist() if name in frame.columns else []


def _usable(frame: pd.DataFrame, *cols: str) -> pd.DataFrame:
    if frame.empty or any(c not in frame.columns for c in cols):
        return frame.iloc[0:0]
    out = frame.dropna(subset=list(cols))
    for c in cols:
        if pd.api.types.is_numeric_dtype(out[c]):
            out = out[out[c] > 0]
    return out


def leaderboard_scatter(frame: pd.DataFrame) -> dict[str, Any]:
    """Time to train against accelerator count, log-log, one trace per submitter and
    accelerator model: colour by submitter, symbol by accelerator model (hollow: open
    division), points that would overlap spread by a small dodge
    (:func:`chart_marks.dodge`); dashed lines of equal accelerator-minutes (N x T = c).

    ``frame`` columns: url, submitter, system, system_name, division,
    accelerators, accelerator_model, framework, score_minutes (minutes). Rows
    without a score or accelerator count are not drawn.
    """
    df = _usable(frame, "score_minutes", "accelerators")
    xaxis = _axis("Accelerators (log)") | marks.accelerator_axis(_col(df, "accelerators"))
    yaxis = _axis("Time to train, minutes (log)") | marks.log_axis(_col(df, "score_minutes"))
    data: list[dict[str, Any]] = []
    if not df.empty:
        data.extend(_iso_lines(df, 10 ** xaxis["range"][0], 10 ** xaxis["range"][1]))
        data.extend(_marker_traces(df))
    layout = _layout(xaxis=xaxis, yaxis=yaxis, legend=marks.LEGEND_ABOVE, height=520)
    return _figure(data, layout)


_POINT_FIELDS = (
    "url",
    "submitter",
    "system_name",
    "system",
    "division",
    "accelerators",
    "accelerator_model",
    "framework",
    "score_minutes",
)


def _marker_traces(df: pd.DataFrame) -> list[dict[str, Any]]:
    """One trace per submitter x accelerator model; x dodged by
    :data:`chart_marks.DODGE` decades a step."""
    rows = _tuples(df, *_POINT_FIELDS)
    offsets = marks.dodge([r.accelerators for r in rows], [r.score_minutes for r in rows])
    shift = {id(r): 10 ** (marks.DODGE * k) for r, k in zip(rows, offsets, strict=True)}
    colours = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(sorted(set(df["submitter"])))}
    symbols = marks.symbol_map(df["accelerator_model"])
    traces = []
    groups = marks.group_by(rows, lambda r: (r.submitter, r.accelerator_model))
    for (submitter, model), group in groups:
        color = colours[submitter]
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": f"{label(submitter, 30)} · {label(model, 40)}",
                "legendgroup": label(submitter, 30),
                "x": [r.accelerators * shift[id(r)] for r in group],
                "y": [r.score_minutes for r in group],
                "customdata": [[r.url] for r in group],
                "hoverinfo": "text",
                "text": [_point_text(r) for r in group],
                "marker": {
                    "size": 11,
                    "color": color,
                    "opacity": 0.9,
                    "line": {"color": color, "width": 2},
                    "symbol": [marks.symbol(symbols[model], r.division) for r in group],
                },
            }
        )
    return traces


def _iso_lines(df: pd.DataFrame, x0: float, x1: float) -> list[dict[str, Any]]:
    """Dotted lines of equal accelerator-minutes (N x T = c) across ``x0``..``x1``."""
    data: list[dict[str, Any]] = []
    for i, c in enumerate(marks.iso_levels((df["accelerators"] * df["score_minutes"]).tolist())):
        xs = [x0 * (x1 / x0) ** (k / 20) for k in range(21)]
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": xs,
                "y": [c / x for x in xs],
                "line": {"color": "#bbbbbb", "width": 1, "dash": "dot"},
                "hoverinfo": "text",
                "text": f"{c:g} accelerator-minutes",
                "name": "equal accelerator-minutes",
                "legendgroup": "iso",
                "showlegend": i == 0,
            }
        )
    return data


def _point_text(r: Any) -> str:
    """Hover: submitter, system, accelerators, framework, the score (2 decimals)."""
    return "<br>".join(
        [
            f"<b>{label(r.submitter, 40)}</b> {label(r.system_name or r.system)}",
            f"{int(r.accelerators)} × {label(r.accelerator_model)}",
            label(r.framework),
            f"{marks.minutes_text(r.score_minutes)} · {label(r.division)} · "
            f"{int(r.accelerators * r.score_minutes):,} accelerator-minutes",
        ]
    )


def _system_size(r: Any) -> str:
    return f"<b>{label(r.system_name or r.system)}</b><br>{int(r.accelerators)} accelerators"


def eval_curves(
    frame: pd.DataFrame, *, unit: str, target: float | None, metric: str = "eval_accuracy"
) -> dict[str, Any]:
    """Each run's ``eval_accuracy`` against epochs (or samples), one trace per run;
    runs that are not counted are dotted; ``target`` draws the quality target.

    ``frame`` columns: run (file name), role, at, value; ``unit`` names ``at``.
    """
    data = []
    for i, (run, g) in enumerate(_groups(frame, "run", ("role", "at", "value"))):
        role = g["role"][0]
        data.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": f"{label(run)} ({label(role)})",
                # 6 decimals: more than the hover shows, and a third less JSON to send
                "x": g["at"],
                "y": [round(v, 6) for v in g["value"]],
                "line": {
                    "color": PALETTE[i % len(PALETTE)],
                    "width": 2 if role == "counted" else 1,
                    "dash": "solid" if role == "counted" else "dot",
                },
                "marker": {"size": 5},
                "hovertemplate": f"{label(run)}<br>{label(unit)} %{{x}}<br>"
                f"{label(metric)} %{{y:.4f}}<extra></extra>",
            }
        )
    layout = _layout(xaxis=_axis(f"{unit or 'epoch_num'} (as logged)"), yaxis=_axis(metric))
    if target is not None:
        layout["shapes"] = [
            {
                "type": "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "yref": "y",
                "y0": target,
                "y1": target,
                "line": {"color": "#444", "width": 1, "dash": "dash"},
            }
        ]
        layout["annotations"] = [
            {
                "xref": "paper",
                "x": 0,
                "xanchor": "left",
                "yref": "y",
                "y": target,
                "yanchor": "bottom",
                "text": f"quality target {target:g}",
                "showarrow": False,
                "font": {"size": 11, "color": "#444"},
            }
        ]
    return _figure(data, layout)


_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_SOFTWARE_FIELDS = (
    "url",
    "round",
    "line",
    "accelerators",
    "accelerator_model",
    "framework_family",
    "score_minutes",
    "system_name",
    "system",
    "framework",
    "sdk",
    "progress",
)


def software_timeline(frame: pd.DataFrame, rounds: Sequence[str]) -> dict[str, Any]:
    """Score by round (``rounds`` in order along x), one line per submitter x accelerator
    model x accelerator count x framework family (column ``line``), so that a line never
    joins hardware generations: the colour says the system size, the marker symbol the
    accelerator model (as on the leaderboard), the dash the framework family. Points of
    one round that would overlap are spread sideways (:func:`chart_marks.dodge`).

    ``frame`` columns: url, round, line, accelerators, accelerator_model,
    framework_family, score_minutes, system_name, system, framework, sdk, progress.
    """
    df = _usable(frame, "score_minutes")
    order = {r: k for k, r in enumerate(rounds)}
    data = []
    if not df.empty:
        sizes = sorted({int(a) for a in df["accelerators"].dropna()})
        # the most frequent family gets the solid line
        families = [f for f, _ in Counter(df["framework_family"].tolist()).most_common()]
        symbols = marks.symbol_map(df["accelerator_model"])
        rows = _tuples(df, *_SOFTWARE_FIELDS)
        offsets = marks.dodge([r.round for r in rows], [r.score_minutes for r in rows])
        at = [order.get(r.round, len(order)) + 0.07 * k for r, k in zip(rows, offsets, strict=True)]
        x = {id(r): v for r, v in zip(rows, at, strict=True)}
        lines = marks.group_by(rows, lambda r: (_number(r.accelerators), r.line))
        for (size, line), group in lines:
            group.sort(key=lambda r: order.get(r.round, len(order)))
            first = group[0]
            color = PALETTE[sizes.index(int(size)) % len(PALETTE)] if size else PALETTE[-1]
            dash = _DASHES[families.index(first.framework_family) % len(_DASHES)]
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "name": label(line, 70),
                    "x": [x[id(r)] for r in group],
                    "y": [r.score_minutes for r in group],
                    "customdata": [[r.url] for r in group],
                    "hoverinfo": "text",
                    "text": [_software_text(r) for r in group],
                    "line": {"color": color, "width": 2, "dash": dash},
                    "marker": {
                        "size": 11,
                        "color": color,
                        "symbol": symbols[first.accelerator_model],
                        "line": {"color": "#ffffff", "width": 1},
                    },
                }
            )
    xaxis = _axis(
        "Round",
        tickvals=list(range(len(rounds))),
        ticktext=list(rounds),
        range=[-0.5, len(rounds) - 0.5],
    )
    yaxis = _axis("Time to train, minutes (log)") | marks.log_axis(_col(df, "score_minutes"))
    return _figure(data, _layout(xaxis=xaxis, yaxis=yaxis, legend=marks.LEGEND_ABOVE, height=560))


def _software_text(r: Any) -> str:
    lines = [
        f"<b>{label(r.line, 60)}</b>",
        label(r.system_name or r.system),
        label(r.framework),
        label(r.sdk),
        f"{int(r.accelerators)} × {label(r.accelerator_model)}" if r.accelerators else "",
        f"{r.round}: {marks.minutes_text(r.score_minutes)}",
    ]
    if r.progress == r.progress and r.progress:
        lines.append(f"progress ×{r.progress:.3f} (same hardware)")
    return "<br>".join(lines)


def scaling_time(frame: pd.DataFrame) -> dict[str, Any]:
    """Time to train against accelerators (log-log), one series per round and
    framework family (column ``series``), with its ideal line T_ref x N_ref / N
    dashed in the same colour.

    ``frame`` columns: url, series, accelerators, score_minutes, ideal_minutes,
    system_name, system, efficiency.
    """
    data = []
    fields = (
        "url",
        "accelerators",
        "score_minutes",
        "ideal_minutes",
        "system_name",
        "system",
        "efficiency",
    )
    for i, (series, g) in enumerate(_groups(frame, "series", fields)):
        rows = sorted(_rows(g, fields), key=lambda r: r.accelerators)
        color = PALETTE[i % len(PALETTE)]
        text = [
            f"{_system_size(r)}<br>{marks.minutes_text(r.score_minutes)}<br>"
            f"efficiency {r.efficiency:.3f}"
            for r in rows
        ]
        data.append(_series_trace(series, rows, [r.score_minutes for r in rows], text, color))
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": f"ideal ({label(series, 60)})",
                "x": [r.accelerators for r in rows],
                "y": [r.ideal_minutes for r in rows],
                "line": {"color": color, "width": 1, "dash": "dash"},
                "hoverinfo": "skip",
            }
        )
    minutes = [*frame["score_minutes"].tolist(), *frame["ideal_minutes"].tolist()]
    layout = _layout(
        xaxis=_axis("Accelerators (log)") | marks.accelerator_axis(frame["accelerators"]),
        yaxis=_axis("Time to train, minutes (log)") | marks.log_axis(minutes),
        legend=marks.LEGEND_ABOVE,
    )
    return _figure(data, layout)


def _series_trace(
    series: str, rows: list[Any], y: list[Any], text: list[str], color: str
) -> dict[str, Any]:
    """One scaling series: ``y`` against the rows' accelerators, each point opening
    its result (``customdata``: url)."""
    return {
        "type": "scatter",
        "mode": "lines+markers",
        "name": label(series, 60),
        "x": [r.accelerators for r in rows],
        "y": y,
        "customdata": [[r.url] for r in rows],
        "hoverinfo": "text",
        "text": text,
        "line": {"color": color, "width": 2},
        "marker": {"size": 10, "color": color},
    }


def scaling_efficiency(frame: pd.DataFrame) -> dict[str, Any]:
    """Scaling efficiency E(N) against accelerators (log x), one series per
    round and framework family, with the ideal E = 1 dashed.

    ``frame`` columns: url, series, accelerators, efficiency, system_name, system.
    """
    data = []
    fields = ("url", "accelerators", "efficiency", "system_name", "system")
    for i, (series, g) in enumerate(_groups(frame, "series", fields)):
        rows = sorted(_rows(g, fields), key=lambda r: r.accelerators)
        color = PALETTE[i % len(PALETTE)]
        text = [f"{_system_size(r)}<br>E = {r.efficiency:.3f}" for r in rows]
        data.append(_series_trace(series, rows, [r.efficiency for r in rows], text, color))
    top = max([1.1, *(frame["efficiency"].tolist() if not frame.empty else [])]) * 1.05
    layout = _layout(
        xaxis=_axis("Accelerators (log)") | marks.accelerator_axis(frame["accelerators"]),
        yaxis=_axis("Scaling efficiency E(N)", range=[0, top]),
        legend=marks.LEGEND_ABOVE,
        shapes=[
            {
                "type": "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "yref": "y",
                "y0": 1,
                "y1": 1,
                "line": {"color": "#444", "width": 1, "dash": "dash"},
            }
        ],
        annotations=[
            {
                "xref": "paper",
                "x": 1,
                "xanchor": "right",
                "yref": "y",
                "y": 1,
                "yanchor": "bottom",
                "text": "ideal (E = 1)",
                "showarrow": False,
                "font": {"size": 11, "color": "#444"},
            }
        ],
    )
    return _figure(data, layout)


def compare_bars(frame: pd.DataFrame) -> dict[str, Any]:
    """Horizontal bars of time to train, one per result in the given order, the
    baseline grey; each bar is labelled with its speedup against the baseline.

    ``frame`` columns: url, submitter, system_name, system, round, score_minutes,
    speedup, baseline.
    """
    df = _usable(frame, "score_minutes")
    names = [
        f"{label(r.submitter, 30)} {label(r.system_name or r.system, 40)} ({r.round}) #{k + 1}"
        for k, r in enumerate(_tuples(df, "submitter", "system_name", "system", "round"))
    ]
    data = (
        [
            {
                "type": "bar",
                "orientation": "h",
                "y": names,
                "x": df["score_minutes"].tolist(),
                "customdata": [[u] for u in df["url"]],
                "hoverinfo": "text",
                "text": [
                    "baseline"
                    if r.baseline
                    else (f"×{r.speedup:.3f}" if r.speedup == r.speedup and r.speedup else "")
                    for r in _tuples(df, "baseline", "speedup")
                ],
                "textposition": "auto",
                "marker": {"color": ["#999999" if b else PALETTE[0] for b in df["baseline"]]},
                "hovertext": [
                    f"{n}<br>{marks.minutes_text(s)}"
                    for n, s in zip(names, df["score_minutes"], strict=True)
                ],
            }
        ]
        if not df.empty
        else []
    )
    layout = _layout(
        xaxis=_axis("Time to train, minutes"),
        yaxis=_axis("", autorange="reversed"),
        height=max(200, 60 + 40 * len(df)),
        showlegend=False,
    )
    return _figure(data, layout)


def division_bars(frame: pd.DataFrame) -> dict[str, Any]:
    """Grouped bars: closed and open time to train for each pair (an empty
    figure, no traces, for an empty frame).

    ``frame`` columns: round, submitter, benchmark, system_name, accelerators,
    closed_score_minutes, open_score_minutes, closed_url, open_url.
    """
    if frame.empty:
        return _figure([], _layout())
    names = [
        f"{r.round} {label(r.submitter, 30)} {label(r.system_name, 40)} {r.benchmark}"
        for r in _tuples(frame, "round", "submitter", "system_name", "benchmark")
    ]
    data = []
    for div, color in (("closed", PALETTE[0]), ("open", PALETTE[3])):
        data.append(
            {
                "type": "bar",
                "name": div,
                "x": names,
                "y": frame[f"{div}_score_minutes"].tolist(),
                "customdata": [[u] for u in frame[f"{div}_url"]],
                "marker": {"color": color},
                "hovertext": [
                    f"{n}<br>{div}: {marks.minutes_text(v)}" if v == v and v is not None else n
                    for n, v in zip(names, frame[f"{div}_score_minutes"], strict=True)
                ],
                "hovertemplate": "%{hovertext}<extra></extra>",
            }
        )
    layout = _layout(
        barmode="group", xaxis=_axis("", tickangle=-30), yaxis=_axis("Time to train, minutes")
    )
    return _figure(data, layout)
