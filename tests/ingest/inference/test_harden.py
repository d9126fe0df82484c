"""Issue 21 (hardening, round two), the MLPerf Inference ingest: impossible values are
never valid (item 3), client.json/power log times that overflow are problems (item 8).
Each test edits a copy of real v5.1 results of ../shared/mlperf-inference (Lenovo's
SE100 resnet50: Offline, SingleStream, MultiStream) and checks that the result beside
the edited one keeps its official value."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchdb.models import InferenceResult, IngestProblem, Round
from ingest.inference import service as inference
from ingest.inference.service import mlperf_inference_ingest
from tests.inference_data import INFERENCE_DATA as DATA

pytestmark = pytest.mark.django_db

SYSTEM = "SE100_RTX2000E_Ada_16GBx1_TRT"
BASE = f"closed/Lenovo/results/{SYSTEM}/resnet50"
#: official_results.csv of ../shared/mlperf-inference (5.1-0064).
OFFICIAL = {"Offline": 6607.08, "SingleStream": 0.513395, "MultiStream": 1.482812}
KEYS = {"Offline": "result_samples_per_second", "SingleStream": "early_stopping_latency_ss"}


@pytest.fixture
def lenovo(tmp_path: Path) -> Path:
    """A copy of Lenovo's v5.1 SE100 resnet50 (results, compliance, measurements,
    systems JSON), named as the repository; inference rounds the session stored are
    deleted inside this test's transaction."""
    Round.objects.filter(suite=Round.Suite.INFERENCE).delete()
    src = DATA / "inference_results_v5.1/closed/Lenovo"
    dst = tmp_path / "inference_results_v5.1/closed/Lenovo"
    for part in ("results", "compliance", "measurements"):
        shutil.copytree(src / part / SYSTEM / "resnet50", dst / part / SYSTEM / "resnet50")
    (dst / "systems").mkdir()
    shutil.copy(src / f"systems/{SYSTEM}.json", dst / "systems")
    return tmp_path / "inference_results_v5.1"


def _edit(root: Path, scenario: str, key: str, value: str) -> int:
    """Set ``key`` of the scenario's detail log to ``value``; returns its line."""
    log = root / BASE / scenario / "performance/run_1/mlperf_log_detail.txt"
    lines = log.read_bytes().split(b"\n")
    needle = f'"key": "{key}", "value": '.encode()
    [at] = [i for i, ln in enumerate(lines) if needle in ln]
    head, _, tail = lines[at].partition(needle)
    lines[at] = head + needle + value.encode() + b"," + tail.split(b",", 1)[1]
    log.write_bytes(b"\n".join(lines))
    return at + 1


def _ingest(root: Path) -> dict[str, InferenceResult]:
    report = mlperf_inference_ingest(location=str(root), workers=1)
    assert report.results_seen == 3 and report.failed == 0
    return {r.scenario: r for r in InferenceResult.objects.all()}


def test_the_copy_is_valid_as_published(lenovo):
    results = _ingest(lenovo)
    for scenario, value in OFFICIAL.items():
        assert results[scenario].status == "valid"
        assert results[scenario].value == pytest.approx(value, rel=1e-6)


@pytest.mark.parametrize(
    ("scenario", "raw", "why"),
    [
        ("Offline", "-5", "-5.0 Samples/s is not a finite number > 0"),
        ("Offline", "0", "0.0 Samples/s is not a finite number > 0"),
        ("Offline", "1e308", "1e+308 Samples/s is outside [0, 1e+09]"),
        ("SingleStream", "-1000000", "-1.0 Latency (ms) is not a finite number > 0"),
        ("SingleStream", "1e20", "1e+14 Latency (ms) is outside [1e-06, 8.64e+07]"),
    ],
)
def test_an_impossible_value_is_invalid_and_its_neighbours_keep_theirs(lenovo, scenario, raw, why):
    """Issue 21 item 3: -5, 0 and 1e308 samples/s and a -1 ms latency edited into a
    real v5.1 detail log were stored valid (and ranked first). Now invalid, a finding at
    the value's line quoting it, and no value stored."""
    line = _edit(lenovo, scenario, KEYS[scenario], raw)
    results = _ingest(lenovo)
    bad = results[scenario]
    assert bad.status == "invalid" and bad.value is None  # never shown nor sorted as a number
    [finding] = bad.findings.filter(rule="value_impossible")
    assert finding.path == f"{BASE}/{scenario}/performance/run_1/mlperf_log_detail.txt"
    assert finding.line == line
    assert why in finding.message and "benchdb sanity bound" in finding.message
    for other, value in OFFICIAL.items():
        if other != scenario:
            assert results[other].status == "valid"
            assert results[other].value == pytest.approx(value, rel=1e-6)


def _load_or_die(root, version, elsewhere, extra, folder, known):
    """``inference._load_one``, but the reader reading the SingleStream folder of
    retinanet is SIGKILLed (each time while the marker exists; once if it ends in
    ``once``)."""
    import os
    import signal

    marker = os.environ.get("BENCHDB_TEST_DIE", "")
    if folder.path.endswith("retinanet/SingleStream") and marker and os.path.exists(marker):
        if marker.endswith("once"):
            os.unlink(marker)
        os.kill(os.getpid(), signal.SIGKILL)
    return ORIGINAL_LOAD_ONE(root, version, elsewhere, extra, folder, known)


ORIGINAL_LOAD_ONE = inference._load_one


@pytest.mark.parametrize("once", [True, False])
def test_a_reader_killed_mid_ingest_costs_a_retry_then_a_problem(
    lenovo, monkeypatch, tmp_path, once
):
    """Issue 21 item 6: killing one reader aborted ``ingest mlperf-inference`` with an
    uncaught BrokenProcessPool. Killed once: read again, all 6 results stored; killed
    every time: that folder is not stored (an error of the report, read again by the
    next ingest) and the other 5 keep their official values."""
    src = DATA / "inference_results_v5.1/closed/Lenovo"
    dst = lenovo / "closed/Lenovo"
    for part in ("results", "compliance", "measurements"):
        shutil.copytree(src / part / SYSTEM / "retinanet", dst / part / SYSTEM / "retinanet")
    marker = tmp_path / ("die-once" if once else "die-always")
    marker.touch()
    monkeypatch.setenv("BENCHDB_TEST_DIE", str(marker))
    monkeypatch.setattr(inference, "_load_one", _load_or_die)
    report = mlperf_inference_ingest(location=str(lenovo), workers=2)
    assert report.results_seen == 6
    stored = {(r.model_folder, r.scenario): r for r in InferenceResult.objects.all()}
    for scenario, value in OFFICIAL.items():
        assert stored["resnet50", scenario].value == pytest.approx(value, rel=1e-6)
    assert stored["retinanet", "Offline"].value == pytest.approx(119.465, rel=1e-6)
    if once:
        assert report.failed == 0
        assert stored["retinanet", "SingleStream"].value == pytest.approx(8.504249, rel=1e-6)
    else:
        assert report.failed == 1 and ("retinanet", "SingleStream") not in stored


# --- item 8: power times out of range (v1.1 NVIDIA AGX Xavier MaxQ resnet50) ----------

XAVIER = "AGX_Xavier_TRT_MaxQ"
XAVIER_BASE = f"closed/NVIDIA/results/{XAVIER}/resnet50"
#: official_results.csv: (value, power) of 1.1 AGX_Xavier_TRT_MaxQ resnet50.
XAVIER_OFFICIAL = {
    "Offline": (1506.53, 25.240244776119393),
    "SingleStream": (2.63111, 0.04176339737731357),
}


@pytest.fixture
def xavier(tmp_path: Path) -> Path:
    Round.objects.filter(suite=Round.Suite.INFERENCE).delete()
    src = DATA / "inference_results_v1.1/closed/NVIDIA"
    dst = tmp_path / "inference_results_v1.1/closed/NVIDIA"
    for part in ("results", "compliance", "measurements"):
        shutil.copytree(src / part / XAVIER / "resnet50", dst / part / XAVIER / "resnet50")
    (dst / "systems").mkdir()
    shutil.copy(src / f"systems/{XAVIER}.json", dst / "systems")
    return tmp_path / "inference_results_v1.1"


def _xavier_results(root: Path) -> dict[str, InferenceResult]:
    report = mlperf_inference_ingest(location=str(root), workers=1)
    assert report.results_seen == 2 and report.failed == 0
    return {r.scenario: r for r in InferenceResult.objects.all()}


def _keeps_official(result: InferenceResult, scenario: str) -> None:
    value, power = XAVIER_OFFICIAL[scenario]
    assert result.value == pytest.approx(value, rel=1e-6)
    assert result.power == pytest.approx(power, rel=1e-6)


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "1e300", "9" * 400])
def test_a_client_timezone_that_is_no_offset_is_a_problem(xavier, raw):
    """Issue 21 item 8: ``client.json {"timezone": NaN}`` raised an uncaught
    OverflowError/ValueError and the result was "not read"."""
    client = xavier / XAVIER_BASE / "Offline/performance/power/client.json"
    text = client.read_text()
    assert '"timezone": 25200' in text
    client.write_text(text.replace('"timezone": 25200', f'"timezone": {raw}'))
    results = _xavier_results(xavier)
    bad = results["Offline"]
    assert bad.value == pytest.approx(1506.53, rel=1e-6)  # the performance value stands
    [problem] = IngestProblem.objects.filter(
        path=f"{XAVIER_BASE}/Offline/performance/power/client.json"
    )
    assert (
        "is not a number of seconds within a day (benchdb sanity bound): not used"
        in problem.message
    )
    _keeps_official(results["SingleStream"], "SingleStream")


def test_a_power_begin_in_year_9999_is_a_finding_not_an_overflow(xavier):
    """Issue 21 item 8: a power_begin in year 9999, shifted by the client's timezone,
    overflowed ``datetime``; now no power and a finding at its line."""
    log = xavier / XAVIER_BASE / "Offline/performance/run_1/mlperf_log_detail.txt"
    text = log.read_text()
    old = '"key": "power_begin", "value": "08-10-2021 17:02:11.700"'
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    log.write_text(text.replace(old, '"key": "power_begin", "value": "12-31-9999 23:59:59.000"'))
    results = _xavier_results(xavier)
    bad = results["Offline"]
    assert bad.power is None and bad.status == "invalid"
    [finding] = bad.findings.filter(rule="power_range")
    assert finding.line == line and "outside the datetime range" in finding.message
    _keeps_official(results["SingleStream"], "SingleStream")


def test_published_ids_are_stored_as_strings_never_stringified_lists(lenovo):
    """Issue 21 item 8: ``summary_results.json`` IDs were stored with ``str()``: an ID
    given as a list became ``"['5.1-0064']"``. The real table's rows for Lenovo's SE100
    resnet50, one ID made a list and one a number: those two store no ID, the third its
    real one."""
    import json

    rows = json.loads((DATA / "inference_results_v5.1/summary_results.json").read_bytes())
    mine = [r for r in rows if str(r.get("Location", "")).startswith(BASE + "/")]
    assert sorted(r["Scenario"] for r in mine) == sorted(OFFICIAL)
    assert {r["ID"] for r in mine} == {"5.1-0064"}
    for r in mine:
        if r["Scenario"] == "Offline":
            r["ID"] = ["5.1-0064"]
        elif r["Scenario"] == "SingleStream":
            r["ID"] = 5.1
    (lenovo / "summary_results.json").write_text(json.dumps(mine))
    results = _ingest(lenovo)
    assert results["Offline"].result_id == ""
    assert results["SingleStream"].result_id == ""
    assert results["MultiStream"].result_id == "5.1-0064"
    for scenario, value in OFFICIAL.items():
        assert results[scenario].value == pytest.approx(value, rel=1e-6)
