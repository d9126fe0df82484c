"""A page's claims read together: the page arithmetic, baselines and number accounting
of every claim (:mod:`.claim_arithmetic`, :mod:`.claim_baselines`,
:mod:`.claim_coverage`) in one call, as the ingest service and the check-this-text
API store or return them. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .arithmetic import page_arithmetic
from .baselines import describe_baselines
from .coverage import account_numbers, coverage_counts
from .page_tables import VendorTable
from .types import Claim


@dataclass(frozen=True)
class ClaimOnPage:
    """What the page says about one claim: ``page_verdict`` (``consistent-with-page``,
    ``inconsistent-with-page`` or ""), ``arithmetic`` and ``baseline`` as JSON-ready
    dicts ({} when none)."""

    page_verdict: str
    arithmetic: dict[str, Any]
    baseline: dict[str, Any]


@dataclass(frozen=True)
class PageReading:
    """Per claim (aligned with the claims) :class:`ClaimOnPage`; ``numbers``: every
    number of the page as JSON-ready dicts (``claim_coverage.NumberUse``); ``counts``:
    ``coverage_counts`` of them."""

    claims: list[ClaimOnPage]
    numbers: list[dict[str, object]]
    counts: dict[str, int]


def read_page(
    text: str, claims: Sequence[Claim], tables: Sequence[VendorTable] = ()
) -> PageReading:
    """Page arithmetic, baselines and number accounting of ``claims`` found in ``text``
    (``claim_text.extract_claims(text, tables=tables)``)."""
    arithmetic = page_arithmetic(claims)
    baselines = describe_baselines(text, claims, arithmetic)
    uses = account_numbers(text, claims, tables)
    per = [
        ClaimOnPage(pa.verdict if pa else "", pa.as_dict() if pa else {}, b.as_dict() if b else {})
        for pa, b in zip(arithmetic, baselines, strict=True)
    ]
    return PageReading(per, [u.as_dict() for u in uses], coverage_counts(uses))
