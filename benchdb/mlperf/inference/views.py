"""MLPerf Inference pages (issue 11), each the one page pattern
(:func:`benchdb.tables.pages.table_page`): the rounds, a round's table (MLCommons' layout),
a leaderboard per model and scenario, a result with every rule it was judged by, and one
of its stored files as numbered lines."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from benchdb.mlperf import forms
from benchdb.mlperf.inference import figures as figures_inference
from benchdb.mlperf.inference import records as records_inference
from benchdb.mlperf.inference import selectors as sel
from benchdb.tables.pages import ExportForm, Table, table_page
from benchdb.vocabulary import inference_scenario_for


def rounds(request: HttpRequest) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        rows = sel.inference_rounds()
        return Table(rows, "benchdb.inference_rounds/1", ("inference-rounds",), {})

    return table_page(request, ExportForm(request.GET), select, "benchdb/inference/rounds.html")


def round_table(request: HttpRequest, round_version: str) -> HttpResponseBase:
    """One row per system, a column per model x scenario; CSV/JSON: the results."""

    def select(d: dict[str, Any]) -> Table:
        filters: dict[str, Any] = {k: d[k] or None for k in ("division", "category", "submitter")}
        rows = sel.inference_result_rows(round_version=round_version, **filters)
        context: dict[str, Any] = {"round_version": round_version}
        if not d["format"]:  # the pivot and its filter choices are the HTML page's
            choices = sel.inference_round_choices(round_version)
            context["pivot"] = sel.inference_pivot(rows, choices)
        name = ("inference", round_version, *(v for v in filters.values() if v))
        return Table(rows, "benchdb.inference_results/1", name, context)

    form = forms.InferenceRoundTableForm(request.GET)
    return table_page(request, form, select, "benchdb/inference/round.html")


def leaderboard(
    request: HttpRequest, round_version: str, model: str, scenario: str
) -> HttpResponseBase:
    """One model and scenario of a round, best first, with a chart against accelerators;
    ``?power=on``: the results measured for power, with their efficiency."""
    scen = inference_scenario_for(scenario) or scenario

    def select(d: dict[str, Any]) -> Table:
        filters: dict[str, Any] = {k: d[k] or None for k in ("division", "category", "submitter")}
        rows = sel.inference_leaderboard(
            sel.inference_result_rows(
                round_version=round_version, model=model, scenario=scen, **filters
            )
        )
        if d["power"]:
            rows = [r for r in rows if r["power"] is not None]
        unit = rows[0]["unit"] if rows else ""
        context: dict[str, Any] = {"round_version": round_version, "model": model, "scenario": scen}
        context["tray"] = ",".join(map(str, d["ids"]))
        context["tray_ids"] = d["ids"]  # no row links to a compare with itself
        if not d["format"]:
            title = f"{model} {scen}, {round_version}"
            context["figure"] = figures_inference.leaderboard(rows, unit=unit, title=title)
            context["unit"] = unit
        name = ("inference", round_version, model, scen, *(v for v in filters.values() if v))
        return Table(rows, "benchdb.inference_results/1", name, context)

    form = forms.InferenceBoardForm(request.GET)
    return table_page(request, form, select, "benchdb/inference/leaderboard.html")


def _result(request: HttpRequest, key: tuple[str, ...]) -> HttpResponseBase:
    def select(d: dict[str, Any]) -> Table:
        detail = records_inference.inference_result_get(key)
        rows = [
            {
                "rule": f.rule,
                "path": f.path,
                "line": f.line,
                "message": f.message,
                "invalidates": f.invalidates,
            }
            for f in detail.findings
        ]
        context = {"d": detail, "r": detail.result, "key": key}
        context["system"] = records_inference.system_summary(detail.result)
        return Table(rows, "benchdb.inference_findings/1", ("inference-findings", *key), context)

    return table_page(request, ExportForm(request.GET), select, "benchdb/inference/result.html")


def result(
    request: HttpRequest,
    round_version: str,
    division: str,
    submitter: str,
    system: str,
    model: str,
    scenario: str,
) -> HttpResponseBase:
    """A result by its natural key; CSV/JSON: the rules it fails."""
    return _result(request, (round_version, division, submitter, system, model, scenario))


def file_page(
    request: HttpRequest,
    round_version: str,
    division: str,
    submitter: str,
    system: str,
    model: str,
    scenario: str,
) -> HttpResponseBase:
    """A stored file of a result as numbered lines (``#L<n>`` anchors), the lines the
    rules read or fail at marked; ``?format=raw`` is the file as ingested."""
    key = (round_version, division, submitter, system, model, scenario)
    if request.GET.get("format") == "raw" and set(request.GET) <= {"format", "path"}:
        log, data = records_inference.raw_file(key, request.GET.get("path", ""))
        resp = HttpResponse(data, content_type="text/plain; charset=utf-8")
        resp["X-Content-Type-Options"] = "nosniff"
        resp["Content-Security-Policy"] = "sandbox; default-src 'none'"
        name = log.path.rsplit("/", 1)[-1].replace('"', "")
        resp["Content-Disposition"] = f'inline; filename="{name}"'
        return resp

    def select(d: dict[str, Any]) -> Table:
        page = records_inference.inference_file_get(key, d["path"], d["start"] or 1)
        rows = [{"line": n, "text": t, "mark": m} for n, t, m in page.lines]
        end = page.start + len(page.lines) - 1
        context = {"page": page, "key": key, "end": end}
        return Table(rows, "benchdb.run_log_lines/1", ("inference-file", *key), context)

    return table_page(request, forms.InferenceFileForm(request.GET), select,
                      "benchdb/inference/file.html")  # fmt: skip


def compare(request: HttpRequest) -> HttpResponseBase:
    """``?ids=3,7[&base=7]``: inference results side by side; no ratio across scenarios
    or models, and every difference the messaging guidelines require stated."""

    def select(d: dict[str, Any]) -> Table:
        c = sel.inference_compare(d["ids"], d["base"])
        context = {"c": c, "ids": ",".join(map(str, d["ids"]))}
        return Table(
            c.rows, "benchdb.inference_compare/1", ("inference-compare", *d["ids"]), context
        )

    form = forms.CompareForm(request.GET)
    return table_page(request, form, select, "benchdb/inference/compare.html")


def history(request: HttpRequest) -> HttpResponseBase:
    """Generations and software over rounds: one model and scenario, one line per
    accelerator model and count."""

    def select(d: dict[str, Any]) -> Table:
        model = d["model"] or "resnet"
        scenario = inference_scenario_for(d["scenario"] or "Offline") or d["scenario"]
        rows, accelerators = sel.inference_history(
            model=model, scenario=scenario, accelerator=d["accelerator"], division=d["division"]
        )
        unit = rows[0]["unit"] if rows else ""
        context: dict[str, Any] = {
            "model": model,
            "scenario": scenario,
            "accelerators": accelerators,
        }
        if not d["format"] and rows:
            title = f"{model} {scenario}: the best valid result of each series, by round"
            context["figure"] = figures_inference.history(rows, unit=unit, title=title)
        context["unit"] = unit
        name = ("inference-history", model, scenario, d["accelerator"])
        return Table(rows, "benchdb.inference_results/1", name, context)

    return table_page(request, forms.InferenceHistoryForm(request.GET), select,
                      "benchdb/inference/history.html")  # fmt: skip
