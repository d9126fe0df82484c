"""The reads the suites stored in Inference's tables share (MLPerf Tiny and Mobile: their
``selectors.py``; Automotive reads :mod:`benchdb.mlperf.inference.selectors` whole):
their rounds with counts, their results by filter, a round that must be stored, one
result with its evidence and files. Each suite turns a result into its own row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse

from benchdb.mlperf.inference.selectors import inference_result_url
from benchdb.models import InferenceResult, Round


def counted_rounds(
    suite: str, url_name: str, tool_key: str, tools: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Every round of ``suite`` (oldest version first, also one with no result) with
    its counts: results, valid, invalid, systems, submitters; ``tool_key`` the commit of
    the round's official tool (``tools``, else the round's ruleset tag); ``url`` the
    round's page (``url_name``); ``published`` its publication date (ISO, None when
    unknown: ``Round.published``, set at ingest from the suite's ``rules.PUBLISHED``).
    Queries: 1."""
    rounds = (
        Round.objects.filter(suite=suite)
        .annotate(
            n_results=Count("inference_results"),
            n_valid=Count("inference_results", filter=Q(inference_results__status="valid")),
            n_systems=Count("inference_results__system", distinct=True),
            n_submitters=Count("inference_results__system__submitter", distinct=True),
        )
        .order_by("version")
    )
    return [
        {
            "round": r.version,
            tool_key: tools.get(r.version, r.ruleset_tag),
            "results": r.n_results,
            "valid": r.n_valid,
            "invalid": r.n_results - r.n_valid,
            "systems": r.n_systems,
            "submitters": r.n_submitters,
            "url": reverse(url_name, args=[r.version]),
            "published": r.published.isoformat() if r.published else None,
        }
        for r in rounds
    ]


def results(suite: str, **filters: Any) -> list[InferenceResult]:
    """The results of ``suite`` matching ``filters`` (``InferenceResult`` lookups), with
    round and system, by round and location. Queries: 1."""
    qs = InferenceResult.objects.filter(round__suite=suite, **filters).select_related(
        "round", "system"
    )
    return list(qs.order_by("round__version", "source_path"))


def stored_round(suite: str, label: str, version: str) -> None:
    """Nothing when ``suite`` has round ``version``; Http404 naming it (``label``:
    "MLPerf Tiny") otherwise. Queries: 1."""
    if not Round.objects.filter(suite=suite, version=version).exists():
        raise Http404(f"no {label} round {version}")


def result_evidence(
    suite: str, label: str, pk: int
) -> tuple[InferenceResult, list[dict[str, Any]], list[dict[str, Any]]]:
    """One result of ``suite``, its evidence (rule, path, line, message, invalidates)
    and its files (kind, path, size, sha256); Http404 when ``pk`` is no result of the
    suite (``label`` names it). Queries: 3."""
    try:
        r = InferenceResult.objects.select_related("round", "system").get(pk=pk, round__suite=suite)
    except InferenceResult.DoesNotExist:
        raise Http404(f"no {label} result {pk}") from None
    evidence: list[dict[str, Any]] = [
        dict(x)
        for x in r.findings.order_by("pk").values("rule", "path", "line", "message", "invalidates")
    ]
    files = [dict(x) for x in r.logs.order_by("path").values("kind", "path", "size", "sha256")]
    return r, evidence, files


def export_filters(
    round_version: str | None, model: str | None, division: str | None
) -> dict[str, str]:
    """The ``InferenceResult`` lookups of ``manage.py export results``' filters given."""
    pairs = (("round__version", round_version), ("benchmark", model), ("division", division))
    return {k: v for k, v in pairs if v}


#: The suites stored in Inference's tables whose results have a page by pk
#: (``benchdb:<suite>_result``); the others' results are Inference's permalinks.
RESULT_PAGES = frozenset({"tiny", "mobile"})


def result_url(
    suite: str, pk: int, round_version: str, submitter_folder: str, system: str, path: str
) -> str:
    """The page of an ``InferenceResult`` of ``suite``: Tiny's and Mobile's by pk
    (``/tiny/result/<pk>/``), else Inference's permalink by natural key
    (:func:`benchdb.mlperf.inference.selectors.inference_result_url`). No query."""
    if suite in RESULT_PAGES:
        return reverse(f"benchdb:{suite}_result", args=[pk])
    return inference_result_url(round_version, submitter_folder, system, path)
