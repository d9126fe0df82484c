"""Big tables cut into pages in HTML (issue 24): a page of a 2,189-result leaderboard
or of every round's systems instead of a 1.3 MB document; the CSV and JSON keep every
row (:mod:`benchdb.tables.stream`).

Django's ``Paginator`` does the cutting. A paged table's form has a ``page`` field that
is a :class:`PageField` (a number past the end gives the last page, as
``Paginator.get_page`` does); the template includes ``vendor/_pager.html`` (links that
keep every other parameter: filters, sort, the compare tray). Any figure of the page
is drawn from every row, before the cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.paginator import Page, Paginator

#: Rows per HTML page of a big table.
PAGE_ROWS = 100


class PageField(forms.IntegerField):
    """``?page=N``: which page of the HTML table, from 1 (empty: the first)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, required=False, **kwargs)


def page_of(rows: Sequence[Any], number: int | None) -> Page:  # type: ignore[type-arg]
    """Page ``number`` (from 1; None: 1; past the end: the last) of ``rows`` cut into
    :data:`PAGE_ROWS` rows; ``page.object_list`` holds its rows, ``page.paginator.count``
    all of them."""
    return Paginator(rows, PAGE_ROWS).get_page(number or 1)


def paged_context(form: forms.Form, rows: Sequence[Any]) -> dict[str, Any]:
    """For a form whose ``page`` field is a :class:`PageField`: ``{"rows": the page's
    rows, "page_obj": the Page}``; for any other form: ``{"rows": rows}`` (the page
    shows every row, or its selector pages them itself, as the search does)."""
    if not isinstance(form.fields.get("page"), PageField):
        return {"rows": rows}
    page = page_of(rows, form.cleaned_data.get("page"))
    return {"rows": page.object_list, "page_obj": page}
