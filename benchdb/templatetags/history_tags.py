"""Template tags of a result's history: the History section of a result page
(``{% result_history result %}``), a claim's verdict history in words, and the round
tables' "changed since publication" marks (``{% changed_urls suite round as changed %}``,
given to ``round_table_rows`` / ``inference_round_rows``)."""

from __future__ import annotations

from typing import Any

from django import template

from benchdb.history import selectors
from benchdb.models import Claim, InferenceResult, Result

register = template.Library()


@register.inclusion_tag("history/_section.html")
def result_history(result: Result | InferenceResult) -> dict[str, Any]:
    """The History section: every version of ``result`` (one query and the claims'
    prefetch), the tombstone if the newest ends its life at its path."""
    versions = selectors.versions_of(result)
    return {
        "versions": versions,
        "tombstone": selectors.tombstone_of(versions),
        "suite": result.round.suite,
        "round": result.round.version,
        "published": result.round.published,
    }


@register.simple_tag
def changed_urls(suite: str, round_version: str) -> dict[str, str]:
    """Result page URL -> the kinds of its changes since publication, "value, status"
    (:func:`selectors.changed_urls`, one query): what the round tables mark."""
    return selectors.changed_urls(suite, round_version)


@register.simple_tag
def verdict_history(claim: Claim) -> list[str]:
    """A claim's verdict history in words (:func:`selectors.verdict_story`)."""
    return selectors.verdict_story(selectors.claim_verdicts(claim))
