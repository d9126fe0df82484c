"""The one page pattern: form -> selector -> CSV | JSON | HTML.

Every table page (MLPerf, claims, ingest jobs) validates its query string with a
form, asks one selector for a :class:`Table`, and answers with ``?format=csv``,
``?format=json`` or the HTML template, all from the same rows (the way Datasette
serves every table in three formats from one data function). Column contracts are
in :mod:`benchdb.tables.schemas`, writing in :mod:`benchdb.tables.writers`, big
exports streamed by :mod:`benchdb.tables.stream`, big HTML tables paged by
:mod:`benchdb.tables.paging` (a form with a ``page`` field).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render

from benchdb.tables import paging, stream


@dataclass
class Table:
    """What a page's selector returns for the three formats.

    ``rows``: dicts over the columns of ``schema`` (a key of
    :data:`benchdb.tables.schemas.SCHEMAS`); ``name``: parts of the download name
    (``("leaderboard", "v1.1", "resnet")``); ``context``: what only the HTML needs.
    """

    rows: Sequence[Mapping[str, Any]]
    schema: str
    name: Sequence[Any]
    context: dict[str, Any] = field(default_factory=dict)


class ExportForm(forms.Form):
    """``format``: empty for the HTML page, ``csv`` or ``json`` for the table.
    Every table page's form derives from it. A parameter the page does not know is an
    error (a 400 naming it), never silently ignored: ``?q=graphcore`` on a page without
    a search box must not answer with every row as if it had filtered."""

    format = forms.ChoiceField(
        choices=[("", "HTML"), ("csv", "CSV"), ("json", "JSON")], required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        unknown = sorted(k for k in self.data if k not in self.fields)
        if unknown:
            known = ", ".join(sorted(self.fields))
            raise forms.ValidationError(
                f"unknown parameter{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(repr(k[:40]) for k in unknown[:5])}; this page takes {known}"
            )
        return cleaned


def export_response(
    fmt: str, rows: Sequence[Mapping[str, Any]], schema: str, name: Sequence[Any]
) -> HttpResponseBase | None:
    """The CSV or JSON download of a table for ``fmt`` (``csv``/``json``), named
    ``benchdb-<name parts>.csv``/``.json``, streamed when big
    (:func:`benchdb.tables.stream.export`); None when the page is wanted as HTML."""
    return stream.export(fmt, rows, schema, name)


def bad_request(request: HttpRequest, form: forms.Form) -> HttpResponse:
    """A 400 page listing the form's errors (every page's answer to bad parameters)."""
    return render(request, "benchdb/bad_request.html", {"form": form}, status=400)


def table_page(
    request: HttpRequest,
    form: forms.Form,
    select: Callable[[dict[str, Any]], Table],
    template: str,
) -> HttpResponseBase:
    """Serve one table page: 400 when ``form`` is invalid, else ``select`` (called
    with the cleaned data) gives the :class:`Table`, answered as CSV or JSON (every
    row) when ``format`` asks for it, else rendered with ``template`` and the context
    ``{"form": form, "rows": rows, **table.context}``; a form with a ``page`` field
    gets one page of the rows and ``page_obj`` (:func:`benchdb.tables.paging.paged_context`)."""
    if not form.is_valid():
        return bad_request(request, form)
    data = form.cleaned_data
    table = select(data)
    out = export_response(data.get("format") or "", table.rows, table.schema, table.name)
    if out is not None:
        return out
    context = {"form": form, **paging.paged_context(form, table.rows), **table.context}
    return render(request, template, context)


#: Rows per HTML page of a paged table (CSV and JSON give every row).
PAGE_SIZE = 100


class PagedForm(ExportForm):
    """``page``: which page of the HTML table (from 1; past the end: the last)."""

    page = forms.IntegerField(min_value=1, required=False)


@dataclass
class PagedTable:
    """What a paginated page's selector returns: ``items`` (a QuerySet or list, sliced
    for the HTML page, read whole for CSV/JSON), ``row`` to reshape one item into a
    row of ``schema``; ``name`` and ``context`` as in :class:`Table`."""

    items: Sequence[Any] | QuerySet[Any]
    row: Callable[[Any], Mapping[str, Any]]
    schema: str
    name: Sequence[Any]
    context: dict[str, Any] = field(default_factory=dict)


def paged_table_page(
    request: HttpRequest,
    form: PagedForm,
    select: Callable[[dict[str, Any]], PagedTable],
    template: str,
) -> HttpResponseBase:
    """:func:`benchdb.tables.pages.table_page` with the HTML cut into pages of
    :data:`PAGE_SIZE` rows (``page_obj`` in the template's context: a Django ``Page``
    for next/previous links); CSV and JSON hold every row, streamed when big
    (:func:`benchdb.tables.stream.export_items`). 400 on a bad form."""
    if not form.is_valid():
        return bad_request(request, form)
    data = form.cleaned_data
    table = select(data)
    out = stream.export_items(
        data.get("format") or "", table.items, table.row, table.schema, table.name
    )
    if out is not None:
        return out
    page = Paginator(table.items, PAGE_SIZE).get_page(data.get("page") or 1)
    rows = [table.row(item) for item in page.object_list]
    context = {"form": form, "rows": rows, "page_obj": page, **table.context}
    return render(request, template, context)
