"""A table's CSV or JSON as an HTTP response: whole, and streamed when it is big.

Every row of a table is in its export (the HTML page may show a page of them,
:mod:`benchdb.tables.paging`). An export of more than :data:`STREAM_MIN_ROWS` rows is
a Django ``StreamingHttpResponse`` whose body is written a chunk of
:data:`benchdb.tables.writers.CHUNK_ROWS` rows at a time
(:func:`benchdb.tables.writers.csv_chunks`, :func:`~benchdb.tables.writers.json_chunks`):
the text of the whole table is never held, and rows given as a QuerySet are read from
the database a chunk at a time (``QuerySet.iterator``). A smaller export is one
``HttpResponse``. Both have the same bytes, headers and schema (the CSV header line,
the JSON ``schema`` and ``columns``), and the same CSV cell escaping. The page cache
(:mod:`benchdb.page_cache`) keeps a streamed export too once it has been sent whole,
and answers conditional GETs for both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase

from benchdb.tables import schemas, writers

#: An export with more rows than this is streamed (smaller ones: one response).
STREAM_MIN_ROWS = 1000

_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}
_DISPOSITION = {"csv": "attachment", "json": "inline"}


def export(
    fmt: str, rows: Sequence[Mapping[str, Any]], schema: str, name: Sequence[Any]
) -> HttpResponseBase | None:
    """The ``csv`` or ``json`` download of ``rows`` (dicts over the columns of
    ``schema``, a key of :data:`benchdb.tables.schemas.SCHEMAS`), named
    ``benchdb-<name parts>.csv``/``.json``; streamed when there are more than
    :data:`STREAM_MIN_ROWS` rows. None for any other ``fmt`` (the HTML page)."""
    if fmt not in _TYPES:
        return None
    return _response(fmt, rows, len(rows), schema, name)


def export_items(
    fmt: str,
    items: Sequence[Any] | QuerySet[Any],
    row: Callable[[Any], Mapping[str, Any]],
    schema: str,
    name: Sequence[Any],
) -> HttpResponseBase | None:
    """:func:`export` of ``row(item)`` for each of ``items``. A QuerySet is read up to
    :data:`STREAM_MIN_ROWS` + 1 rows (the queries of reading it whole, when that is
    all of it); when there are more, it is read again from the start,
    ``CHUNK_ROWS`` rows at a time, as the response streams."""
    if fmt not in _TYPES:
        return None
    if not isinstance(items, QuerySet):
        return _response(fmt, (row(item) for item in items), len(items), schema, name)
    head = list(items[: STREAM_MIN_ROWS + 1])
    if len(head) <= STREAM_MIN_ROWS:
        return _response(fmt, [row(item) for item in head], len(head), schema, name)
    rows = (row(item) for item in items.iterator(chunk_size=writers.CHUNK_ROWS))
    return _response(fmt, rows, STREAM_MIN_ROWS + 1, schema, name)


def _response(
    fmt: str, rows: Iterable[Mapping[str, Any]], count: int, schema: str, name: Sequence[Any]
) -> HttpResponseBase:
    cols = schemas.columns(schema)
    chunks: Iterator[str] = (
        writers.csv_chunks(rows, cols) if fmt == "csv" else writers.json_chunks(rows, cols, schema)
    )
    resp: HttpResponseBase
    if count > STREAM_MIN_ROWS:
        resp = StreamingHttpResponse((c.encode() for c in chunks), content_type=_TYPES[fmt])
    else:
        resp = HttpResponse("".join(chunks), content_type=_TYPES[fmt])
    stem = writers.download_name(*name)
    resp["Content-Disposition"] = f'{_DISPOSITION[fmt]}; filename="{stem}.{fmt}"'
    return resp
