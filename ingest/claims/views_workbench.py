"""The claim workbench page (issue 27), ``/vendor/claims/<id>/workbench/``: a claim's
open slots with their candidates, the verdict with the pins in the query string
(nothing stored: anyone may try), a search over every result (``?q=``), and, for a
logged-in user, the pins kept (POST). The work is ``ingest.claims.pins``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from benchdb.claims import pins as P
from benchdb.claims.pin_selectors import claim_pin_get, pin_row
from benchdb.models import Claim
from ingest.claims import pins as claim_pins


def _pins_of(q: QueryDict) -> dict[str, Any]:
    """The pins in a query string or form: a role's keys repeated, a slot once."""
    out: dict[str, Any] = {r: q.getlist(r) for r in P.RESULT_ROLES if q.getlist(r)}
    return out | {k: q[k] for k in P.PIN_KEYS if k not in P.RESULT_ROLES and q.get(k)}


def _query(pins: dict[str, Any]) -> str:
    return urlencode([(k, x) for k, v in pins.items() for x in (v if isinstance(v, list) else [v])])


def _claim(pk: int) -> Claim:
    qs = Claim.objects.select_related("page").defer("page__raw", "page__text")
    return get_object_or_404(qs, pk=pk)


def claim_workbench(request: HttpRequest, pk: int) -> HttpResponse:
    """GET ``/vendor/claims/<pk>/workbench/``: the claim's open slots with the candidates
    the text allows and the verdict each pin given in the query string gives (issue 27);
    404 for an unknown claim, 400 for pins that name no candidate."""
    c = _claim(pk)
    given = _pins_of(request.GET)
    status, error = 200, ""
    try:
        pins = P.parse_pins(given)
        bench = claim_pins.claim_workbench(_with_text(c), pins)
    except P.PinError as exc:
        status, error = 400, str(exc)
        pins, given = P.Pins(), {}
        bench = claim_pins.claim_workbench(_with_text(c), pins)
    for cand in bench["candidates"]:
        merged = {**given, **cand["pin"]}
        cand["try"] = "?" + _query(merged)
    text = request.GET.get("q", "")[:200]
    role = request.GET.get("role", "subject")
    role = role if role in P.RESULT_ROLES else "subject"
    takes_results = c.kind not in P.NO_RESULT_KINDS  # a quality target: by its frame
    found = (
        claim_pins.result_search(text, round=c.round, benchmark=c.benchmark_key)
        if text and takes_results
        else []
    )
    for r in found:
        r["try"] = "?" + _query({**given, role: [r["key"]]})
    pin, own = claim_pin_get(c)
    context = {
        "claim": c,
        "bench": bench,
        "given": given,
        "given_query": _query(given),
        "q": text,
        "role": role,
        "roles": P.RESULT_ROLES,
        "found": found,
        "takes_results": takes_results,
        "pin": pin_row(pin, own),
        "error": error,
    }
    return render(request, "vendor/workbench.html", context, status=status)


def _with_text(c: Claim) -> Claim:
    """The claim with its page's text loaded (the frame resolves from it)."""
    if "text" in c.page.get_deferred_fields():
        c.page.refresh_from_db(fields=["text"])
    return c


@login_required
@require_POST
def claim_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """POST ``/vendor/claims/<pk>/pin/`` (logged in): store the form's pins on the claim,
    with who, when and a note ("settled by hand"), re-check it with them and redirect to
    its workbench; 400 (plain text) for pins not kept, 404 for an unknown claim."""
    c = _claim(pk)
    try:
        claim_pins.claim_pin_set(
            claim_id=c.pk,
            pins=_pins_of(request.POST),
            user=request.user,
            note=request.POST.get("note", ""),
        )
    except (P.PinError, ValueError) as exc:
        return HttpResponse(f"pins not kept: {exc}", status=400, content_type="text/plain")
    return HttpResponseRedirect(reverse("ingest:claim_workbench", args=[c.pk]) + "#settled")
