"""``manage.py ingest vendor`` with several locations: files and a folder of pages in
one process, each stored page named by its file (real pages of ../shared/vendor)."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from benchdb.models import VendorPage

VENDOR = Path(settings.VENDOR_DATA)
PAGES = [
    "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt",
    "graphcore-mlperf-training-v1.1-results.zh.txt",
]
pytestmark = pytest.mark.django_db


def test_a_folder_is_ingested_page_by_page_each_line_naming_its_file(tmp_path: Path) -> None:
    for name in [*PAGES, "README.md"]:
        shutil.copy(VENDOR / name, tmp_path / name)
    out = io.StringIO()
    call_command("ingest", "vendor", str(tmp_path), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and VendorPage.objects.count() == 2  # README.md is not a page
    for line, name in zip(lines, PAGES, strict=True):
        assert re.fullmatch(rf"{re.escape(str(tmp_path / name))}: page \d+: \d+ claims .*", line)
    out = io.StringIO()
    call_command("ingest", "vendor", str(tmp_path / PAGES[0]), str(tmp_path), stdout=out)
    assert out.getvalue().count("already stored") == 3 and VendorPage.objects.count() == 2


def test_one_page_options_with_several_pages_are_refused(tmp_path: Path) -> None:
    files = [str(VENDOR / p) for p in PAGES]
    with pytest.raises(CommandError, match="describe one page"):
        call_command("ingest", "vendor", *files, "--url", "https://example.com/x")
    assert not VendorPage.objects.exists()


def test_a_failing_page_is_named_and_the_others_still_go_in(tmp_path: Path) -> None:
    err = io.StringIO()
    missing = str(tmp_path / "missing.txt")
    with pytest.raises(CommandError, match=r"1 of 2 pages not stored: .*missing\.txt"):
        call_command("ingest", "vendor", missing, str(VENDOR / PAGES[0]), stderr=err)
    assert missing in err.getvalue() and VendorPage.objects.count() == 1
