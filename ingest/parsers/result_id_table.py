"""A table of MLPerf Training result IDs that a user holds from MLCommons (CSV), for
``manage.py import result-ids``. Pure: no Django.

Columns (header names are matched without case, spaces or underscores; order is free):
``round`` (``v3.0`` or ``3.0``), ``id`` (``3.0-2053``), ``submitter``, ``system`` (the
system folder / systems JSON name, or its ``system_name``), and optionally ``benchmark``
(when given, the ID is for that benchmark's result only; else for every result of the
system) and ``division``. Other columns are ignored.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

from benchdb.mlperf.training.result_ids import RESULT_ID
from ingest.parsers.types import ParseError

#: Header spellings -> column.
HEADERS = {
    "round": "round",
    "version": "round",
    "id": "id",
    "resultid": "id",
    "publicid": "id",
    "mlperfid": "id",
    "submitter": "submitter",
    "organization": "submitter",
    "system": "system",
    "systemname": "system",
    "benchmark": "benchmark",
    "model": "benchmark",
    "division": "division",
}
REQUIRED = ("round", "id", "submitter", "system")
MAX_ROWS = 100_000
MAX_CELL = 500
ROUND = re.compile(r"v?(\d+)\.(\d+)")


@dataclass(frozen=True)
class IdRow:
    """One row: ``line`` is the 1-based line of the CSV file; ``round`` as ``"v3.0"``;
    ``benchmark`` and ``division`` are ``""`` when the table has no such column."""

    line: int
    round: str
    result_id: str
    submitter: str
    system: str
    benchmark: str = ""
    division: str = ""


class IdTableError(ValueError):
    """Every fault of a table (``errors``, each with file and line); nothing of the
    table is used when there is one."""

    def __init__(self, errors: list[ParseError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


def _header(cells: list[str], path: str) -> dict[str, int]:
    cols: dict[str, int] = {}
    for i, name in enumerate(cells):
        col = HEADERS.get(re.sub(r"[\s_\-]", "", name).lower())
        if col and col not in cols:
            cols[col] = i
    missing = [c for c in REQUIRED if c not in cols]
    if missing:
        found = ", ".join(repr(c) for c in cells) or "nothing"
        raise IdTableError(
            [
                ParseError(
                    f"no column {', '.join(missing)} in the header (found {found})",
                    path=path,
                    line=1,
                )
            ]
        )
    return cols


def _row(cells: list[str], cols: dict[str, int], line: int, path: str) -> IdRow:
    def cell(name: str) -> str:
        i = cols.get(name)
        value = cells[i].strip() if i is not None and i < len(cells) else ""
        if len(value) > MAX_CELL:
            raise ParseError(
                f"{len(value):,} characters, over {MAX_CELL}", path=path, line=line, field=name
            )
        return value

    rnd = ROUND.fullmatch(cell("round"))
    if not rnd:
        raise ParseError(
            f"round {cell('round')!r} is not like v3.0", path=path, line=line, field="round"
        )
    version = f"v{int(rnd.group(1))}.{int(rnd.group(2))}"
    rid = cell("id")
    m = RESULT_ID.fullmatch(rid)
    if not m:
        raise ParseError(f"ID {rid!r} is not like 3.0-2053", path=path, line=line, field="id")
    if f"v{int(m.group(1))}.{int(m.group(2))}" != version:
        raise ParseError(f"ID {rid} is not of round {version}", path=path, line=line, field="id")
    for name in ("submitter", "system"):
        if not cell(name):
            raise ParseError("empty", path=path, line=line, field=name)
    return IdRow(
        line,
        version,
        rid,
        cell("submitter"),
        cell("system"),
        cell("benchmark"),
        cell("division").lower(),
    )


def parse_id_table(data: bytes, path: str = "") -> list[IdRow]:
    """The rows of a result-ID CSV. Raises :class:`IdTableError` listing every fault with
    its file and line: not UTF-8, a NUL character, a cell csv refuses (over 128 KiB), a
    cell over :data:`MAX_CELL` characters, a required column missing, a bad round or ID, an ID not
    of its row's round, an empty submitter or system, more than :data:`MAX_ROWS` rows, one
    ID given to two systems, or two IDs given to one (system, benchmark)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IdTableError(
            [ParseError(f"not UTF-8 ({exc.reason} at byte {exc.start})", path=path)]
        ) from exc
    if "\x00" in text:  # csv reads it; PostgreSQL's text columns refuse it
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise IdTableError([ParseError("NUL character in the table", path=path, line=line)])
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        cols = _header(next(reader, []), path)
    except csv.Error as exc:
        raise IdTableError([ParseError(f"CSV: {exc}", path=path, line=1)]) from None
    rows: list[IdRow] = []
    errors: list[ParseError] = []
    try:
        _rows(reader, cols, path, rows, errors)
    except csv.Error as exc:  # a cell over csv's field_size_limit (128 KiB), say
        why = f"CSV: {exc}"
        if "field larger than field limit" in str(exc):
            why = f"a cell of more than {csv.field_size_limit():,} characters"
        errors.append(ParseError(why, path=path, line=reader.line_num))
    errors += _clashes(rows, path)
    if errors:
        raise IdTableError(errors)
    return rows


def _rows(
    reader: Any, cols: dict[str, int], path: str, rows: list[IdRow], errors: list[ParseError]
) -> None:
    """Read the rows after the header into ``rows`` and ``errors``. Raises csv.Error."""
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(rows) + len(errors) >= MAX_ROWS:
            errors.append(ParseError(f"more than {MAX_ROWS:,} rows", path=path, line=line))
            break
        try:
            rows.append(_row(cells, cols, line, path))
        except ParseError as exc:
            errors.append(exc)


def _clashes(rows: list[IdRow], path: str) -> list[ParseError]:
    by_id: dict[tuple[str, str], IdRow] = {}
    by_target: dict[tuple[str, str, str, str], IdRow] = {}
    out = []
    for r in rows:
        target = (r.round, r.submitter.lower(), r.system.lower(), r.benchmark.lower())
        first = by_id.setdefault((r.round, r.result_id), r)
        if (first.submitter.lower(), first.system.lower()) != target[1:3]:
            out.append(
                ParseError(
                    f"ID {r.result_id} is also given to {first.submitter}/{first.system} "
                    f"on line {first.line}",
                    path=path,
                    line=r.line,
                    field="id",
                )
            )
        other = by_target.setdefault(target, r)
        if other.result_id != r.result_id:
            out.append(
                ParseError(
                    f"{r.submitter}/{r.system} already has ID {other.result_id} "
                    f"on line {other.line}",
                    path=path,
                    line=r.line,
                    field="id",
                )
            )
    return out
