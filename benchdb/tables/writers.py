"""Writing a published table: rows -> CSV text or the JSON document, and safe
download names. Pure: no Django. The columns come from :mod:`benchdb.tables.schemas`.

JSON shape (stable; ``schema`` names it)::

    {"schema": "benchdb.<table>/1", "columns": ["col", ...], "rows": [{"col": value, ...}, ...]}

:func:`csv_chunks` and :func:`json_chunks` write the same text piece by piece (a
chunk per ``chunk_rows`` rows), for responses streamed in constant memory
(:mod:`benchdb.tables.stream`); :func:`to_csv` and :func:`to_json` join them.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any

#: Rows per chunk of a streamed table.
CHUNK_ROWS = 500


def to_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Rows -> CSV text with a header; None becomes an empty cell, a list its items
    joined by spaces, text starting with ``= + - @`` gets a leading ``'``; floats
    keep full precision (``repr``)."""
    return "".join(csv_chunks(rows, columns))


def csv_chunks(
    rows: Iterable[Mapping[str, Any]], columns: Sequence[str], chunk_rows: int = CHUNK_ROWS
) -> Iterator[str]:
    """:func:`to_csv`'s text in pieces: the header line, then the lines of each
    ``chunk_rows`` rows (read from ``rows`` lazily: at most one chunk is held)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    yield buf.getvalue()
    it = iter(rows)
    while chunk := list(islice(it, chunk_rows)):
        buf.seek(0)
        buf.truncate()
        w.writerows([_cell(row.get(c)) for c in columns] for row in chunk)
        yield buf.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = " ".join(map(str, value))
    if isinstance(value, str) and value[:1] in _FORMULA_START:
        # Scraped text opened in a spreadsheet must not run as a formula (OWASP
        # "CSV injection"): a leading apostrophe makes it text. JSON keeps it as is.
        return "'" + value
    return value


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_json(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], schema: str) -> str:
    """Rows -> the JSON document described in the module docstring."""
    return "".join(json_chunks(rows, columns, schema))


def json_chunks(
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str],
    schema: str,
    chunk_rows: int = CHUNK_ROWS,
) -> Iterator[str]:
    """:func:`to_json`'s document in pieces, the same characters as ``json.dumps`` of
    the whole (default separators, ``ensure_ascii=False``): the head with the schema
    and columns, the rows ``chunk_rows`` at a time (read lazily), then ``]}``."""
    head = json.dumps({"schema": schema, "columns": list(columns)}, ensure_ascii=False)
    yield head[:-1] + ', "rows": ['
    it = iter(rows)
    sep = ""
    while chunk := list(islice(it, chunk_rows)):
        yield sep + ", ".join(
            json.dumps({c: row.get(c) for c in columns}, ensure_ascii=False) for row in chunk
        )
        sep = ", "
    yield "]}"


def download_name(*parts: Any) -> str:
    """A safe file name stem from parts: ``("leaderboard", "v1.1", "resnet")`` ->
    ``"benchdb-leaderboard-v1.1-resnet"``; anything but letters, digits, ``.``,
    ``_`` and ``-`` becomes ``_``; empty parts are skipped; at most 120 characters."""
    clean = [
        re.sub(r"[^A-Za-z0-9._-]+", "_", str(p)).strip("._") for p in parts if p not in (None, "")
    ]
    return "-".join(["benchdb", *[c for c in clean if c]])[:120]
