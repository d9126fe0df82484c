"""ingest.models: ``Source.clean`` puts the rules of ``ingest.fetch`` on the ``ref``
and ``location`` fields; a job's progress. No database."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from ingest.models import IngestJob, Source
from tests.ingest.gitsource import EXT_PAYLOAD, PAYLOAD


def _errors(**fields: str) -> dict[str, list[str]]:
    source = Source(name="s", kind=fields.pop("kind", "mlperf-training"), **fields)
    try:
        source.clean()
    except ValidationError as exc:
        return exc.message_dict
    return {}


def test_a_refused_ref_or_location_is_an_error_on_its_field():
    both = _errors(location=EXT_PAYLOAD, ref=PAYLOAD)
    assert set(both) == {"ref", "location"}
    assert "it starts with '-'" in both["ref"][0]
    assert "only an https:// URL or a local path" in both["location"][0]
    assert _errors(location="/srv/training_results_v1.1", ref="v1.1") == {}
    assert _errors(location="https://github.com/x/y", ref="a" * 40) == {}


@pytest.mark.parametrize(
    ("kind", "location", "ok"),
    [
        ("vendor", "http://example.com/page.html", True),
        ("vendor", "/srv/page.html", True),
        ("vendor", "-page.html", False),
        ("mlperf-training", "http://example.com/x.git", False),
    ],
)
def test_only_a_vendor_page_may_be_plain_http(kind, location, ok):
    assert (_errors(kind=kind, location=location) == {}) is ok


def test_progress_is_the_share_of_result_folders_read():
    assert IngestJob(state="running", results_total=None).progress_percent is None
    assert IngestJob(state="running", results_total=8, results_seen=2).progress_percent == 25
    assert IngestJob(state="succeeded", results_total=0).progress_percent == 100
