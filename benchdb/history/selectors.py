"""Reads of a published result's history: the versions of one result (its page's
History section), every version filtered (``/changes/``, its CSV/JSON and Atom feed),
the result paths of a round that changed since publication (the round tables' marks),
a claim's verdict history, and every known result ID with its sources (``/ids/``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from benchdb.mlperf.inference.selectors import inference_result_url
from benchdb.models import (
    Claim,
    ClaimVerdictVersion,
    InferenceResult,
    Result,
    ResultVersion,
)

#: The joins every version row needs (its result's permalink, its claims' re-checks).
VERSION_JOINS = (
    "result__round",
    "result__system",
    "inference_result__round",
    "inference_result__system",
)


def versions_of(result: Result | InferenceResult) -> list[ResultVersion]:
    """Every version of ``result``, newest first: by its row, and the back-filled ones
    by its round and path (one query, with the claims each version re-checked)."""
    suite, version = result.round.suite, result.round.version
    by_row = Q(result=result) if isinstance(result, Result) else Q(inference_result=result)
    by_path = Q(suite=suite, round_version=version, path=result.source_path)
    return list(
        ResultVersion.objects.filter(by_row | by_path)
        .prefetch_related(_claims_prefetch())
        .order_by("-seen", "-pk")
    )


def tombstone_of(versions: Iterable[ResultVersion]) -> ResultVersion | None:
    """The newest version when it ends the result's life at its path, else None."""
    first = next(iter(versions), None)
    return first if first is not None and first.tombstone else None


def change_list(
    *,
    suite: str = "",
    round_version: str = "",
    submitter: str = "",
    kind: str = "",
    origin: str = "",
) -> QuerySet[ResultVersion]:
    """Every version, newest first (by the commit's date for back-filled ones, else
    when seen), filtered: ``submitter`` matches the folder case-insensitively
    anywhere (``Supermicro`` finds ``closed/Supermicro_1``)."""
    qs = ResultVersion.objects.select_related(*VERSION_JOINS).prefetch_related(_claims_prefetch())
    if suite:
        qs = qs.filter(suite=suite)
    if round_version:
        qs = qs.filter(round_version=round_version)
    if submitter:
        qs = qs.filter(submitter__icontains=submitter)
    if kind:
        qs = qs.filter(kinds__contains=f",{kind},")
    if origin:
        qs = qs.filter(origin=origin)
    return qs.order_by("-seen", "-pk")


def change_row(v: ResultVersion) -> dict[str, Any]:
    """A version as a ``benchdb.changes/1`` row."""
    return {
        "seen": v.seen.isoformat(),
        "suite": v.suite,
        "round": v.round_version,
        "submitter": v.submitter,
        "path": v.path,
        "kinds": "; ".join(v.kind_list),
        "changes": "; ".join(v.change_words()),
        "commit": v.commit,
        "commit_before": v.commit_before,
        "committed": v.committed.isoformat() if v.committed else "",
        "origin": v.origin,
        "claims": "; ".join(
            f"claim {c.claim_id}: {c.verdict_before} -> {c.verdict}" for c in v.claims.all()
        ),
        "url": version_url(v),
    }


def version_url(v: ResultVersion) -> str:
    """The page of the result a version is of ("" when it was never stored here)."""
    if v.result is not None:
        return v.result.get_absolute_url()
    r = v.inference_result
    if r is not None:
        return inference_result_url(
            r.round.version, r.system.submitter_folder, r.system.folder, r.source_path
        )
    return ""


def changed_urls(suite: str, round_version: str) -> dict[str, str]:
    """The pages of a round's stored results with a version since publication -> the
    kinds of their changes, newest first, ", "-joined: what the round table marks.
    One query (back-filled versions of results never stored here have no page)."""
    kinds: dict[str, list[str]] = {}
    rows = (
        ResultVersion.objects.filter(suite=suite, round_version=round_version)
        .filter(Q(result__isnull=False) | Q(inference_result__isnull=False))
        .select_related(*VERSION_JOINS)
        .order_by("-seen", "-pk")
    )
    for v in rows:
        seen = kinds.setdefault(version_url(v), [])
        seen += [k for k in v.kind_list if k not in seen]
    return {url: ", ".join(k) for url, k in kinds.items()}


def claim_verdicts(claim: Claim) -> list[ClaimVerdictVersion]:
    """A claim's verdict history, oldest first, with the version behind each check."""
    return list(
        ClaimVerdictVersion.objects.filter(claim=claim)
        .select_related("cause")
        .order_by("checked", "pk")
    )


def verdict_story(history: list[ClaimVerdictVersion]) -> list[str]:
    """The verdict history in words: "consistent until 2025-12-02, when the result
    changed (score_minutes: 5.67 -> 6.67); inconsistent since"."""
    out = []
    for h in history:
        why = h.note or "a result it rests on changed"
        kinds = h.cause.kind_list if h.cause else []
        opened = h.cause is not None and any(
            c.get("field") in ("division", "system.division") and c.get("new") == "open"
            for c in h.cause.changes
        )
        if "moved-to-open" in kinds or opened:
            why = "the result was moved to open"
        elif "withdrawn" in kinds:
            why = "the result was withdrawn"
        out.append(
            f"{h.verdict_before} until {h.checked.date().isoformat()}, when {why}; "
            f"{h.verdict} since"
        )
    return out


def _claims_prefetch() -> Prefetch[Any]:
    return Prefetch("claims", queryset=ClaimVerdictVersion.objects.order_by("checked", "pk"))
