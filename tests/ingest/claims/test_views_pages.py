"""The vendor write pages (ingest/claims/views_pages.py): uploading a page (a file or a URL)
and correcting a claim's links need a login and CSRF; what is uploaded is escaped; the
page limits (size, HTML depth, claims) answer 400 with a clear message, never 500."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from benchdb.models import Claim, ClaimCorrection, Result, VendorPage
from ingest.claims import pages as vendor
from tests.pages import html_of

VENDOR = Path(settings.VENDOR_DATA)
pytestmark = pytest.mark.django_db

PAYLOAD = (
    b"MLPerf Training v1.1: IPU-POD16 trains ResNet-50 in 28.3 minutes"
    b' <script>alert("x")</script>.\n'
    b"<img src=x onerror=alert(1)> 5.67 min on the IPU-POD128 for ResNet-50.\n"
)


GRAPHCORE_V11 = [
    "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt",
    "graphcore-mlperf-training-v1.1-results.zh.txt",
]


@pytest.fixture
def pages(ingested_shared: object) -> dict[str, VendorPage]:
    """Graphcore's v1.1 pages (with head-to-head claims), ingested."""
    out = {}
    for name in GRAPHCORE_V11:
        report = vendor.vendor_page_ingest(data=None, path_or_url=str(VENDOR / name))
        out[name] = VendorPage.objects.get(pk=report.page_id)
    return out


def test_uploaded_payloads_are_escaped_everywhere(user: User, ingested_shared: object) -> None:
    client = Client()
    client.force_login(user)
    resp = client.post(
        "/vendor/upload/",
        {"file": SimpleUploadedFile("evil.txt", PAYLOAD, "text/plain"), "published": "2021-12-01"},
    )
    assert resp.status_code == 302
    page = VendorPage.objects.get(file_name="evil.txt")
    html_table = (
        b"<html><body><table><tr><th>Model</th><th>Time To Train</th></tr>"
        b"<tr><td>&lt;script&gt;alert(3)&lt;/script&gt; BERT</td><td>9 min</td></tr>"
        b"</table></body></html>"
    )
    resp = client.post(
        "/vendor/upload/", {"file": SimpleUploadedFile("evil.html", html_table, "text/html")}
    )
    table_page = VendorPage.objects.get(file_name="evil.html")
    assert "<script>alert(3)</script>" in table_page.text  # the entity is text, kept as text
    urls = [
        f"/vendor/pages/{page.pk}/",
        f"/vendor/pages/{table_page.pk}/",
        f"/vendor/pages/{table_page.pk}/tables/",
        "/vendor/claims/",
        "/vendor/",
    ]
    urls += [f"/vendor/claims/{c.pk}/" for c in Claim.objects.filter(page__in=[page, table_page])]
    for url in urls:
        html = html_of(client, url)
        assert "<script>alert" not in html and "<img src=x" not in html, url
    html = html_of(client, f"/vendor/pages/{page.pk}/")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    # the claims are highlighted, each mark linking to its claim
    marks = re.findall(
        r'<mark class="claim v-([a-z-]+)"[^>]*><a href="/vendor/claims/(\d+)/">([^<]*)</a></mark>',
        html,
    )
    assert [(v, text) for v, _, text in marks] == [
        ("consistent", "28.3 minutes"),
        ("consistent", "5.67 min"),
    ]


def test_upload_requires_login(client: Client, ingested_shared: object) -> None:
    resp = client.get("/vendor/upload/")
    assert resp.status_code == 302 and resp["Location"].startswith(settings.LOGIN_URL)
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("x.txt", PAYLOAD)})
    assert resp.status_code == 302 and not VendorPage.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/admin/",
        "http://localhost/",
        "http://169.254.169.254/latest/",
        "http://10.0.0.1/x",
    ],
)
def test_the_site_does_not_fetch_from_private_addresses(user: User, url: str) -> None:
    client = Client()
    client.force_login(user)
    resp = client.post("/vendor/upload/", {"fetch_url": url})
    assert resp.status_code == 400
    assert "not a public address" in resp.content.decode()
    assert not VendorPage.objects.filter(url=url).exists()


def test_the_site_follows_no_redirect_to_a_private_address(user: User) -> None:
    """A public URL that redirects to loopback is refused at the redirect."""
    from unittest import mock

    from ingest import fetch

    def resolve(host, *a, **kw):  # the fixture's two hosts: one public, one loopback
        ip = "93.184.216.34" if host == "public.example" else "127.0.0.1"
        return [(2, 1, 6, "", (ip, 80))]

    handler = fetch._PublicRedirects()
    with mock.patch("socket.getaddrinfo", resolve):
        fetch.require_public_url("http://public.example/page")
        with pytest.raises(fetch.SyncError, match="not a public address"):
            handler.redirect_request(None, None, 302, "Found", {}, "http://localhost/admin/")


def test_correction_requires_login_and_csrf(pages: dict[str, VendorPage], user: User) -> None:
    claim = Claim.objects.get(
        page=pages["graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"],
        kind="time",
        value=5.78,
    )
    closed = Result.objects.get(round__version="v1.1", system__folder="ipu-pod128-POPART-closed")
    url = f"/vendor/claims/{claim.pk}/correct/"
    data = {"subject": closed.pk, "note": "use the closed result"}
    resp = Client().post(url, data)  # anonymous
    assert resp.status_code == 302 and resp["Location"].startswith(settings.LOGIN_URL)
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(user)
    assert csrf_client.post(url, data).status_code == 403  # no CSRF token
    assert not ClaimCorrection.objects.exists()
    logged = Client()
    logged.force_login(user)
    assert logged.get(url).status_code == 405
    page = logged.get(f"/vendor/claims/{claim.pk}/").content.decode()
    assert 'name="csrfmiddlewaretoken"' in page and 'id="correct"' in page
    resp = logged.post(url, data)
    assert resp.status_code == 302 and resp["Location"] == f"/vendor/claims/{claim.pk}/"
    (corr,) = ClaimCorrection.objects.all()
    assert (corr.user, corr.claim, corr.note, corr.new_links) == (
        user,
        claim,
        "use the closed result",
        [{"result": closed.pk, "role": "subject"}],
    )
    html = logged.get(f"/vendor/claims/{claim.pk}/").content.decode()
    assert "reviewer" in html and "inconsistent" in html
    assert logged.post(url, {"subject": 999999}).status_code == 400


def test_a_page_with_400_digit_numbers_uploads_and_shows(
    user: User, ingested_shared: object
) -> None:
    client = Client()
    client.force_login(user)
    huge = "9" * 400
    body = (
        f"MLPerf Training v1.1: IPU-POD16 trains ResNet-50 in {huge} minutes, {huge}x faster"
        " on 99999999999 GPUs.\n"
    )
    resp = client.post(
        "/vendor/upload/", {"file": SimpleUploadedFile("huge.txt", body.encode(), "text/plain")}
    )
    assert resp.status_code == 302
    page = VendorPage.objects.get(file_name="huge.txt")
    assert page.claims.exists() and all(c.value is None for c in page.claims.exclude(kind="scale"))
    for url in (
        f"/vendor/pages/{page.pk}/",
        "/vendor/claims/",
        *(f"/vendor/claims/{c.pk}/" for c in page.claims.all()),
    ):
        html_of(client, url)
    doc = json.loads(client.get(f"/vendor/pages/{page.pk}/", {"format": "json"}).content)
    assert [r["value"] for r in doc["rows"] if r["kind"] != "scale"] == [None, None]


# --- limits: 400 with a clear message, never 500 ---------------------------------------


def _deephtml_of(depth: int) -> bytes:
    return (
        b"<!doctype html><html><body>"
        + b"<div>" * depth
        + b"MLPerf Training v1.1: IPU-POD16 trains ResNet-50 in 28.3 minutes."
        + b"</div>" * depth
        + b"</body></html>"
    )


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_html_is_refused_with_a_clear_message(
    user: User, ingested_shared: object, depth: int
) -> None:
    """HTML nested 1,000 deep raised RecursionError (500); 100k deep ran for minutes."""
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("deep.html", _deephtml_of(depth), "text/html")
    resp = client.post("/vendor/upload/", {"file": upload})
    assert resp.status_code == 400
    assert "nested more than 256 deep" in resp.content.decode()
    assert not VendorPage.objects.exists()


def test_a_page_over_the_size_limit_is_refused_and_read_no_further(
    user: User, ingested_shared: object
) -> None:
    client = Client()
    client.force_login(user)
    data = b"MLPerf v1.1 IPU-POD16 ResNet-50 28.3 minutes. " * (vendor.MAX_PAGE_BYTES // 40)
    assert len(data) > vendor.MAX_PAGE_BYTES
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("big.txt", data)})
    assert resp.status_code == 400
    assert "big.txt: larger than 5 MB (5242880 bytes)" in resp.content.decode()
    assert not VendorPage.objects.exists()


def test_a_page_with_too_many_claims_is_refused(
    user: User, ingested_shared: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vendor, "MAX_CLAIMS_PER_PAGE", 3)
    client = Client()
    client.force_login(user)
    body = "".join(f"IPU-POD16 trains ResNet-50 in {20 + i}.5 minutes.\n" for i in range(4))
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("many.txt", body.encode())})
    assert resp.status_code == 400
    assert (
        "many.txt: more than 3 claims found; at most 3 are stored per page" in resp.content.decode()
    )
    assert not VendorPage.objects.exists()
