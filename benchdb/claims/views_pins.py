"""The queue of claims that still need a person (issue 27), ``/vendor/claims/?open=1``:
one entry per claim family, most-cited first (``pin_selectors.claim_queue``); each
entry leads to the claim workbench (``ingest/claims/views_workbench.py``), where a family is
settled once. HTML, or ``?format=json``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from benchdb.claims.pin_selectors import claim_queue


def _member(m: Any) -> dict[str, Any]:
    return {
        "claim": m.claim,
        "page": m.source,
        "published": m.published.isoformat() if m.published else None,
        "sentence": m.sentence,
        "verdict": m.verdict,
    }


def claims_open(request: HttpRequest) -> HttpResponse:
    entries = claim_queue()
    if request.GET.get("format") == "json":
        rows = [
            {
                "subject": e["family"].subject,
                "kind": e["family"].kind,
                "value": e["family"].first.shown,
                "claims": len(e["members"]),
                "pages": len(e["family"].pages),
                "settle": e["open"][0].claim,
                "members": [_member(m) for m in e["members"]],
            }
            for e in entries
        ]
        return JsonResponse({"schema": "benchdb.claims_open/1", "rows": rows})
    return render(request, "vendor/claims_open.html", {"entries": entries})
