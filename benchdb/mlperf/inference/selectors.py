"""Reads of MLPerf Inference results (the list selectors of ``selectors.py`` for the
inference tables): one query per table, rows over the schemas of ``benchdb.tables.schemas``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.db.models import Count, Q
from django.urls import reverse

from benchdb import vocabulary
from benchdb.mlperf.training.selectors import PATH_SAFE
from benchdb.models import InferenceResult


def inference_result_rows(
    *,
    round_version: str | None = None,
    model: str | None = None,
    scenario: str | None = None,
    division: str | None = None,
    submitter: str | None = None,
    category: str | None = None,
    ids: list[int] | None = None,
    suite: str = "inference",
) -> list[dict[str, Any]]:
    """Rows of ``benchdb.inference_results/1``, by round and location (one query), each
    with its page's path as ``url`` (not a column of the schema). ``model`` is a
    benchmark with its variant (``llama2-70b-99``); ``scenario`` any spelling
    (``offline``); ``submitter`` the name or folder, case-insensitively; ``category``
    ``datacenter`` or ``edge`` (a system of both counts in each); ``suite``: the suite
    whose rounds are read (LoadGen suites share the table: ``automotive``)."""
    qs = InferenceResult.objects.filter(round__suite=suite).order_by(
        "round__version", "source_path"
    )
    if ids is not None:
        qs = qs.filter(pk__in=ids)
    if category:
        qs = qs.filter(category__contains=category)
    if round_version:
        qs = qs.filter(round__version="v" + round_version.lstrip("v"))
    if model:
        qs = qs.filter(benchmark=model)
    if scenario:
        qs = qs.filter(scenario=vocabulary.inference_scenario_for(scenario) or scenario)
    if division:
        qs = qs.filter(division=division)
    if submitter:
        qs = qs.filter(
            Q(system__submitter__name__iexact=submitter)
            | Q(system__submitter_folder__iendswith="/" + submitter)
        )
    out = []
    cols = (*_INFERENCE_FIELDS, "submitter_folder")
    for values in qs.values_list(*_INFERENCE_FIELDS.values(), "system__submitter_folder"):
        row = dict(zip(cols, values, strict=True))
        row["url"] = inference_result_url(
            row["round"], row.pop("submitter_folder"), row["system"], row["location"]
        )
        row["accuracy"] = "; ".join(f"{k}={x:g}" for k, x in (row["accuracy"] or {}).items())
        row["missing"] = "; ".join(row["missing"] or [])
        out.append(row)
    return out


_INFERENCE_FIELDS = {
    "id": "id",
    "result_id": "result_id",
    "round": "round__version",
    "division": "division",
    "category": "category",
    "submitter": "system__submitter__name",
    "system": "system__folder",
    "system_name": "system__name",
    "accelerator": "system__accelerator_model",
    "accelerators": "system__accelerators",
    "processor": "system__host_processor_model",
    "software": "system__framework",
    "availability": "system__availability",
    "model_folder": "model_folder",
    "model": "benchmark",
    "scenario": "scenario",
    "metric": "metric",
    "value": "value",
    "unit": "unit",
    "inferred": "inferred",
    "accuracy": "accuracy",
    "accuracy_valid": "accuracy_valid",
    "power": "power",
    "power_unit": "power_unit",
    "compliance_valid": "compliance_valid",
    "status": "status",
    "reason": "reason",
    "missing": "missing",
    "published_value": "published_value",
    "published_unit": "published_unit",
    "location": "source_path",
}


def inference_result_url(round_version: str, submitter_folder: str, system: str, path: str) -> str:
    """The permalink of an inference result: its natural key in the path
    (``/inference/v5.1/results/closed/AMD/<system>/<model folder>/<scenario folder>/``),
    the same string as ``reverse("benchdb:inference_result", ...)`` at a fraction of its
    cost (a round's table builds 1,449; tests/benchdb/mlperf/inference/test_views.py
    checks the two agree)."""
    model, scenario = path.rsplit("/", 2)[-2:]
    division, submitter = submitter_folder.split("/", 1)
    args = (round_version, "results", division, submitter, system, model, scenario)
    return _INFERENCE_PREFIX + "/".join(map(_segment, args)) + "/"


@functools.lru_cache(maxsize=4096)
def _segment(text: str) -> str:
    """One path segment percent-encoded as reverse() does (segments repeat across a
    round's rows: rounds, divisions, submitters, systems, models)."""
    return quote(text, safe=PATH_SAFE)


_INFERENCE_PREFIX = "/inference/"  # where benchdb.urls mounts the inference pages


# --- pages ----------------------------------------------------------------------------


def inference_rounds(suite: str = "inference") -> list[dict[str, Any]]:
    """Every inference round (of ``suite``: LoadGen suites share the table) with its
    counts (``benchdb.inference_rounds/1``). Queries: 1."""
    counts = (
        InferenceResult.objects.filter(round__suite=suite)
        .values("round__version")
        .annotate(
            results=Count("id"),
            valid=Count("id", filter=Q(status="valid")),
            invalid=Count("id", filter=Q(status="invalid")),
            unverifiable=Count("id", filter=Q(status="unverifiable")),
            systems=Count("system", distinct=True),
            submitters=Count("system__submitter", distinct=True),
            power=Count("id", filter=Q(power__isnull=False)),
        )
        .order_by()
    )
    rows = [{"round": c.pop("round__version"), **c} for c in map(dict, counts)]
    return sorted(rows, key=lambda r: vocabulary.round_key(r["round"]))


@dataclass(frozen=True)
class InferencePivot:
    """A round as MLCommons tabulates it: ``columns`` (model, scenario, unit) present, in
    the vocabulary's order; ``systems``: one dict per system (its fields and ``cells``:
    (model, scenario) -> result row); ``choices`` for the filters."""

    columns: list[tuple[str, str, str]]
    systems: list[dict[str, Any]]
    choices: dict[str, list[str]]


def inference_pivot(rows: list[dict[str, Any]], choices: dict[str, list[str]]) -> InferencePivot:
    """``rows`` (``benchdb.inference_results/1`` with ``url``) pivoted to one row per
    system; ``choices`` (:func:`inference_round_choices`) passed through. No query."""
    order = {m: i for i, m in enumerate(vocabulary.INFERENCE_BENCHMARKS)}
    scen = {s: i for i, s in enumerate(vocabulary.INFERENCE_SCENARIOS)}
    columns: dict[tuple[str, str], str] = {}
    systems: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in rows:
        key = (r["round"], r["division"], r["submitter"] + "/" + r["system"])
        sys_row = systems.setdefault(key, {**{k: r[k] for k in _SYSTEM_COLUMNS}, "cells": {}})
        model = r["model"] or r["model_folder"]
        columns.setdefault((model, r["scenario"]), r["unit"])
        sys_row["cells"][(model, r["scenario"])] = r
        if r["result_id"] and not sys_row["result_id"]:
            sys_row["result_id"] = r["result_id"]
    cols = sorted(
        ((m, s, u) for (m, s), u in columns.items()),
        key=lambda c: (order.get(c[0], 99), c[0], scen.get(c[1], 9)),
    )
    ordered = sorted(systems.values(), key=lambda s: (s["submitter"].lower(), s["system"]))
    return InferencePivot(cols, ordered, choices)


def inference_round_choices(round_version: str) -> dict[str, list[str]]:
    """The round table's filter choices: the divisions, categories and submitter names
    of every result of ``round_version``, whatever the filters. Queries: 1 (distinct
    triples, a few hundred rows where the results are 1,449)."""
    triples = (
        InferenceResult.objects.filter(
            round__suite="inference", round__version="v" + round_version.lstrip("v")
        )
        .values_list("division", "category", "system__submitter__name")
        .distinct()
    )
    divisions: set[str] = set()
    categories: set[str] = set()
    submitters: set[str] = set()
    for division, category, submitter in triples:
        divisions.add(division)
        categories.update(c for c in category.split(",") if c)
        submitters.add(submitter)
    return {
        "division": sorted(divisions),
        "category": sorted(categories),
        "submitter": sorted(submitters),
    }


_SYSTEM_COLUMNS = (
    "round",
    "division",
    "category",
    "availability",
    "submitter",
    "system",
    "system_name",
    "accelerator",
    "accelerators",
    "processor",
    "software",
    "result_id",
)


def inference_leaderboard(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One model and scenario's results, best first (highest throughput, lowest
    latency), results without a value last; each with ``per_accelerator``: the value
    divided by the accelerator count, and ``per_watt``: the value divided by the average
    power of an Offline/Server power run (both derived, not MLPerf metrics; throughputs
    only; SingleStream/MultiStream power runs report energy per query already)."""
    higher = all(vocabulary.INFERENCE_UNITS.get(r["unit"], True) for r in rows)
    with_value = [r for r in rows if r["value"] is not None]
    best = sorted(with_value, key=lambda r: -r["value"] if higher else r["value"])
    out = []
    for r in [*best, *(r for r in rows if r["value"] is None)]:
        per = eff = None
        if higher and r["value"] is not None and r["accelerators"]:
            per = r["value"] / r["accelerators"]
        if higher and r["value"] is not None and r["power"] and r["power_unit"] == "Watts":
            eff = r["value"] / r["power"]
        out.append({**r, "per_accelerator": per, "per_watt": eff})
    return out


# --- compare ----------------------------------------------------------------------------


def _base_model(benchmark: str) -> str:
    """The model of a benchmark without its accuracy variant (``llama2-70b-99.9`` ->
    ``llama2-70b``): :func:`benchdb.vocabulary.inference_base_model`."""
    return vocabulary.inference_base_model(benchmark)


@dataclass(frozen=True)
class InferenceComparison:
    """Results side by side: ``rows`` with ``baseline``, ``ratio`` (how many times
    better than the baseline: throughput / baseline's, or baseline's latency / this
    latency) and ``flags``; ``refused`` says why no ratio is given at all (different
    scenarios or models are not ranked); ``missing`` ids not found."""

    rows: list[dict[str, Any]]
    refused: str
    missing: list[int]


def inference_compare(ids: list[int], base: int | None = None) -> InferenceComparison:
    """Results ``ids`` against a baseline (``base``, default the first). Queries: 1."""
    found = {r["id"]: r for r in inference_result_rows(ids=ids)}
    rows = [dict(found[i]) for i in ids if i in found]
    missing = [i for i in ids if i not in found]
    if not rows:
        return InferenceComparison([], "", missing)
    b = next((r for r in rows if r["id"] == base), rows[0])
    scenarios = {r["scenario"] for r in rows}
    models = {_base_model(r["model"] or r["model_folder"]) for r in rows}
    refused = ""
    if len(scenarios) > 1:
        refused = f"different scenarios ({', '.join(sorted(scenarios))}): not comparable"
    elif len(models) > 1:
        refused = f"different models ({', '.join(sorted(models))}): not comparable"
    for r in rows:
        r["baseline"] = r is b
        r["flags"] = "; ".join(inference_flags(r, b)) if r is not b else ""
        r["ratio"] = None if refused else _ratio(r, b)
    return InferenceComparison(rows, refused, missing)


def _ratio(r: dict[str, Any], b: dict[str, Any]) -> float | None:
    if not r["value"] or not b["value"] or r["unit"] != b["unit"]:
        return None
    higher = vocabulary.INFERENCE_UNITS.get(r["unit"], True)
    return float(r["value"] / b["value"] if higher else b["value"] / r["value"])


def inference_flags(r: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Differences MLPerf's results messaging guidelines require to be stated beside a
    comparison of two inference results (round, division, category, scenario, accuracy
    variant, accelerator count, availability, power measured or not, and a result that
    is not valid)."""
    out = []
    for key, what in (
        ("round", "round"),
        ("division", "division"),
        ("category", "category"),
        ("scenario", "scenario"),
        ("model", "accuracy variant"),
        ("accelerators", "accelerator count"),
        ("availability", "availability"),
    ):
        if r[key] != b[key]:
            out.append(f"different {what} ({r[key] or '?'} vs {b[key] or '?'})")
    if (r["power"] is None) != (b["power"] is None):
        out.append("power measured for one result only")
    if r["status"] != "valid":
        out.append(f"this result is {r['status']} by the round's checker rules")
    return out


# --- generations and software over rounds ------------------------------------------------


def inference_history(
    *, model: str, scenario: str, accelerator: str = "", division: str = "closed"
) -> tuple[list[dict[str, Any]], list[str]]:
    """One model and scenario over every round: the valid results, one series per
    (accelerator model, accelerator count) (never joining hardware generations or system
    sizes), each row with ``series`` and, from the second round of a series on,
    ``progress``: its value against the series' previous round (how many times better; a
    ratio of MLPerf results, labelled derived). ``accelerator`` keeps one accelerator
    model (substring, case-insensitive). Returns (rows, accelerator models present)."""
    rows = [
        r
        for r in inference_result_rows(model=model, scenario=scenario, division=division or None)
        if r["status"] == "valid" and r["value"]
    ]
    accelerators = sorted({r["accelerator"] for r in rows if r["accelerator"]})
    if accelerator:
        rows = [r for r in rows if accelerator.lower() in r["accelerator"].lower()]
    higher = all(vocabulary.INFERENCE_UNITS.get(r["unit"], True) for r in rows)
    best: dict[tuple[str, str, Any], dict[str, Any]] = {}
    for r in rows:  # the best result of each series in each round
        key = (r["round"], r["accelerator"], r["accelerators"])
        if key not in best or (r["value"] > best[key]["value"]) == higher:
            best[key] = r
    out = sorted(best.values(), key=lambda r: (r["accelerator"], r["accelerators"] or 0,
                                               vocabulary.round_key(r["round"])))  # fmt: skip
    previous: dict[tuple[str, Any], float] = {}
    for r in out:
        series = (r["accelerator"], r["accelerators"])
        no_accelerator = not r["accelerators"] or r["accelerator"].strip() in ("", "-", "N/A")
        r["series"] = (
            f"{r['processor'] or 'host processor'} (no accelerator)"
            if no_accelerator
            else f"{r['accelerators']} × {r['accelerator']}"
        )
        before = previous.get(series)
        r["progress"] = None if before is None else (
            r["value"] / before if higher else before / r["value"]
        )  # fmt: skip
        previous[series] = r["value"]
    return out, accelerators


def export_rows(
    *,
    round_version: str | None = None,
    model: str | None = None,
    scenario: str | None = None,
    division: str | None = None,
    submitter: str | None = None,
    suite: str = "inference",
    **_other: Any,
) -> list[dict[str, Any]]:
    """``manage.py export results --suite inference``: one row per result
    (``benchdb.inference_results/1``, :func:`inference_result_rows`); another suite
    whose results are ``InferenceResult`` rows (``automotive``) with ``suite``."""
    return inference_result_rows(
        round_version=round_version,
        model=model,
        scenario=scenario,
        division=division,
        submitter=submitter,
        suite=suite,
    )


def home_round_url(version: str) -> str:
    """The home page's link to an inference round: its round table."""
    return reverse("benchdb:inference_round", args=[version])


def home_board(version: str, key: tuple[str, str]) -> tuple[str, str]:
    """(label, URL) of an inference leaderboard (``key``: benchmark, scenario)."""
    return f"{key[0]} {key[1]}", reverse("benchdb:inference_leaderboard", args=[version, *key])
