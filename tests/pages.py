"""Helpers for page tests."""

from __future__ import annotations

from django.test import Client


def html_of(client: Client, url: str) -> str:
    """The HTML of ``url`` (asserting a 200 answer)."""
    resp = client.get(url)
    assert resp.status_code == 200, url
    return resp.content.decode()
