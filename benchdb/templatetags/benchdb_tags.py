"""Template helpers: query strings that keep a page's state, number formats, and
Plotly figures embedded with ``json_script`` (never ``mark_safe`` on data)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from django import template
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, json_script
from django.utils.http import urlencode
from django.utils.safestring import SafeString

from benchdb import suites as registry

register = template.Library()


@register.simple_tag
def query(request: HttpRequest, **changes: Any) -> str:
    """The current query string with ``changes`` applied (a None or "" value
    removes the key), as ``?a=1&b=2`` (or "" when empty). Autoescaped by the
    template like any string."""
    params = request.GET.copy()
    for key, value in changes.items():
        params.pop(key, None)
        if value not in (None, ""):
            params[key] = str(value)
    pairs = [(k, v) for k in params for v in params.getlist(k) if v != ""]
    return "?" + urlencode(pairs) if pairs else ""


@register.filter
def minutes(value: Any) -> SafeString:
    """A time in minutes as every page shows one: 2 decimals, 4 on hover (CSV and JSON
    carry every digit); "—" for None. One format for the quantity everywhere."""
    if value is None or value != value:
        return SafeString("—")
    v = float(value)
    return format_html('<span title="{} min">{}</span>', f"{v:,.4f}", f"{v:,.2f}")


@register.filter
def megajoules(value: Any) -> SafeString:
    """An energy in joules as every page shows one: MJ with 3 decimals (thousands
    grouped), the full value in J on hover; "—" for None."""
    if value is None or value != value:
        return SafeString("—")
    v = float(value)
    return format_html('<span title="{} J">{}</span>', repr(v), f"{v / 1e6:,.3f}")


@register.filter
def sig6(value: Any) -> SafeString:
    """An MLPerf Inference value as the round's checker prints it: 6 significant digits
    (thousands grouped), 9 on hover (CSV and JSON carry every digit); "—" for None."""
    if value is None or value != value:
        return SafeString("—")
    v = float(value)
    return format_html('<span title="{}">{}</span>', f"{v:,.9g}", f"{v:,.6g}")


@register.filter
def ratio(value: Any, digits: int = 3) -> str:
    """A ratio (speedup, efficiency) with ``digits`` decimals; "—" for None."""
    if value is None or value != value:
        return "—"
    return f"{float(value):.{int(digits)}f}"


@register.filter
def in_unit(value: Any, unit: str) -> SafeString | str:
    """A value in ``unit`` with that quantity's one format: minutes as :func:`minutes`,
    percent 1 decimal, a multiplier ("x") 3 decimals, anything else 6 significant
    digits; "" for None."""
    if value is None or value != value:
        return ""
    if unit == "min":
        return minutes(value)
    if unit == "%":
        return f"{float(value):.1f}"
    if unit in ("x", "×"):
        return f"{float(value):.3f}"
    return f"{float(value):,.6g}"


@register.filter
def iso(value: Any) -> str:
    """A date or time in ISO 8601, the one format of every page: ``2026-11-24``, or
    ``2026-11-24T11:55:43Z`` for a time (UTC, whole seconds); an ISO string is read
    first; "" for None or ""."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return str(value)
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return str(value.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@register.simple_tag
def plotly_chart(
    figure: dict[str, Any] | None,
    element_id: str,
    css_class: str = "chart",
    label: str = "",
    table: str = "",
) -> SafeString:
    """A chart placeholder and its figure as a JSON script element; ``benchdb.js``
    draws it. ``json_script`` escapes ``<``, ``>`` and ``&`` in the data.

    ``label`` says what the chart shows (its ``aria-label``, with the number of points
    drawn: the results' points, those with ``customdata``, beside which a trace without
    it is a reference line; in a chart with no result points, such as the runs'
    evaluation curves, every trace's points); ``table`` is the id of the table holding
    the same rows, the chart's text alternative: the chart names it
    (``aria-describedby``) and a caption links to it."""
    if not figure:
        return SafeString("")
    data_id = f"{element_id}-data"
    traces = figure.get("data", [])
    points = sum(len(t.get("customdata") or []) for t in traces)
    if not any(t.get("customdata") for t in traces):  # no result points (runs' curves)
        points = sum(len(t.get("y") or t.get("x") or []) for t in traces)
    described = f"{label or 'Chart'}: {points} point{'' if points == 1 else 's'}"
    caption = (
        format_html(
            '<p class="chart-caption muted small" id="{}-caption">{}. The same data as '
            'text: <a href="#{}">its table</a>.</p>',
            element_id,
            described,
            table,
        )
        if table
        else ""
    )
    return format_html(
        '<div class="{}" id="{}" data-figure="{}" role="img" aria-label="{}"{}></div>{}{}',
        css_class,
        element_id,
        data_id,
        described,
        format_html(' aria-describedby="{}-caption"', element_id) if table else "",
        caption,
        json_script(figure, data_id),
    )


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]``, or None when absent (dict lookups by a variable key)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def split(value: str, sep: str) -> list[str]:
    """``value.split(sep)`` without empty parts (the ``"; "``-joined flags)."""
    return [p for p in str(value or "").split(sep) if p]


# The score comes right after what names the result, so that at 800 px it is on screen.
_ROW = (
    '<tr data-id="{id}"><td class="nowrap"><input type="checkbox" name="ids" value="{id}" '
    'form="compare-form" aria-label="compare result {id}"{checked}>{add}</td>{round}'
    '<td>{submitter}</td><td class="sys">'
    '<a href="{url}">{name}</a>{folder}</td>{benchmark}<td class="num score">{score}</td>'
    '<td>{division}</td><td class="num">{accelerators}</td><td>{accelerator_model}</td>'
    '<td>{availability}</td><td><div class="long">{framework}</div></td>'
    '<td class="num">{counted}/{total}</td><td>{result_id}</td></tr>\n'
)


def energy_line(joules: float | None, scope: str | None) -> SafeString:
    """Under a score: the result's energy to train (MJ) and its scope, or nothing."""
    if joules is None:
        return SafeString("")
    return format_html(
        '<div class="muted small energy">{} MJ <span title="measured: {}">{}</span></div>',
        megajoules(joules),
        "nodes and switches" if scope == "node+switch" else "nodes",
        scope,
    )


@register.simple_tag
def result_rows(
    rows: list[dict[str, Any]],
    show_round: bool = False,
    show_benchmark: bool = False,
    tray: list[int] | None = None,
) -> SafeString:
    """The ``<tr>`` of a results table (``benchdb/_result_table.html``), one per row
    of ``benchdb.result_table/1``. Built here rather than in a template loop, which
    took 0.1 ms a row (12 ms for a page of 100); ``format_html`` escapes every value.
    ``tray``: the compare tray's result ids: their boxes are ticked, and every other row
    gets a link comparing it with them (the first picked is the baseline)."""
    out = []
    compare = reverse("benchdb:compare")
    for r in rows:
        in_tray = bool(tray) and r["id"] in (tray or [])
        add = ""
        if tray and not in_tray:
            query = urlencode({"ids": ",".join(map(str, [*tray, r["id"]]))})
            add = format_html(' <a class="add small" href="{}?{}">compare</a>', compare, query)
        score = (
            minutes(r["score_minutes"])
            if r["score_minutes"] is not None
            else format_html('<span class="muted" title="{}">no score</span>', r["reason"])
        )
        score = format_html(
            "{}{}", score, energy_line(r.get("energy_joules"), r.get("energy_scope"))
        )
        name = r["system_name"] or r["system"]
        out.append(
            format_html(
                _ROW,
                id=r["id"],
                checked=" checked" if in_tray else "",
                add=add,
                url=r["url"],
                submitter=r["submitter"],
                name=name,
                folder=format_html('<div class="muted small">{}</div>', r["system"])
                if name != r["system"]
                else "",
                round=format_html("<td>{}</td>", r["round"]) if show_round else "",
                benchmark=format_html("<td>{}</td>", r["benchmark"]) if show_benchmark else "",
                division=r["division"],
                availability=r["availability"] or "unknown",
                accelerators="" if r["accelerators"] is None else r["accelerators"],
                accelerator_model=r["accelerator_model"],
                framework=r["framework"],
                score=score,
                counted=r["runs_counted"],
                total=r["runs_total"],
                result_id=r["result_id"],
            )
        )
    return SafeString("".join(out))  # every part is format_html's output


@register.simple_tag
def round_table_rows(
    table: Any,
    show_round: bool = False,
    changed: dict[str, str] | None = None,
    rows: Any = None,
) -> SafeString:
    """The ``<tr>`` of a round table (``benchdb/round_table.html``): built here, as
    :func:`result_rows`, because a template loop over a round's systems x benchmarks
    took most of the page's time; ``format_html`` escapes every value. ``changed``:
    result URL -> kinds of its changes since publication (marked). ``rows``: the rows
    shown (one page of ``table.rows``; default all of them)."""
    out = []
    for row in table.rows if rows is None else rows:
        cells = [format_html("<td>{}</td>", row["round"])] if show_round else []
        name = row["system_name"] or row["system"]
        folder = (
            format_html('<div class="muted small">{}</div>', row["system"])
            if name != row["system"]
            else ""
        )
        cells.append(format_html("<td>{}</td>", row["submitter"]))
        cells.append(
            format_html('<td class="sys"><a href="{}">{}</a>{}</td>', row["details"], name, folder)
        )
        for key, _ in table.benchmarks:
            score = row["scores"].get(key)
            link = format_html('<a href="{}">{}</a>', score[1], minutes(score[0])) if score else ""
            if score:
                link = format_html("{}{}", link, energy_line(score[2], score[3]))
                link = format_html("{}{}", link, changed_mark(changed, score[1]))
            cells.append(format_html('<td class="num score">{}</td>', link))
        hosts = row["host_processors_per_node"]
        links = format_html('<a href="{}">details</a>', row["details"])
        if row["logs"].startswith("https://"):
            links = format_html(
                '{} · <a href="{}" rel="noopener noreferrer">logs</a> · '
                '<a href="{}" rel="noopener noreferrer">code</a>',
                links,
                row["logs"],
                row["code"],
            )
        cells.append(
            format_html(
                '<td>{}</td><td>{}</td><td class="num">{}</td><td>{}</td><td>{}{}</td>'
                '<td><div class="long">{}</div></td><td>{}</td><td class="nowrap">{}</td>',
                row["division"],
                row["availability"] or "unknown",
                "" if row["accelerators"] is None else row["accelerators"],
                row["accelerator_model"],
                row["host_processor_model"],
                f" × {hosts}" if hosts else "",
                row["framework"],
                row["result_ids"] or "not known",
                links,
            )
        )
        out.append(format_html("<tr>{}</tr>\n", SafeString("".join(cells))))
    return SafeString("".join(out))  # every part is format_html's output


def changed_mark(changed: dict[str, str] | None, url: str) -> str:
    """A "changed" chip (its kinds as the title, linking to the result's History) for a
    result changed since publication, else ""."""
    kinds = changed.get(url) if changed else None
    if not kinds:
        return ""
    return format_html(
        ' <a class="chip changed" href="{}#history" title="changed since publication: {}">'
        "changed</a>",
        url,
        kinds,
    )


_RUN_ROW = (
    '<tr><td class="nowrap">{file}</td><td class="num">{minutes}</td><td><span class="chip '
    '{role}">{role}</span></td><td>{converged}</td><td class="num">{at}</td><td class="num">'
    '{batch}</td><td>{start} / {stop}</td><td class="nowrap"><a href="{page}">log</a> · '
    '<a href="{raw}" download="{file}">raw</a>{source}</td><td>{why}</td></tr>\n'
)


@register.simple_tag
def run_rows(runs: list[dict[str, Any]], energy: bool = False) -> SafeString:
    """The ``<tr>`` of a result's runs table (``benchdb.runs/1`` rows), built here as
    :func:`result_rows` (a 40-run unet3d result spent most of its page in the loop).
    ``energy``: a last cell with each run's energy (MJ) for a power result."""
    out = []
    for run in runs:
        at = ""
        if run["converge_at"] is not None:
            at = f"{float(run['converge_at']):.3f}".rstrip("0").rstrip(".") + " "
            at += run["converge_unit"]
        source = ""
        if str(run["source"]).startswith("https://"):
            source = format_html(
                ' · <a href="{}" rel="noopener noreferrer">source</a>', run["source"]
            )
        out.append(
            format_html(
                _RUN_ROW,
                file=run["file"],
                minutes=minutes(run["time_to_train_minutes"]),
                role=run["role"],
                converged="yes" if run["converged"] else "no",
                at=at,
                batch="" if run["global_batch_size"] is None else run["global_batch_size"],
                start="?" if run["run_start_line"] is None else run["run_start_line"],
                stop="?" if run["run_stop_line"] is None else run["run_stop_line"],
                page=run["log_page"],
                raw=run["log_url"],
                source=source,
                why=run["failure_reason"],
            )
        )
        if energy:
            cell = format_html('<td class="num">{}</td></tr>\n', megajoules(run["energy_joules"]))
            out[-1] = SafeString(out[-1].removesuffix("</tr>\n") + cell)
    return SafeString("".join(out))  # every part is format_html's output


@register.simple_tag
def log_lines(lines: list[tuple[int, str, str]]) -> SafeString:
    """The numbered lines of the log viewer: ``<span id="L<n>">`` with its ``#L<n>`` link
    and the mark as a class; escaped by ``format_html``."""
    out = [
        format_html(
            '<span id="L{}" class="ln{}"><a href="#L{}" class="no" aria-hidden="true">{}</a>'
            "{}\n</span>",
            n,
            f" {mark}" if mark else "",
            n,
            n,
            text,
        )
        for n, text, mark in lines
    ]
    return SafeString("".join(out))  # every part is format_html's output


@register.simple_tag
def inference_round_rows(pivot: Any, changed: dict[str, str] | None = None) -> SafeString:
    """The ``<tr>`` of an inference round table (``benchdb/inference/round.html``): a
    system's fields and, per (model, scenario) column, its value linked to the result,
    marked when rejected or unverifiable, with a tick box for the compare tray;
    ``format_html`` escapes every value."""
    out = []
    for s in pivot.systems:
        cells = [
            format_html("<td>{}</td>", s["submitter"]),
            format_html(
                '<td class="sys">{}<div class="muted small">{}</div></td>',
                s["system_name"] or s["system"],
                s["system"],
            ),
        ]
        for model, scenario, _ in pivot.columns:
            r = s["cells"].get((model, scenario))
            if r is None:
                cells.append(SafeString('<td class="num"></td>'))
                continue
            shown = "—" if r["value"] is None else f"{r['value']:,.6g}"
            mark = (
                ""
                if r["status"] == "valid"
                else format_html(
                    ' <span class="chip {}" title="{}">{}</span>',
                    r["status"],
                    r["reason"] or r["missing"],
                    "rejected" if r["status"] == "invalid" else "unverifiable",
                )
            )
            cells.append(
                format_html(
                    '<td class="num score"><input type="checkbox" name="ids" value="{}" '
                    'form="compare-form" data-label="{}" aria-label="compare {}">'
                    ' <a href="{}">{}</a>{}</td>',
                    r["id"],
                    f"{s['system_name'] or s['system']} · {model} {scenario}",
                    f"{s['system']} {model} {scenario}",
                    r["url"],
                    shown,
                    format_html("{}{}", mark, changed_mark(changed, r["url"])),
                )
            )
        cells.append(
            format_html(
                '<td>{}</td><td>{}</td><td>{}</td><td class="num">{}</td><td>{}</td><td>{}</td>'
                '<td><div class="long">{}</div></td>',
                s["division"],
                s["category"],
                s["result_id"] or "",
                "" if s["accelerators"] is None else s["accelerators"],
                s["accelerator"],
                s["processor"],
                s["software"],
            )
        )
        out.append(format_html("<tr>{}</tr>\n", SafeString("".join(cells))))
    return SafeString("".join(out))  # every part is format_html's output


@register.simple_tag
def suite_links() -> list[tuple[str, str]]:
    """(short label, rounds page URL) of every suite, in registry order
    (``benchdb.suites``): the site's navigation lists the suites from the registry."""
    return [(s.short, reverse(s.rounds_url)) for s in registry.SUITES]
