"""Pages. Each view validates its query string, calls one selector, and renders
HTML, CSV or JSON from the same rows."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from benchdb import exports, selectors
from benchdb.models import Result, System


def _table_response(request: HttpRequest, rows: list[dict], columns, schema: str, filename: str) -> HttpResponse | None:  # type: ignore[type-arg]
    fmt = request.GET.get("format")
    if fmt == "csv":
        resp = HttpResponse(exports.to_csv(rows, columns), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return resp
    if fmt == "json":
        resp = HttpResponse(exports.to_json(rows, columns, schema), content_type="application/json")
        resp["Content-Disposition"] = f'inline; filename="{filename}.json"'
        return resp
    return None


def home(request: HttpRequest) -> HttpResponse:
    return results(request)


def results(request: HttpRequest) -> HttpResponse:
    g = request.GET
    qs = selectors.result_list(
        round_version=g.get("round") or None, submitter=g.get("submitter") or None,
        benchmark=g.get("benchmark") or None, division=g.get("division") or None,
    )  # fmt: skip
    rows = [exports.result_row(r) | {"pk": r.pk} for r in qs]
    out = _table_response(request, rows, exports.RESULT_COLUMNS, "benchdb.results/1", "results")
    return out or render(request, "benchdb/results.html", {"rows": rows})


def result_detail(request: HttpRequest, pk: int) -> HttpResponse:
    result = get_object_or_404(Result.objects.select_related("round", "system", "system__submitter", "benchmark"), pk=pk)  # fmt: skip
    return render(request, "benchdb/result.html", {"result": result, "runs": result.runs.all()})


def system_detail(request: HttpRequest, pk: int) -> HttpResponse:
    system = get_object_or_404(System.objects.select_related("round", "submitter"), pk=pk)
    return render(request, "benchdb/system.html", {"system": system, "results": system.results.select_related("benchmark")})  # fmt: skip
