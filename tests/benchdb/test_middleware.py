"""NUL and other control characters in a URL are a 400 with a message on every route
(issue 21, item 4: ``GET /rounds/%00/`` and ten other routes were 500s, PostgreSQL
refusing NUL in a string). Every route with a path parameter is found from the URL
resolver, so a route added later is tested too; each parameter in turn gets ``%00``,
the others a harmless value."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> list[str]:
    out: list[str] = []
    for p in patterns:
        if isinstance(p, URLResolver):
            out += _routes(p.url_patterns, prefix + str(p.pattern))
        elif not prefix.startswith("admin/"):
            out.append(prefix + str(p.pattern))
    return out


ROUTES = [r for r in _routes(get_resolver().url_patterns) if _PARAM.search(r)]


def _with_nul(route: str, k: int) -> str:
    """``route`` with its k-th parameter ``%00`` and the others a plain value."""
    seen = iter(range(99))

    def fill(m: re.Match[str]) -> str:
        i = next(seen)
        return "%00" if i == k else ("1" if m.group(1) == "int" else "v5.1")

    return "/" + _PARAM.sub(fill, route)


CASES = [_with_nul(r, k) for r in ROUTES for k in range(len(_PARAM.findall(r)))]


def test_the_routes_with_parameters_are_all_found() -> None:
    """The issue's routes among them (a guard against an empty parametrization)."""
    assert len(ROUTES) >= 20
    assert "rounds/<str:round_version>/" in ROUTES
    assert any(r.startswith("inference/<str:round_version>/results/") for r in ROUTES)


@pytest.mark.parametrize("url", CASES)
def test_nul_in_any_path_parameter_is_a_400_with_a_message(url: str) -> None:
    resp = Client(raise_request_exception=True).get(url)
    assert resp.status_code in (400, 404), url  # an int route does not match %00: 404
    if resp.status_code == 400:
        assert b"control character" in resp.content


def test_the_issues_example_and_other_control_characters() -> None:
    client = Client()
    for url in ("/rounds/%00/", "/rounds/v1.1%0A/", "/inference/%1F/", "/leaderboard/%7F/x/"):
        resp = client.get(url)
        assert resp.status_code == 400 and b"U+00" in resp.content, url


def test_nul_in_a_query_is_a_400_and_a_tab_is_not() -> None:
    client = Client()
    assert client.get("/inference/?round=%00").status_code == 400
    tab = client.get("/rounds/v1.1/?q=a%09b")  # the page's own form may refuse q
    assert b"control character" not in tab.content


def test_a_real_page_is_served_as_before(ingested_shared: object) -> None:
    assert Client().get("/rounds/v1.1/").status_code == 200
