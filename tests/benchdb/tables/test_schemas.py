"""The published column contracts (benchdb/tables/schemas.py). Pure: no database."""

from __future__ import annotations

from benchdb.tables import schemas


def test_every_schema_names_its_columns_once_and_the_export_schema_is_unchanged():
    assert schemas.columns("benchdb.results/1") == schemas.RESULT_COLUMNS
    assert schemas.columns("benchdb.result_table/1") == ("id", *schemas.RESULT_COLUMNS, "url")
    for name, cols in schemas.SCHEMAS.items():
        names = [c.name for c in cols]
        assert len(names) == len(set(names)), name
        assert all(
            c.type.split("|")[0] in {"string", "integer", "number", "boolean", "array"}
            for c in cols
        )
