"""The site's navigation lists every suite of the registry (benchdb.suites), each link
to its rounds page, and each answers (an empty database: no round yet)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from benchdb import suites as registry

pytestmark = pytest.mark.django_db


def test_the_nav_links_every_suites_rounds_page() -> None:
    c = Client()
    html = c.get("/").content.decode()
    nav = re.search(r'<nav aria-label="main">(.*?)</nav>', html, re.S)
    assert nav is not None
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav.group(1))
    suites = [(url, label) for url, label in links if label in {s.short for s in registry.SUITES}]
    assert [label for _, label in suites] == [s.short for s in registry.SUITES]
    assert {"Storage", "Tiny", "Mobile"} <= {label for _, label in suites}
    for url, _ in suites:
        assert c.get(url).status_code == 200, url
