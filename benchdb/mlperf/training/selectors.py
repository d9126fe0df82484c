"""Reads. Each list selector names its joins, so a page costs a fixed number of queries.

A page's selector returns everything its HTML, CSV and JSON forms show: the rows
(dicts over one of the schemas in ``benchdb.tables.schemas``) and, for HTML, the objects
and choices around them. Derived numbers come from the pure functions in
``benchdb.tables.schemas`` so that each format shows the same figures.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.urls import reverse

from benchdb import vocabulary
from benchdb.mlperf import search
from benchdb.mlperf.training import derived
from benchdb.models import Benchmark, Result, Round, Run, System
from benchdb.models.mlperf import url_args

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
    text: str | None = None,
    ids: Sequence[int] | None = None,
    suite: str = "training",
) -> QuerySet[Result]:
    """Results of ``suite`` with round, system, submitter and benchmark joined (one query).

    ``submitter`` matches the canonical name or the results folder name,
    case-insensitively; ``benchmark`` is a canonical key (``resnet``) or an alias
    (``mask``, ``ResNet-50``); a folder name is not enough (``ssd`` is SSD-ResNet34 up to
    v1.1, RetinaNet from v2.0). The ``*_contains`` filters are case-insensitive
    substrings (search): ``submitter_contains`` looks at the name and every alias,
    ``system_contains`` at the system name and folder, ``accelerator_contains`` at the
    accelerator model. ``text``: the search box (:func:`benchdb.mlperf.search.text_filter`).
    The systems' raw JSON is not loaded (``system_get`` reads it)."""
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
    exact = {
        "round__suite": suite,
        "division": division,
        "system__availability": availability,
        "system__accelerator_model": accelerator_model,
        "system__accelerator_model__icontains": accelerator_contains,
        "system__framework__icontains": framework_contains,
    }
    qs = qs.filter(**{path: value for path, value in exact.items() if value})
    if submitter_contains:
        qs = qs.filter(
            Q(system__submitter__name__icontains=submitter_contains)
            | Q(system__submitter__aliases__icontains=submitter_contains)
            | Q(system__submitter_folder__icontains=submitter_contains)
        )
    if system_contains:
        qs = search.system_filter(qs, system_contains)
    if text and search.squeezed(text):
        qs = search.text_filter(qs, text)
    if ids is not None:
        qs = qs.filter(pk__in=list(ids))
    return qs.order_by(
        "round__version", "benchmark__key", "division", "score_minutes", "system__folder"
    )


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


# Column of benchdb.result_table/1 -> where it is in the database; "source" is built
# from _SOURCE_FIELDS, "url" (the permalink) from KEY_FIELDS.
_TABLE_FIELDS = {
    "id": "id",
    "round": "round__version",
    "submitter": "system__submitter__name",
    "system": "system__folder",
    "system_name": "system__name",
    "division": "division",
    "availability": "system__availability",
    "benchmark": "benchmark__key",
    "accelerator_model": "system__accelerator_model",
    "accelerators": "system__accelerators",
    "nodes": "system__nodes",
    "framework": "system__framework",
    "score_minutes": "score_minutes",
    "runs_total": "runs_total",
    "runs_counted": "runs_counted",
    "runs_failed": "runs_failed",
    "scaling_factor": "scaling_factor",
    "status": "status",
    "reason": "reason",
    "result_id": "result_id",
    "result_id_origin": "result_id_origin",
    "energy_joules": "energy_joules",
    "energy_scope": "energy_scope",
}
_SOURCE_FIELDS = ("repository", "commit", "source_path")
# Result.natural_key() as ORM paths, in its order.
KEY_FIELDS = (
    "round__suite",
    "round__version",
    "system__submitter_folder",
    "system__folder",
    "benchmark_folder",
)
# What reverse() leaves unquoted in a path argument (django.urls.resolvers).
PATH_SAFE = "!$&'()*+,;=~:@"
_RESULTS_PREFIX = "/results/"  # where benchdb.urls mounts benchdb.mlperf.urls' results


def result_path(key: Sequence[str]) -> str:
    """The permalink of a result from its natural key (``Result.natural_key()``), the
    same string as ``reverse("benchdb:result", args=key)`` at a fraction of its cost
    (a whole round's table builds thousands). Segments are percent-encoded as reverse()
    does; the system folder keeps its '/' (v0.5 systems)."""
    suite, version, submitter, system, benchmark = url_args(tuple(key))
    parts = (
        quote(suite, safe=PATH_SAFE),
        quote(version, safe=PATH_SAFE),
        quote(submitter, safe=PATH_SAFE),
        quote(system, safe=PATH_SAFE + "/"),
        quote(benchmark, safe=PATH_SAFE),
    )
    return f"{_RESULTS_PREFIX}{'/'.join(parts)}/"


def result_table_rows(qs: QuerySet[Result], *extra: str) -> list[dict[str, Any]]:
    """Rows of ``benchdb.result_table/1`` for a queryset, in its order, read as
    values (one query, no model instances: most of a list page's time otherwise).
    ``extra``: more ORM paths to carry along under their own names (e.g.
    ``system__software_stack``). The same rows as :func:`result_table_row`."""
    out = []
    for v in qs.values(*_TABLE_FIELDS.values(), *_SOURCE_FIELDS, *KEY_FIELDS, *extra):
        row = {col: v[path] for col, path in _TABLE_FIELDS.items()}
        row["source"] = derived.source_url(v["repository"], v["commit"], v["source_path"])
        row["url"] = result_path([v[k] for k in KEY_FIELDS])
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
    training = Round.objects.filter(suite=Round.Suite.TRAINING)
    rounds = sorted(training, key=lambda r: vocabulary.round_key(r.version))
    counts: dict[int, dict[str, Any]] = {
        c["round_id"]: dict(c)
        for c in Result.objects.values("round_id").annotate(
            results=Count("id"),
            scored=Count("id", filter=Q(status=Result.Status.SCORED)),
            systems=Count("system", distinct=True),
            submitters=Count("system__submitter", distinct=True),
        )
    }
    per_bench: dict[int, list[tuple[str, str, int]]] = {}
    per_round_bench = (
        Result.objects.values("round_id", "benchmark__key", "benchmark__name")
        .annotate(n=Count("id"))
        .order_by("benchmark__key")
    )
    for b in per_round_bench:
        entry = (b["benchmark__key"], b["benchmark__name"], b["n"])
        per_bench.setdefault(b["round_id"], []).append(entry)
    rows = [_round_row(r, counts.get(r.pk, {}), per_bench.get(r.pk, [])) for r in rounds]
    return RoundSummary(rows, {r.version: per_bench.get(r.pk, []) for r in rounds})


def _round_row(r: Round, c: dict[str, Any], benches: list[tuple[str, str, int]]) -> dict[str, Any]:
    return {
        "round": r.version,
        "suite": r.suite,
        "ruleset": r.ruleset_tag,
        "results": c.get("results", 0),
        "scored": c.get("scored", 0),
        "systems": c.get("systems", 0),
        "submitters": c.get("submitters", 0),
        "benchmarks": len(benches),
        "benchmark_keys": " ".join(k for k, _, _ in benches),
        "repository": r.repository,
    }


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


_CHOICE_FIELDS = {
    "division": "division",
    "availability": "system__availability",
    "submitter": "system__submitter__name",
    "accelerator": "system__accelerator_model",
}


def leaderboard_get(
    *,
    round_version: str,
    benchmark: str,
    division: str = "",
    availability: str = "",
    submitter: str = "",
    accelerator_model: str = "",
) -> Leaderboard:
    """Raises Http404 for an unknown round or benchmark. Queries: round, benchmark,
    filter choices, results (4)."""
    rnd = Round.objects.filter(
        suite=Round.Suite.TRAINING, version="v" + round_version.lstrip("v")
    ).first()
    bench = Benchmark.objects.filter(key=benchmark.lower()).first()
    if rnd is None or bench is None:
        raise Http404(f"no leaderboard for round {round_version!r}, benchmark {benchmark!r}")
    base = Result.objects.filter(round=rnd, benchmark=bench)
    values = list(base.values_list(*_CHOICE_FIELDS.values()).distinct())
    choices = {
        name: sorted({v[i] for v in values if v[i]}) for i, name in enumerate(_CHOICE_FIELDS)
    }
    qs = result_list(
        division=division or None,
        availability=availability or None,
        submitter=submitter or None,
        accelerator_model=accelerator_model or None,
    ).filter(round=rnd, benchmark=bench)
    rows = result_table_rows(qs)
    rows.sort(key=_board_order)
    return Leaderboard(rnd, bench, rows, choices)


def _board_order(r: dict[str, Any]) -> tuple[Any, ...]:
    """Closed first, then by division, scored before unscored, fastest first."""
    score = r["score_minutes"]
    return (r["division"] != "closed", r["division"], score is None, score or 0.0, r["system"])


def filter_choices() -> dict[str, list[str]]:
    """Values for search and picker drop-downs: rounds, benchmarks, submitters,
    accelerator models. Queries: 4."""
    training = System.objects.filter(round__suite=Round.Suite.TRAINING)
    submitters = (
        training.order_by()
        .values_list("submitter__name", flat=True)
        .distinct()
        .order_by("submitter__name")
    )
    accelerators = (
        training.exclude(accelerator_model="")
        .order_by()
        .values_list("accelerator_model", flat=True)
        .distinct()
        .order_by("accelerator_model")
    )
    return {
        "round": vocabulary.round_order(
            Round.objects.filter(suite=Round.Suite.TRAINING).values_list("version", flat=True)
        ),
        "benchmark": list(Benchmark.objects.order_by("key").values_list("key", flat=True)),
        "submitter": list(submitters),
        "accelerator": list(accelerators),
    }


# --- hyperparameters, cut -------------------------------------------------------------

# A logged value longer than this (as JSON text) is shown cut, never loaded whole: an
# unknown key can carry a 200 MB value (issue 9, item 6).
HYPERPARAMETER_CHARS = 2000


def hyperparameters_get(run_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Run id -> its logged hyperparameters, each value as logged unless its JSON
    text is longer than :data:`HYPERPARAMETER_CHARS`: then that many characters of it
    and "… (N characters)". On PostgreSQL the database cuts the values, so a huge one
    never reaches this process; elsewhere (the SQLite quick start) they are loaded
    and cut here. Queries: 1."""
    ids = list(run_ids)
    out: dict[int, dict[str, Any]] = {i: {} for i in ids}
    if not ids:
        return out
    if connection.vendor != "postgresql":
        for pk, hyper in Run.objects.filter(pk__in=ids).values_list("id", "hyperparameters"):
            cut = ((k, json.dumps(v, ensure_ascii=False)) for k, v in hyper.items())
            out[pk] = {k: _shown(t[:HYPERPARAMETER_CHARS], len(t)) for k, t in cut}
        return out
    sql = (
        "SELECT r.id, h.key, left(h.value::text, %s), length(h.value::text)"
        " FROM benchdb_run r CROSS JOIN LATERAL jsonb_each(r.hyperparameters) h"
        " WHERE r.id = ANY(%s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [HYPERPARAMETER_CHARS, ids])
        for pk, name, text, length in cursor.fetchall():
            out[pk][name] = _shown(text, length)
    return out


def _shown(text: str, length: int) -> Any:
    if length <= HYPERPARAMETER_CHARS:
        return json.loads(text)
    return f"{text}… ({length:,} characters)"


def export_rows(
    *,
    round_version: str | None = None,
    submitter: str | None = None,
    benchmark: str | None = None,
    division: str | None = None,
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite training``: rows of ``benchdb.results/1`` (the
    round table's rows, one ``values()`` query), filtered as :func:`result_list`; filters
    of other suites (``model``, ``scenario``) are ignored. The registry names this
    (``benchdb.suites``)."""
    qs = result_list(
        round_version=round_version,
        submitter=submitter,
        benchmark=benchmark,
        division=division,
        suite="training",
    )
    return result_table_rows(qs)


def home_round_url(version: str) -> str:
    """The home page's link to a training round: its round table."""
    return reverse("benchdb:round_table", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of a training leaderboard of the home page (``key``: benchmark, "")."""
    return key[0], reverse("benchdb:leaderboard", args=[version, key[0]])
