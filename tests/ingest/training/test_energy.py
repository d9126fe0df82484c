"""Energy to train from MLPerf Training power logs, on the real subset in
``tests/data/training-power`` (see its README), and on broken copies of it.

The expected energies were printed by mlcommons/logging's result summarizer (see the
README for the commands): they are copied here, not produced by benchdb.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchdb.mlperf.training import energy as training_energy
from benchdb.models import IngestProblem, Result, Run
from ingest.parsers.types import ParseError
from ingest.training.parsers import log as training_log
from ingest.training.parsers import power as training_power
from ingest.training.service import mlperf_training_ingest

DATA = Path(__file__).resolve().parents[2] / "data" / "training-power"
V40 = DATA / "training_results_v4.0"
FOLDER = "smc-dc-power/results/1xSMC-H100-SXM-80GB/dlrm_dcnv2"
#: out_power.csv of result_summarizer at mlcommons/logging a9f4839 (v4.0's), dlrm_dcnv2 power.
V40_ENERGY_J = 1265893.1860145212
RETINANET = DATA / "training_results_v5.0/Lenovo/results/SR780aV3-8xB200_SXM_180GB/retinanet"
#: result_summarizer._compute_total_power at tag 5.0.0-rc3 on result_0 (ttt 1339495.0 ms).
V50_RUN_ENERGY_J = 12056593.281075466


def _ingest(tree: Path) -> Result:
    mlperf_training_ingest(location=str(tree), round_version="v4.0", workers=1)
    return Result.objects.get(source_path=FOLDER)


def _problems(result: Result) -> list[tuple[str, int | None, str, str]]:
    rows = IngestProblem.objects.filter(round=result.round).order_by("path", "line")
    return [(p.path, p.line, p.message, p.severity) for p in rows]


@pytest.mark.django_db
def test_v40_energy_equals_the_summarizer() -> None:
    result = _ingest(V40)
    assert result.score_minutes == pytest.approx(3.8364770833333335, rel=1e-12)
    assert result.energy_joules == pytest.approx(V40_ENERGY_J, rel=1e-12)
    assert result.energy_scope == "node"
    runs = list(result.runs.order_by("index"))
    assert len(runs) == 10 and all(r.energy_joules and r.energy_joules > 0 for r in runs)
    counted = [r.energy_joules for r in runs if r.role == Run.Role.COUNTED]
    assert sum(counted) / len(counted) == pytest.approx(V40_ENERGY_J, rel=1e-12)
    # Re-running changes nothing.
    report = mlperf_training_ingest(location=str(V40), round_version="v4.0", workers=1)
    assert report.unchanged == 1 and report.changed == 0


def test_v50_run_energy_equals_the_summarizer() -> None:
    run = training_log.parse_log((RETINANET / "result_0.txt").read_bytes(), "result_0.txt")
    ttt = run.run_stop_ms - run.run_start_ms  # type: ignore[operator]
    assert ttt == 1339495.0
    path = RETINANET / "power/result_0/node_0.txt"
    events = training_power.parse_power_log(path.read_bytes(), "node_0.txt")
    joules, scope = training_energy.run_energy_j([("node_0.txt", events)], [], ttt, "v5.0")
    assert joules == pytest.approx(V50_RUN_ENERGY_J, rel=1e-12)
    assert scope == "node"


def test_v40_logs_need_the_v40_rule() -> None:
    """v4.0 SMC logs stop at the start's time: 4.1.0-rc4's rule divides by a 0 ms window
    (the summarizer raises ZeroDivisionError), a9f4839's ends the window at the last reading."""
    path = next((V40 / FOLDER / "power").glob("*/node_0.txt"))
    events = training_power.parse_power_log(path.read_bytes(), "node_0.txt")
    assert training_energy.node_energy_j(events, 60_000, "v4.0") > 0
    with pytest.raises(training_energy.EnergyError, match="window of 0.0 ms"):
        training_energy.node_energy_j(events, 60_000, "v4.1")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "training_results_v4.0"
    shutil.copytree(V40, dest)
    return dest


def _counted_power_file(tree: Path) -> tuple[Path, str]:
    """The node_0.txt of the fastest counted run (a run whose energy the score needs)."""
    result = _ingest(tree)
    run = result.runs.filter(role=Run.Role.COUNTED).order_by("time_to_train_minutes").first()
    assert run is not None
    name = run.file_name.split(".")[0]
    Result.objects.all().delete()
    IngestProblem.objects.all().delete()
    rel = f"{FOLDER}/power/{name}/node_0.txt"
    return tree / rel, rel


@pytest.mark.django_db
def test_truncated_power_log_is_a_problem_and_no_energy(copy: Path) -> None:
    path, rel = _counted_power_file(copy)
    data = path.read_bytes()
    lines = data.count(b"\n")
    path.write_bytes(data[: data.rfind(b"\n", 0, len(data) - 1) + 40])  # cut the last line
    result = _ingest(copy)
    assert result.status == Result.Status.SCORED  # the time score stands
    assert result.energy_joules is None and result.energy_scope == ""
    found = [p for p in _problems(result) if p[0] == rel]
    assert found and found[0][1] == lines and "does not parse" in found[0][2]
    assert any("no energy to train" in p[2] for p in _problems(result))


@pytest.mark.django_db
def test_missing_node_file_is_a_problem_and_no_energy(copy: Path) -> None:
    path, rel = _counted_power_file(copy)
    path.unlink()
    result = _ingest(copy)
    assert result.energy_joules is None
    folder = rel.rsplit("/", 1)[0] + "/"
    found = [p for p in _problems(result) if p[0] == folder]
    assert found and "no power/<run>/node_*.txt" in found[0][2] and found[0][3] == "error"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("value", "says"),
    [
        (b'"abc"', "is not a number"),
        (b"NaN", "is not a finite number"),
        # issue 21 (found by the power-log fuzz target): float() of it raised OverflowError
        (b"9" * 400, "power_reading is not a finite number (beyond the float range)"),
    ],
)
def test_impossible_reading_is_a_problem_naming_file_and_line(
    copy: Path, value: bytes, says: str
) -> None:
    path, rel = _counted_power_file(copy)
    lines = path.read_bytes().split(b"\n")
    assert b'"key": "power_reading"' in lines[5]
    lines[5] = re.sub(rb'"value": [^,]*,', b'"value": ' + value + b",", lines[5])
    path.write_bytes(b"\n".join(lines))
    result = _ingest(copy)
    assert result.energy_joules is None
    found = [p for p in _problems(result) if p[0] == rel]
    assert found and found[0][1] == 6 and says in found[0][2], found


def test_zero_window_and_zero_efficiency_are_refused() -> None:
    start = (1, "power_measurement_start", 1000.0, None)
    stop = (3, "power_measurement_stop", 1000.0, None)
    reading = (2, "power_reading", 1000.0, 500)
    # 4.1.0-rc4 on: readings after a stop at the start's time are not counted: 0 ms window.
    with pytest.raises(training_energy.EnergyError, match="window of 0.0 ms"):
        training_energy.node_energy_j([start, reading, stop], 60_000, "v4.1", "n.txt")
    eff = (2, "conversion_eff", 1000.0, 0)
    with pytest.raises(training_energy.EnergyError) as exc:
        training_energy.node_energy_j([start, eff, stop], 60_000, "v4.1", "n.txt")
    assert str(exc.value) == "n.txt:2: conversion_eff 0 is impossible (<= 0)"


def test_a_line_without_metadata_does_not_parse() -> None:
    data = b':::MLLOG {"time_ms": 1, "key": "power_reading", "value": 3}\n'
    with pytest.raises(ParseError) as exc:
        training_power.parse_power_log(data, "p/node_0.txt")
    assert str(exc.value).startswith("p/node_0.txt:1: MLLOG line does not parse: no 'metadata'")


@pytest.mark.django_db
def test_energy_on_the_pages_and_in_the_exports(client) -> None:  # type: ignore[no-untyped-def]
    import csv
    import io
    import json

    from django.core.management import call_command
    from django.urls import reverse

    result = _ingest(V40)
    shown = "1.266"  # 1265893.1860145212 J in MJ, 3 decimals
    page = client.get(result.get_absolute_url()).content.decode()
    assert 'id="energy"' in page and shown in page and "nodes only" in page
    assert page.count('<td class="num"><span title="') >= 10  # a run energy cell per run
    board = client.get(reverse("benchdb:leaderboard", args=["v4.0", "dlrm_dcnv2"]))
    assert f"{shown}</span> MJ" in board.content.decode()
    table = client.get(reverse("benchdb:round_table", args=["v4.0"]))
    assert f"{shown}</span> MJ" in table.content.decode()
    rows = json.loads(
        client.get(reverse("benchdb:round_table", args=["v4.0"]) + "?format=json").content
    )["rows"]
    assert rows[0]["dlrm_dcnv2_energy_joules"] == pytest.approx(V40_ENERGY_J, rel=1e-12)
    out = io.StringIO()
    call_command("export", "results", "--round", "v4.0", "--format", "csv", stdout=out)
    (row,) = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert float(row["energy_joules"]) == pytest.approx(V40_ENERGY_J, rel=1e-12)
    assert row["energy_scope"] == "node"


@pytest.mark.django_db
def test_a_node_that_drew_0_watts_gives_no_energy(copy: Path) -> None:
    """Issue 21 item 3: every power_reading of a counted run's node_0.txt set to 0 W
    gave an energy of 0 J, stored; now the node file is a problem (0 J is no
    measurement), the result has no energy and its time score stands."""
    path, rel = _counted_power_file(copy)
    data = path.read_bytes()
    zeroed = re.sub(rb'("key": "power_reading", "value": )[^,]*,', rb"\g<1>0,", data)
    assert zeroed != data
    path.write_bytes(zeroed)
    result = _ingest(copy)
    assert result.score_minutes == pytest.approx(3.8364770833333335, rel=1e-12)
    assert result.energy_joules is None
    found = [p for p in _problems(result) if p[0] == rel]
    assert found and found[0][2].endswith(": energy 0.0 J: not a finite number > 0"), found
    assert found[0][3] == "error"
    assert not result.runs.filter(energy_joules=0).exists()
