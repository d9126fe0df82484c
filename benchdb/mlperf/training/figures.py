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
are cut to :data:`LABEL_MAX` characters (tables show the whole text; the shared parts
are ``plotting.py``). Each point
that stands for a result carries its page's path in ``customdata[0]``: a click
opens it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pandas as pd

from benchdb.mlperf import chart_marks as marks
from benchdb.mlperf.training import plotting as plot
from benchdb.mlperf.training.plotting import PALETTE, label


def leaderboard_scatter(frame: pd.DataFrame) -> dict[str, Any]:
    """Time to train against accelerator count, log-log, one trace per submitter and
    accelerator model: colour by submitter, symbol by accelerator model (hollow: open
    division), points that would overlap spread by a small dodge
    (:func:`chart_marks.dodge`); dashed lines of equal accelerator-minutes (N x T = c).

    ``frame`` columns: url, submitter, system, system_name, division,
    accelerators, accelerator_model, framework, score_minutes (minutes). Rows
    without a score or accelerator count are not drawn.
    """
    df = plot.usable(frame, "score_minutes", "accelerators")
    xaxis = plot.axis("Accelerators (log)") | marks.accelerator_axis(
        plot.frame_col(df, "accelerators")
    )
    yaxis = plot.axis("Time to train, minutes (log)") | marks.log_axis(
        plot.frame_col(df, "score_minutes")
    )
    data: list[dict[str, Any]] = []
    if not df.empty:
        data.extend(_iso_lines(df, 10 ** xaxis["range"][0], 10 ** xaxis["range"][1]))
        data.extend(_marker_traces(df))
    layout = plot.layout(xaxis=xaxis, yaxis=yaxis, legend=marks.LEGEND_ABOVE, height=520)
    return plot.figure(data, layout)


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
    rows = plot.frame_tuples(df, *_POINT_FIELDS)
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
    for i, (run, g) in enumerate(plot.frame_groups(frame, "run", ("role", "at", "value"))):
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
    layout = plot.layout(
        xaxis=plot.axis(f"{unit or 'epoch_num'} (as logged)"), yaxis=plot.axis(metric)
    )
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
    return plot.figure(data, layout)


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
    df = plot.usable(frame, "score_minutes")
    order = {r: k for k, r in enumerate(rounds)}
    data = []
    if not df.empty:
        sizes = sorted({int(a) for a in df["accelerators"].dropna()})
        # the most frequent family gets the solid line
        families = [f for f, _ in Counter(df["framework_family"].tolist()).most_common()]
        symbols = marks.symbol_map(df["accelerator_model"])
        rows = plot.frame_tuples(df, *_SOFTWARE_FIELDS)
        offsets = marks.dodge([r.round for r in rows], [r.score_minutes for r in rows])
        at = [order.get(r.round, len(order)) + 0.07 * k for r, k in zip(rows, offsets, strict=True)]
        x = {id(r): v for r, v in zip(rows, at, strict=True)}
        lines = marks.group_by(rows, lambda r: (plot.number(r.accelerators), r.line))
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
    xaxis = plot.axis(
        "Round",
        tickvals=list(range(len(rounds))),
        ticktext=list(rounds),
        range=[-0.5, len(rounds) - 0.5],
    )
    yaxis = plot.axis("Time to train, minutes (log)") | marks.log_axis(
        plot.frame_col(df, "score_minutes")
    )
    return plot.figure(
        data, plot.layout(xaxis=xaxis, yaxis=yaxis, legend=marks.LEGEND_ABOVE, height=560)
    )


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
    for i, (series, g) in enumerate(plot.frame_groups(frame, "series", fields)):
        rows = sorted(plot.frame_rows(g, fields), key=lambda r: r.accelerators)
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
    layout = plot.layout(
        xaxis=plot.axis("Accelerators (log)") | marks.accelerator_axis(frame["accelerators"]),
        yaxis=plot.axis("Time to train, minutes (log)") | marks.log_axis(minutes),
        legend=marks.LEGEND_ABOVE,
    )
    return plot.figure(data, layout)


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
    for i, (series, g) in enumerate(plot.frame_groups(frame, "series", fields)):
        rows = sorted(plot.frame_rows(g, fields), key=lambda r: r.accelerators)
        color = PALETTE[i % len(PALETTE)]
        text = [f"{_system_size(r)}<br>E = {r.efficiency:.3f}" for r in rows]
        data.append(_series_trace(series, rows, [r.efficiency for r in rows], text, color))
    top = max([1.1, *(frame["efficiency"].tolist() if not frame.empty else [])]) * 1.05
    layout = plot.layout(
        xaxis=plot.axis("Accelerators (log)") | marks.accelerator_axis(frame["accelerators"]),
        yaxis=plot.axis("Scaling efficiency E(N)", range=[0, top]),
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
    return plot.figure(data, layout)


def compare_bars(frame: pd.DataFrame) -> dict[str, Any]:
    """Horizontal bars of time to train, one per result in the given order, the
    baseline grey; each bar is labelled with its speedup against the baseline.

    ``frame`` columns: url, submitter, system_name, system, round, score_minutes,
    speedup, baseline.
    """
    df = plot.usable(frame, "score_minutes")
    names = [
        f"{label(r.submitter, 30)} {label(r.system_name or r.system, 40)} ({r.round}) #{k + 1}"
        for k, r in enumerate(plot.frame_tuples(df, "submitter", "system_name", "system", "round"))
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
                    for r in plot.frame_tuples(df, "baseline", "speedup")
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
    layout = plot.layout(
        xaxis=plot.axis("Time to train, minutes"),
        yaxis=plot.axis("", autorange="reversed"),
        height=max(200, 60 + 40 * len(df)),
        showlegend=False,
    )
    return plot.figure(data, layout)


def division_bars(frame: pd.DataFrame) -> dict[str, Any]:
    """Grouped bars: closed and open time to train for each pair (an empty
    figure, no traces, for an empty frame).

    ``frame`` columns: round, submitter, benchmark, system_name, accelerators,
    closed_score_minutes, open_score_minutes, closed_url, open_url.
    """
    if frame.empty:
        return plot.figure([], plot.layout())
    names = [
        f"{r.round} {label(r.submitter, 30)} {label(r.system_name, 40)} {r.benchmark}"
        for r in plot.frame_tuples(frame, "round", "submitter", "system_name", "benchmark")
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
    layout = plot.layout(
        barmode="group",
        xaxis=plot.axis("", tickangle=-30),
        yaxis=plot.axis("Time to train, minutes"),
    )
    return plot.figure(data, layout)
