"""A published table's columns: :class:`Column` (name, JSON type, meaning) and
:func:`cols`, which reads them from ``name | type | description`` lines. The suites'
``schemas.py`` and ``benchdb.tables.schemas`` write their tables with these. Pure."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One column of a published table: JSON type and meaning (with unit)."""

    name: str
    type: str
    description: str


def cols(spec: str) -> tuple[Column, ...]:
    """``name | type | description`` lines -> columns; an indented line continues the
    previous line's description."""
    rows: list[list[str]] = []
    for line in spec.strip("\n").splitlines():
        if line.startswith(" ") and rows:
            rows[-1][2] += " " + line.strip()
        else:
            rows.append([p.strip() for p in line.split(" | ")])
    return tuple(Column(name, type_, desc) for name, type_, desc in rows)
