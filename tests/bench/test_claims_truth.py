"""The claims checker measured against ../shared/vendor-dev's hand-established truths
(``bench/claims_truth.py``, issue 20) on the corpus pages whose rounds ../shared holds:
Training v1.0 and v2.0 (../shared/mlperf), Inference v0.7-v5.1 (../shared/mlperf-
inference), the pages whose claims are not MLPerf claims, and pages with counts the rounds'
rules decide (training/10, 11, 13, 14: ``benchdb.claims.round_facts``). A ratchet: the floors
below are the figures reached, and only go up; no verdict may be falsely consistent or
falsely inconsistent, and no page verdict may pair numbers the text does not link."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

BENCH = Path(__file__).resolve().parents[2] / "bench" / "claims_truth.py"
#: Pages whose truths rest on rounds ../shared holds (or on no round: not MLPerf).
PAGES = [
    "training/01-",
    "training/02-",
    "training/03-",
    # claims the rounds' rules decide (benchdb.claims.round_facts): no result is read
    "training/10-",
    "training/11-",
    "training/13-",
    "training/14-",
    "inference/03-",
    "inference/04-",
    "inference/07-",
    "inference/09-",
    "inference/12-",
    "inference/14-",
    "inference/15-",
    "inference/16-",
]


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("claims_truth", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["claims_truth"] = module
    spec.loader.exec_module(module)
    return module


def test_the_truth_values_are_read_as_printed() -> None:
    """The scorer's reading of printed values (the corpus's own spellings)."""
    ct = _bench()
    assert ct.truth_numbers("2.2x") == {2.2}
    assert ct.truth_numbers("7-54%") == {7.0, 54.0}
    assert 420000.0 in ct.truth_numbers("~420k")
    assert ct.truth_numbers("37 minutes 21 seconds") >= {37.35, 37.0, 21.0}
    assert ct.truth_numbers("六") == {6.0} and ct.truth_numbers("half-dozen") == {6.0}
    assert ct.truth_numbers("fastest") == set()


def test_claims_on_unseen_pages_floor(ingested_shared: object, ingested_inference: object) -> None:
    ct = _bench()
    corpus = Path(settings.VENDOR_DATA).parent / "vendor-dev"
    total, pages = ct.run(corpus, PAGES)
    assert len(pages) == len(PAGES)
    wrong = [
        (name, s.truth["value"], s.outcome)
        for name, _, rows in pages
        for s in rows
        if s.outcome in ("false consistent", "false inconsistent")
    ]
    assert wrong == []
    assert total["page unlinked"] == 0 and total["page wrong"] == 0
    assert total["page right"] >= FLOOR_PAGE_RIGHT
    # the floors reached (a ratchet: raise them when the checker improves)
    assert total["truths"] == 82, dict(total)
    assert total["extracted"] >= FLOOR_EXTRACTED, dict(total)
    assert total["checked"] >= FLOOR_CHECKED, dict(total)
    assert total["right"] >= FLOOR_RIGHT


FLOOR_EXTRACTED = 72
FLOOR_CHECKED = 5
FLOOR_RIGHT = 5
FLOOR_PAGE_RIGHT = 3
