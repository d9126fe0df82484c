"""Result IDs on real results (../shared/mlperf v1.1): ``manage.py import result-ids`` and
the derivation at ingest (``ingest.result_ids``)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from benchdb.mlperf.training import result_ids as rule
from benchdb.models import Result, Round
from ingest.parsers.result_id_table import IdTableError
from ingest.result_ids import result_ids_derive, result_ids_import

pytestmark = pytest.mark.django_db

V11 = "training_results_v1.1"


def _result(submitter: str, system: str, bench: str) -> Result:
    return Result.objects.get(
        round__version="v1.1",
        round__suite="training",
        system__submitter_folder=submitter,
        system__folder=system,
        benchmark_folder=bench,
    )


def test_import_sets_the_id_on_every_result_of_the_system_and_reports_the_rest(
    ingested_shared, tmp_path: Path, client
):
    table = tmp_path / "ids.csv"
    table.write_text(
        "round,id,submitter,system\n"
        "v1.1,1.1-2040,NVIDIA,dgxa100_ngc21.09_pytorch\n"
        "v1.1,1.1-2001,Graphcore,IPU-POD16\n"  # the system_name of three systems
        "v1.1,1.1-2002,Acme,nothing\n"
        "v9.9,9.9-0001,NVIDIA,dgxa100\n"
    )
    out = StringIO()
    call_command("import", "result-ids", str(table), stdout=out)
    nvidia = Result.objects.filter(round__version="v1.1", system__folder="dgxa100_ngc21.09_pytorch")
    assert nvidia.count() >= 1
    assert {(r.result_id, r.result_id_origin) for r in nvidia} == {("1.1-2040", "imported")}
    text = out.getvalue()
    assert text.startswith(
        f"{nvidia.count()} results given an ID, 0 unchanged, 0 conflicts, 3 rows"
    )
    assert f"{table}:3: Graphcore/IPU-POD16 names 3 systems (ipu-pod16-POPART-closed, " in text
    assert f"{table}:4: no system Acme/nothing in v1.1" in text
    assert f"{table}:5: round v9.9 is not ingested" in text
    page = client.get(nvidia.first().get_absolute_url()).content.decode()
    assert '<dd id="result-id">1.1-2040 (imported)</dd>' in page


def test_reimport_reports_the_conflict_and_the_import_wins(ingested_shared, tmp_path: Path):
    path = str(tmp_path / "ids.csv")
    row = "round,id,submitter,system,benchmark\nv1.1,{},Dell,DSS8440x8A100-PCIE-40GB,ResNet-50\n"
    first = result_ids_import(data=row.format("1.1-2011").encode(), path=path)
    again = result_ids_import(data=row.format("1.1-2011").encode(), path=path)
    second = result_ids_import(data=row.format("1.1-2012").encode(), path=path)
    assert (first.imported, again.imported, again.unchanged) == (1, 0, 1)
    r = _result("Dell", "DSS8440x8A100-PCIE-40GB", "resnet")
    assert second.conflicts == [f"{path}:2: {r.source_path} had 1.1-2011 (imported), now 1.1-2012"]
    assert (r.result_id, r.result_id_origin) == ("1.1-2012", "imported")


def test_a_bad_table_writes_nothing_and_the_command_says_where(ingested_shared, tmp_path: Path):
    table = tmp_path / "ids.csv"
    table.write_text(
        "round,id,submitter,system\n"
        "v1.1,1.1-2040,NVIDIA,dgxa100_ngc21.09_pytorch\n"
        "v1.1,1.1-20x0,Dell,DSS8440x8A100-PCIE-40GB\n"
    )
    with pytest.raises(IdTableError):
        result_ids_import(data=table.read_bytes(), path=str(table))
    with pytest.raises(CommandError, match=rf"nothing imported:\n{table}:3: ID '1.1-20x0'"):
        call_command("import", "result-ids", str(table))
    assert not Result.objects.exclude(result_id="").filter(round__version="v1.1").exists()


def test_derivation_follows_the_rule_and_never_replaces_an_imported_id(
    ingested_shared, monkeypatch
):
    rnd = Round.objects.get(suite="training", version="v1.1")
    result_ids_import(
        data=b"round,id,submitter,system\nv1.1,1.1-1234,Baidu,1_node_8_A100_PaddlePaddle\n",
        path="ids.csv",
    )
    assert result_ids_derive(rnd=rnd) == 0  # no rule for v1.1: nothing derived
    monkeypatch.setitem(
        rule.PUBLISHED_RULES,
        "v1.1",
        rule.PublishedRule((rule.CLOUD, rule.ON_PREMISE, rule.RDI), 2000),
    )
    assert result_ids_derive(rnd=rnd) > 0
    # closed: the one cloud system first, then "available" (Dell) before "onprem" rows
    assert _result("Azure", "nd96amsr_a100_v4_ngc21.09_pytorch", "maskrcnn").result_id == "1.1-2000"
    assert _result("Dell", "DSS8440x8A100-PCIE-40GB", "resnet").result_id == "1.1-2001"
    rows = Result.objects.filter(round=rnd).values_list(
        "system_id", "result_id", "result_id_origin"
    )
    by_system: dict[int, set[str]] = {}
    for system, rid, origin in rows:
        by_system.setdefault(system, set()).add(rid)
        assert origin == ("imported" if rid == "1.1-1234" else "derived")
    assert all(len(ids) == 1 for ids in by_system.values())  # one ID per system row
    assert len({next(iter(ids)) for ids in by_system.values()}) == len(by_system)
    monkeypatch.delitem(rule.PUBLISHED_RULES, "v1.1")
    result_ids_derive(rnd=rnd)  # the rule is gone: its IDs go too, the imported one stays
    left = set(Result.objects.filter(round=rnd).exclude(result_id="").values_list("result_id"))
    assert left == {("1.1-1234",)}


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("x" * 200_000, "a cell of more than 131,072 characters"),
        ("Dell\x00", "NUL character in the table"),
        ("x" * 600, "600 characters, over 500 (system)"),
    ],
)
def test_a_huge_cell_or_a_nul_is_a_clear_error_with_file_and_line(
    ingested_shared, tmp_path: Path, bad: str, says: str
):
    """Issue 21 item 8: a 200k-character cell (over csv's field limit) and a NUL (which
    PostgreSQL refuses) gave a traceback; now the command names file and line, and
    nothing is imported (the good row before it included)."""
    table = tmp_path / "ids.csv"
    table.write_text(
        "round,id,submitter,system\n"
        "v1.1,1.1-2040,NVIDIA,dgxa100_ngc21.09_pytorch\n"
        f"v1.1,1.1-2011,Dell,{bad}\n",
        encoding="utf-8",
    )
    with pytest.raises(CommandError) as exc:
        call_command("import", "result-ids", str(table), stdout=StringIO())
    assert str(exc.value) == f"nothing imported:\n{table}:3: {says}"
    assert not Result.objects.exclude(result_id="").filter(round__version="v1.1").exists()
