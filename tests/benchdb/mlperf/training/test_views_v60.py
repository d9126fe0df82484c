"""The pages know MLPerf Training v6.0: the real v6.0 subset (tests/data/training-v6.0)
on its result page (the round's rules shown), the round table, the leaderboard, compare
and the CSV export. The score is the one mlcommons/logging 6.0.0-rc6 printed
(tests/data/README.md)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from benchdb.models import Result
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[3] / "data" / "training-v6.0" / "training_results_v6.0"


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), workers=1)
    return Result.objects.select_related("round", "system", "benchmark").get(
        round__version="v6.0", benchmark__key="llama2_70b_lora"
    )


def test_the_result_page_shows_the_v60_rules(client, result: Result) -> None:
    html = client.get(result.get_absolute_url()).content.decode()
    assert '<span title="6.5320 min">6.53</span> min' in html  # every digit in CSV/JSON
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 10' in html
    assert 'id="quality-target">&le; 0.925</span>' in html
    assert 'id="id-rule"' in html and "frozen ID list" in html
    # _get_id_from_sysinfo of the Inventec systems JSON (tests/data/README.md)
    assert "crazy-happy-mockingbird-uranus" in html
    # rcp_checker at 6.0.0-rc6 passes it and writes scaling.json 1.034722222222222
    assert "RCP found (global batch size 8: runs’ mean 3072 vs RCP mean 3178.6667" in html
    assert "<code>scaling.json</code> = 1.034722222222222" in html
    assert '<span title="6.7588 min">6.76</span> min' in html


def test_round_table_leaderboard_compare_and_export_know_v60(client, result: Result) -> None:
    table = client.get(reverse("benchdb:round_table", args=["v6.0"]))
    assert table.status_code == 200 and "P9000IG7" in table.content.decode()
    board = client.get(reverse("benchdb:leaderboard", args=["v6.0", "llama2_70b_lora"]))
    assert board.status_code == 200 and "P9000IG7" in board.content.decode()
    compare = client.get(reverse("benchdb:compare"), {"ids": str(result.pk)})
    assert compare.status_code == 200
    out = io.StringIO()
    call_command("export", "results", "--format", "csv", "--round", "v6.0", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    got = {(r["round"], r["benchmark"], r["submitter"]): r for r in rows}
    assert sorted(got) == [
        ("v6.0", "deepseekv3_671b", "NVIDIA"),
        ("v6.0", "dlrm_dcnv2", "NVIDIA"),
        ("v6.0", "flux1", "AMD"),
        ("v6.0", "gpt_oss_20b", "GigaComputing"),
        ("v6.0", "llama2_70b_lora", "Inventec"),
        ("v6.0", "llama31_405b", "NVIDIA"),
        ("v6.0", "llama31_8b", "AMD"),
    ]
    row = got[("v6.0", "llama2_70b_lora", "Inventec")]
    assert float(row["score_minutes"]) == pytest.approx(6.531964583333333, rel=1e-9)
    # the summarizer's flux1:time_to_train at 6.0.0-rc6 (test_service_v60_flux1.py)
    flux = got[("v6.0", "flux1", "AMD")]
    assert float(flux["score_minutes"]) == pytest.approx(92.36037291666666, rel=1e-9)
    # the summarizer's gpt_oss_20b:time_to_train (test_service_v60_gpt_oss_20b.py)
    gpt = got[("v6.0", "gpt_oss_20b", "GigaComputing")]
    assert float(gpt["score_minutes"]) == pytest.approx(18.054896044182456, rel=1e-9)
    # and its deepseekv3_671b:time_to_train (test_service_v60_deepseekv3_671b.py)
    ds = got[("v6.0", "deepseekv3_671b", "NVIDIA")]
    assert float(ds["score_minutes"]) == pytest.approx(33.4302, rel=1e-9)
    # and its llama31_405b:time_to_train (test_service_v60_llama31_405b.py)
    l405 = got[("v6.0", "llama31_405b", "NVIDIA")]
    assert float(l405["score_minutes"]) == pytest.approx(58.33578333333333, rel=1e-9)
    # and its dlrm_dcnv2:time_to_train (test_service_v60_dlrm_dcnv2.py)
    dlrm = got[("v6.0", "dlrm_dcnv2", "NVIDIA")]
    assert float(dlrm["score_minutes"]) == pytest.approx(0.6748221215320243, rel=1e-9)


def test_a_claim_on_the_v60_result_is_checked_against_it(client, result: Result) -> None:
    """The check API resolves "MLPerf Training v6.0" and "Llama 2 70B LoRA" to the
    stored v6.0 result and recomputes the claim from its score (6.53 min)."""
    text = (
        "In MLPerf Training v6.0, the Inventec P9000IG7 with 8 B300 GPUs trained "
        "Llama 2 70B LoRA in 6.53 minutes."
    )
    resp = client.post("/api/claims/check", {"text": text}, content_type="application/json")
    assert resp.status_code == 200
    # the time, and the count "8 B300 GPUs" as a claim of its own (a scale)
    (claim,) = [c for c in resp.json()["claims"] if c["kind"] == "time"]
    assert (claim["round"], claim["benchmark_key"], claim["verdict"]) == (
        "v6.0",
        "llama2_70b_lora",
        "consistent",
    )
