"""The reads of MLPerf Storage's pages: its rounds, a round's results, a leaderboard
(one workload and accelerator, best MiB/s first), a result with its runs and problems;
and what the registry and the home page call (``export_rows``, ``home_round_url``,
``home_board``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse

from benchdb.mlperf.storage.rules import ROUNDS
from benchdb.models import IngestProblem, StorageResult


def storage_rounds() -> list[dict[str, Any]]:
    """Every Storage round with its counts (``benchdb.storage_rounds/1``). Queries: 1."""
    rows = (
        StorageResult.objects.values("round__version", "round__published")
        .annotate(
            results=Count("id"),
            valid=Count("id", filter=Q(status=StorageResult.Status.VALID)),
            systems=Count("system_folder", distinct=True),
            submitters=Count("submitter", distinct=True),
        )
        .order_by("round__version")
    )
    return [
        {
            "round": r["round__version"],
            "tag": ROUNDS.get(r["round__version"], ""),
            "results": r["results"],
            "valid": r["valid"],
            "invalid": r["results"] - r["valid"],
            "systems": r["systems"],
            "submitters": r["submitters"],
            "published": p.isoformat() if (p := r["round__published"]) else None,
        }
        for r in rows
    ]


def _row(r: StorageResult) -> dict[str, Any]:
    overall = (r.published or {}).get("overall", {})
    return {
        "id": r.pk,
        "round": r.round.version,
        "division": r.division,
        "submitter": r.submitter.name,
        "system": r.system_folder,
        "workload": r.workload,
        "accelerator": r.accelerator,
        "accelerators": r.accelerators,
        "mb_per_second": r.mb_per_second,
        "mb_per_second_stdev": r.mb_per_second_stdev,
        "samples_per_second": r.samples_per_second,
        "samples_per_second_stdev": r.samples_per_second_stdev,
        "runs": len(r.runs),
        "status": r.status,
        "reason": r.reason,
        "published_mb_per_second": overall.get("train_throughput_mean_MB_per_second"),
        "published_samples_per_second": overall.get("train_throughput_mean_samples_per_second"),
        "location": r.source_path,
        "url": r.get_absolute_url(),
    }


def storage_result_rows(
    *,
    round_version: str | None = None,
    workload: str | None = None,
    accelerator: str | None = None,
    division: str | None = None,
    submitter: str | None = None,
    board: bool = False,
) -> list[dict[str, Any]]:
    """Results (``benchdb.storage_results/1``), by location, or with ``board`` valid
    ones only, best MiB/s first. Queries: 1 (round and submitter joined)."""
    qs = StorageResult.objects.select_related("round", "submitter").filter(round__suite="storage")
    filters = {
        "round__version": round_version,
        "workload": workload,
        "accelerator": accelerator,
        "division": division,
        "submitter__name__icontains": submitter,
    }
    qs = qs.filter(**{k: v for k, v in filters.items() if v})
    if board:
        qs = qs.filter(status=StorageResult.Status.VALID).order_by("-mb_per_second", "source_path")
    return [_row(r) for r in qs]


def storage_boards(round_version: str) -> list[dict[str, Any]]:
    """(workload, accelerator, results) of a round's leaderboards. Queries: 1."""
    qs = StorageResult.objects.filter(round__suite="storage", round__version=round_version)
    grouped = (
        qs.values("workload", "accelerator")
        .annotate(n=Count("id"))
        .order_by("workload", "accelerator")
    )
    return [
        {
            **g,
            "url": reverse(
                "benchdb:storage_board", args=[round_version, g["workload"], g["accelerator"]]
            ),
        }
        for g in grouped
        if g["workload"] and g["accelerator"]
    ]


#: summary.json key -> the field of a stored summary holding its value.
_EVIDENCE = {
    "num_accelerators": "num_accelerators",
    "train_au_mean_percentage": "au_mean_percentage",
    "train_au_meet_expectation": "au_meet_expectation",
    "train_throughput_mean_samples_per_second": "samples_per_second",
    "train_io_mean_MB_per_second": "mb_per_second",
}


def _evidence(summary: dict[str, Any], folder: str) -> str:
    """``run1/summary.json: 3 num_accelerators=7, 24 train_..._per_second=74.9...``: the
    lines of one summary the run's figures were read from, by line."""
    path = summary["path"].removeprefix(f"{folder}/")
    lines = sorted((n, k) for k, n in summary.get("lines", {}).items() if k in _EVIDENCE)
    return f"{path}: " + ", ".join(f"{n} {k}={summary.get(_EVIDENCE[k])}" for n, k in lines)


def storage_result_get(
    *, pk: int
) -> tuple[dict[str, Any], list[dict[str, Any]], list[IngestProblem]]:
    """A result's row (``benchdb.storage_results/1``), its runs
    (``benchdb.storage_runs/1``) and the problems recorded in its files and its system
    description. Raises Http404. Queries: 2."""
    r = StorageResult.objects.select_related("round", "submitter", "system").filter(pk=pk).first()
    if r is None:
        raise Http404("no such MLPerf Storage result")
    runs = []
    for run in r.runs:
        evidence = [_evidence(s, r.source_path) for s in run.get("summaries", [])]
        threshold = run.get("au_threshold")
        runs.append(
            {
                "run": run["name"],
                "mb_per_second": run.get("mb_per_second"),
                "samples_per_second": run.get("samples_per_second"),
                "accelerators": run.get("accelerators"),
                "au_mean_percentage": run.get("au_mean_percentage"),
                "au_threshold_percentage": threshold * 100 if threshold is not None else None,
                "evidence": "; ".join(evidence),
            }
        )
    paths = Q(path__startswith=f"{r.source_path}/")
    if r.system is not None and r.system.source_path:
        paths |= Q(path=r.system.source_path)
    problems = list(IngestProblem.objects.filter(paths, round=r.round_id))
    return _row(r), runs, problems


def export_rows(
    *,
    round_version: str | None = None,
    division: str | None = None,
    submitter: str | None = None,
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite storage``: one row per result
    (``benchdb.storage_results/1``)."""
    return storage_result_rows(round_version=round_version, division=division, submitter=submitter)


def home_round_url(version: str) -> str:
    """The home page's link to a Storage round: its results."""
    return reverse("benchdb:storage_round", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a workload and accelerator's leaderboard."""
    return f"{key[0]} {key[1]}", reverse("benchdb:storage_board", args=[version, *key])
