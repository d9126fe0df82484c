"""Check this text (issue 14): a form and a JSON API, no login, nothing stored
(``ingest.claims.check``). Both are rate-limited per client IP (django-ratelimit,
``settings.CLAIMS_CHECK_RATE``) and size-limited (``MAX_CHECK_CHARS``). The API is
exempt from CSRF: it is read-only (it stores nothing and acts for no session), and a
caller outside the site has no CSRF token; the form keeps CSRF like every other form.

``POST /api/claims/check`` takes JSON ``{"text": str}`` or ``{"url": str}``, with an
optional ``"published": "YYYY-MM-DD"``; it answers 200 with the check
(``benchdb.claims_check/1``), or ``{"error": str, ...}`` with 400 (bad JSON or input),
413 (over the limit, which the answer gives), 422 (over the check's time budget,
``CHECK_SECONDS``: ``cut_at`` names the stage cut, ``stages`` the seconds each took),
429 (rate limit) or 502 (URL not fetched).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from ingest.claims import pins as claim_pins
from ingest.claims.check import MAX_CHECK_CHARS, CheckError, claims_check, too_large
from ingest.parsers import safe_json

#: Largest request body read: the text limit at six bytes a character (JSON's \\uXXXX
#: escapes), and room for the rest of the object.
MAX_BODY_BYTES = 6 * MAX_CHECK_CHARS + 4096
_GROUP = "claims-check"


def _rate(group: str, request: HttpRequest) -> str:
    return str(settings.CLAIMS_CHECK_RATE)


def _limited(request: HttpRequest) -> JsonResponse | None:
    if not getattr(request, "limited", False):
        return None
    rate = _rate(_GROUP, request)
    body = {"error": f"rate limit: at most {rate} checks per client; try again later"}
    return JsonResponse(body | {"rate": rate}, status=429)


def _error(exc: CheckError) -> JsonResponse:
    body: dict[str, Any] = {"error": str(exc), **exc.details}
    if exc.status == 413:
        body["limit_characters"] = MAX_CHECK_CHARS
    return JsonResponse(body, status=exc.status)


@csrf_exempt
@require_POST
@ratelimit(key="ip", rate=_rate, method="POST", block=False, group=_GROUP)
def claims_check_api(request: HttpRequest) -> HttpResponse:
    limited = _limited(request)
    if limited is not None:
        return limited
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:  # a malformed header: read no more than the limit either way
        length = MAX_BODY_BYTES + 1
    if length > MAX_BODY_BYTES:
        exc = CheckError(
            f"request too large: {length:,} bytes; at most {MAX_BODY_BYTES:,} bytes"
            f" ({MAX_CHECK_CHARS:,} characters of text) are read",
            413,
        )
        return _error(exc)
    try:  # depth-limited first: 100,000 nested brackets overflow json's recursion
        data = safe_json.loads((request.body or b"").decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return JsonResponse({"error": f"bad JSON: {exc}"}, status=400)
    try:
        text, url, published = _api_input(data)
        pins = _api_pins(data)
        return JsonResponse(claims_check(text=text, url=url, published=published, pins=pins))
    except CheckError as exc:
        return _error(exc)


def _api_input(data: Any) -> tuple[str, str, date | None]:
    """(text, url, published) of the API's JSON; :class:`CheckError` when it is not an
    object with a string ``text`` or ``url`` and an ISO ``published`` date if any."""
    if not isinstance(data, dict):
        raise CheckError('expected a JSON object: {"text": "..."} or {"url": "https://..."}')
    unknown = sorted(set(data) - {"text", "url", "published", "pins", "claim"})
    if unknown:
        raise CheckError(f"unknown keys {unknown}; the API takes text, url, published, pins")
    text, url, when = data.get("text") or "", data.get("url") or "", data.get("published")
    if not isinstance(text, str) or not isinstance(url, str):
        raise CheckError("text and url must be strings")
    if len(text) > MAX_CHECK_CHARS:
        raise too_large(len(text))
    try:
        published = date.fromisoformat(when) if when else None
    except (TypeError, ValueError) as exc:
        raise CheckError(f"published must be a date, YYYY-MM-DD: {when!r}") from exc
    return text, url, published


def _api_pins(data: dict[str, Any]) -> dict[int | None, Any] | None:
    """The API's ``pins`` (with ``claim``, the claim they settle: default every claim) ->
    ``ingest.claims.pins.api_pins``; a 400 when they are malformed."""
    if data.get("pins") is None:
        return None
    pins = data["pins"]
    if isinstance(pins, dict) and "claim" in data:
        pins = {**pins, "claim": data["claim"]}
    try:
        return claim_pins.api_pins(pins)
    except claim_pins.P.PinError as exc:
        raise CheckError(str(exc)) from None


class CheckForm(forms.Form):
    """The form: text to check, or a URL benchdb fetches; the article's date."""

    text = forms.CharField(required=False, widget=forms.Textarea, label="Text to check")
    url = forms.URLField(
        required=False, assume_scheme="https", max_length=1000, label="or a page to fetch"
    )
    published = forms.DateField(
        required=False, help_text="YYYY-MM-DD; empty: the date the text gives, else today"
    )

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        if bool(d.get("text", "").strip()) == bool(d.get("url")):
            raise forms.ValidationError("give either a text or a URL")
        return d


@csrf_exempt  # stores nothing: a cross-site POST spends only the sender's rate limit, and
# without a token in its form the home page (which embeds the form) is one cached page
@require_http_methods(["GET", "POST"])
@ratelimit(key="ip", rate=_rate, method="POST", block=False, group=_GROUP)
def claims_check_form(request: HttpRequest) -> HttpResponse:
    form = CheckForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "limit": MAX_CHECK_CHARS}
    status = 200
    if request.method == "POST":
        status = 400
        if getattr(request, "limited", False):
            status = 429
            form.add_error(None, f"rate limit: at most {_rate(_GROUP, request)} checks")
        elif form.is_valid():
            d = form.cleaned_data
            try:
                context["check"] = claims_check(
                    text=d["text"], url=d["url"], published=d["published"]
                )
                status = 200
            except CheckError as exc:
                form.add_error(None, str(exc))
                status = exc.status
    return render(request, "ingest/claims_check.html", context, status=status)
