"""Publication dates of the Tiny, Mobile and Storage rounds (``rules.PUBLISHED`` of each
suite): stored on the round at ingest, shown on each suite's rounds table (HTML, CSV,
JSON), and used by claims that name no round (the page's date picks it).

The expected dates are git's, not benchdb's: the day of the newest commit of each
round's results repository as published (``git log -1 --date=short``), checked here
against the bare mirrors when this machine has them."""

from __future__ import annotations

import json
import subprocess
from datetime import date
from pathlib import Path

import pytest
from django.test import Client

from benchdb.claims import resolve
from benchdb.mlperf.mobile.rules import PUBLISHED as MOBILE
from benchdb.mlperf.storage.rules import PUBLISHED as STORAGE
from benchdb.mlperf.tiny.rules import PUBLISHED as TINY
from benchdb.models import Round
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text
from ingest.mobile.service import mlperf_mobile_ingest
from ingest.storage.service import mlperf_storage_ingest
from ingest.tiny.service import mlperf_tiny_ingest
from tests.mobile_data import V40
from tests.pages import html_of
from tests.storage_data import ROOT as STORAGE_V10
from tests.tiny_data import V12

#: Round -> (its repository, the day of its newest commit as ``git log`` prints it).
GIT_DAYS = {
    ("tiny", "v1.2"): ("tiny_results_v1.2", "2024-04-17"),
    ("tiny", "v1.3"): ("tiny_results_v1.3", "2025-09-16"),
    ("mobile", "v4.0"): ("mobile_results_v4.0", "2024-05-16"),
    ("mobile", "v4.1"): ("mobile_results_v4.1", "2024-10-16"),
    ("mobile", "v5.0"): ("mobile_results_v5.0", "2025-03-21"),
    ("storage", "v1.0"): ("storage_results_v1.0", "2024-09-25"),
}
MIRRORS = Path("/work/.mirror")


def test_every_round_has_the_day_of_its_repositorys_publication() -> None:
    stored = {
        **{("tiny", v): d for v, d in TINY.items()},
        **{("mobile", v): d for v, d in MOBILE.items()},
        **{("storage", v): d for v, d in STORAGE.items()},
    }
    assert {k: d.isoformat() for k, d in stored.items()} == {k: d for k, (_, d) in GIT_DAYS.items()}


@pytest.mark.parametrize("key", sorted(GIT_DAYS))
def test_the_day_is_gits_newest_commit_of_the_mirror(key: tuple[str, str]) -> None:
    repo, day = GIT_DAYS[key]
    git_dir = MIRRORS / f"mlcommons+{repo}" / "repo"
    if not git_dir.is_dir():
        pytest.skip(f"no bare mirror of {repo} on this machine")
    out = subprocess.run(
        ["git", "-C", str(git_dir), "log", "-1", "--date=short", "--format=%cd", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == day


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("suite", "ingest", "root", "version"),
    [
        ("tiny", mlperf_tiny_ingest, V12, "v1.2"),
        ("mobile", mlperf_mobile_ingest, V40, "v4.0"),
        ("storage", mlperf_storage_ingest, STORAGE_V10, "v1.0"),
    ],
)
def test_a_rounds_table_shows_its_publication_date(
    client: Client, suite: str, ingest: object, root: Path, version: str
) -> None:
    ingest(location=str(root))  # type: ignore[operator]
    day = GIT_DAYS[suite, version][1]
    assert Round.objects.get(suite=suite, version=version).published == date.fromisoformat(day)
    [row] = json.loads(client.get(f"/{suite}/", {"format": "json"}).content)["rows"]
    assert (row["round"], row["published"]) == (version, day)
    csv_text = client.get(f"/{suite}/", {"format": "csv"}).content.decode()
    assert day in csv_text.splitlines()[1]
    html = html_of(client, f"/{suite}/")
    assert f'<td class="nowrap">{day}</td>' in html


@pytest.mark.django_db
def test_a_tiny_claim_naming_no_round_takes_the_one_its_pages_date_gives() -> None:
    """MLCommons' Tiny page phrasing (as tests/ingest/claims/test_check_other_suites.py);
    STMicroelectronics' NUCLEO-U575ZI-Q keyword spotting: 29.056 ms (v1.2 summary.csv).
    A page dated a month after v1.2's publication, naming no version: v1.2."""
    mlperf_tiny_ingest(location=str(V12))
    text = "In MLPerf Tiny, STMicroelectronics ran keyword spotting with a latency of 29.1 ms."
    page = resolve.PageContext(title="", text=text, published=date(2024, 5, 20), vendor="", url="")
    [(_, f, v)] = claim_facts.check_claims(claim_text.extract_claims(text), page)
    assert (f.suite, f.round, v.verdict) == ("tiny", "v1.2", "consistent")
