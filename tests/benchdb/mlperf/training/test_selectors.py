"""List reads (benchdb/mlperf/training/selectors.py): the permalinks in table rows, the same as
the models' and the URLconf's for any folder name, and hyperparameters cut in the
database."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from django.urls import resolve, reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from benchdb.mlperf.training import selectors
from benchdb.models import Result, Run

# A folder name: any text without '/', not "." or ".." (which no file system allows).
_SEGMENT = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="/\x00"), min_size=1
).filter(lambda s: s not in (".", ".."))
_SYSTEM = st.lists(_SEGMENT, min_size=1, max_size=3).map("/".join)  # v0.5: submission/system


@settings(max_examples=300, deadline=None)
@given(_SEGMENT, _SEGMENT, _SEGMENT, _SYSTEM, _SEGMENT)
def test_result_path_is_reverse_and_resolves_back_to_the_natural_key(
    suite, version, submitter, system, benchmark
):
    key = (suite, version, submitter, system, benchmark)
    path = selectors.result_path(key)
    assert path == reverse("benchdb:result", args=key)
    match = resolve(unquote(path))  # a request's path arrives decoded
    assert match.url_name == "result"
    assert (
        match.kwargs["suite"],
        match.kwargs["round_version"],
        match.kwargs["submitter"],
        match.kwargs["system"],
        match.kwargs["benchmark"],
    ) == key


@pytest.mark.django_db
def test_table_rows_carry_the_models_permalinks(ingested_shared):
    qs = selectors.result_list()
    rows = selectors.result_table_rows(qs)
    assert len(rows) == Result.objects.count() > 40
    assert [r["url"] for r in rows] == [r.get_absolute_url() for r in qs]
    v20 = next(r for r in rows if (r["round"], r["system"]) == ("v2.0", "IPU_POD16_PaddlePaddle"))
    assert v20["url"] == f"/results/training/v2.0/Baidu/IPU_POD16_PaddlePaddle/{v20['benchmark']}/"


@pytest.mark.django_db
def test_hyperparameters_are_cut_in_the_database_and_others_kept_as_logged(ingested_shared):
    run = Run.objects.filter(role=Run.Role.COUNTED).exclude(hyperparameters={}).first()
    logged = dict(run.hyperparameters)
    long_list = list(range(1000))
    Run.objects.filter(pk=run.pk).update(hyperparameters={**logged, "long": long_list})
    got = selectors.hyperparameters_get([run.pk, 10**9])
    assert got[10**9] == {}
    assert {k: v for k, v in got[run.pk].items() if k != "long"} == logged
    text = str(long_list).replace(" ", "")  # PostgreSQL writes "[0, 1, ..." with spaces
    assert got[run.pk]["long"].startswith("[0, 1, 2, ")
    assert got[run.pk]["long"].endswith(f"… ({len(text) + 999:,} characters)")
