"""Pages. Each view validates its query string with a form, calls its page's
selector, and renders HTML, CSV or JSON from the same rows (``?format=csv|json``);
the URL holds all of a page's state. For HTML only: figures (``benchdb.figures``)
and, on pages with drop-down filters, their options (``selectors.filter_choices``).
Parameters and tables of every page: ``/api/`` (``templates/benchdb/api.html``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd
from django import forms as django_forms
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from benchdb import exports, figures, forms, selectors


def export_response(fmt: str, rows: Sequence[dict[str, Any]], columns: Sequence[str], schema: str, name: str) -> HttpResponse | None:  # fmt: skip
    """The CSV or JSON download of a page's table for ``fmt`` (``csv``/``json``),
    named ``<name>.csv``/``.json``; None when the page is wanted as HTML."""
    if fmt == "csv":
        resp = HttpResponse(exports.to_csv(rows, columns), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return resp
    if fmt == "json":
        resp = HttpResponse(exports.to_json(rows, columns, schema), content_type="application/json")
        resp["Content-Disposition"] = f'inline; filename="{name}.json"'
        return resp
    return None


def _export(fmt: str, rows: Sequence[dict[str, Any]], schema: str, name: str) -> HttpResponse | None:  # fmt: skip
    return export_response(fmt, rows, exports.columns(schema), schema, name)


def _bad_request(request: HttpRequest, form: django_forms.Form) -> HttpResponse:
    return render(request, "benchdb/bad_request.html", {"form": form}, status=400)


def home(request: HttpRequest) -> HttpResponse:
    form = forms.ExportForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    summary = selectors.round_summary()
    out = _export(form.cleaned_data["format"], summary.rows, "benchdb.rounds/1", exports.download_name("rounds"))  # fmt: skip
    return out or render(request, "benchdb/home.html", {"summary": summary, "search": forms.SearchForm()})  # fmt: skip


def results(request: HttpRequest) -> HttpResponse:
    """Search: results whose submitter, system, accelerator or framework contain
    the given text; 100 a page in HTML, all of them as CSV or JSON."""
    form = forms.SearchForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    fmt = form.cleaned_data["format"]
    page = selectors.result_search(page=None if fmt else (form.cleaned_data["page"] or 1), **form.filters())  # fmt: skip
    name = exports.download_name("results", *(v for v in form.filters().values() if v))
    out = _export(fmt, page.rows, "benchdb.result_table/1", name)
    return out or render(request, "benchdb/results.html", {"form": form, "page": page, "choices": selectors.filter_choices()})  # fmt: skip


def leaderboard(request: HttpRequest, round_version: str, benchmark: str) -> HttpResponse:
    form = forms.LeaderboardForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    d = form.cleaned_data
    board = selectors.leaderboard_get(
        round_version=round_version, benchmark=benchmark, division=d["division"],
        availability=d["availability"], submitter=d["submitter"], accelerator_model=d["accelerator"],
    )  # fmt: skip
    name = exports.download_name("leaderboard", board.round.version, board.benchmark.key, d["division"], d["availability"], d["submitter"], d["accelerator"])  # fmt: skip
    out = _export(d["format"], board.rows, "benchdb.result_table/1", name)
    if out:
        return out
    figure = figures.leaderboard_scatter(pd.DataFrame(board.rows))
    return render(request, "benchdb/leaderboard.html", {"board": board, "form": form, "figure": figure})  # fmt: skip


def result_detail(request: HttpRequest, pk: int) -> HttpResponse:
    form = forms.ExportForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    detail = selectors.result_get(pk)
    r = detail.row
    name = exports.download_name("runs", r["round"], r["submitter"], r["system"], r["benchmark"])
    out = _export(form.cleaned_data["format"], detail.runs, "benchdb.runs/1", name)
    if out:
        return out
    points = [
        {"run": c["run"], "role": c["role"], "at": at, "value": v}
        for c in detail.curves for at, v in c["points"]
    ]  # fmt: skip
    frame = pd.DataFrame(points, columns=["run", "role", "at", "value"])
    metric = "eval_accuracy" + (f" ({detail.target.part})" if detail.target and detail.target.part else "")  # fmt: skip
    unit = next((run["converge_unit"] for run in detail.runs if run["converge_unit"]), "epoch_num")
    figure = figures.eval_curves(frame, unit=unit, target=detail.target.value if detail.target else None, metric=metric)  # fmt: skip
    return render(request, "benchdb/result.html", {"d": detail, "r": r, "figure": figure})


def run_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The stored log of a run, byte for byte, as text/plain (never rendered as
    HTML: ``nosniff`` and a sandboxing CSP)."""
    run, data = selectors.run_log_get(pk)
    resp = HttpResponse(data, content_type="text/plain; charset=utf-8")
    resp["X-Content-Type-Options"] = "nosniff"
    resp["Content-Security-Policy"] = "sandbox; default-src 'none'"
    resp["Content-Disposition"] = f'inline; filename="{exports.download_name("run", run.pk, run.file_name)}.txt"'  # fmt: skip
    resp["X-Benchdb-SHA256"] = run.sha256
    return resp


def system_detail(request: HttpRequest, pk: int) -> HttpResponse:
    form = forms.ExportForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    detail = selectors.system_get(pk)
    s = detail.system
    name = exports.download_name("system", s.round.version, s.submitter_folder, s.folder)
    out = _export(form.cleaned_data["format"], detail.rows, "benchdb.result_table/1", name)
    return out or render(request, "benchdb/system.html", {"d": detail, "s": s})


def compare(request: HttpRequest) -> HttpResponse:
    """``?ids=3,7[&base=7]``; repeated ``ids`` (checkboxes) redirect to that form."""
    form = forms.CompareForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    d = form.cleaned_data
    if len(request.GET.getlist("ids")) > 1:
        query = {"ids": ",".join(map(str, d["ids"]))} | {k: v for k in ("base", "format") if (v := request.GET.get(k))}  # fmt: skip
        return HttpResponseRedirect(f"{reverse('benchdb:compare')}?{urlencode(query)}")
    comparison = selectors.compare_get(ids=d["ids"], base=d["base"])
    name = exports.download_name("compare", *d["ids"])
    out = _export(d["format"], comparison.rows, "benchdb.compare/1", name)
    if out:
        return out
    figure = figures.compare_bars(pd.DataFrame(comparison.rows)) if len(comparison.rows) > 1 else None  # fmt: skip
    context = {
        "form": form, "c": comparison, "figure": figure, "ids": ",".join(map(str, d["ids"])),
        "footnote_derived": exports.FOOTNOTE_DERIVED, "footnote_trademark": exports.FOOTNOTE_TRADEMARK,
    }  # fmt: skip
    return render(request, "benchdb/compare.html", context)


def divisions(request: HttpRequest) -> HttpResponse:
    form = forms.DivisionsForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    d = form.cleaned_data
    rows = selectors.division_list(round_version=d["round"], benchmark=d["benchmark"], submitter=d["submitter"])  # fmt: skip
    out = _export(d["format"], rows, "benchdb.divisions/1", exports.download_name("divisions", d["round"], d["benchmark"], d["submitter"]))  # fmt: skip
    if out:
        return out
    pairs = [r for r in rows if r["closed_id"]]
    frame = pd.DataFrame(pairs, columns=exports.columns("benchdb.divisions/1"))
    frame["closed_url"] = [reverse("benchdb:result", args=[r["closed_id"]]) for r in pairs]
    frame["open_url"] = [reverse("benchdb:result", args=[r["open_id"]]) for r in pairs]
    context = {"form": form, "rows": rows, "figure": figures.division_bars(frame), "choices": selectors.filter_choices()}  # fmt: skip
    return render(request, "benchdb/divisions.html", context)


def software(request: HttpRequest) -> HttpResponse:
    form = forms.SoftwareForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    d = form.cleaned_data
    if not form.ready:
        if d["format"]:
            return _bad_request(request, _missing(form, "benchmark and accelerator are required"))
        return render(request, "benchdb/software.html", {"form": form, "choices": selectors.software_choices(), "filters": selectors.filter_choices()})  # fmt: skip
    rows = selectors.software_list(benchmark=d["benchmark"], accelerator_models=d["accelerator"], submitter=d["submitter"], division=d["division"])  # fmt: skip
    out = _export(d["format"], rows, "benchdb.software/1", exports.download_name("software", d["benchmark"], *d["accelerator"], d["submitter"]))  # fmt: skip
    if out:
        return out
    rounds = exports.round_order(r["round"] for r in rows)
    figure = figures.software_timeline(pd.DataFrame(rows), rounds)
    return render(request, "benchdb/software.html", {"form": form, "rows": rows, "figure": figure, "filters": selectors.filter_choices()})  # fmt: skip


def scaling(request: HttpRequest) -> HttpResponse:
    form = forms.ScalingForm(request.GET)
    if not form.is_valid():
        return _bad_request(request, form)
    d = form.cleaned_data
    if not form.ready:
        if d["format"]:
            return _bad_request(request, _missing(form, "submitter, accelerator and benchmark are required"))  # fmt: skip
        return render(request, "benchdb/scaling.html", {"form": form, "choices": selectors.scaling_choices(), "filters": selectors.filter_choices()})  # fmt: skip
    rows = selectors.scaling_list(
        submitter=d["submitter"], accelerator_model=d["accelerator"], benchmark=d["benchmark"],
        round_version=d["round"], division=d["division"],
    )  # fmt: skip
    out = _export(d["format"], rows, "benchdb.scaling/1", exports.download_name("scaling", d["submitter"], d["accelerator"], d["benchmark"], d["round"]))  # fmt: skip
    if out:
        return out
    frame = pd.DataFrame(rows, columns=exports.columns("benchdb.scaling/1"))
    frame["series"] = frame["round"] + " " + frame["framework_family"]
    context = {
        "form": form, "rows": rows, "filters": selectors.filter_choices(),
        "time_figure": figures.scaling_time(frame), "efficiency_figure": figures.scaling_efficiency(frame),
    }  # fmt: skip
    return render(request, "benchdb/scaling.html", context)


def _missing(form: django_forms.Form, message: str) -> django_forms.Form:
    form.add_error(None, message)
    return form


def api(request: HttpRequest) -> HttpResponse:
    """The published tables and their columns (``exports.SCHEMAS``); as JSON with
    ``?format=json``."""
    if request.GET.get("format") == "json":
        doc = {
            name: [{"name": c.name, "type": c.type, "description": c.description} for c in cols]
            for name, cols in exports.SCHEMAS.items()
        }  # fmt: skip
        return HttpResponse(json.dumps({"schemas": doc}, ensure_ascii=False), content_type="application/json")  # fmt: skip
    return render(request, "benchdb/api.html", {"schemas": exports.SCHEMAS})
