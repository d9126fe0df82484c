"""Writing published tables (benchdb/tables/writers.py): CSV and JSON with the same
rows, safe download names, no spreadsheet formulas. Pure: no database."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given
from hypothesis import strategies as st

from benchdb.tables import writers


def test_download_names_are_safe():
    assert (
        writers.download_name("leaderboard", "v1.1", "resnet", "", None)
        == "benchdb-leaderboard-v1.1-resnet"
    )
    assert writers.download_name("x", '../"evil"\r\n; name=a') == "benchdb-x-evil_name_a"


def test_csv_cells_that_would_run_as_formulas_become_text():
    rows = [{"a": '=HYPERLINK("http://x")', "b": -1.5, "c": ["x", "y"], "d": "@SUM(1)", "e": "ok"}]
    [cells] = list(csv.reader(io.StringIO(writers.to_csv(rows, list("abcde")))))[1:]
    assert cells == ['\'=HYPERLINK("http://x")', "-1.5", "x y", "'@SUM(1)", "ok"]


_CELLS = st.one_of(
    st.none(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(
        alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\r"), max_size=12
    ).filter(lambda t: t[:1] not in ("=", "+", "-", "@", "\t")),
)


@given(st.lists(st.fixed_dictionaries({"a": _CELLS, "b": _CELLS, "c": _CELLS}), max_size=5))
def test_csv_and_json_hold_the_same_values_at_full_precision(rows):
    cols = ["a", "b", "c"]
    doc = json.loads(writers.to_json(rows, cols, "benchdb.test/1"))
    assert doc == {"schema": "benchdb.test/1", "columns": cols, "rows": rows}
    parsed = list(csv.DictReader(io.StringIO(writers.to_csv(rows, cols), newline="")))
    expected = [{c: "" if r[c] is None else str(r[c]) for c in cols} for r in rows]
    assert parsed == expected
