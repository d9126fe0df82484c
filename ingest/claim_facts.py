"""The stored results and page a vendor claim is checked against, and the check.

``all_result_facts`` reads every suite's results as
:class:`benchdb.claims.verdicts.ResultFacts` (one query per suite);
``claim_facts`` resolves a claim's subject, benchmark and round from its sentence and
its page (``benchdb.claims.resolve``); ``check_claims`` verifies a page's claims
(``benchdb.claims.verdicts.verify_claim``). Reads only: ``ingest.vendor_pages`` stores
what they return.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from benchdb import vocabulary
from benchdb.claims import resolve, verdicts
from benchdb.claims.facts import PRESS_LEAD_DAYS
from benchdb.models import InferenceResult, Result, Round, VendorPage
from ingest.parsers import claim_text


def _common_facts(r: Result | InferenceResult) -> dict[str, Any]:
    """The fields every suite's :class:`benchdb.claims.ResultFacts` reads the same way:
    round, submitter, system and its accelerators, division, availability, result ID."""
    system = r.system
    return {
        "pk": r.pk,
        "round": r.round.version,
        "submitter": system.submitter.name,
        "system_folder": system.folder,
        "system_name": system.name,
        "division": r.division,
        "availability": system.availability,
        "accelerators": system.accelerators,
        "accelerator_model": system.accelerator_model,
        "framework": system.framework,
        "nodes": system.nodes,
        "result_id": r.result_id,
    }


def result_facts(benchmarks: Iterable[str] | None = None) -> list[verdicts.ResultFacts]:
    """Every scored training result (of ``benchmarks``, canonical keys, when given) as
    :class:`benchdb.claims.ResultFacts`: one query. HPC results share the ``Result``
    table but no claim suite yet, so they are left out."""
    qs = Result.objects.filter(
        status=Result.Status.SCORED, round__suite=Round.Suite.TRAINING
    ).select_related("round", "system", "system__submitter", "benchmark")
    if benchmarks is not None:
        qs = qs.filter(benchmark__key__in=list(benchmarks))
    return [
        verdicts.ResultFacts(
            **_common_facts(r), benchmark=r.benchmark.key, score_minutes=r.score_minutes
        )
        for r in qs
    ]


def inference_result_facts() -> list[verdicts.ResultFacts]:
    """Every valid MLPerf Inference result with a value as
    :class:`benchdb.claims.ResultFacts` (``suite="inference"``, ``value`` in ``unit``):
    one query. Rejected results and those benchdb cannot recompute are left out."""
    qs = InferenceResult.objects.filter(
        status=InferenceResult.Status.VALID, value__isnull=False
    ).select_related("round", "system", "system__submitter")
    return [
        verdicts.ResultFacts(
            **_common_facts(r),
            benchmark=r.benchmark,
            score_minutes=None,
            suite="inference",
            metric=r.metric,
            unit=r.unit,
            higher_is_better=r.higher_is_better,
            value=r.value,
            model=re.sub(r"-99(\.9)?$", "", r.benchmark),
            scenario=r.scenario,
            category=r.category,
        )
        for r in qs
    ]


def all_result_facts() -> list[verdicts.ResultFacts]:
    """The results of every suite claims are checked against (:data:`verdicts.SUITES`)."""
    return result_facts() + inference_result_facts()


def round_dates() -> dict[str, dict[str, date]]:
    """Suite -> round -> publication date, for claims that name a round in words or
    by their page's date: ``vocabulary.ROUND_PUBLISHED`` (training) and
    ``vocabulary.INFERENCE_ROUND_PUBLISHED``, over which the stored rounds' own dates
    win. One query."""
    dates = {
        "training": dict(vocabulary.ROUND_PUBLISHED),
        "inference": dict(vocabulary.INFERENCE_ROUND_PUBLISHED),
    }
    for suite, version, published in Round.objects.filter(
        suite__in=[Round.Suite.TRAINING, Round.Suite.INFERENCE], published__isnull=False
    ).values_list("suite", "version", "published"):
        if published is not None:
            dates[str(suite)][version] = published
    return dates


def page_context(page: VendorPage) -> resolve.PageContext:
    """What a page's claims may take from it (``benchdb.claims.resolve``)."""
    return resolve.PageContext(
        title=page.title, text=page.text, published=page.published, vendor=page.vendor
    )


def claim_facts(
    c: claim_text.Claim | Mapping[str, Any],
    page: resolve.PageContext,
    dates: dict[str, dict[str, date]],
) -> verdicts.ClaimFacts:
    """A claim (the parser's, or a stored ``extracted`` dict) with its subject,
    benchmark and round resolved from its sentence and ``page``
    (``benchdb.claims.resolve.resolve_claim``); a round still missing is the latest
    one of its suite published by the page's date (or a few days after it:
    ``benchdb.claims.facts.PRESS_LEAD_DAYS``)."""
    facts: verdicts.ClaimFacts
    if isinstance(c, claim_text.Claim):
        facts, sentence = c, c.sentence
    else:
        facts, sentence = verdicts.ClaimFacts.from_mapping(c), str(c.get("sentence", ""))
    rounds = dates.get(facts.suite or "training", {})
    facts = resolve.resolve_claim(facts, sentence, page, rounds)
    if facts.round:
        return facts
    rnd = verdicts.round_for_date(page.published, rounds, lead_days=PRESS_LEAD_DAYS)
    context = facts.context + ("round-date",) if rnd else facts.context
    return replace(facts, round=rnd, context=context)


def check_claims(
    found: Sequence[claim_text.Claim],
    page: resolve.PageContext,
    *,
    dates: dict[str, dict[str, date]] | None = None,
    results: list[verdicts.ResultFacts] | None = None,
) -> list[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]]:
    """Each claim of a page with its resolved facts and its verification against every
    stored result of its suite. Queries: one per suite, and the rounds' dates; none
    when ``dates`` (:func:`round_dates`) and ``results`` (:func:`all_result_facts`)
    are given (the check API reads them first, then verifies in a budgeted child)."""
    dates = round_dates() if dates is None else dates
    facts = [claim_facts(c, page, dates) for c in found]
    results = all_result_facts() if results is None else results
    return [(c, f, verdicts.verify_claim(f, results)) for c, f in zip(found, facts, strict=True)]
