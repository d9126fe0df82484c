"""Shared fixtures. The suite runs on PostgreSQL (DATABASE_URL); the real MLPerf and
vendor files are read in place from settings.MLPERF_DATA / settings.VENDOR_DATA.

Isolation: the tests never write to the database DATABASE_URL names, but to one created
for this run, ``test_<name>_<6 random hex digits>`` (dropped at the end), so two runs,
or a run and a person's own ``test_benchdb``, never share one. The Redis database of the
worker tests is chosen per run too (:mod:`tests.redis_db`)."""

from __future__ import annotations

import csv
import secrets
from pathlib import Path

import pytest
from django.conf import settings


def pytest_configure(config: pytest.Config) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    db = settings.DATABASES["default"]
    if "postgresql" in db["ENGINE"] and not db.setdefault("TEST", {}).get("NAME"):
        db["TEST"]["NAME"] = f"test_{db['NAME']}_{secrets.token_hex(3)}"


@pytest.fixture(scope="session")
def mlperf_data() -> Path:
    path = Path(settings.MLPERF_DATA)
    if not (path / "official_scores.csv").is_file():
        pytest.fail(f"MLPERF_DATA={path} has no official_scores.csv (../shared/mlperf expected)")
    return path


@pytest.fixture(scope="session")
def official_scores(mlperf_data: Path) -> list[dict[str, str]]:
    with open(mlperf_data / "official_scores.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="session")
def ingested_shared(django_db_setup, django_db_blocker, mlperf_data):  # type: ignore[no-untyped-def]
    """../shared/mlperf ingested once for the session (v1.0, v1.1, v2.0)."""
    from ingest.training.service import mlperf_training_ingest

    with django_db_blocker.unblock():
        return mlperf_training_ingest(location=str(mlperf_data))


@pytest.fixture(scope="session")
def ingested_inference(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """../shared/mlperf-inference ingested once for the session (190 results of seven
    rounds), with the model mapping the official table gives for open folders whose
    ``model_mapping.json`` the snapshot lacks (the checker's
    ``--extra-model-benchmark-map``)."""
    from ingest.inference.service import mlperf_inference_ingest

    data = Path(settings.MLPERF_INFERENCE_DATA)
    with open(data / "official_results.csv", newline="") as f:
        mapping = {r["model"]: r["mlperf_model"] for r in csv.DictReader(f)}
    with django_db_blocker.unblock():
        return mlperf_inference_ingest(location=str(data), extra_mapping=mapping)


@pytest.fixture
def user():  # type: ignore[no-untyped-def]
    """A user account for the write pages (log in with ``client.force_login(user)``)."""
    from django.contrib.auth.models import User

    return User.objects.create_user("reviewer")


@pytest.fixture(autouse=True)
def _check_budget(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check API's budget (``ingest.claims.check.CHECK_SECONDS``, 1.5 s of wall-clock
    time for the whole check) is asserted by the tests marked ``check_budget`` and the
    fuzz targets; the others check what a check answers and get 30 s, so that a loaded
    CI machine (where a test's uncached reads of the stored results alone took 1 s)
    does not turn their answer into a 422."""
    if request.node.get_closest_marker("check_budget") or request.node.get_closest_marker("fuzz"):
        return
    from ingest.claims import check

    monkeypatch.setattr(check, "CHECK_SECONDS", 30.0)
