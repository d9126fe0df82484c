"""The newcomer's quick start (README: ``make demo``) runs on SQLite, not PostgreSQL:
the same data ingested into a SQLite file, in a separate process, and every kind of page
read. A query only PostgreSQL understands fails here rather than on a newcomer's first
visit (a jsonpath count once did)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import os, sys, django
from django.core.management import call_command
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
django.setup()
from django.conf import settings
from django.test import Client
call_command("migrate", verbosity=0)
v11 = os.path.join(settings.MLPERF_DATA, "training_results_v1.1")
call_command("ingest", "mlperf-training", v11)
call_command("ingest", "mlperf-inference", settings.MLPERF_INFERENCE_DATA)
call_command("ingest", "mlperf-inference", "tests/data/inference-v6")  # as make demo
call_command("ingest", "mlperf-automotive", "tests/data/automotive-v0.5/automotive_results_v0.5")
call_command("ingest", "mlperf-storage", "tests/data/storage-v1.0/storage_results_v1.0")
call_command("ingest", "vendor", os.path.join(settings.VENDOR_DATA,
             "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"))
from benchdb.models import Claim, InferenceResult, Result, StorageResult, VendorPage
page, claim = VendorPage.objects.get(), Claim.objects.order_by("pk").first()
result, inf = Result.objects.order_by("pk").first(), InferenceResult.objects.order_by("pk").first()
c = Client(HTTP_HOST="127.0.0.1")
v6 = InferenceResult.objects.filter(round__version__in=["v6.0", "v6.1"])
v6_pages = []  # <division>/<submitter>/results/<rest> -> each result's page
for x in v6.select_related("round"):
    top, rest = x.source_path.split("/results/")
    v6_pages.append(f"/inference/{x.round.version}/results/{top}/{rest}/")
urls = ["/", "/api/", "/divisions/", "/software/", "/scaling/", "/compare/",
        result.get_absolute_url(), "/inference/", "/inference/v5.1/", "/hpc/",
        "/inference/v6.0/", "/inference/v6.1/", *v6_pages, "/automotive/", "/automotive/v0.5/",
        "/storage/", "/storage/v1.0/", "/storage/v1.0/unet3d/a100/",
        StorageResult.objects.order_by("pk").first().get_absolute_url(),
        "/vendor/", "/vendor/?format=csv", "/vendor/claims/", "/vendor/families/",
        page.get_absolute_url(), f"/vendor/pages/{page.pk}/guidelines/",
        claim.get_absolute_url(), "/vendor/check/"]
bad = [(u, r.status_code) for u in urls for r in [c.get(u)] if r.status_code != 200]
r = c.post("/api/claims/check", data='{"text": "ResNet-50 in 28.3 minutes on IPU-POD16"}',
           content_type="application/json")
bad += [] if r.status_code == 200 else [("/api/claims/check", r.status_code)]
print("BAD", bad)
sys.exit(1 if bad else 0)
"""


def test_the_quick_start_serves_every_kind_of_page_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'quickstart.sqlite3'}",
        "MLPERF_DATA": str(settings.MLPERF_DATA),
        "MLPERF_INFERENCE_DATA": str(settings.MLPERF_INFERENCE_DATA),
        "VENDOR_DATA": str(settings.VENDOR_DATA),
        "BENCHDB_CACHE": str(tmp_path / "cache"),
    }
    cmd = [sys.executable, "-c", SCRIPT]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "BAD []" in done.stdout
