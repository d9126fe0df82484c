"""Requests no page can answer, refused before any view runs (issue 21): a path holding
a control character (``GET /rounds/%00/``), a query string holding NUL. PostgreSQL refuses
NUL in a string literal, so every view that looks a path parameter up would raise a
500; no benchdb URL holds a control character, so a 400 saying so is the answer for
all routes at once, present and future.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class RefuseControlCharactersMiddleware:
    """A 400 (text/plain, naming the character and where it is) for a request whose
    decoded path holds a character U+0000-U+001F or U+007F, or whose query-string names
    or values hold NUL (a search may hold a tab; nothing stored holds NUL)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = _control_in(request)
        if where:
            return HttpResponseBadRequest(
                f"Bad request: the {where} holds a control character; no page has one.\n",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


def _control_in(request: HttpRequest) -> str:
    m = _CONTROL.search(request.path)
    if m:
        return f"URL path (U+{ord(m.group()):04X})"
    for key, values in request.GET.lists():
        for text in (key, *values):
            if "\x00" in text:
                return f"query parameter {key[:40]!r} (U+0000)"
    return ""
