"""Reads of vendor pages and their claims, and the table rows built from them.

One selector per table, shared by the pages of ``benchdb.vendor_views`` (HTML, CSV,
JSON) and ``manage.py export claims``. Each ``*_row`` function reshapes one object
into a flat dict over the columns of its schema in ``benchdb.tables.schemas.SCHEMAS``
(``benchdb.vendor_pages/1``, ``benchdb.claims/1``, ``benchdb.claim_links/1``,
``benchdb.vendor_results/1``); no queries happen there beyond what the selector
prefetched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from benchdb.claims import explain
from benchdb.claims.explain import number
from benchdb.mlperf.inference.suite_selectors import result_url
from benchdb.models import (
    Claim,
    ClaimCorrection,
    ClaimResult,
    Result,
    ResultIdCitation,
    VendorPage,
    VendorResult,
)
from benchdb.vocabulary import PAGE_VERDICTS

#: A link's result joined, whichever suite it is of (training ``Result`` or
#: ``InferenceResult``): left joins, so still the one query of the prefetch.
_LINK_JOINS = (
    "result__round",
    "result__system__submitter",
    "result__benchmark",
    "inference_result__round",
    "inference_result__system__submitter",
    "storage_result__round",
    "storage_result__submitter",
)
_LINKS = Prefetch("links", queryset=ClaimResult.objects.select_related(*_LINK_JOINS).order_by("pk"))

# --- selectors ---------------------------------------------------------------------


#: Verdict -> the column of ``benchdb.vendor_pages/1`` counting a page's claims of it.
VERDICT_COLUMNS = {v: v.replace("-", "_") for v in Claim.Verdict.values}


#: Page verdict -> the column of ``benchdb.vendor_pages/1`` counting a page's claims of it.
PAGE_VERDICT_COLUMNS = {v: v.replace("-", "_") for v in PAGE_VERDICTS}


def _page_number_counts() -> dict[str, Any]:
    """Annotations: claims per page verdict (``n_<page verdict>``)."""
    out: dict[str, Any] = {
        f"n_{col}": Count("claims", filter=Q(claims__page_verdict=v), distinct=True)
        for v, col in PAGE_VERDICT_COLUMNS.items()
    }
    return out


def vendor_page_list() -> QuerySet[VendorPage]:
    """Pages with their claim and table-row counts (``n_claims``, ``n_results``),
    claims per verdict (``n_<verdict>``, ``-`` as ``_``), per page verdict
    (``n_consistent_with_page``...); the count of numbers not treated as claims is
    the page's ``numbers_not_claims``; newest first (undated last); no raw bytes, text or numbers
    loaded (one query)."""
    per_verdict = {
        f"n_{col}": Count("claims", filter=Q(claims__verdict=v), distinct=True)
        for v, col in VERDICT_COLUMNS.items()
    }
    return (
        VendorPage.objects.defer("raw", "text", "numbers")
        .annotate(
            n_claims=Count("claims", distinct=True),
            n_results=Count("vendor_results", distinct=True),
            **per_verdict,
            **_page_number_counts(),
        )
        .order_by(F("published").desc(nulls_last=True), "file_name", "pk")
    )


def vendor_page_get(pk: int, *, claims: bool = True) -> VendorPage:
    """One page, raw bytes not loaded. With ``claims``: its claims in text order and
    their links with results (three queries); without: its text not loaded either
    (one query). Raises Http404."""
    if not claims:
        return get_object_or_404(VendorPage.objects.defer("raw", "text"), pk=pk)
    qs = VendorPage.objects.defer("raw").prefetch_related(
        Prefetch(
            "claims", queryset=Claim.objects.order_by("start", "position").prefetch_related(_LINKS)
        )
    )
    return get_object_or_404(qs, pk=pk)


def vendor_result_list(*, page_id: int) -> QuerySet[VendorResult]:
    """The rows of a page's vendor tables, by table and row (one query)."""
    return VendorResult.objects.filter(page_id=page_id).order_by("table", "row")


#: Facets of the claims list: form field -> Claim field it filters on.
FACETS = {
    "vendor": "page__vendor",
    "vendor_page": "page_id",
    "round": "round",
    "benchmark": "benchmark_key",
    "verdict": "verdict",
    "kind": "kind",
}
#: Kinds hidden from the claims list unless asked for: hardware figures (nm, MB, GHz,
#: TFLOPS), never MLPerf results.
HIDDEN_KINDS = (Claim.Kind.SPEC,)


def _claim_filter(
    qs: QuerySet[Claim], filters: dict[str, Any], *, skip: str = ""
) -> QuerySet[Claim]:
    for name, field in FACETS.items():
        value = filters.get(name)
        if name != skip and value not in (None, ""):
            qs = qs.filter(**{field: value})
    return qs


def claim_list(
    *,
    verdict: str = "",
    kind: str = "",
    page: int | None = None,
    vendor: str = "",
    round: str = "",
    benchmark: str = "",
    hide_hardware: bool = False,
) -> QuerySet[Claim]:
    """Claims (of a ``verdict``, ``kind``, ``page`` (id), ``vendor``, ``round`` and
    ``benchmark`` key when given; without hardware figures with ``hide_hardware``)
    with their page and links (two queries), ordered by page date, page and position."""
    qs = (
        Claim.objects.select_related("page")
        .defer("page__raw", "page__text")
        .prefetch_related(_LINKS)
    )
    filters = {"verdict": verdict, "kind": kind, "vendor_page": page, "vendor": vendor}
    qs = _claim_filter(qs, filters | {"round": round, "benchmark": benchmark})
    if hide_hardware:
        qs = qs.exclude(kind__in=HIDDEN_KINDS)
    ordered: QuerySet[Claim] = qs.order_by("page__published", "page_id", "position")
    return ordered


def claim_facets(filters: dict[str, Any], *, hide_hardware: bool) -> dict[str, Any]:
    """The claims list's facets for the current ``filters`` (form field -> value):
    ``{name: [{"value": str, "label": str, "count": int, "selected": bool}]}``, each
    counted over the claims that match every other filter, and ``hidden``: how many
    hardware figures ``hide_hardware`` leaves out. Seven queries (one per facet)."""
    base = Claim.objects.all()
    if hide_hardware:
        base = base.exclude(kind__in=HIDDEN_KINDS)
    out: dict[str, Any] = {}
    labels = {
        "verdict": dict(Claim.Verdict.choices),
        "kind": dict(Claim.Kind.choices),
    }
    for name, field in FACETS.items():
        qs = _claim_filter(base, filters, skip=name)
        extra = ["page__title", "page__file_name", "page__url"] if name == "vendor_page" else []
        rows = qs.values(field, *extra).annotate(n=Count("pk")).order_by(field)
        options = []
        for r in rows:
            value = r[field]
            if name == "vendor_page":
                label = r["page__title"] or r["page__url"] or r["page__file_name"]
            else:
                label = labels.get(name, {}).get(value, value) or "(none)"
            selected = str(filters.get(name) or "") == str(value)
            options.append({"value": value, "label": label, "count": r["n"], "selected": selected})
        out[name] = sorted(options, key=lambda o: -o["count"]) if name != "round" else options
    hidden = _claim_filter(Claim.objects.filter(kind__in=HIDDEN_KINDS), filters, skip="kind")
    out["hidden"] = hidden.count() if hide_hardware else 0
    return out


def claim_get(pk: int, *, related: bool = True) -> Claim:
    """One claim with its page, links (with each result's runs), corrections and the
    result IDs it cites as stored (``ResultIdCitation``) (five queries); without
    ``related``: only its id, round and benchmark key (one query).
    Raises Http404."""
    if not related:
        return get_object_or_404(Claim.objects.only("pk", "round", "benchmark_key"), pk=pk)
    links = Prefetch(
        "links",
        queryset=ClaimResult.objects.select_related(*_LINK_JOINS)
        .prefetch_related("result__runs")
        .order_by("pk"),
    )
    corrections = Prefetch("corrections", queryset=ClaimCorrection.objects.select_related("user"))
    qs = Claim.objects.select_related("page", "vendor_result").defer("page__raw", "page__text")
    cited = Prefetch(
        "id_citations", queryset=ResultIdCitation.objects.select_related("result__system")
    )
    return get_object_or_404(qs.prefetch_related(links, corrections, cited), pk=pk)


def scored_result_list() -> QuerySet[Result]:
    """Every scored result with round, submitter and benchmark joined, by round,
    benchmark and system folder (what a correction may link a claim to)."""
    qs = Result.objects.filter(status=Result.Status.SCORED).select_related(
        "round", "system__submitter", "benchmark"
    )
    return qs.order_by("round__version", "benchmark__key", "system__folder")


def claim_candidates(claim: Claim) -> QuerySet[Result]:
    """Results a person may link a claim to as its subject: the scored results of the
    claim's round and benchmark (either filter left out when the claim names none)."""
    qs = scored_result_list()
    if claim.round:
        qs = qs.filter(round__version=claim.round)
    if claim.benchmark_key:
        qs = qs.filter(benchmark__key=claim.benchmark_key)
    return qs


# --- rows (pure reshaping) ----------------------------------------------------------


def page_row(p: VendorPage) -> dict[str, Any]:
    """A page (from :func:`vendor_page_list`, or any page) -> a row of
    ``benchdb.vendor_pages/1``: ``{"id": int, "page": str, "title": str, "file_name":
    str, "url": str, "published": "YYYY-MM-DD" | None, "retrieved": ISO 8601 str,
    "language": str, "format": str, "sha256": str, "claims": int | None,
    "vendor_results": int | None, "link": str, "vendor": str, "vendor_source": str,
    "published_source": str, "consistent" ... "unverifiable": int | None,
    "consistent_with_page", "inconsistent_with_page", "numbers_not_claims": int | None}``
    (the counts are None when the page was not read through :func:`vendor_page_list`)."""
    return {
        "id": p.pk,
        "page": p.source,
        "title": p.title,
        "file_name": p.file_name,
        "url": p.url,
        "published": p.published.isoformat() if p.published else None,
        "retrieved": p.retrieved.isoformat(),
        "language": p.language,
        "format": p.format,
        "sha256": p.sha256,
        "claims": getattr(p, "n_claims", None),
        "vendor_results": getattr(p, "n_results", None),
        "link": p.get_absolute_url(),
        "vendor": p.vendor,
        "vendor_source": p.vendor_source,
        "published_source": p.published_source,
        **{col: getattr(p, f"n_{col}", None) for col in VERDICT_COLUMNS.values()},
        **{col: getattr(p, f"n_{col}", None) for col in PAGE_VERDICT_COLUMNS.values()},
        "numbers_not_claims": p.numbers_not_claims,
    }


def _link_label(lk: ClaimResult) -> str:
    r = lk.result
    if lk.storage_result is not None:  # a Storage result: workload, accelerator, count
        s = lk.storage_result  # (one system may run a workload at several counts)
        count = f"x{s.accelerators}" if s.accelerators is not None else ""
        return (
            f"{lk.role}:{s.round.version}/{s.submitter.name}/{s.system_folder}"
            f"/{s.workload}/{s.accelerator}{count}"
        )
    if r is None:  # an inference result: its model and scenario name it
        i = lk.inference_result
        assert i is not None  # claim_result_one_suite
        return (
            f"{lk.role}:{i.round.version}/{i.system.submitter.name}/{i.system.folder}"
            f"/{i.benchmark or i.model_folder}/{i.scenario}"
        )
    return (
        f"{lk.role}:{r.round.version}/{r.system.submitter.name}/{r.system.folder}/{r.benchmark.key}"
    )


def claim_row(c: Claim, page: VendorPage | None = None) -> dict[str, Any]:
    """A claim with links prefetched (:func:`claim_list`, :func:`vendor_page_get`) ->
    a row of ``benchdb.claims/1``: ``{"id": int, "page": str, "sentence": str,
    "kind": str, "value": float | None, "unit": str, "qualifier": str, "system": str,
    "benchmark": str, "round": str, "division": str, "compared_system": str,
    "compared_value": float | None, "recomputed_value": float | None,
    "compared_recomputed_value": float | None, "verdict": str, "flags": [str],
    "result_ids": [str], "results": ["role:round/submitter/system/benchmark"] (a Storage
    result: "role:round/submitter/system/workload/acceleratorxcount"),
    "link": str, "page_verdict": str, "page_arithmetic": str (a formula), "baseline": str,
    "baseline_flags": [str], "reason": str, "tolerance": float | None, "open_slots": [str],
    "readings": [str]}`` (:func:`claim_reasoning`). Values are in ``unit``. ``page``: the
    claim's page when the caller holds it (no ``select_related`` needed)."""
    p = page or c.page
    return {
        "id": c.pk,
        "page": p.source,
        "sentence": c.sentence,
        "kind": c.kind,
        "value": c.value,
        "unit": c.unit,
        "qualifier": c.qualifier,
        "system": c.system,
        "benchmark": c.benchmark,
        "round": c.round,
        "division": c.division,
        "compared_system": c.compared_system,
        "compared_value": c.compared_value,
        "recomputed_value": c.recomputed_value,
        "compared_recomputed_value": c.compared_recomputed_value,
        "verdict": c.verdict,
        "flags": list(c.flags),
        "result_ids": list(c.result_ids),
        "results": [_link_label(lk) for lk in c.links.all()],
        "link": c.get_absolute_url(),
        "page_verdict": c.page_verdict,
        "page_arithmetic": explain.page_arithmetic_text(c.page_arithmetic),
        "baseline": explain.baseline_text(c.baseline_facts),
        "baseline_flags": list(c.baseline_facts.get("flags") or ()),
        **claim_reasoning(c.details),
    }


def claim_reasoning(details: dict[str, Any]) -> dict[str, Any]:
    """A stored verification's reasoning as the claims export gives it
    (``schemas_reports.CLAIM_REASONING_SPEC``): reason, tolerance, open slots, and each
    reading with its outcome."""
    slots = list(details.get("open_slots") or ())
    if details.get("open_slot"):
        slots = [details["open_slot"]]
    return {
        "reason": str(details.get("reason", "")),
        "tolerance": details.get("tolerance"),
        "open_slots": slots,
        "readings": [
            f"{r.get('label', '')}: {'holds' if r.get('holds') else 'does not hold'}"
            for r in details.get("readings_list") or ()
        ],
    }


def result_label(lk: ClaimResult) -> dict[str, Any]:
    """A claim's linked result as the pages show it: ``{"role", "url", "round",
    "submitter", "system" (its name, else folder), "benchmark", "division",
    "accelerators", "score": "28.33 min" | "no score"}`` (its round, system and score
    prefetched). An inference result gives its model as ``benchmark``, its
    ``scenario``, and its value with its unit as ``score`` ("14,774.3 Tokens/s")."""
    r = lk.result
    if lk.storage_result is not None:
        row = _storage_link_row(lk)
        return {
            **{k: row[k] for k in ("round", "submitter", "division", "accelerators", "scenario")},
            "role": lk.role,
            "url": row["link"],
            "system": row["system"],
            "benchmark": row["benchmark"],
            "availability": "",
            "score": f"{number(row['value'], 1)} {row['unit']}"
            if row["value"] is not None
            else "no value",
        }
    if r is None:
        i = lk.inference_result
        assert i is not None  # claim_result_one_suite
        row = _inference_link_row(lk)
        keep = ("round", "submitter", "division", "availability", "accelerators", "scenario")
        return {
            **{k: row[k] for k in keep},
            "role": lk.role,
            "url": row["link"],
            "system": i.system.name or i.system.folder,
            "benchmark": i.benchmark or i.model_folder,
            "score": f"{number(i.value, 1)} {i.unit}" if i.value is not None else "no value",
        }
    return {
        "role": lk.role,
        "url": r.get_absolute_url(),
        "round": r.round.version,
        "submitter": r.system.submitter.name,
        "system": r.system.name or r.system.folder,
        "benchmark": r.benchmark.key,
        "division": r.division,
        "availability": r.system.availability,
        "accelerators": r.system.accelerators,
        "score": f"{number(r.score_minutes, 2)} min" if r.score_minutes is not None else "no score",
    }


def claim_html_row(c: Claim, page: VendorPage | None = None) -> dict[str, Any]:
    """:func:`claim_row` and what the HTML shows besides: ``claimed`` and
    ``recomputed`` in words, ``heading``, the page's ``vendor`` and ``title``,
    ``verdict_note`` and ``flag_notes`` (:class:`benchdb.claims.explain.Explanation`),
    ``page_verdict`` and ``page_implied`` (the claim recomputed from its own page's
    figures) and ``linked`` (:func:`result_label`). The CSV and JSON keep the schema's columns."""
    row = claim_row(c, page)
    p = page or c.page
    facts = {**row, "extracted": c.extracted}
    linked = [result_label(lk) for lk in c.links.all()]
    return row | {
        "claimed": explain.claimed_text(facts),
        "recomputed": explain.recomputed_text(facts, c.details),
        "heading": explain.claim_heading(facts),
        "vendor": p.vendor,
        "page_title": p.title or p.source,
        "verdict_note": explain.verdict_explanation(c.verdict),
        "page_verdict": c.page_verdict,
        "page_implied": c.page_arithmetic.get("implied"),
        "flag_notes": [
            {"note": explain.flag_explanation(f), "detail": explain.flag_detail(f, linked)}
            for f in c.flags
        ],
        "linked": linked,
    }


def link_row(lk: ClaimResult) -> dict[str, Any]:
    """A claim's link with its result joined (:func:`claim_get`) -> a row of
    ``benchdb.claim_links/1``: ``{"claim": int, "role": str, "result": str (path),
    "round": str, "submitter": str, "system": str (folder), "division": str,
    "availability": str, "accelerators": int | None, "benchmark": str,
    "score_minutes": float | None (minutes), "link": str (path), "suite": str,
    "scenario": str, "value": float | None, "unit": str}``. A training result has
    ``suite`` "training" and no scenario, value or unit; an inference result gives its
    model as ``benchmark``, ``score_minutes`` None, and its scenario, value and unit; a
    Storage result (``suite`` "storage") its workload as ``benchmark``, its simulated
    accelerator as ``scenario`` and the figure the claim was checked against
    (:func:`_storage_figure`)."""
    r = lk.result
    if lk.storage_result is not None:
        return _storage_link_row(lk)
    if r is None:
        return _inference_link_row(lk)
    return {
        "claim": lk.claim_id,
        "role": lk.role,
        "result": r.get_absolute_url(),
        "round": r.round.version,
        "submitter": r.system.submitter.name,
        "system": r.system.folder,
        "division": r.division,
        "availability": r.system.availability,
        "accelerators": r.system.accelerators,
        "benchmark": r.benchmark.key,
        "score_minutes": r.score_minutes,
        "link": r.get_absolute_url(),
        "suite": "training",
        "scenario": "",
        "value": None,
        "unit": "",
    }


def _inference_link_row(lk: ClaimResult) -> dict[str, Any]:
    i = lk.inference_result
    assert i is not None  # claim_result_one_suite
    suite = i.round.suite
    url = result_url(
        suite, i.pk, i.round.version, i.system.submitter_folder, i.system.folder, i.source_path
    )
    return {
        "claim": lk.claim_id,
        "role": lk.role,
        "result": url,
        "round": i.round.version,
        "submitter": i.system.submitter.name,
        "system": i.system.folder,
        "division": i.division,
        "availability": i.system.availability,
        "accelerators": i.system.accelerators,
        "benchmark": i.benchmark,
        "score_minutes": None,
        "link": url,
        "suite": suite,
        "scenario": i.scenario,
        "value": i.value,
        "unit": i.unit,
    }


def _storage_figure(lk: ClaimResult) -> tuple[float | None, str]:
    """The figure of a Storage link's result its claim was checked against: the mean
    samples/s for a claim in samples, else the mean MiB/s (a bandwidth, a count of
    accelerators...). ``benchdb.claims.facts`` reads the same two figures
    (``ingest.claims.suite_facts.storage_rows``); the claim is prefetched with its links."""
    s = lk.storage_result
    assert s is not None
    if "sample" in lk.claim.unit.lower():
        return s.samples_per_second, "samples/s"
    return s.mb_per_second, "MiB/s"


def _storage_link_row(lk: ClaimResult) -> dict[str, Any]:
    s = lk.storage_result
    assert s is not None
    url = s.get_absolute_url()
    value, unit = _storage_figure(lk)
    return {
        "claim": lk.claim_id,
        "role": lk.role,
        "result": url,
        "round": s.round.version,
        "submitter": s.submitter.name,
        "system": s.system_folder,
        "division": s.division,
        "availability": "",
        "accelerators": s.accelerators,
        "benchmark": s.workload,
        "score_minutes": None,
        "link": url,
        "suite": "storage",
        "scenario": s.accelerator.upper(),
        "value": value,
        "unit": unit,
    }


def vendor_result_row(v: VendorResult) -> dict[str, Any]:
    """A vendor table row -> a row of ``benchdb.vendor_results/1``: ``{"page": int,
    "table": int (from 1), "row": int (from 1), "line": int, "caption": str,
    "model": str, "benchmark": str, "framework": str, "system": str,
    "accelerators": int | None, "metric": str, "value": float | None (minutes for
    time-to-train), "unit": str, "result_id": str, "round": str, "division": str,
    "carried": [int], "cells": [str]}``."""
    return {
        "page": v.page_id,
        "table": v.table + 1,
        "row": v.row + 1,
        "line": v.line,
        "caption": v.caption,
        "model": v.model,
        "benchmark": v.benchmark_key,
        "framework": v.framework,
        "system": v.system,
        "accelerators": v.accelerators,
        "metric": v.metric,
        "value": v.value,
        "unit": v.unit,
        "result_id": v.result_id,
        "round": v.round,
        "division": v.division,
        "carried": list(v.carried),
        "cells": list(v.cells),
    }


def claim_export_rows(*, verdict: str = "", kind: str = "") -> Iterator[dict[str, Any]]:
    """Rows of ``benchdb.claims/1`` (:func:`claim_row`) for every claim of a
    ``verdict`` and ``kind`` (any when ""): the claims page and ``manage.py export
    claims`` (two queries)."""
    from benchdb.claims.pin_selectors import with_pin_columns  # it reads this module's

    return with_pin_columns(claim_row(c) for c in claim_list(verdict=verdict, kind=kind))
