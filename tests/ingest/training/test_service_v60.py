"""MLPerf Training v6.0 on the real subset in ``tests/data/training-v6.0`` (see
tests/data/README.md): scored with the 6.0.0-rc6 rules, and given the ID a frozen ID
list (mlcommons/logging 75b9465's ``--id_json_path`` format) holds for its system.

The expected figures were printed by mlcommons/logging's result summarizer on the same
files (tests/data/README.md gives the commands); they are copied here, not produced by
benchdb.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchdb.mlperf.training.result_ids_v6 import IdListError
from benchdb.models import Result, Run
from ingest.result_ids_list import result_ids_from_list
from ingest.training.service import mlperf_training_ingest

DATA = Path(__file__).resolve().parents[2] / "data"
TREE = DATA / "training-v6.0" / "training_results_v6.0"
FOLDER = "Inventec/results/P9000IG7_ngc26.04_nemo/llama2_70b_lora"
AMD_FOLDER = "AMD/results/MI355X_EPYC_9575F_primus/llama31_8b"
ID_LIST = DATA / "result_ids" / "v6.0" / "id_list_75b9465.json"
#: ``llama2_70b_lora:time_to_train`` of the summarizer at 6.0.0-rc6 (and 391a0a6) on the
#: tree as published (no scaling.json in the folder): the olympic mean of 8 of 10 runs.
TIME_TO_TRAIN = 6.531964583333333


def _ingest() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


@pytest.mark.django_db
def test_v60_llama2_70b_lora_equals_the_summarizer() -> None:
    result = _ingest()
    assert result.round.version == "v6.0"
    assert result.benchmark.key == "llama2_70b_lora"
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    runs = list(result.runs.order_by("index"))
    assert len(runs) == 10 and not [r for r in runs if r.failure_reason]
    roles = sorted(r.role for r in runs)
    assert roles.count(Run.Role.COUNTED) == 8
    # result_9 (7.70 min) is the slowest, result_6 (6.5097 min) the fastest
    slow = next(r for r in runs if r.file_name == "result_9.txt")
    assert slow.role != Run.Role.COUNTED
    assert result.result_id == "" and result.result_id_origin == ""


@pytest.mark.django_db
def test_v60_ids_come_from_the_frozen_list() -> None:
    """The list written by the 75b9465 summarizer numbers AMD's row 1 and Inventec's 2;
    it was written from those two systems files only, so AMD's 8xMI325X system (its
    flux1 result, added later), GigaComputing's DLB2-CB3 (gpt_oss_20b) and NVIDIA's
    theia-cmh_ngpu512 (llama31_405b), theia_ngpu256 (deepseekv3_671b) and theia_ngpu64
    (dlrm_dcnv2), added later still, are not in it and keep no ID."""
    result = _ingest()
    report = result_ids_from_list(round_version="v6.0", data=ID_LIST.read_bytes(), path="ids")
    assert report.derived == 2 and report.skipped == []
    assert report.not_listed == [
        "AMD/8xMI325X_EPYC_9575F_pytorch",
        "GigaComputing/DLB2-CB3_pytorch",
        "NVIDIA/theia-cmh_ngpu512_ngc26.04_nemo",
        "NVIDIA/theia_ngpu256_ngc26.04_nemo",
        "NVIDIA/theia_ngpu64_ngc26.03_hugectr",
    ]
    result.refresh_from_db()
    assert (result.result_id, result.result_id_origin) == ("6.0-0002", Result.IdOrigin.DERIVED)
    amd = Result.objects.get(source_path=AMD_FOLDER)
    assert (amd.result_id, amd.result_id_origin) == ("6.0-0001", Result.IdOrigin.DERIVED)
    # a re-ingest keeps it (v6.0 IDs are not re-derived from the row order)
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    result.refresh_from_db()
    assert result.result_id == "6.0-0002"
    again = result_ids_from_list(round_version="v6.0", data=ID_LIST.read_bytes(), path="ids")
    assert again.derived == 0 and again.unchanged == 2


@pytest.mark.django_db
def test_a_list_without_the_system_derives_nothing_and_a_bad_list_is_refused() -> None:
    result = _ingest()
    report = result_ids_from_list(round_version="v6.0", data=b'["' + b"0" * 64 + b'"]', path="x")
    assert report.derived == 0
    assert report.not_listed == [
        "AMD/8xMI325X_EPYC_9575F_pytorch",
        "AMD/MI355X_EPYC_9575F_primus",
        "GigaComputing/DLB2-CB3_pytorch",
        "Inventec/P9000IG7_ngc26.04_nemo",
        "NVIDIA/theia-cmh_ngpu512_ngc26.04_nemo",
        "NVIDIA/theia_ngpu256_ngc26.04_nemo",
        "NVIDIA/theia_ngpu64_ngc26.03_hugectr",
    ]
    result.refresh_from_db()
    assert result.result_id == ""
    with pytest.raises(IdListError, match="^x: an ID list is a JSON list"):
        result_ids_from_list(round_version="v6.0", data=b"{}", path="x")
    with pytest.raises(IdListError, match="round v9.9 is not ingested"):
        result_ids_from_list(round_version="v9.9", data=b"[]", path="x")


@pytest.mark.django_db
def test_the_import_command_reads_an_id_list_and_refuses_a_bad_one(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    result = _ingest()
    out = StringIO()
    call_command("import", "id-list", str(ID_LIST), "--round", "v6.0", stdout=out)
    assert out.getvalue().startswith("2 results given an ID, 0 unchanged")
    result.refresh_from_db()
    assert result.result_id == "6.0-0002"
    bad = tmp_path / "ids.json"
    bad.write_text('["not a hash"]', encoding="utf-8")
    with pytest.raises(CommandError, match="ids.json: entry 0 is not a sha256"):
        call_command("import", "id-list", str(bad), "--round", "v6.0")
