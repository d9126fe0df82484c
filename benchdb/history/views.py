"""The history pages, each the one page pattern (``benchdb.tables.pages``): every change
of a published result (``/changes/``, paged HTML, CSV, JSON; ``/changes/feed/``: Atom,
by django.contrib.syndication) and every known result ID with its sources (``/ids/``).
A result page's History section and the round tables' marks come from the template
tags of ``benchdb.templatetags.history_tags``."""

from __future__ import annotations

from typing import Any

from django.contrib.syndication.views import Feed
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.feedgenerator import Atom1Feed

from benchdb.history import ids, selectors
from benchdb.history.forms import ChangesForm, FeedForm, IdsForm
from benchdb.models import ResultVersion
from benchdb.tables.pages import PagedTable, Table, bad_request, paged_table_page, table_page

#: Entries of the Atom feed (the newest).
FEED_ENTRIES = 100


def _filters(d: dict[str, Any]) -> dict[str, str]:
    return {
        "suite": d.get("suite") or "",
        "round_version": d.get("round") or "",
        "submitter": d.get("submitter") or "",
        "kind": d.get("kind") or "",
        "origin": d.get("origin") or "",
    }


def changes(request: HttpRequest) -> HttpResponseBase:
    """Every change of a published result, newest first, filtered."""

    def select(d: dict[str, Any]) -> PagedTable:
        qs = selectors.change_list(**_filters(d))
        name = ("changes", d.get("suite") or "", d.get("round") or "")
        return PagedTable(qs, selectors.change_row, "benchdb.changes/1", name, {})

    return paged_table_page(request, ChangesForm(request.GET), select, "history/changes.html")


def result_ids(request: HttpRequest) -> HttpResponseBase:
    """Every known result ID and each of its sources."""

    def select(d: dict[str, Any]) -> Table:
        rows = ids.id_rows(
            suite=d.get("suite") or "", round_version=d.get("round") or "", q=d.get("q") or ""
        )
        return Table(rows, "benchdb.result_ids/1", ("result-ids", d.get("round") or ""), {})

    return table_page(request, IdsForm(request.GET), select, "history/ids.html")


class ChangesFeed(Feed):  # type: ignore[type-arg]
    """``/changes/feed/``: the newest :data:`FEED_ENTRIES` changes as Atom, with the
    filters of ``/changes/`` (a bad filter: 400)."""

    feed_type = Atom1Feed
    title = "benchdb: changes to published MLPerf results"
    link = "/changes/"
    subtitle = (
        "Every change benchdb saw in a published result: field: old -> new, source commit, "
        "when seen; withdrawn and moved results; claims checked again."
    )

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = FeedForm(request.GET)
        if not form.is_valid():
            return bad_request(request, form)
        request.history_filters = _filters(form.cleaned_data)  # type: ignore[attr-defined]
        return super().__call__(request, *args, **kwargs)

    def get_object(self, request: HttpRequest, *args: Any, **kwargs: Any) -> dict[str, str]:
        return dict(request.history_filters)  # type: ignore[attr-defined]

    def items(self, obj: dict[str, str]) -> list[ResultVersion]:
        return list(selectors.change_list(**obj)[:FEED_ENTRIES])

    def item_title(self, item: ResultVersion) -> str:
        kinds = ", ".join(item.kind_list)
        return f"{item.suite} {item.round_version} {item.path}: {kinds}"

    def item_description(self, item: ResultVersion) -> str:
        row = selectors.change_row(item)
        parts = [row["changes"], f"commit {row['commit'] or '(none)'}"]
        if row["claims"]:
            parts.append("claims checked again: " + row["claims"])
        return " · ".join(parts)

    def item_link(self, item: ResultVersion) -> str:
        return selectors.version_url(item) or f"/changes/?round={item.round_version}#v{item.pk}"

    def item_guid(self, item: ResultVersion) -> str:
        return f"benchdb-result-version-{item.pk}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: ResultVersion) -> Any:
        return item.committed or item.seen

    def item_updateddate(self, item: ResultVersion) -> Any:
        return item.seen
