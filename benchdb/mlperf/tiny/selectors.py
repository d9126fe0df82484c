"""The reads of MLPerf Tiny's pages: its rounds, a round's results, a leaderboard per
model and metric, one result and its evidence (rows of ``benchdb.mlperf.tiny.schemas``);
and what the registry and the home page call (``export_rows``, ``home_round_url``,
``home_board``). Results live in ``InferenceResult`` (round suite ``tiny``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse

from benchdb.mlperf.inference import suite_selectors
from benchdb.mlperf.tiny.rules import CHECKER
from benchdb.models import InferenceResult

SUITE = "tiny"
#: Leaderboard metrics: name -> (label, unit, direction); both lower is better.
METRICS = {
    "latency": ("latency", "ms", "lower"),
    "energy": ("energy per inference", "uJ/inf.", "lower"),
}


def tiny_rounds() -> list[dict[str, Any]]:
    """Every Tiny round with its counts (``benchdb.tiny_rounds/1``). Queries: 1."""
    return suite_selectors.counted_rounds(SUITE, "benchdb:tiny_round", "checker", CHECKER)


def _row(r: InferenceResult) -> dict[str, Any]:
    s = r.settings or {}
    metric = next(iter(r.accuracy), "") if r.accuracy else ""
    return {
        "id": r.pk,
        "round": r.round.version,
        "result_id": r.result_id,
        "result_id_origin": s.get("result_id_origin", ""),
        "division": r.division,
        "submitter": r.system.submitter_folder.split("/", 1)[-1],
        "system": r.system.folder,
        "board": s.get("board_name", ""),
        "model": r.benchmark,
        "status": r.status,
        "reason": r.reason,
        "latency_ms": r.value,
        "throughput": s.get("throughput"),
        "energy": r.power,
        "energy_unit": r.power_unit,
        "accuracy_metric": metric,
        "accuracy": r.accuracy.get(metric) if metric else None,
        "published_throughput": r.published_value,
        "published_energy": r.published_power,
        "location": r.source_path,
        "url": reverse("benchdb:tiny_result", args=[r.pk]),
    }


def _results(**filters: Any) -> list[InferenceResult]:
    return suite_selectors.results(SUITE, **filters)


def round_rows(round_version: str, *, division: str | None = None) -> list[dict[str, Any]]:
    """A round's results (``benchdb.tiny_results/1``), by location; 404 for a round not
    stored. Queries: 2."""
    suite_selectors.stored_round(SUITE, "MLPerf Tiny", round_version)
    extra = {"division": division} if division else {}
    return [_row(r) for r in _results(round__version=round_version, **extra)]


def board_rows(round_version: str, model: str, metric: str) -> list[dict[str, Any]]:
    """The valid results of one model ranked by ``metric`` (:data:`METRICS`; lower is
    better; results without the figure left out) (``benchdb.tiny_board/1``). 404 for an
    unknown metric. Queries: 1."""
    if metric not in METRICS:
        raise Http404(f"no metric {metric!r}")
    field = "value" if metric == "latency" else "power"
    rows = _results(
        round__version=round_version, benchmark=model, status="valid", **{f"{field}__isnull": False}
    )
    if metric == "energy":  # sww's power (mW) is not an energy per inference
        rows = [r for r in rows if r.power_unit == "uJ/inf."]
    rows.sort(key=lambda r: (getattr(r, field), r.source_path))
    return [{"rank": n, **_row(r)} for n, r in enumerate(rows, start=1)]


def boards(round_version: str) -> list[tuple[str, str, str, int]]:
    """(model, metric, URL, results) of every leaderboard of a round. Queries: 1."""
    qs = InferenceResult.objects.filter(
        round__suite=SUITE, round__version=round_version, status="valid"
    )
    counts = qs.values("benchmark").annotate(
        n=Count("id"), e=Count("id", filter=Q(power__isnull=False, power_unit="uJ/inf."))
    )
    out = []
    for c in counts.order_by("benchmark"):
        for metric, n in (("latency", c["n"]), ("energy", c["e"])):
            if n:
                url = reverse("benchdb:tiny_board", args=[round_version, c["benchmark"], metric])
                out.append((c["benchmark"], metric, url, n))
    return out


def result_get(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One result (its row), its evidence (``benchdb.tiny_evidence/1``) and its files
    (kind, path, size, sha256); 404 when it is not a Tiny result. Queries: 3."""
    r, evidence, files = suite_selectors.result_evidence(SUITE, "MLPerf Tiny", pk)
    return _row(r), evidence, files


def export_rows(
    *,
    round_version: str | None = None,
    model: str | None = None,
    division: str | None = None,
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite tiny``: one row per result
    (``benchdb.tiny_results/1``). Queries: 1."""
    return [
        _row(r) for r in _results(**suite_selectors.export_filters(round_version, model, division))
    ]


def home_round_url(version: str) -> str:
    """The home page's link to a Tiny round: its results."""
    return reverse("benchdb:tiny_round", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a model of the home page: its latency leaderboard."""
    return f"{key[0]} latency", reverse("benchdb:tiny_board", args=[version, key[0], "latency"])
