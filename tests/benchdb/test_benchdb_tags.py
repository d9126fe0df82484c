"""Template helpers' number and date formats and the chart placeholder (issue 13: one
format per quantity, a label and a text alternative for every chart). No database."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from benchdb.templatetags import benchdb_tags as tags


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [
        (28.604694444444444, "%", "28.6"),
        (1.0288, "x", "1.029"),
        (36309.0, "token/s", "36,309"),
        (None, "min", ""),
    ],
)
def test_in_unit_gives_each_quantity_its_one_format(value, unit, shown):
    assert tags.in_unit(value, unit) == shown


def test_in_unit_shows_minutes_as_every_table_does():
    assert tags.in_unit(28.604694444444444, "min") == tags.minutes(28.604694444444444)
    assert 'title="28.6047 min">28.60<' in tags.in_unit(28.604694444444444, "min")


def test_numbers_are_written_for_people_even_on_hover():
    """No raw float anywhere a person reads (issue 23): 2 decimals shown, 4 on hover."""
    assert str(tags.minutes(28.334533333333336)) == '<span title="28.3345 min">28.33</span>'
    assert str(tags.sig6(36309.123456789)) == '<span title="36,309.1235">36,309.1</span>'


def test_iso_writes_dates_and_times_in_iso_8601_utc():
    cest = timezone(timedelta(hours=2))
    assert tags.iso(datetime(2026, 11, 24, 13, 5, 9, 123456, tzinfo=cest)) == (
        "2026-11-24T11:05:09Z"
    )
    assert tags.iso("2026-11-24T11:05:09.5+00:00") == "2026-11-24T11:05:09Z"
    assert tags.iso(datetime(2026, 1, 2, tzinfo=UTC)) == "2026-01-02T00:00:00Z"
    assert tags.iso(date(2024, 6, 12)) == "2024-06-12"
    assert tags.iso(None) == tags.iso("") == ""


def test_a_chart_says_what_it_shows_and_names_its_table():
    figure = {
        "data": [
            {"customdata": [["/a/"], ["/b/"]]},
            {"x": [1, 2]},  # a reference line: no result, not counted
        ],
        "layout": {},
    }
    html = tags.plotly_chart(figure, "c", label="Time <b>against</b> N", table="results")
    assert 'role="img" aria-label="Time &lt;b&gt;against&lt;/b&gt; N: 2 points"' in html
    assert 'aria-describedby="c-caption"' in html and 'href="#results"' in html
    assert tags.plotly_chart(None, "c") == ""


def test_a_chart_of_curves_counts_their_points():
    """The runs' evaluation curves carry no result (no ``customdata``): their points are
    what the chart draws (the label said "0 points" on every result page)."""
    figure = {"data": [{"x": [1, 2, 3], "y": [0.5, 0.7, 0.76]}, {"x": [1, 2], "y": [0.4, 0.75]}]}
    html = tags.plotly_chart(figure, "e", label="Evaluation accuracy")
    assert 'aria-label="Evaluation accuracy: 5 points"' in html
