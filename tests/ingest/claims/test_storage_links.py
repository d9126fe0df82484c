"""Claims checked against MLPerf Storage results store their links
(``ClaimResult.storage_result``, migration 0026) and show them like the other suites':
the claim page links each Storage result page, the claim's links table (CSV/JSON),
``manage.py export claims`` and the check API name them.

The results are the real Storage v1.0 subset (tests/data/storage-v1.0); the expected
figures are read from the published ``mlperf_storage_report.json`` files with ``json``
alone (:mod:`tests.storage_data`). The sentences are in the phrasing of pages other
than YanRong's (../shared/vendor-dev/inference/13, the page that showed Storage claims
had no links): blocksandfiles.com, 2024-09-26, "MLPerf AI benchmark tests how storage
systems keep GPUs busy" (samples per second on 3D U-Net) and vendors' Storage releases
as issue 28 quotes them ("3x the bandwidth of…")."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from benchdb.models import Claim, ClaimResult, StorageResult
from ingest.claims import check
from ingest.claims import pages as vendor
from ingest.storage.service import mlperf_storage_ingest
from tests.pages import html_of
from tests.storage_data import DDN, HAMMERSPACE, ROOT, report

pytestmark = pytest.mark.django_db

SAMPLES = (
    "In the MLPerf Storage benchmark, DDN's AI400X2T processed 713 samples per second"
    " on 3D U-Net with A100s."
)
GAIN = (
    "In MLPerf Storage v1.0, DDN delivered 9.6x the bandwidth of Hammerspace on 3D U-Net"
    " with simulated A100s."
)
#: The system folders, as the repository's paths name them.
DDN_SYSTEM = "AI400X2T_24x14TiB_nvme_8xNDR200_18clients"
HAMMERSPACE_SYSTEM = "Hammerspace_unet3d_1Client_A100"


@pytest.fixture
def claims() -> dict[str, Claim]:
    mlperf_storage_ingest(location=str(ROOT))
    text = f"{SAMPLES}\n{GAIN}\n"
    rep = vendor.vendor_page_ingest(
        data=text.encode(), path_or_url="storage.txt", title="MLPerf Storage v1.0 results"
    )
    rows = Claim.objects.filter(page_id=rep.page_id).order_by("position")
    by_sentence = {c.sentence: c for c in rows}
    return {"samples": by_sentence[SAMPLES], "gain": by_sentence[GAIN]}


def _result(folder: str) -> StorageResult:
    return StorageResult.objects.get(source_path__endswith=folder)


def test_a_storage_claim_stores_its_results_as_links(claims: dict[str, Claim]) -> None:
    samples, gain = claims["samples"], claims["gain"]
    assert (samples.verdict, gain.verdict) == ("consistent", "consistent")
    ddn, hammerspace = _result(DDN), _result(HAMMERSPACE)
    links = ClaimResult.objects.filter(claim__in=[samples, gain])
    assert {(lk.claim_id, lk.role, lk.storage_result_id) for lk in links} == {
        (samples.pk, "subject", ddn.pk),
        (gain.pk, "subject", ddn.pk),
        (gain.pk, "compared", hammerspace.pk),
    }
    assert all(lk.result_id is None and lk.inference_result_id is None for lk in links)
    # checked again: the same links are kept (no rewrite)
    before = sorted(links.values_list("pk", flat=True))
    vendor.claims_reverify(page_id=samples.page_id)
    assert (
        sorted(ClaimResult.objects.filter(claim__in=claims.values()).values_list("pk", flat=True))
        == before
    )


def test_the_claim_page_links_each_storage_result_page(
    client: Client, claims: dict[str, Claim]
) -> None:
    ddn, hammerspace = _result(DDN), _result(HAMMERSPACE)
    html = html_of(client, f"/vendor/claims/{claims['gain'].pk}/")
    for r in (ddn, hammerspace):
        url = f"/storage/result/{r.pk}/"
        assert f'href="{url}"' in html
        assert client.get(url).status_code == 200
    assert DDN_SYSTEM in html and HAMMERSPACE_SYSTEM in html
    rows = json.loads(client.get(f"/vendor/claims/{claims['gain'].pk}/?format=json").content)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    published = {
        DDN_SYSTEM: report(DDN)["overall"],
        HAMMERSPACE_SYSTEM: report(HAMMERSPACE)["overall"],
    }
    assert {r["role"]: r["system"] for r in rows} == {
        "subject": DDN_SYSTEM,
        "compared": HAMMERSPACE_SYSTEM,
    }
    for r in rows:  # a bandwidth claim: each side's mean MiB/s as published
        assert (r["suite"], r["round"], r["benchmark"], r["scenario"]) == (
            "storage",
            "v1.0",
            "unet3d",
            "A100",
        )
        assert r["unit"] == "MiB/s"
        assert r["value"] == pytest.approx(
            published[r["system"]]["train_throughput_mean_MB_per_second"], rel=1e-9
        )
        assert r["link"] == r["result"] and r["link"].startswith("/storage/result/")
    csv_rows = list(
        csv.DictReader(
            io.StringIO(
                client.get(f"/vendor/claims/{claims['samples'].pk}/?format=csv").content.decode()
            )
        )
    )
    [row] = csv_rows  # a claim in samples: the mean samples/s as published
    assert (row["role"], row["system"], row["unit"]) == ("subject", DDN_SYSTEM, "samples/s")
    expected = report(DDN)["overall"]["train_throughput_mean_samples_per_second"]
    assert float(row["value"]) == pytest.approx(expected, rel=1e-9)


def test_export_claims_names_the_storage_results(claims: dict[str, Claim]) -> None:
    ddn_count = report(DDN)["overall"]["train_num_accelerators"]  # "72"
    hs_count = report(HAMMERSPACE)["overall"]["train_num_accelerators"]
    label = f"v1.0/DDN/{DDN_SYSTEM}/unet3d/a100x{ddn_count}"
    out = io.StringIO()
    call_command("export", "claims", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    rows = data["rows"] if isinstance(data, dict) else data
    by_id = {r["id"]: r for r in rows}
    assert by_id[claims["samples"].pk]["results"] == [f"subject:{label}"]
    assert by_id[claims["gain"].pk]["results"] == [
        f"subject:{label}",
        f"compared:v1.0/Hammerspace/{HAMMERSPACE_SYSTEM}/unet3d/a100x{hs_count}",
    ]
    out = io.StringIO()
    call_command("export", "claims", "--format", "csv", stdout=out)
    [row] = [
        r
        for r in csv.DictReader(io.StringIO(out.getvalue()))
        if r["id"] == str(claims["samples"].pk)
    ]
    assert label in row["results"]


def test_the_check_api_gives_each_storage_link_its_page(claims: dict[str, Claim]) -> None:
    out = check.claims_check(text=GAIN)
    [claim] = out["claims"]
    urls = {r["role"]: r["url"] for r in claim["results"]}
    assert urls == {
        "subject": f"/storage/result/{_result(DDN).pk}/",
        "compared": f"/storage/result/{_result(HAMMERSPACE).pk}/",
    }
