"""Writing a published table: rows -> CSV text or the JSON document, and safe
download names. Pure: no Django. The columns come from :mod:`benchdb.tables.schemas`.

JSON shape (stable; ``schema`` names it)::

    {"schema": "benchdb.<table>/1", "columns": ["col", ...], "rows": [{"col": value, ...}, ...]}
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def to_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Rows -> CSV text with a header; None becomes an empty cell, a list its items
    joined by spaces, text starting with ``= + - @`` gets a leading ``'``; floats
    keep full precision (``repr``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([_cell(row.get(c)) for c in columns])
    return buf.getvalue()


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
    return json.dumps(
        {
            "schema": schema,
            "columns": list(columns),
            "rows": [{c: row.get(c) for c in columns} for row in rows],
        },
        ensure_ascii=False,
    )


def download_name(*parts: Any) -> str:
    """A safe file name stem from parts: ``("leaderboard", "v1.1", "resnet")`` ->
    ``"benchdb-leaderboard-v1.1-resnet"``; anything but letters, digits, ``.``,
    ``_`` and ``-`` becomes ``_``; empty parts are skipped; at most 120 characters."""
    clean = [
        re.sub(r"[^A-Za-z0-9._-]+", "_", str(p)).strip("._") for p in parts if p not in (None, "")
    ]
    return "-".join(["benchdb", *[c for c in clean if c]])[:120]
