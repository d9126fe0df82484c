"""The check API's one budget (issue 21): the whole check after its text is in hand (the
stored results, the reading, the verdicts, the answer, its result links) has
``CHECK_SECONDS``; a check over it answers 422 naming the stage cut and the seconds
each stage took, and holds its worker no longer, whichever stage is slow (work in the
child, which is killed; a keeper's build of the stored results, which it stops waiting
for). On Graphcore's v1.1 post and ../shared/mlperf, whose claims keep their verdict
when the budget is not spent."""

from __future__ import annotations

import pickle
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from benchdb.claims import guidelines
from benchdb.models import Result
from benchdb.models.data_version import data_version
from ingest import budget
from ingest.claims import check as claims_check
from ingest.claims import facts as claim_facts
from ingest.claims import warm

EN = Path(settings.VENDOR_DATA) / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
API = "/api/claims/check"
ANSWER = "building the answer (claims, workbench, guidelines, families)"
pytestmark = pytest.mark.check_budget
#: The stages of a check with no keeper, in order (``ingest.claims.check.claims_check``).
STAGES = [
    claims_check.WAITING,
    "reading the stored results",
    "reading the rounds' holdings",
    "reading the results' keys",
    "indexing the results by round",
    budget.STARTING,
    "cleaning the page",
    "reading the page's date, title and vendor",
    "finding the tables",
    "finding the claims",
    "reading the page's arithmetic, baselines and numbers",
    "checking the claims against the results",
    ANSWER,
    budget.ANSWERING,
    "linking the results",
]


@pytest.fixture(autouse=True)
def _no_rate_limit(settings: Any) -> None:
    settings.CLAIMS_CHECK_RATE = "10000/m"
    cache.clear()


def _post(text: str) -> Any:
    return Client().post(API, {"text": text}, content_type="application/json")


def _slow(seconds: float, real: Any) -> Any:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return real(*args, **kwargs)

    return slow


@pytest.mark.django_db
def test_every_stage_of_a_real_check_is_timed(ingested_shared: object) -> None:
    resp = _post(EN.read_text())
    assert resp.status_code == 200, resp.content[:300]
    out = resp.json()
    assert list(out["stages"]) == STAGES
    assert sum(s["wall"] for s in out["stages"].values()) <= out["seconds"] + 0.01
    assert out["claims"][0]["claimed"] == "28.3 min vs 29.1 min"
    assert out["claims"][0]["verdict"] == "consistent"
    assert all(r["url"] for c in out["claims"] for r in c["results"])  # links filled


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("module", "name", "stage"),
    [
        (claim_facts, "check_claims", "checking the claims against the results"),
        (guidelines, "page_report", ANSWER),
    ],
    ids=["verdicts", "answer"],
)
def test_a_slow_stage_after_the_reading_is_cut_at_the_budget(
    ingested_shared: object, monkeypatch: pytest.MonkeyPatch, module: Any, name: str, stage: str
) -> None:
    """The verdicts and the answer run in the budget's child: 30 s of work there is
    killed at the budget (before, only the reading was: the rest held the worker)."""
    monkeypatch.setattr(module, name, _slow(30, getattr(module, name)))
    t0 = time.perf_counter()
    resp = _post(EN.read_text())
    assert time.perf_counter() - t0 < 10
    assert resp.status_code == 422, resp.content[:300]
    body = resp.json()
    assert body["cut_at"] == stage and stage in body["error"]
    assert body["budget_seconds"] == claims_check.CHECK_SECONDS
    assert list(body["stages"])[-1] == stage and "nothing was checked" in body["error"]


@pytest.mark.django_db
def test_result_links_over_the_budget_are_a_422_naming_them(
    ingested_shared: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = claims_check._result_urls
    monkeypatch.setattr(claims_check, "_result_urls", _slow(claims_check.CHECK_SECONDS + 0.2, real))
    resp = _post(EN.read_text())
    assert resp.status_code == 422
    assert resp.json()["cut_at"] == "linking the results"


def test_a_check_error_raised_in_the_child_keeps_its_status() -> None:
    """A fetched page too large once cleaned is found in the child: its 413 (and the
    count it gives) comes back through the pickle, not a 400."""

    def work(stage: budget.Stage) -> None:
        raise claims_check.too_large(250_000)

    with pytest.raises(claims_check.CheckError) as err:
        budget.run_within(5, work)
    assert (err.value.status, err.value.details) == (413, {"characters": 250_000})
    again = pickle.loads(pickle.dumps(err.value))  # noqa: S301 - our own
    assert (str(again), again.status) == (str(err.value), 413)


def _built(keeper: warm.Keeper, token: str, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while keeper.built != token and time.monotonic() < deadline:
        time.sleep(0.05)
    assert keeper.built == token, f"the keeper built no store for {token} in {within:g} s"


def test_a_check_waits_for_the_keepers_build_at_most_its_budget(
    transactional_db: None, mlperf_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's keeper building the stored results (here held up to 30 s more than it
    takes): a check that comes meanwhile answers 422 within its budget, naming the
    wait, not after the build; once built, the check answers with its verdicts; after a committed
    change the first check waits again at most its budget, and once the keeper has
    built the new version the changed result is what the claims are checked against."""
    from ingest.training.service import mlperf_training_ingest

    mlperf_training_ingest(location=str(mlperf_data))  # committed: the version moves
    claim_facts._store = None  # as in a worker just started
    gate = threading.Event()  # set: the keeper's builds are no longer slowed
    real = warm.warm_check

    def slow_build() -> dict[str, float]:
        gate.wait(30)
        return real()

    monkeypatch.setattr(warm, "warm_check", slow_build)
    monkeypatch.setattr(warm, "_keeper", None)
    keeper = warm.start_keeper(interval=30)
    assert keeper is not None
    try:
        t0 = time.perf_counter()
        resp = _post(EN.read_text())
        assert time.perf_counter() - t0 < 10  # not the build's 30 s and more
        assert resp.status_code == 422 and resp.json()["cut_at"] == claims_check.WAITING
        version = data_version()
        assert version is not None
        gate.set()
        _built(keeper, version.token)
        out = _post(EN.read_text()).json()
        assert out["claims"][0]["verdict"] == "consistent"
        assert out["stages"][claims_check.WAITING]["wall"] < 1.0
        # a committed change: the keeper is woken by the next check, which waits at most
        # its budget; then the new version is built (its builds no longer slowed)
        gate.clear()
        r = Result.objects.filter(status="scored", round__suite="training").order_by("pk")[0]
        Result.objects.filter(pk=r.pk).update(score_minutes=r.score_minutes + 1)
        moved = data_version()
        assert moved is not None and moved.token != version.token
        t0 = time.perf_counter()
        resp = _post(EN.read_text())
        assert time.perf_counter() - t0 < 10
        assert resp.status_code == 422 and resp.json()["cut_at"] == claims_check.WAITING
        gate.set()
        _built(keeper, moved.token)
        assert _post(EN.read_text()).status_code == 200
        facts = claim_facts.result_facts(suite="training")
        assert [f.score_minutes for f in facts if f.pk == r.pk] == [r.score_minutes + 1]
    finally:
        gate.set()
        keeper.stop(timeout=60)
