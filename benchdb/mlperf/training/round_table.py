"""The round table (issue 13): MLCommons' own results layout, one row per system and
division, a column per benchmark with its score.

Reads only (selectors): rows of ``benchdb.round_table/1`` built from the results table
in one query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse

from benchdb import vocabulary
from benchdb.mlperf.training import derived
from benchdb.mlperf.training.selectors import result_list, result_table_rows
from benchdb.models import Result, Round

#: Columns of ``benchdb.round_table/1`` before the per-benchmark score columns.
FIXED_COLUMNS = (
    "round",
    "division",
    "availability",
    "submitter",
    "system",
    "system_name",
    "accelerator_model",
    "accelerators",
    "nodes",
    "host_processor_model",
    "host_processors_per_node",
    "framework",
    "result_ids",
    "details",
    "code",
    "logs",
)
#: One score column per benchmark benchdb knows, ``<key>_minutes`` (stable: a new
#: benchmark adds a column).
SCORE_COLUMNS = tuple(f"{key}_minutes" for key in vocabulary.BENCHMARK_NAMES)
#: And one energy column per benchmark, ``<key>_energy_joules`` (power results only).
ENERGY_COLUMNS = tuple(f"{key}_energy_joules" for key in vocabulary.BENCHMARK_NAMES)
SORTS = ("submitter", "system", "accelerators", "accelerator_model", *vocabulary.BENCHMARK_NAMES)

_EXTRA = (
    "system_id",
    "system__submitter_folder",
    "system__host_processor_model",
    "system__host_processors_per_node",
    "benchmark_folder",
    "round__suite",
    "repository",
    "commit",
)


@dataclass(frozen=True)
class RoundTable:
    """``rows`` (``benchdb.round_table/1`` plus, for HTML, ``scores``: benchmark key ->
    (minutes, result path, energy J or None, energy scope)), ``benchmarks``: the (key,
    name) of the columns that hold a score, in the vocabulary's order; ``choices``:
    filter name -> values present."""

    rows: list[dict[str, Any]]
    benchmarks: list[tuple[str, str]]
    choices: dict[str, list[str]]


def round_table_get(
    *,
    round_version: str = "",
    division: str = "",
    availability: str = "",
    submitter: str = "",
    accelerator: str = "",
    sort: str = "",
) -> RoundTable:
    """The round table of ``round_version`` ("" = every round), filtered and sorted
    (``sort``: a column of :data:`SORTS`; a benchmark sorts by its score, fastest
    first, systems without one last). Raises Http404 for a round not ingested.
    Queries: the round (with a round given), the results with their joins (2)."""
    version = "v" + round_version.lstrip("v") if round_version else ""
    if version and not Round.objects.filter(suite=Round.Suite.TRAINING, version=version).exists():
        raise Http404(f"no MLPerf Training round {round_version!r}")
    qs: QuerySet[Result] = result_list(round_version=round_version or None)
    results = result_table_rows(qs, *_EXTRA)
    choices = {
        "division": sorted({r["division"] for r in results if r["division"]}),
        "availability": sorted({r["availability"] for r in results if r["availability"]}),
        "submitter": sorted({r["submitter"] for r in results}),
        "accelerator": sorted({r["accelerator_model"] for r in results if r["accelerator_model"]}),
    }
    wanted = {
        "division": division,
        "availability": availability,
        "submitter": submitter,
        "accelerator_model": accelerator,
    }
    results = [r for r in results if all(not v or r[k] == v for k, v in wanted.items())]
    rows = _rows(results)
    present = {key for row in rows for key in row["scores"]}
    benchmarks = [(k, n) for k, n in vocabulary.BENCHMARK_NAMES.items() if k in present]
    return RoundTable(_sorted(rows, sort), benchmarks, choices)


def _rows(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per system (a system is one division of one round), its benchmarks'
    scores side by side."""
    by_system: dict[int, dict[str, Any]] = {}
    for r in results:
        row = by_system.get(r["system_id"])
        if row is None:
            row = by_system[r["system_id"]] = _system_row(r)
        if r["score_minutes"] is not None:
            energy = (r["energy_joules"], r["energy_scope"])
            row["scores"][r["benchmark"]] = (r["score_minutes"], r["url"], *energy)
            row[f"{r['benchmark']}_minutes"] = r["score_minutes"]
            row[f"{r['benchmark']}_energy_joules"] = r["energy_joules"]
        if r["result_id"] and r["result_id"] not in row["result_ids"]:
            row["result_ids"] += ("; " if row["result_ids"] else "") + r["result_id"]
    return list(by_system.values())


def _system_row(r: dict[str, Any]) -> dict[str, Any]:
    folder, sub = r["system"], r["system__submitter_folder"]
    repo, commit = r["repository"], r["commit"]
    key = (r["round__suite"], r["round"], sub, folder)
    return {
        "round": r["round"],
        "division": r["division"],
        "availability": r["availability"],
        "submitter": r["submitter"],
        "system": folder,
        "system_name": r["system_name"],
        "accelerator_model": r["accelerator_model"],
        "accelerators": r["accelerators"],
        "nodes": r["nodes"],
        "host_processor_model": r["system__host_processor_model"],
        "host_processors_per_node": r["system__host_processors_per_node"],
        "framework": r["framework"],
        "result_ids": "",
        "details": reverse("benchdb:system", args=key),
        "code": derived.source_url(repo, commit, f"{sub}/benchmarks"),
        "logs": derived.source_url(repo, commit, f"{sub}/results/{folder}"),
        "scores": {},
        **{c: None for c in SCORE_COLUMNS + ENERGY_COLUMNS},
    }


def _sorted(rows: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    if sort in vocabulary.BENCHMARK_NAMES:
        col = f"{sort}_minutes"
        return sorted(rows, key=lambda r: (r[col] is None, r[col] or 0.0, r["submitter"]))
    if sort == "accelerators":
        return sorted(rows, key=lambda r: (r["accelerators"] is None, r["accelerators"] or 0))
    field = sort if sort in ("system", "accelerator_model") else "submitter"
    return sorted(rows, key=lambda r: (str(r[field]).lower(), r["round"], r["system"]))
