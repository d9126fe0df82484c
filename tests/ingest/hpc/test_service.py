"""Ingesting MLPerf HPC results (``ingest mlperf-hpc``) from the real subset in
``tests/data/hpc`` (see its README): every score equals what the round's own
result summarizer printed on the same folders.

The expected numbers below were printed by ``python -m mlperf_logging.result_summarizer
"<copy of tests/data/hpc/hpc_results_vX>/{*}" hpc X.0.0 --csv out.csv`` run from a
``git archive`` of mlcommons/logging at the round's tag (v1.0: hpc-1.0.0-rc2, v2.0:
2.1.0, v3.0: hpc-3.0.0); they are copied here, not produced by benchdb. v0.7 has no
summarizer (see ``benchdb.mlperf.hpc.rules``): its figure is worked out by hand below.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from benchdb.models import Result, Round, Run

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "hpc"

# (round, source path) -> the summarizer's strong-scaling score, minutes.
STRONG = {
    ("v1.0", "NVIDIA/results/dgxa100_n64_ngc21.09_pytorch/strong/deepcam"): 2.645388888888889,
    # 3.0: olympic mean x scaling.json factor (NOTICE: Applying scaling factor 1.00637...)
    ("v3.0", "HPE+LBNL/results/perlmutter_128x4/strong/oc20"): 21.04266690051021,
    ("v3.0", "Clemson/results/18xR750-2xA100-PCIe-80GB/strong/openfold"): 263.52031686921305,
}
# (round, source path) -> the summarizer's (number_of_models, instance_scale,
# time_to_train_all minutes).
WEAK = {
    ("v1.0", "LBNL/results/perlmutter_10x128x4_ngc21.09_mxnet/weak/cosmoflow"): (
        10,
        512,
        14.70215,
    ),
    ("v2.0", "HelmholtzAI/results/horeka_gpu_n64_pytorch1.13/weak/deepcam"): (
        8,
        64,
        23.938233333333333,
    ),
    ("v2.0", "HelmholtzAI/results/horeka_gpu_n64_pytorch1.13/weak/oc20"): (
        7,
        512,
        95.48501666666667,
    ),
}


@pytest.fixture
def ingested(db: None) -> dict[str, object]:
    out = io.StringIO()
    call_command("ingest", "mlperf-hpc", str(DATA), "--json", stdout=out)
    report: dict[str, object] = json.loads(out.getvalue())
    return report


def test_every_round_is_read_as_hpc(ingested: dict[str, object]) -> None:
    assert ingested["rounds"] == ["v0.7", "v1.0", "v2.0", "v3.0"]
    rounds = Round.objects.filter(suite=Round.Suite.HPC).order_by("version")
    assert [(r.version, r.ruleset_tag) for r in rounds] == [
        ("v0.7", ""),
        ("v1.0", "hpc-1.0.0-rc2"),
        ("v2.0", "2.1.0"),
        ("v3.0", "hpc-3.0.0"),
    ]
    # The README lists 7 result folders; every result_*.txt in them is a run.
    assert Result.objects.filter(round__suite="hpc").count() == 7
    runs = Run.objects.filter(result__round__suite="hpc").count()
    assert runs == len(list(DATA.glob("hpc_results_v*/**/result_*.txt")))


@pytest.mark.parametrize(("key", "expected"), STRONG.items())
def test_strong_scaling_equals_the_summarizer(
    ingested: dict[str, object], key: tuple[str, str], expected: float
) -> None:
    r = Result.objects.get(round__suite="hpc", round__version=key[0], source_path=key[1])
    assert (r.scaling_type, r.status) == ("strong", "scored")
    assert r.score_minutes == pytest.approx(expected, rel=1e-12)
    assert r.time_to_train_all_minutes is None


@pytest.mark.parametrize(("key", "expected"), WEAK.items())
def test_weak_scaling_equals_the_summarizer(
    ingested: dict[str, object], key: tuple[str, str], expected: tuple[int, int, float]
) -> None:
    r = Result.objects.get(round__suite="hpc", round__version=key[0], source_path=key[1])
    assert (r.scaling_type, r.status, r.score_minutes) == ("weak", "scored", None)
    assert (r.models_count, r.instance_scale) == expected[:2]
    assert r.time_to_train_all_minutes == pytest.approx(expected[2], rel=1e-12)
    # Throughput = models / time to train all (benchdb's derived figure).
    assert r.throughput_models_per_minute == pytest.approx(expected[0] / expected[2])
    assert r.benchmark_folder == key[1].rsplit("/", 2)[1] + "/" + key[1].rsplit("/", 1)[1]


def test_v07_by_hand(ingested: dict[str, object]) -> None:
    """Fujitsu ABCI closed cosmoflow, v0.7 (no summarizer): run_stop - run_start (ms) of
    result_1..10 read off the logs: 1924779, 1754497, 2336703, 2215360, 1820158, 1867301,
    2206250, 1760571, 2351593, 2391267. result_9's best eval_error is 0.124556 > 0.124:
    it fails and counts as the slowest dropped; the fastest (result_2) is dropped; the
    other eight average 16522389 / 8 ms = 34.42164375 min."""
    r = Result.objects.get(
        round__suite="hpc",
        round__version="v0.7",
        source_path="Fujitsu/results/abci_512xV100_tensorflow_closed/cosmoflow",
    )
    assert r.score_minutes == pytest.approx(34.42164375, rel=1e-12)
    assert (r.runs_total, r.runs_counted, r.runs_failed) == (10, 8, 1)
    failed = r.runs.get(role=Run.Role.FAILED)
    assert failed.file_name == "result_9.txt"
    assert "quality target" in failed.failure_reason
    assert r.runs.get(role=Run.Role.DROPPED_FASTEST).file_name == "result_2.txt"


def test_a_second_ingest_writes_nothing(ingested: dict[str, object]) -> None:
    out = io.StringIO()
    call_command("ingest", "mlperf-hpc", str(DATA), "--json", stdout=out)
    again = json.loads(out.getvalue())
    assert (again["added"], again["changed"], again["unchanged"]) == (0, 0, 7)


def test_export_suite_hpc(ingested: dict[str, object]) -> None:
    out = io.StringIO()
    call_command("export", "results", "--suite", "hpc", "--format", "json", stdout=out)
    table = json.loads(out.getvalue())
    assert table["schema"] == "benchdb.hpc_results/1"
    assert table["columns"][-5:] == [
        "scaling_type",
        "models_count",
        "instance_scale",
        "time_to_train_all_minutes",
        "throughput_models_per_minute",
    ]
    rows = {(r["round"], r["benchmark"], r["scaling_type"]): r for r in table["rows"]}
    assert len(rows) == len(table["rows"]) == 7
    oc20 = rows[("v2.0", "oc20", "weak")]
    assert (oc20["models_count"], oc20["instance_scale"]) == (7, 512)
    assert oc20["time_to_train_all_minutes"] == pytest.approx(95.48501666666667, rel=1e-12)
    assert oc20["score_minutes"] is None
    assert rows[("v3.0", "oc20", "strong")]["scaling_factor"] == pytest.approx(1.0063775510204083)
    # The training export does not mix HPC in.
    out = io.StringIO()
    call_command("export", "results", "--format", "json", stdout=out)
    hpc = {"cosmoflow", "deepcam", "oc20", "openfold"}
    assert not [r for r in json.loads(out.getvalue())["rows"] if r["benchmark"] in hpc]


def test_a_weak_scaling_time_to_train_all_over_30_days_is_not_scored(tmp_path: Path) -> None:
    """Issue 21 item 3: every time_ms of one real deepcam weak-scaling run moved by
    1.6e12 ms (each run still takes its real minutes, but the first start and the last
    stop lie 50 years apart) gave a time to train all of 26,666,762 min, stored
    ``scored``. Now unscored with the reason; the oc20 folder beside keeps the
    summarizer's figure."""
    import re
    import shutil

    root = tmp_path / "hpc_results_v2.0"
    shutil.copytree(DATA / "hpc_results_v2.0", root)
    weak = "HelmholtzAI/results/horeka_gpu_n64_pytorch1.13/weak"
    log = root / weak / "deepcam/result_3.txt"

    def later(m: re.Match[str]) -> str:
        return f'"time_ms": {int(m.group(1)) + 1_600_000_000_000}'

    log.write_text(re.sub(r'"time_ms": (\d+)', later, log.read_text()))
    call_command("ingest", "mlperf-hpc", str(root), stdout=io.StringIO())
    bad = Result.objects.get(round__suite="hpc", source_path=f"{weak}/deepcam")
    assert bad.status != "scored" and bad.time_to_train_all_minutes is None
    assert bad.throughput_models_per_minute is None
    assert bad.reason.startswith("time to train all: time to train 2.667e+07 min is not below")
    good = Result.objects.get(round__suite="hpc", source_path=f"{weak}/oc20")
    assert good.status == "scored"
    assert good.time_to_train_all_minutes == pytest.approx(95.48501666666667, rel=1e-12)
