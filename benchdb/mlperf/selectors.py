"""Reads. Each list selector names its joins, so a page costs a fixed number of queries.

A page's selector returns everything its HTML, CSV and JSON forms show: the rows
(dicts over one of the schemas in ``benchdb.tables.schemas``) and, for HTML, the objects
and choices around them. Derived numbers come from the pure functions in
``benchdb.tables.schemas`` so that each format shows the same figures.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404
from django.urls import reverse

from benchdb import vocabulary
from benchdb.mlperf import derived, training_rules
from benchdb.models import Benchmark, IngestProblem, Result, Round, Run, RunLog, System

RESULT_JOINS = ("round", "system", "system__submitter", "benchmark")


def result_list(
    *,
    round_version: str | None = None,
    submitter: str | None = None,
    benchmark: str | None = None,
    division: str | None = None,
    availability: str | None = None,
    accelerator_model: str | None = None,
    submitter_contains: str | None = None,
    system_contains: str | None = None,
    accelerator_contains: str | None = None,
    framework_contains: str | None = None,
    ids: Sequence[int] | None = None,
) -> QuerySet[Result]:
    """Results with round, system, submitter and benchmark joined (one query).

    ``submitter`` matches the canonical name or the results folder name,
    case-insensitively; ``benchmark`` is a canonical key (``resnet``) or an alias
    (``mask``, ``ResNet-50``). A folder name is not enough: ``ssd`` is SSD-ResNet34
    up to v1.1 and RetinaNet (key ``retinanet``) from v2.0.
    The ``*_contains`` filters are case-insensitive substrings (search):
    ``submitter_contains`` looks at the name and every alias, ``system_contains`` at
    the system name and folder, ``accelerator_contains`` at the accelerator model.
    The systems' raw JSON is not loaded (``system_get`` reads it).
    """
    qs = Result.objects.select_related(*RESULT_JOINS).defer("system__raw")
    if round_version:
        qs = qs.filter(round__version="v" + round_version.lstrip("v"))
    if submitter:
        qs = qs.filter(system__submitter__name__iexact=submitter) | qs.filter(
            system__submitter_folder__iexact=submitter
        )
    if benchmark:
        key = benchmark.strip().lower()
        qs = qs.filter(benchmark__key=vocabulary.BENCHMARK_ALIASES.get(key, key))
    if division:
        qs = qs.filter(division=division)
    if availability:
        qs = qs.filter(system__availability=availability)
    if accelerator_model:
        qs = qs.filter(system__accelerator_model=accelerator_model)
    if submitter_contains:
        qs = qs.filter(
            Q(system__submitter__name__icontains=submitter_contains)
            | Q(system__submitter__aliases__icontains=submitter_contains)
            | Q(system__submitter_folder__icontains=submitter_contains)
        )
    if system_contains:
        qs = qs.filter(Q(system__name__icontains=system_contains) | Q(system__folder__icontains=system_contains))  # fmt: skip
    if accelerator_contains:
        qs = qs.filter(system__accelerator_model__icontains=accelerator_contains)
    if framework_contains:
        qs = qs.filter(system__framework__icontains=framework_contains)
    if ids is not None:
        qs = qs.filter(pk__in=list(ids))
    return qs.order_by("round__version", "benchmark__key", "division", "score_minutes", "system__folder")  # fmt: skip


def result_table_row(r: Result) -> dict[str, Any]:
    """A result (a model instance, joins loaded) as a row of ``benchdb.result_table/1``:
    the same mapping as :func:`result_table_rows`, read from the instance."""
    row = {col: _attr(r, path) for col, path in _TABLE_FIELDS.items()}
    row["source"] = derived.source_url(r.repository, r.commit, r.source_path)
    row["url"] = r.get_absolute_url()
    return row


def _attr(obj: Any, path: str) -> Any:
    for name in path.split("__"):
        obj = getattr(obj, name)
    return obj


# Column of benchdb.result_table/1 -> where it is in the database; "source" and
# "url" are built from repository/commit/source_path and id.
_TABLE_FIELDS = {
    "id": "id", "round": "round__version", "submitter": "system__submitter__name",
    "system": "system__folder", "system_name": "system__name", "division": "division",
    "availability": "system__availability", "benchmark": "benchmark__key",
    "accelerator_model": "system__accelerator_model", "accelerators": "system__accelerators",
    "nodes": "system__nodes", "framework": "system__framework",
    "score_minutes": "score_minutes", "runs_total": "runs_total",
    "runs_counted": "runs_counted", "runs_failed": "runs_failed",
    "scaling_factor": "scaling_factor", "status": "status", "reason": "reason",
    "result_id": "result_id",
}  # fmt: skip
_SOURCE_FIELDS = ("repository", "commit", "source_path")


def result_table_rows(qs: QuerySet[Result], *extra: str) -> list[dict[str, Any]]:
    """Rows of ``benchdb.result_table/1`` for a queryset, in its order, read as
    values (one query, no model instances: most of a list page's time otherwise).
    ``extra``: more ORM paths to carry along under their own names (e.g.
    ``system__software_stack``). The same rows as :func:`result_table_row`."""
    url = reverse("benchdb:result", args=[0])[:-2]  # "/results/"
    out = []
    for v in qs.values(*_TABLE_FIELDS.values(), *_SOURCE_FIELDS, *extra):
        row = {col: v[path] for col, path in _TABLE_FIELDS.items()}
        row["source"] = derived.source_url(v["repository"], v["commit"], v["source_path"])
        row["url"] = f"{url}{v['id']}/"
        row.update((e, v[e]) for e in extra)
        out.append(row)
    return out


# --- home -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundSummary:
    """``rows``: ``benchdb.rounds/1``; ``benchmarks``: round version -> list of
    (key, name, results) for the leaderboard links."""

    rows: list[dict[str, Any]]
    benchmarks: dict[str, list[tuple[str, str, int]]]


def round_summary() -> RoundSummary:
    """Every round with its counts. Queries: rounds; counts per round; results
    per round and benchmark (3)."""
    rounds = sorted(Round.objects.all(), key=lambda r: vocabulary.round_key(r.version))
    counts: dict[int, dict[str, Any]] = {
        c["round_id"]: dict(c)
        for c in Result.objects.values("round_id").annotate(
            results=Count("id"), scored=Count("id", filter=Q(status=Result.Status.SCORED)),
            systems=Count("system", distinct=True),
            submitters=Count("system__submitter", distinct=True),
        )
    }  # fmt: skip
    per_bench: dict[int, list[tuple[str, str, int]]] = {}
    for b in Result.objects.values("round_id", "benchmark__key", "benchmark__name").annotate(n=Count("id")).order_by("benchmark__key"):  # fmt: skip
        per_bench.setdefault(b["round_id"], []).append((b["benchmark__key"], b["benchmark__name"], b["n"]))  # fmt: skip
    rows = []
    for r in rounds:
        c: dict[str, Any] = counts.get(r.pk, {})
        benches = per_bench.get(r.pk, [])
        rows.append({
            "round": r.version, "suite": r.suite, "ruleset": r.ruleset_tag,
            "results": c.get("results", 0), "scored": c.get("scored", 0),
            "systems": c.get("systems", 0), "submitters": c.get("submitters", 0),
            "benchmarks": len(benches), "benchmark_keys": " ".join(k for k, _, _ in benches),
            "repository": r.repository,
        })  # fmt: skip
    return RoundSummary(rows, {r.version: per_bench.get(r.pk, []) for r in rounds})


# --- search ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchPage:
    """``rows``: ``benchdb.result_table/1`` (one page of them, or all when no page
    was asked); ``total``: matches in all."""

    rows: list[dict[str, Any]]
    total: int
    page: int | None
    pages: int


def result_search(*, page: int | None = None, per_page: int = 100, **filters: Any) -> SearchPage:
    """Results matching ``filters`` (keyword arguments of :func:`result_list`).

    ``page`` (1-based) returns one page of ``per_page`` rows plus the total (2
    queries); None returns every row (1 query), for CSV and JSON.
    """
    qs = result_list(**filters)
    if page is None:
        rows = result_table_rows(qs)
        return SearchPage(rows, len(rows), None, 1)
    total = qs.count()
    pages = max(1, -(-total // per_page))
    page = min(max(1, page), pages)
    rows = result_table_rows(qs[(page - 1) * per_page : page * per_page])
    return SearchPage(rows, total, page, pages)


# --- leaderboard ----------------------------------------------------------------------


@dataclass(frozen=True)
class Leaderboard:
    """One round and benchmark: ``rows`` (``benchdb.result_table/1``, filtered,
    closed first, fastest first) and ``choices``: filter name -> values present
    on the unfiltered board."""

    round: Round
    benchmark: Benchmark
    rows: list[dict[str, Any]]
    choices: dict[str, list[str]]


def leaderboard_get(
    *, round_version: str, benchmark: str, division: str = "", availability: str = "",
    submitter: str = "", accelerator_model: str = "",
) -> Leaderboard:  # fmt: skip
    """Raises Http404 for an unknown round or benchmark. Queries: round, benchmark,
    filter choices, results (4)."""
    rnd = Round.objects.filter(version="v" + round_version.lstrip("v")).first()
    bench = Benchmark.objects.filter(key=benchmark.lower()).first()
    if rnd is None or bench is None:
        raise Http404(f"no leaderboard for round {round_version!r}, benchmark {benchmark!r}")
    base = Result.objects.filter(round=rnd, benchmark=bench)
    values = list(base.values_list("division", "system__availability", "system__submitter__name", "system__accelerator_model").distinct())  # fmt: skip
    choices = {name: sorted({v[i] for v in values if v[i]}) for i, name in enumerate(("division", "availability", "submitter", "accelerator"))}  # fmt: skip
    qs = result_list(
        division=division or None, availability=availability or None,
        submitter=submitter or None, accelerator_model=accelerator_model or None,
    ).filter(round=rnd, benchmark=bench)  # fmt: skip
    rows = result_table_rows(qs)
    rows.sort(key=lambda r: (r["division"] != "closed", r["division"], r["score_minutes"] is None, r["score_minutes"] or 0.0, r["system"]))  # fmt: skip
    return Leaderboard(rnd, bench, rows, choices)


# --- one result, one run's log, one system -------------------------------------------


@dataclass(frozen=True)
class ResultDetail:
    """A result with everything its page shows: ``runs`` (``benchdb.runs/1``),
    the olympic mean step by step, each run's eval curve, the quality target."""

    result: Result
    row: dict[str, Any]
    runs: list[dict[str, Any]]
    steps: derived.OlympicSteps
    curves: list[dict[str, Any]]
    target: training_rules.Target | None
    problems: list[IngestProblem]
    hyperparameters: list[tuple[str, Any]]


def result_get(pk: int) -> ResultDetail:
    """Raises Http404. Queries: the result with its joins, its runs (logs not
    loaded), its ingest problems (3)."""
    result = Result.objects.select_related(*RESULT_JOINS).prefetch_related(
        Prefetch("runs", queryset=Run.objects.order_by("index")),
        Prefetch("problems", queryset=IngestProblem.objects.order_by("path", "line")),
    ).filter(pk=pk).first()  # fmt: skip
    if result is None:
        raise Http404(f"no result {pk}")
    runs = list(result.runs.all())
    rows = [run_row(result, run) for run in runs]
    try:
        target = training_rules.ruleset_for(result.round.version).target(result.benchmark.key, result.division)  # fmt: skip
    except ValueError:
        target = None
    part = target.part if target else None
    curves = [
        {"run": run.file_name, "role": run.role, "points": derived.eval_points(run.eval_curve, part)}
        for run in runs
    ]  # fmt: skip
    first = next((run for run in runs if run.role == Run.Role.COUNTED), runs[0] if runs else None)
    hyper = sorted(first.hyperparameters.items()) if first else []
    return ResultDetail(
        result=result, row=result_table_row(result), runs=rows,
        steps=derived.olympic_steps(rows, result.scaling_factor), curves=curves,
        target=target, problems=list(result.problems.all()), hyperparameters=hyper,
    )  # fmt: skip


def run_row(result: Result, run: Run) -> dict[str, Any]:
    """A run as a row of ``benchdb.runs/1``."""
    return {
        "result": result.pk, "run": run.pk, "index": run.index, "file": run.file_name,
        "path": run.path, "role": run.role, "counted": run.role == Run.Role.COUNTED,
        "converged": run.converged, "time_to_train_minutes": run.time_to_train_minutes,
        "converge_at": run.converge_at, "converge_unit": run.converge_unit,
        "global_batch_size": run.global_batch_size, "run_start_line": run.run_start_line,
        "run_stop_line": run.run_stop_line, "run_stop_status": run.run_stop_status,
        "failure_reason": run.failure_reason, "sha256": run.sha256,
        "log_url": reverse("benchdb:run_log", args=[run.pk]),
        "source": derived.line_url(result.repository, result.commit, run.path, run.run_start_line, run.run_stop_line),
    }  # fmt: skip


def run_log_get(pk: int) -> tuple[Run, bytes]:
    """A run and its whole log, decompressed, byte for byte as ingested. Raises
    Http404. Queries: 1."""
    log = RunLog.objects.select_related("run").filter(run_id=pk).first()
    if log is None:
        raise Http404(f"no stored log for run {pk}")
    return log.run, zlib.decompress(bytes(log.compressed))


@dataclass(frozen=True)
class SystemDetail:
    """A system, its normalized fields as (label, value) pairs, its raw JSON
    pretty-printed, and its results (``benchdb.result_table/1``)."""

    system: System
    fields: list[tuple[str, Any]]
    raw_json: str
    rows: list[dict[str, Any]]


def system_get(pk: int) -> SystemDetail:
    """Raises Http404. Queries: the system with round and submitter, its results (2)."""
    system = System.objects.select_related("round", "submitter").filter(pk=pk).first()
    if system is None:
        raise Http404(f"no system {pk}")
    results = Result.objects.filter(system=system).order_by("benchmark__key")
    fields = [
        ("Round", system.round.version), ("Submitter", system.submitter.name),
        ("System name", system.name), ("Folder", system.folder),
        ("Division", system.division), ("Availability", system.get_availability_display()),
        ("Nodes", system.nodes), ("Accelerator model", system.accelerator_model),
        ("Accelerators per node", system.accelerators_per_node),
        ("Accelerators", system.accelerators), ("Host processor", system.host_processor_model),
        ("Host processors per node", system.host_processors_per_node),
        ("Framework", system.framework), ("Software stack", system.software_stack),
        ("Source", system.source_path),
    ]  # fmt: skip
    raw = json.dumps(system.raw, indent=2, ensure_ascii=False, sort_keys=True)
    return SystemDetail(system, fields, raw, result_table_rows(results))


# --- compare ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """``rows``: ``benchdb.compare/1`` in the order asked; ``missing``: ids not found."""

    rows: list[dict[str, Any]]
    missing: list[int]


def compare_get(*, ids: Sequence[int], base: int | None = None) -> Comparison:
    """Results ``ids`` side by side against a baseline (see
    ``derived.compare_rows``). Queries: 1."""
    found = {r["id"]: r for r in result_table_rows(result_list(ids=ids))}
    rows = [found[i] for i in ids if i in found]
    return Comparison(derived.compare_rows(rows, base), [i for i in ids if i not in found])


# --- divisions, software versions, scaling ------------------------------------------


def division_list(*, round_version: str = "", benchmark: str = "", submitter: str = "") -> list[dict[str, Any]]:  # fmt: skip
    """Open results paired with closed results of the same system (rows of
    ``benchdb.divisions/1``). Only results whose round, benchmark and submitter
    have an open result are read. Queries: results; their counted runs (2)."""
    open_twin = Result.objects.filter(
        division="open", round=OuterRef("round"), benchmark=OuterRef("benchmark"),
        system__submitter=OuterRef("system__submitter"),
    )  # fmt: skip
    qs = result_list(round_version=round_version or None, benchmark=benchmark or None, submitter=submitter or None)  # fmt: skip
    rows = result_table_rows(qs.filter(Exists(open_twin)))
    hyper: dict[int, dict[str, Any]] = {}
    runs = Run.objects.filter(result_id__in=[r["id"] for r in rows], role=Run.Role.COUNTED).order_by("result_id", "index").only("result_id", "hyperparameters")  # fmt: skip
    for run in runs:
        hyper.setdefault(run.result_id, run.hyperparameters)
    return derived.division_rows(rows, hyper)


def software_list(*, benchmark: str, accelerator_models: Sequence[str], submitter: str = "", division: str = "closed") -> list[dict[str, Any]]:  # fmt: skip
    """Results of ``accelerator_models`` on ``benchmark`` over every round (rows of
    ``benchdb.software/1``). Queries: 1."""
    qs = result_list(benchmark=benchmark, submitter=submitter or None, division=division or None).filter(system__accelerator_model__in=list(accelerator_models))  # fmt: skip
    rows = result_table_rows(qs, "system__software_stack")
    return derived.software_rows(rows, {r["id"]: r["system__software_stack"] for r in rows})


def software_choices() -> list[dict[str, Any]]:
    """Accelerator model x benchmark pairs with results in more than one round or
    framework, most rounds first. Queries: 1."""
    values = Result.objects.values("system__accelerator_model", "benchmark__key").annotate(
        rounds=Count("round", distinct=True), frameworks=Count("system__framework", distinct=True),
        results=Count("id"),
    ).filter(Q(rounds__gt=1) | Q(frameworks__gt=1)).exclude(system__accelerator_model="")  # fmt: skip
    rows = [
        {"accelerator": v["system__accelerator_model"], "benchmark": v["benchmark__key"],
         "rounds": v["rounds"], "frameworks": v["frameworks"], "results": v["results"]}
        for v in values
    ]  # fmt: skip
    rows.sort(key=lambda r: (-r["rounds"], -r["frameworks"], r["accelerator"], r["benchmark"]))
    return rows


def scaling_list(*, submitter: str, accelerator_model: str, benchmark: str, round_version: str = "", division: str = "closed") -> list[dict[str, Any]]:  # fmt: skip
    """Scored results of one submitter, accelerator model and benchmark with
    scaling efficiency (rows of ``benchdb.scaling/1``). Queries: 1."""
    qs = result_list(
        submitter=submitter, accelerator_model=accelerator_model, benchmark=benchmark,
        round_version=round_version or None, division=division or None,
    )  # fmt: skip
    return derived.scaling_rows(result_table_rows(qs))


def scaling_choices() -> list[dict[str, Any]]:
    """Submitter x accelerator model x benchmark x round with at least two system
    sizes (closed division). Queries: 1."""
    values = Result.objects.filter(division="closed", score_minutes__isnull=False).values(
        "system__submitter__name", "system__accelerator_model", "benchmark__key", "round__version",
    ).annotate(sizes=Count("system__accelerators", distinct=True)).filter(sizes__gt=1)  # fmt: skip
    rows = [
        {"submitter": v["system__submitter__name"], "accelerator": v["system__accelerator_model"],
         "benchmark": v["benchmark__key"], "round": v["round__version"], "sizes": v["sizes"]}
        for v in values
    ]  # fmt: skip
    rows.sort(key=lambda r: (vocabulary.round_key(r["round"]), r["submitter"], r["accelerator"], r["benchmark"]))  # fmt: skip
    return rows


def filter_choices() -> dict[str, list[str]]:
    """Values for search and picker drop-downs: rounds, benchmarks, submitters,
    accelerator models. Queries: 4."""
    return {
        "round": vocabulary.round_order(Round.objects.values_list("version", flat=True)),
        "benchmark": list(Benchmark.objects.order_by("key").values_list("key", flat=True)),
        "submitter": list(System.objects.order_by().values_list("submitter__name", flat=True).distinct().order_by("submitter__name")),  # fmt: skip
        "accelerator": list(System.objects.exclude(accelerator_model="").order_by().values_list("accelerator_model", flat=True).distinct().order_by("accelerator_model")),  # fmt: skip
    }
