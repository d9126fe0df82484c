"""Issue 21 (hardening, round two), the MLPerf Training ingest: refused run files fail
their result (item 7), run rows store no impossible time (item 3), a dead reader costs
a retry (item 6). Each beside a real result folder of ../shared/mlperf that must keep
its official score (the ``real_tree`` fixture of test_training)."""

from __future__ import annotations

import os
import signal

import pytest

from benchdb.models import Result, Run
from ingest.training import service as training
from ingest.training.service import mlperf_training_ingest
from tests.ingest.training.test_service import (  # noqa: F401 - real_tree is a fixture
    T0,
    _acme,
    _log,
    _problem,
    _score,
    real_tree,
)

pytestmark = pytest.mark.django_db


def test_a_fifo_run_file_fails_the_result_naming_it(real_tree):  # noqa: F811
    """A FIFO named result_5.txt beside 5 real-format logs was skipped with no problem
    and the result scored from the others; now a problem names it and the result is not
    scored (and nothing blocks on opening it)."""
    make, check = real_tree
    root = make("v2.0")
    good = _acme(root, "fifo")
    os.mkfifo(good / "result_5.txt")
    _acme(root, "plain")
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 0
    problem = _problem("Acme/results/fifo/resnet/result_5.txt")
    assert problem.message == "not a regular file (a FIFO, socket or device)"
    assert problem.severity == "error" and problem.result == _score("fifo")
    fifo = _score("fifo")
    assert fifo.score_minutes is None and fifo.status == Result.Status.UNSCORED
    assert fifo.reason == (
        "run file(s) refused, not read: result_5.txt (the result would have fewer runs)"
    )
    assert not Run.objects.filter(result=fifo, role=Run.Role.COUNTED).exists()
    assert _score("plain").score_minutes == pytest.approx(32.0)
    check()


def test_run_rows_store_no_negative_nor_impossible_time(real_tree):  # noqa: F811
    """Issue 21 item 3: the score was refused but the run row kept -10 min (run_stop
    10 minutes before run_start) and times of 50 years; now the row has no time."""
    make, check = real_tree
    root = make("v2.0")
    back = _log(30.0, stop=T0 - 10 * 60_000 + 1000)
    vast = _log(30.0, stop=T0 + 1.6e12)
    _acme(root, "bad", minutes=(back, vast, 32.0, 33.0, 34.0))
    mlperf_training_ingest(location=str(root), workers=1)
    runs = {r.index: r for r in Run.objects.filter(result=_score("bad"))}
    assert runs[0].role == Run.Role.FAILED and runs[0].time_to_train_minutes is None
    assert runs[0].failure_reason.startswith("run_stop is not after run_start (-10 min")
    assert runs[1].role == Run.Role.FAILED and runs[1].time_to_train_minutes is None
    assert "is not below 30 days" in runs[1].failure_reason
    assert runs[2].time_to_train_minutes == pytest.approx(32.0)
    assert _score("bad").score_minutes is None  # 2 failed runs: too many
    check()


def _load_or_die(d, known, compliance_round=None):
    """``training._load_one``, but the reader reading Acme's ``die`` folder is
    SIGKILLed (each time while the marker file exists; once when it ends in ``once``)."""
    marker = os.environ.get("BENCHDB_TEST_DIE", "")
    if d.system_folder == "die" and marker and os.path.exists(marker):
        if marker.endswith("once"):
            os.unlink(marker)
        os.kill(os.getpid(), signal.SIGKILL)
    return ORIGINAL_LOAD_ONE(d, known, compliance_round)


ORIGINAL_LOAD_ONE = training._load_one


@pytest.mark.parametrize("once", [True, False])
def test_a_reader_killed_mid_ingest_costs_a_retry_then_a_problem(
    real_tree,  # noqa: F811
    monkeypatch,
    tmp_path,
    once,
):
    """Issue 21 item 6: killing one reader aborted the command with an uncaught
    BrokenProcessPool. Killed once: its folders are read again and all are stored;
    killed every time: that folder is a problem, every other folder is stored."""
    make, check = real_tree
    root = make("v2.0")
    for name in ("a", "b", "die", "c", "d"):
        _acme(root, name)
    marker = tmp_path / ("die-once" if once else "die-always")
    marker.touch()
    monkeypatch.setenv("BENCHDB_TEST_DIE", str(marker))
    monkeypatch.setattr(training, "_load_one", _load_or_die)
    report = mlperf_training_ingest(location=str(root), workers=2)
    for name in ("a", "b", "c", "d"):
        assert _score(name).score_minutes == pytest.approx(32.0)
    if once:
        assert report.failed == 0 and _score("die").score_minutes == pytest.approx(32.0)
    else:
        assert report.failed == 1
        assert not Result.objects.filter(system__folder="die").exists()
        problem = _problem("Acme/results/die/resnet")
        assert "BrokenProcessPool" in problem.message
    check()
