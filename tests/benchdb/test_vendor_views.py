"""Vendor pages on the site: escaping of everything that comes from scraped pages,
login and CSRF for writes, CSV/JSON forms, and the queries each page costs."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

import benchdb.claims
from benchdb.claims.views import highlight_segments
from benchdb.models import Claim, ClaimCorrection, Result, VendorPage
from benchdb.tables import schemas
from ingest import vendor_pages as vendor

VENDOR = Path(settings.VENDOR_DATA)
pytestmark = pytest.mark.django_db

PAYLOAD = b"""MLPerf Training v1.1: IPU-POD16 trains ResNet-50 in 28.3 minutes <script>alert("x")</script>.
<img src=x onerror=alert(1)> 5.67 min on the IPU-POD128 for ResNet-50.
"""


@pytest.fixture
def pages(ingested_shared: object) -> dict[str, VendorPage]:
    out = {}
    for p in sorted(VENDOR.iterdir()):
        report = vendor.vendor_page_ingest(data=None, path_or_url=str(p))
        out[p.name] = VendorPage.objects.get(pk=report.page_id)
    return out


@pytest.fixture
def user() -> User:
    return User.objects.create_user("reviewer")


def _html(client: Client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, url
    return resp.content.decode()


# --- escaping ----------------------------------------------------------------------


def test_nothing_from_the_files_reaches_a_page_unescaped(client: Client, pages: dict[str, VendorPage]) -> None:  # fmt: skip
    """Tags and script fragments of the real files appear only escaped, on the page,
    in the claim list and on every claim page."""
    raw_bits = ['<meter id="pryje">', '<nav id="pryje">', '<delect id="pryje">', '<label id="pryje">', "createElement('script')"]  # fmt: skip
    zh = pages["graphcore-mlperf-training-v1.1-results.zh.txt"]
    urls = ["/vendor/", "/vendor/claims/", *(f"/vendor/pages/{p.pk}/" for p in pages.values()), *(f"/vendor/pages/{p.pk}/tables/" for p in pages.values())]  # fmt: skip
    urls += [f"/vendor/claims/{pk}/" for pk in Claim.objects.values_list("pk", flat=True)]
    for url in urls:
        html = _html(client, url)
        for bit in raw_bits:
            assert bit not in html, (url, bit)
    page_html = _html(client, f"/vendor/pages/{zh.pk}/")
    assert "&lt;meter id=&quot;pryje&quot;&gt;" in page_html
    assert "createElement(&#x27;script&#x27;)" in page_html


def test_uploaded_payloads_are_escaped_everywhere(user: User, ingested_shared: object) -> None:
    client = Client()
    client.force_login(user)
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("evil.txt", PAYLOAD, "text/plain"), "published": "2021-12-01"})  # fmt: skip
    assert resp.status_code == 302
    page = VendorPage.objects.get(file_name="evil.txt")
    html_table = b"<html><body><table><tr><th>Model</th><th>Time To Train</th></tr><tr><td>&lt;script&gt;alert(3)&lt;/script&gt; BERT</td><td>9 min</td></tr></table></body></html>"  # fmt: skip
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("evil.html", html_table, "text/html")})  # fmt: skip
    table_page = VendorPage.objects.get(file_name="evil.html")
    assert "<script>alert(3)</script>" in table_page.text  # the entity is text, kept as text
    urls = [f"/vendor/pages/{page.pk}/", f"/vendor/pages/{table_page.pk}/", f"/vendor/pages/{table_page.pk}/tables/", "/vendor/claims/", "/vendor/"]  # fmt: skip
    urls += [f"/vendor/claims/{c.pk}/" for c in Claim.objects.filter(page__in=[page, table_page])]
    for url in urls:
        html = _html(client, url)
        assert "<script>alert" not in html and "<img src=x" not in html, url
    html = _html(client, f"/vendor/pages/{page.pk}/")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    # the claims are highlighted, each mark linking to its claim
    marks = re.findall(r'<mark class="claim v-([a-z-]+)"[^>]*><a href="/vendor/claims/(\d+)/">([^<]*)</a></mark>', html)  # fmt: skip
    assert [(v, text) for v, _, text in marks] == [("consistent", "28.3 minutes"), ("consistent", "5.67 min")]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "spans", "pieces"),
    [
        ("abcdef", [(1, 3, "x")], [("a", None), ("bc", "x"), ("def", None)]),
        ("abcdef", [(3, 6, "y"), (0, 2, "x")], [("ab", "x"), ("c", None), ("def", "y")]),
        ("abcdef", [(0, 4, "x"), (2, 3, "y")], [("abcd", "x"), ("ef", None)]),  # overlap skipped
        ("abc", [(2, 10, "x"), (5, 6, "z")], [("ab", None), ("c", "x")]),  # clipped, out of range
        ("<b>", [], [("<b>", None)]),
    ],
)  # fmt: skip
def test_highlight_segments_cover_the_text_once(text: str, spans: list[tuple[int, int, str]], pieces: list[tuple[str, str | None]]) -> None:  # fmt: skip
    segs = highlight_segments(text, spans)
    assert [(s["text"], s["tag"]) for s in segs] == pieces
    assert "".join(s["text"] for s in segs) == text


# --- writes need a login and CSRF -----------------------------------------------------


def test_upload_requires_login(client: Client, ingested_shared: object) -> None:
    resp = client.get("/vendor/upload/")
    assert resp.status_code == 302 and resp["Location"].startswith(settings.LOGIN_URL)
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("x.txt", PAYLOAD)})
    assert resp.status_code == 302 and not VendorPage.objects.exists()


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/admin/", "http://localhost/", "http://169.254.169.254/latest/", "http://10.0.0.1/x"])  # fmt: skip
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
    claim = Claim.objects.get(page=pages["graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"], kind="time", value=5.78)  # fmt: skip
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
    assert (corr.user, corr.claim, corr.note, corr.new_links) == (user, claim, "use the closed result", [{"result": closed.pk, "role": "subject"}])  # fmt: skip
    html = logged.get(f"/vendor/claims/{claim.pk}/").content.decode()
    assert "reviewer" in html and "inconsistent" in html
    assert logged.post(url, {"subject": 999999}).status_code == 400


def test_anonymous_claim_page_has_no_form(client: Client, pages: dict[str, VendorPage]) -> None:
    claim = Claim.objects.filter(kind="head_to_head").first()
    assert claim is not None
    html = _html(client, f"/vendor/claims/{claim.pk}/")
    assert 'id="correct"' not in html and "Log in" in html


# --- content, formats and query counts ---------------------------------------------------


def test_claim_page_shows_claimed_and_recomputed_side_by_side(client: Client, pages: dict[str, VendorPage], official_scores: list[dict[str, str]]) -> None:  # fmt: skip
    claim = Claim.objects.get(page=pages["graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"], kind="head_to_head")  # fmt: skip
    html = _html(client, f"/vendor/claims/{claim.pk}/")
    table = html[html.index('id="side-by-side"') :]
    assert re.search(r"28\.3 min</td><td[^>]*>28\.335 min", table)
    assert re.search(r"29\.1 min</td><td[^>]*>29\.147 min", table)
    results = [Result.objects.get(round__version="v1.1", system__folder=f) for f in ("ipu-pod16-TF1", "dgxa100_ngc21.09_mxnet")]  # fmt: skip
    for r in results:
        assert f'href="/results/{r.pk}/"' in html
        for run in r.runs.all():
            assert f"/runs/{run.pk}/log.txt" in html
    assert "different-accelerator-counts" in html and "2.5%" in html


@pytest.mark.parametrize("kind", ["pages", "page", "claims", "claim", "tables"])
def test_every_table_as_csv_and_json(client: Client, pages: dict[str, VendorPage], kind: str) -> None:  # fmt: skip
    page = pages["nvidia-training-performance-table-mlperf-v3.0.txt"]
    claim = Claim.objects.get(page=pages["graphcore-mlperf-training-v1.1-results.zh.txt"], kind="head_to_head")  # fmt: skip
    url, schema, n = {
        "pages": ("/vendor/", "benchdb.vendor_pages/1", len(pages)),
        "page": (f"/vendor/pages/{page.pk}/", "benchdb.claims/1", 12),
        "claims": ("/vendor/claims/", "benchdb.claims/1", Claim.objects.count()),
        "claim": (f"/vendor/claims/{claim.pk}/", "benchdb.claim_links/1", 2),
        "tables": (f"/vendor/pages/{page.pk}/tables/", "benchdb.vendor_results/1", 12),
    }[kind]
    doc = json.loads(client.get(url, {"format": "json"}).content)
    assert doc["schema"] == schema and len(doc["rows"]) == n
    resp = client.get(url, {"format": "csv"})
    assert resp["Content-Type"].startswith("text/csv") and "attachment" in resp["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert len(rows) == n and list(rows[0]) == doc["columns"]


def test_claims_csv_columns_and_filter(client: Client, pages: dict[str, VendorPage]) -> None:
    resp = client.get("/vendor/claims/", {"format": "csv", "verdict": "consistent"})
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert tuple(rows[0]) == schemas.columns("benchdb.claims/1") and {r["verdict"] for r in rows} == {"consistent"}
    assert client.get("/vendor/claims/", {"verdict": "bogus"}).status_code == 400


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/vendor/", 1),  # pages with claim and row counts
        ("/vendor/pages/{page}/", 3),  # page; its claims; their links with results
        ("/vendor/claims/", 2),  # claims with pages; links with results
        ("/vendor/claims/{claim}/", 4),  # claim with page; links with results; runs; corrections
        ("/vendor/pages/{page}/tables/", 2),  # page; its table rows
    ],
)
def test_query_counts(client: Client, pages: dict[str, VendorPage], django_assert_num_queries, url: str, queries: int) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    page = pages["graphcore-mlperf-training-v1.1-results.zh.txt"]
    claim = page.claims.get(kind="head_to_head")
    with django_assert_num_queries(queries):
        assert client.get(url.format(page=page.pk, claim=claim.pk)).status_code == 200


VENDOR_SCHEMAS = ["benchdb.vendor_pages/1", "benchdb.claims/1", "benchdb.claim_links/1", "benchdb.vendor_results/1"]  # fmt: skip


def test_api_documents_the_vendor_tables_with_the_columns_they_are_served_with(client: Client, pages: dict[str, VendorPage]) -> None:  # fmt: skip
    page = pages["nvidia-training-performance-table-mlperf-v3.0.txt"]
    claim = Claim.objects.get(page=pages["graphcore-mlperf-training-v1.1-results.zh.txt"], kind="head_to_head")  # fmt: skip
    urls = ["/vendor/", f"/vendor/pages/{page.pk}/", f"/vendor/claims/{claim.pk}/", f"/vendor/pages/{page.pk}/tables/"]  # fmt: skip
    served = {}
    for url in urls:
        doc = json.loads(client.get(url, {"format": "json"}).content)
        served[doc["schema"]] = doc["columns"]
    api = json.loads(client.get("/api/", {"format": "json"}).content)["schemas"]
    html = _html(client, "/api/")
    for name in VENDOR_SCHEMAS:
        assert [c["name"] for c in api[name]] == served[name], name
        assert all(c["description"] and c["type"] for c in api[name])
        assert f'id="{name}"' in html


def test_export_claims_does_not_load_the_views(pages: dict[str, VendorPage], monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """``manage.py export claims`` reads through benchdb.claims.selectors, not a view module."""
    monkeypatch.delitem(sys.modules, "benchdb.claims.views", raising=False)
    monkeypatch.delattr(benchdb.claims, "views", raising=False)
    out = io.StringIO()
    call_command("export", "claims", "--format", "csv", stdout=out)
    assert "benchdb.claims.views" not in sys.modules
    assert len(list(csv.DictReader(io.StringIO(out.getvalue())))) == Claim.objects.count()


def test_a_page_with_400_digit_numbers_uploads_and_shows(user: User, ingested_shared: object) -> None:
    client = Client()
    client.force_login(user)
    huge = "9" * 400
    body = f"MLPerf Training v1.1: IPU-POD16 trains ResNet-50 in {huge} minutes, {huge}x faster on 99999999999 GPUs.\n"  # fmt: skip
    resp = client.post("/vendor/upload/", {"file": SimpleUploadedFile("huge.txt", body.encode(), "text/plain")})  # fmt: skip
    assert resp.status_code == 302
    page = VendorPage.objects.get(file_name="huge.txt")
    assert page.claims.exists() and all(c.value is None for c in page.claims.exclude(kind="scale"))
    for url in (f"/vendor/pages/{page.pk}/", "/vendor/claims/", *(f"/vendor/claims/{c.pk}/" for c in page.claims.all())):  # fmt: skip
        _html(client, url)
    doc = json.loads(client.get(f"/vendor/pages/{page.pk}/", {"format": "json"}).content)
    assert [r["value"] for r in doc["rows"] if r["kind"] != "scale"] == [None, None]
