"""Who one client is, behind a TLS proxy (issue 21, item 8; benchdb/client_ip.py): by
default REMOTE_ADDR and a client's own X-Forwarded-For is ignored; with
``BENCHDB_TRUSTED_PROXIES=1`` the address the proxy saw, so that django-axes locks out
one client and the check API's rate limit counts one client, not everyone behind the
proxy. A login whose ``next`` is refused lands on the home page, not a 404."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from benchdb.client_ip import client_ip

PROXY = "10.0.0.5"  # what REMOTE_ADDR is behind the proxy, for every client
LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _request(xff: str | None) -> Any:
    extra = {"HTTP_X_FORWARDED_FOR": xff} if xff is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=PROXY, **extra)


@pytest.mark.parametrize(
    ("proxies", "xff", "expected"),
    [
        (0, "203.0.113.9", PROXY),  # no proxy trusted: a client may write anything
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "198.51.100.1, 203.0.113.9", "203.0.113.9"),  # the left one is the client's say
        (2, "198.51.100.1, 203.0.113.9, 10.0.0.4", "203.0.113.9"),
        (2, "203.0.113.9", PROXY),  # fewer hops than proxies: not through them all
        (1, "not-an-ip", PROXY),
        (1, None, PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_is_the_address_the_first_trusted_proxy_saw(
    settings: Any, proxies: int, xff: str | None, expected: str
) -> None:
    settings.BENCHDB_TRUSTED_PROXIES = proxies
    assert client_ip(_request(xff)) == expected


def test_another_header_may_be_named(settings: Any) -> None:
    settings.BENCHDB_TRUSTED_PROXIES = 1
    settings.BENCHDB_CLIENT_IP_HEADER = "X-Real-IP"
    req = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_REAL_IP="203.0.113.9")
    assert client_ip(req) == "203.0.113.9"


@pytest.mark.django_db
def test_behind_the_proxy_one_clients_failed_logins_lock_out_only_that_client(
    settings: Any, admin_user: Any
) -> None:
    settings.BENCHDB_TRUSTED_PROXIES = 1
    attacker = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66")
    admin = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7")
    for _ in range(6):
        attacker.post(LOGIN, {"username": "admin", "password": "wrong"})
    assert attacker.post(LOGIN, {"username": "admin", "password": "password"}).status_code == 429
    ok = admin.post(LOGIN, {"username": "admin", "password": "password"})
    assert ok.status_code == 302 and admin.session["_auth_user_id"]


@pytest.mark.django_db
def test_without_the_setting_everyone_behind_the_proxy_is_one_client(
    settings: Any, admin_user: Any
) -> None:
    """What the issue found: the proxy's address is everyone's."""
    settings.BENCHDB_TRUSTED_PROXIES = 0
    attacker = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66")
    admin = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7")
    for _ in range(6):
        attacker.post(LOGIN, {"username": "admin", "password": "wrong"})
    assert admin.post(LOGIN, {"username": "admin", "password": "password"}).status_code == 429


@pytest.mark.django_db
def test_behind_the_proxy_the_check_api_counts_each_client(settings: Any) -> None:
    settings.BENCHDB_TRUSTED_PROXIES = 1
    settings.CLAIMS_CHECK_RATE = "2/h"  # a fixed window: a minute can roll over under load
    body = json.dumps({"text": "IPU-POD16 trains ResNet-50 in 28.3 minutes."})
    one = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.7")
    other = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.8")
    post = "/api/claims/check"
    codes = [one.post(post, body, content_type="application/json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert other.post(post, body, content_type="application/json").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "nxt", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]
)
def test_a_login_with_an_unsafe_next_lands_on_the_home_page(admin_user: Any, nxt: str) -> None:
    client = Client()
    resp = client.post("/admin/login/", {"username": "admin", "password": "password", "next": nxt})
    assert resp.status_code == 302 and resp["Location"] == "/"
    assert client.get(resp["Location"]).status_code == 200


@pytest.mark.django_db
def test_a_login_with_a_safe_next_goes_there(admin_user: Any) -> None:
    resp = Client().post(LOGIN, {"username": "admin", "password": "password"})
    assert resp.status_code == 302 and resp["Location"] == "/admin/"
