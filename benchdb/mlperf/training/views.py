"""MLPerf pages. Each view is the one page pattern (:func:`benchdb.tables.pages.table_page`):
its form validates the query string, its selector gives a :class:`~benchdb.tables.pages.Table`,
and the same rows become HTML, ``?format=csv`` or ``?format=json``; the URL holds all
of a page's state. For HTML only: figures (``benchdb.mlperf.training.figures``) and, on pages
with drop-down filters, their options (``selectors.filter_choices``). Parameters and
tables of every page: ``/api/`` (``templates/benchdb/api.html``)."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
from django import forms as django_forms
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from benchdb import vocabulary
from benchdb.mlperf import forms
from benchdb.mlperf.training import analysis, derived, figures, records, selectors
from benchdb.mlperf.training.round_table import round_table_get
from benchdb.tables import schemas, writers
from benchdb.tables.pages import ExportForm, Table, bad_request, table_page


def home(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        summary = selectors.round_summary()
        context = {"summary": summary, "search": forms.SearchForm()}
        return Table(summary.rows, "benchdb.rounds/1", ("rounds",), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/home.html")


def round_table(request: HttpRequest, round_version: str = "") -> HttpResponseBase:
    """MLCommons' results layout: one row per system and division, a column per
    benchmark; ``/rounds/`` holds every round."""

    def select(d: dict[str, Any]) -> Table:
        filters = {k: d[k] for k in ("division", "availability", "submitter", "accelerator")}
        table = round_table_get(round_version=round_version, sort=d["sort"], **filters)
        name = ("round-table", round_version or "all", *filters.values())
        context = {"table": table, "round_version": round_version, "show_round": not round_version}
        return Table(table.rows, "benchdb.round_table/1", name, context)

    form = forms.RoundTableForm(request.GET)
    return table_page(request, form, select, "benchdb/round_table.html")


def results(request: HttpRequest) -> HttpResponseBase:
    """Search: results whose submitter, system, accelerator or framework contain
    the given text; 100 a page in HTML, all of them as CSV or JSON."""
    form = forms.SearchForm(request.GET)

    def select(d: dict[str, Any]) -> Table:
        filters = form.filters()
        page = selectors.result_search(page=None if d["format"] else (d["page"] or 1), **filters)
        name = ("results", *(v for v in filters.values() if v))
        context = {"page": page, "choices": selectors.filter_choices()}
        context |= _tray_context(d["ids"], page.rows)
        return Table(page.rows, "benchdb.result_table/1", name, context)

    return table_page(request, form, select, "benchdb/results.html")


def leaderboard(request: HttpRequest, round_version: str, benchmark: str) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        board = selectors.leaderboard_get(
            round_version=round_version,
            benchmark=benchmark,
            division=d["division"],
            availability=d["availability"],
            submitter=d["submitter"],
            accelerator_model=d["accelerator"],
        )
        filters = (d["division"], d["availability"], d["submitter"], d["accelerator"])
        name = ("leaderboard", board.round.version, board.benchmark.key, *filters)
        context: dict[str, Any] = {"board": board}
        if not d["format"]:
            context["figure"] = figures.leaderboard_scatter(pd.DataFrame(board.rows))
            context |= _tray_context(d["ids"], board.rows)
        return Table(board.rows, "benchdb.result_table/1", name, context)

    return table_page(
        request, forms.LeaderboardForm(request.GET), select, "benchdb/leaderboard.html"
    )


def _tray_context(ids: list[int], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What a table page shows of the compare tray (``benchdb/_compare_form.html``)."""
    tray = analysis.tray_get(ids)
    return {"tray": tray, "tray_ids": [t["id"] for t in tray], "shown_ids": {r["id"] for r in rows}}


def result_detail(
    request: HttpRequest,
    suite: str,
    round_version: str,
    submitter: str,
    system: str,
    benchmark: str,
) -> HttpResponseBase:
    """One result by its natural key (the permalink)."""
    key = (suite, round_version, submitter, system, benchmark)

    def select(d: dict[str, Any]) -> Table:
        detail = records.result_get(key)
        r = detail.row
        name = ("runs", r["round"], r["submitter"], r["system"], r["benchmark"])
        context: dict[str, Any] = {"d": detail, "r": r}
        if not d["format"]:
            context["figure"] = _eval_figure(detail)
        return Table(detail.runs, "benchdb.runs/1", name, context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/result.html")


def _permanent_redirect(request: HttpRequest, url: str) -> HttpResponseBase:
    """301 to ``url`` with the request's query string (``?format=csv`` stays)."""
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


def result_by_id(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The old id URL of a result: a permanent redirect to its permalink."""
    return _permanent_redirect(request, reverse("benchdb:result", args=records.result_key_get(pk)))


def system_by_id(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The old id URL of a system: a permanent redirect to its permalink."""
    return _permanent_redirect(request, reverse("benchdb:system", args=records.system_key_get(pk)))


def run_log_by_id(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The old id URL of a run's log: a permanent redirect to its permalink."""
    return _permanent_redirect(request, reverse("benchdb:run_log", args=records.run_key_get(pk)))


def _eval_figure(detail: records.ResultDetail) -> dict[str, Any]:
    points = [
        {"run": c["run"], "role": c["role"], "at": at, "value": v}
        for c in detail.curves
        for at, v in c["points"]
    ]
    frame = pd.DataFrame(points, columns=["run", "role", "at", "value"])
    target = detail.target
    metric = "eval_accuracy" + (f" ({target.part})" if target and target.part else "")
    unit = next((run["converge_unit"] for run in detail.runs if run["converge_unit"]), "epoch_num")
    value = target.value if target else None
    return figures.eval_curves(frame, unit=unit, target=value, metric=metric)


def run_log(
    request: HttpRequest,
    suite: str,
    round_version: str,
    submitter: str,
    system: str,
    benchmark: str,
    file_name: str,
) -> HttpResponseBase:
    """The stored log of a run, byte for byte, as text/plain (never rendered as
    HTML: ``nosniff`` and a sandboxing CSP), streamed from the database in pieces
    (``records.run_log_chunks``): a log of any size costs a bounded amount of memory."""
    key = (suite, round_version, submitter, system, benchmark)
    run = records.run_log_get(key, file_name)
    resp = StreamingHttpResponse(
        records.run_log_chunks(run.pk), content_type="text/plain; charset=utf-8"
    )
    resp["X-Content-Type-Options"] = "nosniff"
    resp["Content-Security-Policy"] = "sandbox; default-src 'none'"
    # The file's own name (``result_1.txt``), so a saved log is what the repository holds.
    name = writers.download_name(run.file_name).removeprefix("benchdb-") or "log.txt"
    resp["Content-Disposition"] = f'inline; filename="{name}"'
    resp["X-Benchdb-SHA256"] = run.sha256
    return resp


def run_log_page(
    request: HttpRequest,
    suite: str,
    round_version: str,
    submitter: str,
    system: str,
    benchmark: str,
    file_name: str,
) -> HttpResponseBase:
    """The stored log of a run as a page: numbered lines with ``#L<n>`` anchors, the
    lines the rules read (``run_start``, ``run_stop``, evaluations, the one that reached
    the quality target) marked; ``LOG_WINDOW`` lines at a time (``?start=``)."""
    key = (suite, round_version, submitter, system, benchmark)

    def select(d: dict[str, Any]) -> Table:
        log = records.run_log_page_get(key, file_name, d["start"] or 1)
        rows = [{"line": n, "text": t, "mark": m} for n, t, m in log.lines]
        end = min(log.total, log.start + records.LOG_WINDOW - 1)
        context = {
            "log": log,
            "end": end,
            "prev_start": max(1, log.start - records.LOG_WINDOW) if log.start > 1 else None,
            "next_start": end + 1 if end < log.total else None,
            "result_url": _result_url(key),
        }
        return Table(rows, "benchdb.run_log_lines/1", ("log", *key[1:], file_name), context)

    return table_page(request, forms.RunLogForm(request.GET), select, "benchdb/run_log.html")


def _result_url(key: tuple[str, ...]) -> str:
    return reverse("benchdb:result", args=key)


def system_detail(
    request: HttpRequest, suite: str, round_version: str, submitter: str, system: str
) -> HttpResponseBase:
    """One system by its natural key (the permalink)."""
    key = (suite, round_version, submitter, system)

    def select(d: dict[str, Any]) -> Table:
        detail = records.system_get(key)
        s = detail.system
        name = ("system", s.round.version, s.submitter_folder, s.folder)
        return Table(detail.rows, "benchdb.result_table/1", name, {"d": detail, "s": s})

    return table_page(request, ExportForm(request.GET), select, "benchdb/system.html")


def compare(request: HttpRequest) -> HttpResponseBase:
    """``?ids=3,7[&base=7]``; repeated ``ids`` (checkboxes) redirect to that form."""
    form = forms.CompareForm(request.GET)
    if form.is_valid() and len(request.GET.getlist("ids")) > 1:
        ids = form.cleaned_data["ids"]
        extra = {k: v for k in ("base", "format") if (v := request.GET.get(k))}
        query = {"ids": ",".join(map(str, ids))} | extra
        return HttpResponseRedirect(f"{reverse('benchdb:compare')}?{urlencode(query)}")

    def select(d: dict[str, Any]) -> Table:
        comparison = analysis.compare_get(ids=d["ids"], base=d["base"])
        for row in comparison.rows:  # the tray without it (its "remove" link); not exported
            row["without"] = ",".join(str(i) for i in d["ids"] if i != row["id"])
        context = {
            "c": comparison,
            "ids": ",".join(map(str, d["ids"])),
            "footnote_derived": derived.FOOTNOTE_DERIVED,
            "footnote_trademark": derived.FOOTNOTE_TRADEMARK,
        }
        if not d["format"] and len(comparison.rows) > 1:
            context["figure"] = figures.compare_bars(pd.DataFrame(comparison.rows))
        return Table(comparison.rows, "benchdb.compare/1", ("compare", *d["ids"]), context)

    return table_page(request, form, select, "benchdb/compare.html")


def divisions(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        rows = analysis.division_list(
            round_version=d["round"], benchmark=d["benchmark"], submitter=d["submitter"]
        )
        name = ("divisions", d["round"], d["benchmark"], d["submitter"])
        context: dict[str, Any] = {}
        if not d["format"]:
            context = {"figure": _division_figure(rows), "choices": selectors.filter_choices()}
        return Table(rows, "benchdb.divisions/1", name, context)

    return table_page(request, forms.DivisionsForm(request.GET), select, "benchdb/divisions.html")


def _division_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pairs = [r for r in rows if r["closed_id"]]
    frame = pd.DataFrame(pairs, columns=schemas.columns("benchdb.divisions/1"))
    frame["closed_url"] = [r["closed_url"] for r in pairs]
    frame["open_url"] = [r["open_url"] for r in pairs]
    return figures.division_bars(frame)


def software(request: HttpRequest) -> HttpResponseBase:
    """One benchmark on one or more accelerator models across rounds. Until both are
    chosen the HTML page shows the matching choice with the most rounds and says what
    to choose; CSV and JSON need both (400)."""
    form = forms.SoftwareForm(request.GET)
    if form.is_valid() and not form.ready and form.cleaned_data["format"]:
        required = "benchmark and accelerator"
        return _choose_first(request, form, required, "benchdb/software.html", {})

    def select(d: dict[str, Any]) -> Table:
        context: dict[str, Any] = {}
        if not form.ready:
            choices = analysis.software_choices()
            d, context = _default_view(d, choices, choices, ("benchmark", "accelerator"))
        rows = []
        if d["benchmark"] and d["accelerator"]:
            rows = analysis.software_list(
                benchmark=d["benchmark"],
                accelerator_models=d["accelerator"],
                submitter=d["submitter"],
                division=d["division"],
            )
        name = ("software", d["benchmark"], *d["accelerator"], d["submitter"])
        if not d["format"]:
            rounds = vocabulary.round_order(r["round"] for r in rows)
            context["figure"] = figures.software_timeline(pd.DataFrame(rows), rounds)
            context["filters"] = selectors.filter_choices()
        return Table(rows, "benchdb.software/1", name, context)

    return table_page(request, form, select, "benchdb/software.html")


def scaling(request: HttpRequest) -> HttpResponseBase:
    """One submitter, accelerator model and benchmark across system sizes. Until all
    three are chosen the HTML page shows the matching choice with the most sizes and
    says what to choose; CSV and JSON need all three (400)."""
    form = forms.ScalingForm(request.GET)
    if form.is_valid() and not form.ready and form.cleaned_data["format"]:
        required = "submitter, accelerator and benchmark"
        return _choose_first(request, form, required, "benchdb/scaling.html", {})

    def select(d: dict[str, Any]) -> Table:
        context: dict[str, Any] = {}
        if not form.ready:
            choices = analysis.scaling_choices()
            most = sorted(choices, key=lambda c: -c["sizes"])  # stable: round order on ties
            required = ("submitter", "accelerator", "benchmark")
            d, context = _default_view(d, choices, most, required, also=("round",))
        rows = []
        if d["submitter"] and d["accelerator"] and d["benchmark"]:
            rows = analysis.scaling_list(
                submitter=d["submitter"],
                accelerator_model=d["accelerator"],
                benchmark=d["benchmark"],
                round_version=d["round"],
                division=d["division"],
            )
        name = ("scaling", d["submitter"], d["accelerator"], d["benchmark"], d["round"])
        if not d["format"]:
            frame = pd.DataFrame(rows, columns=schemas.columns("benchdb.scaling/1"))
            frame["series"] = frame["round"] + " " + frame["framework_family"]
            context |= {
                "filters": selectors.filter_choices(),
                "time_figure": figures.scaling_time(frame),
                "efficiency_figure": figures.scaling_efficiency(frame),
            }
        return Table(rows, "benchdb.scaling/1", name, context)

    return table_page(request, form, select, "benchdb/scaling.html")


def _default_view(
    d: dict[str, Any],
    choices: list[dict[str, Any]],
    ranked: list[dict[str, Any]],
    required: tuple[str, ...],
    also: tuple[str, ...] = (),
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A page's default view before its ``required`` filters are chosen: ``d`` (the
    form's cleaned data) with what is missing (and the empty ``also`` keys) taken from
    the best matching choice (first in ``ranked``), and the context: the choices that
    agree with what is chosen (the index table), the names still missing, that choice.
    The form keeps "choose" in its drop-downs, so that picking one value starts from
    what the user chose, not from the default."""
    matching = derived.matching_choices(choices, d)
    best = next(iter(derived.matching_choices(ranked, d)), None)
    missing = derived.missing_choices(d, required)
    shown = dict(d)
    if best is not None:
        for key in (*missing, *derived.missing_choices(d, also)):
            shown[key] = [best[key]] if isinstance(d[key], list) else best[key]
    return shown, {"choices": matching, "missing": missing, "default": best}


def _choose_first(
    request: HttpRequest,
    form: django_forms.Form,
    required: str,
    template: str,
    context: dict[str, Any],
) -> HttpResponseBase:
    """A page that needs choices before it has a table: the choosing form as HTML,
    a 400 naming the ``required`` parameters when CSV or JSON was asked for."""
    if form.cleaned_data["format"]:
        form.add_error(None, f"{required} are required")
        return bad_request(request, form)
    filters = selectors.filter_choices()
    return render(request, template, {"form": form, "filters": filters, **context})


def api(request: HttpRequest) -> HttpResponseBase:
    """The published tables and their columns (``schemas.SCHEMAS``); as JSON with
    ``?format=json``."""
    if request.GET.get("format") == "json":
        doc = {
            name: [{"name": c.name, "type": c.type, "description": c.description} for c in cols]
            for name, cols in schemas.SCHEMAS.items()
        }
        body = json.dumps({"schemas": doc}, ensure_ascii=False)
        return HttpResponse(body, content_type="application/json")
    return render(request, "benchdb/api.html", {"schemas": schemas.SCHEMAS})
