"""The home page's reads (issue 23): every suite's rounds with their counts and the
boards of each suite's latest round, in three grouped queries (training and HPC results
together, inference results apart, storage results apart); the vendor pages come from
:func:`benchdb.claims.selectors.vendor_page_list`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from benchdb import suites, vocabulary
from benchdb.models import InferenceResult, Result, StorageResult


@dataclass(frozen=True)
class SuiteSummary:
    """One suite: ``rows`` (``benchdb.site_rounds/1``, oldest round first), ``latest``
    (its latest round's row, None when nothing is loaded) and ``boards`` of that round:
    ``(label, url, results)`` leaderboards, the :data:`BOARDS_SHOWN` with the most results,
    by name; ``boards_more``: how many more that round has."""

    suite: str
    label: str
    rows: list[dict[str, Any]]
    latest: dict[str, Any] | None
    boards: list[tuple[str, str, int]]
    boards_more: int


#: Leaderboards of a suite's latest round listed on the home page (inference has dozens).
BOARDS_SHOWN = 12


def _round_url(suite: str, version: str) -> str:
    """The round's page: the suite's ``selectors.home_round_url`` (``benchdb.suites``)."""
    return str(suites.load(f"{suites.suite(suite).package}.selectors.home_round_url")(version))


def _board(suite: str, version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a leaderboard: the suite's ``selectors.home_board``."""
    board = suites.load(f"{suites.suite(suite).package}.selectors.home_board")
    return board(version, key)  # type: ignore[no-any-return]


def _summaries(groups: list[dict[str, Any]]) -> list[SuiteSummary]:
    """``groups``: dicts of ``suite``, ``round``, ``board`` (a pair of names), ``status``
    (valid / rejected / unverifiable) and ``n`` -> one summary per suite of the registry
    (``benchdb.suites.SUITES``, in its order)."""
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    boards: dict[tuple[str, str], dict[tuple[str, str], int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for g in groups:
        counts[g["suite"], g["round"]][g["status"]] += g["n"]
        if g["board"][0]:
            boards[g["suite"], g["round"]][g["board"]] += g["n"]
    out = []
    for suite, label in ((s.name, s.label) for s in suites.SUITES):
        versions = sorted((v for s, v in counts if s == suite), key=vocabulary.round_key)
        rows = [
            {
                "suite": suite,
                "round": v,
                "latest": v == versions[-1],
                "results": sum(counts[suite, v].values()),
                **{k: counts[suite, v][k] for k in ("valid", "rejected", "unverifiable")},
                "url": _round_url(suite, v),
            }
            for v in versions
        ]
        latest = rows[-1] if rows else None
        shown = boards[suite, versions[-1]] if versions else {}
        top = sorted(shown.items(), key=lambda kv: (-kv[1], kv[0]))[:BOARDS_SHOWN]
        board_rows = sorted((*_board(suite, versions[-1], key), n) for key, n in top)
        more = len(shown) - len(board_rows)
        out.append(SuiteSummary(suite, label, rows, latest, board_rows, more))
    return out


def suite_summaries() -> list[SuiteSummary]:
    """Every suite's rounds and counts, and its latest round's boards. Queries: training
    and HPC results grouped by round, board and status; inference results likewise;
    storage results likewise (3)."""
    groups: list[dict[str, Any]] = []
    mlperf = Result.objects.values(
        "round__suite", "round__version", "benchmark__key", "scaling_type", "status"
    ).annotate(n=Count("id"))
    for g in mlperf.order_by():
        scored = g["status"] == Result.Status.SCORED
        groups.append(
            {
                "suite": g["round__suite"],
                "round": g["round__version"],
                "board": (g["benchmark__key"], g["scaling_type"]),
                "status": "valid" if scored else "rejected",
                "n": g["n"],
            }
        )
    inference = InferenceResult.objects.values(
        "round__suite", "round__version", "benchmark", "scenario", "status"
    ).annotate(n=Count("id"))
    status = {"valid": "valid", "invalid": "rejected", "unverifiable": "unverifiable"}
    for row in inference.order_by():
        groups.append(
            {
                "suite": row["round__suite"],
                "round": row["round__version"],
                "board": (row["benchmark"], row["scenario"]),
                "status": status[row["status"]],
                "n": row["n"],
            }
        )
    storage = StorageResult.objects.values(
        "round__suite", "round__version", "workload", "accelerator", "status"
    ).annotate(n=Count("id"))
    for srow in storage.order_by():
        groups.append(
            {
                "suite": srow["round__suite"],
                "round": srow["round__version"],
                "board": (srow["workload"], srow["accelerator"]),
                "status": status[srow["status"]],
                "n": srow["n"],
            }
        )
    return _summaries(groups)
