"""The reads of MLPerf Mobile's pages: its rounds, a round's results, a leaderboard per
task (each task has one scenario), one result and its evidence (rows of
``benchdb.mlperf.mobile.schemas``); and what the registry and the home page call
(``export_rows``, ``home_round_url``, ``home_board``). Results live in
``InferenceResult`` (round suite ``mobile``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.urls import reverse

from benchdb.mlperf.inference import suite_selectors
from benchdb.mlperf.mobile.rules import ROUNDS
from benchdb.models import InferenceResult

SUITE = "mobile"


def mobile_rounds() -> list[dict[str, Any]]:
    """Every Mobile round with its counts (``benchdb.mobile_rounds/1``). Queries: 1."""
    return suite_selectors.counted_rounds(SUITE, "benchdb:mobile_round", "app_commit", ROUNDS)


def _row(r: InferenceResult) -> dict[str, Any]:
    s = r.settings or {}
    metric = s.get("accuracy_metric", "")
    latency = s.get("latency90_s")
    return {
        "id": r.pk,
        "round": r.round.version,
        "division": r.division,
        "submitter": r.system.submitter_folder.split("/", 1)[-1],
        "system": r.system.folder,
        "device": s.get("device", ""),
        "task": r.benchmark,
        "task_name": s.get("task", ""),
        "model": s.get("model", ""),
        "scenario": r.scenario,
        "status": r.status,
        "reason": r.reason,
        "throughput": r.value,
        "unit": r.unit,
        "basis": s.get("basis", ""),
        "settings_differ": bool(s.get("settings_differ")),
        "latency90_ms": latency * 1000 if isinstance(latency, (int, float)) else None,
        "accuracy_metric": metric,
        "accuracy": r.accuracy.get(metric) if metric else None,
        "accuracy_text": s.get("accuracy_text", ""),
        "published_throughput": r.published_value,
        "accelerator": s.get("accelerator", ""),
        "location": r.source_path,
        "url": reverse("benchdb:mobile_result", args=[r.pk]),
    }


def _results(**filters: Any) -> list[InferenceResult]:
    return suite_selectors.results(SUITE, **filters)


def round_rows(round_version: str, *, task: str | None = None) -> list[dict[str, Any]]:
    """A round's results (``benchdb.mobile_results/1``), by location; 404 for a round
    not stored. Queries: 2."""
    suite_selectors.stored_round(SUITE, "MLPerf Mobile", round_version)
    extra = {"benchmark": task} if task else {}
    return [_row(r) for r in _results(round__version=round_version, **extra)]


def board_rows(round_version: str, task: str) -> list[dict[str, Any]]:
    """The valid results of one task ranked by throughput, highest first
    (``benchdb.mobile_board/1``); empty for a task without one. Queries: 1."""
    rows = _results(
        round__version=round_version, benchmark=task, status="valid", value__isnull=False
    )
    rows.sort(key=lambda r: (-(r.value or 0.0), r.source_path))
    return [{"rank": n, **_row(r)} for n, r in enumerate(rows, start=1)]


def boards(round_version: str) -> list[tuple[str, str, str, int]]:
    """(task, scenario, URL, valid results) of every leaderboard of a round. Queries: 1."""
    qs = InferenceResult.objects.filter(
        round__suite=SUITE, round__version=round_version, status="valid", value__isnull=False
    )
    counts = qs.values("benchmark", "scenario").annotate(n=Count("id"))
    return [
        (
            c["benchmark"],
            c["scenario"],
            reverse("benchdb:mobile_board", args=[round_version, c["benchmark"]]),
            c["n"],
        )
        for c in counts.order_by("benchmark")
    ]


def result_get(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One result (its row), its evidence (``benchdb.mobile_evidence/1``) and its files
    (kind, path, size, sha256); 404 when it is not a Mobile result. Queries: 3."""
    r, evidence, files = suite_selectors.result_evidence(SUITE, "MLPerf Mobile", pk)
    return _row(r), evidence, files


def export_rows(
    *,
    round_version: str | None = None,
    model: str | None = None,
    division: str | None = None,
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite mobile``: one row per result
    (``benchdb.mobile_results/1``; ``model`` filters on the task id). Queries: 1."""
    return [
        _row(r) for r in _results(**suite_selectors.export_filters(round_version, model, division))
    ]


def home_round_url(version: str) -> str:
    """The home page's link to a Mobile round: its results."""
    return reverse("benchdb:mobile_round", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a task of the home page: its throughput leaderboard."""
    return f"{key[0]} throughput", reverse("benchdb:mobile_board", args=[version, key[0]])
