"""Pure reshaping of selector output into table rows, CSV and JSON. No queries here.

Every table a page shows is also served as ``?format=csv`` and ``?format=json``,
built from the same rows. JSON shape (stable; ``schema`` names it and the version
after the slash changes only if a column is removed, renamed or changes type)::

    {"schema": "benchdb.<table>/1", "columns": ["col", ...], "rows": [{"col": value, ...}, ...]}

Numbers are JSON numbers at full precision (minutes as floats, counts as
integers), missing values ``null``, ``id`` the benchdb primary key, ``url`` a path on
this site. CSV has the same columns in the same order, a header line, ``\\n`` line
ends, missing values empty. The columns of each schema (see :data:`SCHEMAS`, served
at ``/api/``):

``benchdb.results/1``  (``manage.py export results``) :data:`RESULT_COLUMNS`.
``benchdb.result_table/1``  search, leaderboard, system page: ``id``, the
    columns of ``benchdb.results/1``, ``url``.
``benchdb.rounds/1``  home page: one row per round with counts.
``benchdb.runs/1``  result page: one row per run (``result_N.txt``).
``benchdb.compare/1``  compare page: one row per result, ``speedup`` against the
    baseline row, the derived ``speedup_per_accelerator`` and ``flags``.
``benchdb.divisions/1``  closed against open results of the same system.
``benchdb.software/1``  one accelerator model across frameworks, SDKs and rounds.
``benchdb.scaling/1``  time to train and scaling efficiency against accelerators.

Derived figures follow MLPerf's results messaging guidelines
(``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``): a ratio of two
scores is flagged with every difference that must be stated (round, division,
availability category, accelerator count), and per-accelerator figures are named
as derived, not MLPerf metrics.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchdb.scoring import scaling_efficiency

RESULT_COLUMNS = (
    "round", "submitter", "system", "system_name", "division", "availability",
    "benchmark", "accelerator_model", "accelerators", "nodes", "framework",
    "score_minutes", "runs_total", "runs_counted", "runs_failed", "scaling_factor",
    "status", "reason", "result_id", "source",
)  # fmt: skip


@dataclass(frozen=True)
class Column:
    """One column of a published table: JSON type and meaning (with unit)."""

    name: str
    type: str
    description: str


def _cols(spec: str) -> tuple[Column, ...]:
    out = []
    for line in spec.strip().splitlines():
        name, type_, desc = (p.strip() for p in line.split(" | "))
        out.append(Column(name, type_, desc))
    return tuple(out)


_RESULT_SPEC = """
round | string | round version, e.g. "v1.1"
submitter | string | submitting organization (canonical name)
system | string | system folder name in the results repository
system_name | string | system_name from the systems JSON
division | string | "closed" or "open"
availability | string | "available", "preview", "research" or "" (unknown)
benchmark | string | benchmark key (mlperf_logging's), e.g. "resnet"
accelerator_model | string | accelerator_model_name from the systems JSON
accelerators | integer|null | nodes x accelerators per node
nodes | integer|null | number_of_nodes from the systems JSON
framework | string | framework from the systems JSON
score_minutes | number|null | time to train, minutes: olympic mean x scaling factor
runs_total | integer | runs (result_N.txt files) found
runs_counted | integer | runs averaged by the olympic mean
runs_failed | integer | runs that did not converge or did not parse
scaling_factor | number | scaling.json factor applied to the mean (1.0 if none)
status | string | "scored" or "unscored"
reason | string | why there is no score ("" when scored)
result_id | string | MLPerf result ID such as "1.1-2040" where known, else ""
source | string | URL (or path) of the result folder
"""

_RUN_SPEC = """
result | integer | id of the result
run | integer | id of the run
index | integer | position in file-name order (0-based)
file | string | file name, e.g. "result_0.txt"
path | string | path in the results repository
role | string | "counted", "dropped_fastest", "dropped_slowest", "failed" or "unused" (v0.5 NCF beyond the first 50 converged)
counted | boolean | averaged by the olympic mean
converged | boolean | the run reached the quality target and is valid
time_to_train_minutes | number|null | run_stop - run_start, minutes
converge_at | number|null | epoch_num (or samples_count) of the last eval_accuracy before run_stop
converge_unit | string | "epochs" or "samples": what converge_at counts, as logged
global_batch_size | integer|null | global_batch_size logged by the run
run_start_line | integer|null | 1-based line of run_start in the log
run_stop_line | integer|null | 1-based line of run_stop in the log
run_stop_status | string | status in run_stop metadata ("success", "aborted", "")
failure_reason | string | why the run does not count ("" if it does)
sha256 | string | sha256 of the log file
log_url | string | path of the stored log on this site (text/plain, byte for byte)
source | string | the log in its repository: GitHub URL with the run_start..run_stop lines highlighted, else its path
"""

_COMPARE_SPEC = """
id | integer | id of the result
baseline | boolean | the row speedups are measured against
round | string | round version
result_id | string | MLPerf result ID where known, else ""
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name from the systems JSON
division | string | "closed" or "open"
availability | string | availability category
benchmark | string | benchmark key
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
framework | string | framework
score_minutes | number|null | time to train, minutes (the MLPerf metric)
speedup | number|null | baseline score / this score (ratio of MLPerf scores)
speedup_per_accelerator | number|null | DERIVED, NOT AN MLPERF METRIC: speedup x baseline accelerators / accelerators
flags | string | differences from the baseline that must be stated, "; "-separated
url | string | path of the result page
"""

_DIVISION_SPEC = """
round | string | round version
submitter | string | submitting organization
benchmark | string | benchmark key
system_name | string | system_name shared by both results
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
closed_id | integer|null | id of the closed result (null: none)
closed_system | string | closed system folder
closed_score_minutes | number|null | closed time to train, minutes
open_id | integer | id of the open result
open_system | string | open system folder
open_score_minutes | number|null | open time to train, minutes
open_speedup | number|null | closed score / open score
differences | string | hyperparameters whose values differ between a counted run of each ("; "-separated)
"""

_SOFTWARE_SPEC = """
id | integer | id of the result
round | string | round version
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name
benchmark | string | benchmark key
division | string | "closed" or "open"
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
framework | string | framework as the systems JSON gives it
framework_family | string | PopART, TensorFlow, PaddlePaddle, PyTorch, MXNet, JAX... (derived from framework)
sdk | string | SDK or container release read from framework / software stack, e.g. "Poplar SDK 2.3.0", "NGC 21.09"
score_minutes | number|null | time to train, minutes
line | string | the chart line this row belongs to: submitter, accelerators, framework family
progress | number|null | score of the line's earliest round / this score (1.0 on that round)
relative_to_fastest | number|null | this score / the fastest score of the same round and accelerator count in the table (1.0 = fastest)
url | string | path of the result page
"""

_SCALING_SPEC = """
id | integer | id of the result
round | string | round version
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name
benchmark | string | benchmark key
accelerator_model | string | accelerator model
framework_family | string | framework family (one series per round and family)
accelerators | integer | accelerator count N
score_minutes | number | time to train T_N, minutes
accelerator_minutes | number | T_N x N, accelerator-minutes (DERIVED, not an MLPerf metric)
reference_system | string | system folder of the series' smallest system
reference_accelerators | integer | N_ref
reference_minutes | number | T_ref, minutes
ideal_minutes | number | T_ref x N_ref / N: time to train under perfect scaling, minutes
speedup | number | T_ref / T_N
efficiency | number | E(N) = (T_ref x N_ref) / (T_N x N); 1.0 is perfect scaling (DERIVED)
url | string | path of the result page
"""

_ROUND_SPEC = """
round | string | round version, e.g. "v1.1"
suite | string | "training"
ruleset | string | mlperf_logging release whose rules scored the round
results | integer | results stored
scored | integer | results with a score
systems | integer | systems with at least one result
submitters | integer | submitters with at least one result
benchmarks | integer | benchmarks with at least one result
benchmark_keys | string | those benchmarks' keys, space-separated
repository | string | results repository of the round
"""

#: Every published table: schema name -> its columns (served at ``/api/``).
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.results/1": _cols(_RESULT_SPEC),
    "benchdb.result_table/1": (
        Column("id", "integer", "id of the result"),
        *_cols(_RESULT_SPEC),
        Column("url", "string", "path of the result page"),
    ),
    "benchdb.rounds/1": _cols(_ROUND_SPEC),
    "benchdb.runs/1": _cols(_RUN_SPEC),
    "benchdb.compare/1": _cols(_COMPARE_SPEC),
    "benchdb.divisions/1": _cols(_DIVISION_SPEC),
    "benchdb.software/1": _cols(_SOFTWARE_SPEC),
    "benchdb.scaling/1": _cols(_SCALING_SPEC),
}


# --- vendor pages and claims (benchdb.vendor_selectors, /vendor/) -------------------
# "array": a JSON array (items space-separated in CSV).

_VENDOR_PAGE_SPEC = """
id | integer | id of the page (/vendor/pages/<id>/)
page | string | the page's source URL, else its file name
title | string | the page's title ("" if none)
file_name | string | name of the uploaded or ingested file ("" for a fetched URL)
url | string | source URL ("" if not known)
published | string|null | publication date, YYYY-MM-DD: given, or the first date in the page's opening; null if unknown
retrieved | string | when benchdb got the page, ISO 8601 with time zone
language | string | "en", "zh-Hans", "zh-Hant" or "und" (undetermined)
format | string | "html" or "text"
sha256 | string | sha256 of the page's bytes as fetched or uploaded
claims | integer|null | numeric claims found in the page
vendor_results | integer|null | rows of the vendor's own tables found in the page
link | string | path of the page on this site
"""

_CLAIM_SPEC = """
id | integer | id of the claim (/vendor/claims/<id>/)
page | string | source URL of the claim's page, else its file name
sentence | string | the sentence that states the claim, as the page gives it
kind | string | "time", "head_to_head", "multiplier", "percentage", "scale", "parity", "spec", "throughput" or "count"
value | number|null | the claimed figure, in unit; null when the page's number is no finite figure
unit | string | "min", "s" or "h" (times), "%", "x", "GPU", "IPU"... (scales), "TFLOPS", "GB"... (hardware)
qualifier | string | "up to", "nearly", "about", "more than", "at least", "just over", "less than", "only" or ""
system | string | the system the claim is about, as the page names it
benchmark | string | the benchmark as the page names it
round | string | round the claim is checked in ("v1.1"): named in the page, else the latest published on or before the page's date
division | string | "closed", "open" or "" (not named)
compared_system | string | the other side of a comparison, as the page names it
compared_value | number|null | the other side's figure, in unit
recomputed_value | number|null | the claimed figure recomputed from the linked results' scores, in unit
compared_recomputed_value | number|null | the other side's figure recomputed, in unit
verdict | string | "consistent", "inconsistent", "ambiguous", "not-mlperf" or "unverifiable" (benchdb.claims)
flags | array | strings: differences and caveats MLPerf's results messaging guidelines require stating ("different-divisions"...)
result_ids | array | strings: MLPerf result IDs the page cites ("3.0-2053")
results | array | strings: the results the claim was checked against, "role:round/submitter/system/benchmark"; role "subject", "compared" or "baseline"
link | string | path of the claim on this site
"""

_CLAIM_LINK_SPEC = """
claim | integer | id of the claim
role | string | "subject" (the claimed system), "compared" (the other side) or "baseline" (the earlier result a gain is measured from)
result | string | path of the result page on this site
round | string | round version of the result
submitter | string | submitting organization
system | string | system folder name
division | string | "closed" or "open"
availability | string | availability category
accelerators | integer|null | accelerator count
benchmark | string | benchmark key
score_minutes | number|null | the result's time to train, minutes (olympic mean x scaling factor)
link | string | path of the result page on this site
"""

_VENDOR_RESULT_SPEC = """
page | integer | id of the page
table | integer | the table's number in the page, from 1
row | integer | the row's number in its table, from 1
line | integer | 1-based line of the page's cleaned text
caption | string | up to three lines of text above the table (its title and notes)
model | string | the model (network) cell as written
benchmark | string | benchmark key the model names ("" if none)
framework | string | the framework cell
system | string | the server cell, else the accelerator
accelerators | integer|null | the row's accelerator count
metric | string | "time-to-train", "throughput" or ""
value | number|null | the row's time to train (minutes) or throughput (in unit)
unit | string | "min", or the throughput unit of the column header
result_id | string | the MLPerf-ID cell ("3.0-2068") or ""
round | string | round named by the model or the caption ("v3.0") or ""
division | string | "closed" or "open" from the caption, else ""
carried | array | integers: 0-based indexes of the cells filled from the row above
cells | array | strings: the row's cells in column order
"""

SCHEMAS |= {
    "benchdb.vendor_pages/1": _cols(_VENDOR_PAGE_SPEC),
    "benchdb.claims/1": _cols(_CLAIM_SPEC),
    "benchdb.claim_links/1": _cols(_CLAIM_LINK_SPEC),
    "benchdb.vendor_results/1": _cols(_VENDOR_RESULT_SPEC),
}


def columns(schema: str) -> tuple[str, ...]:
    """Column names of a schema in :data:`SCHEMAS` (KeyError if unknown)."""
    return tuple(c.name for c in SCHEMAS[schema])



# --- rows ---------------------------------------------------------------------------


def source_url(repository: str, commit: str, path: str) -> str:
    """Where a file or folder can be read: a GitHub tree URL for a GitHub
    repository (at ``commit`` if known, else ``HEAD``), else the local path."""
    if repository.startswith("https://github.com/"):
        return f"{repository}/tree/{commit or 'HEAD'}/{path}"
    return f"{repository.rstrip('/')}/{path}" if repository else path


def line_url(repository: str, commit: str, path: str, start: int | None, stop: int | None) -> str:
    """GitHub blob URL of a log with the ``run_start``..``run_stop`` lines
    highlighted (``#L12-L340``); :func:`source_url` when the repository is not on
    GitHub."""
    if not repository.startswith("https://github.com/"):
        return source_url(repository, commit, path)
    anchor = ""
    if start and stop:
        anchor = f"#L{start}-L{stop}"
    elif start or stop:
        anchor = f"#L{start or stop}"
    return f"{repository}/blob/{commit or 'HEAD'}/{path}{anchor}"


# --- framework and SDK labels -------------------------------------------------------

# Earliest match in the string wins ("NGC MXNet 21.09, NGC PyTorch 21.09" -> MXNet).
_FAMILIES = (
    ("PopART", r"popart"), ("PaddlePaddle", r"paddle"), ("TensorFlow", r"tensorflow|\btf\b|tf\d"),
    ("MXNet", r"mxnet"), ("PyTorch", r"pytorch|torch"), ("JAX", r"\bjax\b|-jax"),
    ("MindSpore", r"mindspore"), ("Merlin HugeCTR", r"hugectr"), ("NeMo", r"nemo"),
)  # fmt: skip
_SDK = (
    (re.compile(r"poplar\s+sdk\s+v?(\d+(?:\.\d+)+)", re.I), "Poplar SDK {}"),
    (re.compile(r"release\s+(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"ngc\w*\s+(?:\w+\s+)?(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"ngc(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"pod-sw\s+v?(\d+(?:\.\d+)+)", re.I), "POD-SW {}"),
    (re.compile(r"synapse\w*\s+v?(\d+(?:\.\d+)+)", re.I), "SynapseAI {}"),
)


def framework_family(framework: str) -> str:
    """The framework a systems JSON names, as one word: ``"TensorFlow 1.15 Poplar
    SDK 2.3.0"`` -> ``"TensorFlow"``; ``"Lingvo-JAX"`` -> ``"JAX"``; the first word
    when none is known; ``""`` for an empty string."""
    text = framework.lower()
    found = [(m.start(), name) for name, pat in _FAMILIES if (m := re.search(pat, text))]
    if found:
        return min(found)[1]
    words = framework.split()
    return words[0][:40] if words else ""


def sdk_version(framework: str, software_stack: str = "") -> str:
    """SDK or container release behind a result: ``"PopART Poplar SDK 2.1.0"`` ->
    ``"Poplar SDK 2.1.0"``, ``"MXNet NVIDIA Release 21.09"`` -> ``"NGC 21.09"``,
    a software stack ``"POD-SW 2.5.1 ..."`` -> ``"POD-SW 2.5.1"``; "" if none is named."""
    for text in (framework, software_stack):
        for pattern, label in _SDK:
            m = pattern.search(text)
            if m:
                return label.format(m.group(1))
    return ""


# --- result page: the olympic mean, step by step -------------------------------------


@dataclass(frozen=True)
class OlympicSteps:
    """How a score came from its runs, for display.

    ``ordered``: runs that finished, fastest first, as (file, minutes, role);
    ``failed``: files of failed runs; ``counted``: minutes of the averaged runs;
    ``total``/``mean``: their sum and mean; ``score`` = ``mean`` x ``scaling_factor``.
    """

    ordered: tuple[tuple[str, float, str], ...]
    failed: tuple[str, ...]
    counted: tuple[float, ...]
    total: float | None
    mean: float | None
    scaling_factor: float
    score: float | None


def olympic_steps(runs: Sequence[Mapping[str, Any]], scaling_factor: float) -> OlympicSteps:
    """Runs (rows of ``benchdb.runs/1``) -> the steps of their olympic mean, from
    the roles the scorer gave them (``benchdb.scoring.olympic_mean``). Minutes."""
    done = [r for r in runs if r["role"] != "failed" and r["time_to_train_minutes"] is not None]
    done.sort(key=lambda r: (r["time_to_train_minutes"], r["index"]))
    counted = tuple(r["time_to_train_minutes"] for r in done if r["role"] == "counted")
    total = sum(counted) if counted else None
    mean = total / len(counted) if total is not None else None
    return OlympicSteps(
        ordered=tuple((r["file"], r["time_to_train_minutes"], r["role"]) for r in done),
        failed=tuple(r["file"] for r in runs if r["role"] == "failed"),
        counted=counted, total=total, mean=mean, scaling_factor=scaling_factor,
        score=None if mean is None else mean * scaling_factor,
    )  # fmt: skip


def eval_points(curve: Sequence[Sequence[Any]], part: str | None) -> list[tuple[float, float]]:
    """``Run.eval_curve`` (``[[at, value, time_ms, line], ...]``) -> ``(at, value)``
    pairs with a number for each value: ``part`` picks a dict value's entry
    (``"BBOX"`` for maskrcnn); points without a number are left out."""
    out = []
    number = (int, float)  # type() and not isinstance(): a bool is no number here
    for point in curve:
        at, value = point[0], point[1]
        if type(value) is dict:
            value = value.get(part) if part else next(iter(value.values()), None)
        if type(at) in number and type(value) in number:
            out.append((float(at), float(value)))
    return out


# --- compare ------------------------------------------------------------------------

FOOTNOTE_DERIVED = (
    "Speedup per accelerator is a derived figure, not an MLPerf metric: the ratio of "
    "scores times the baseline's accelerator count divided by this result's. "
    "It assumes perfect scaling, which MLPerf results do not show."
)
FOOTNOTE_TRADEMARK = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)


def comparison_flags(row: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    """Differences between two results that must be stated next to a comparison.

    Source: MLPerf Results Messaging Guidelines, "When comparing MLPerf results,
    you must identify any submission differences" (version, division, category,
    chip count; open results: how they would not qualify as closed) and "may only
    be compared against similar MLPerf results" (same benchmark).
    ``row``/``base``: rows with the keys of ``benchdb.compare/1``.
    """
    flags = []
    if row["benchmark"] != base["benchmark"]:
        flags.append(f"different benchmark ({row['benchmark']} vs {base['benchmark']}): not comparable")  # fmt: skip
    if row["round"] != base["round"]:
        flags.append(f"different round ({row['round']} vs {base['round']})")
    if row["division"] != base["division"]:
        flags.append(f"different division ({row['division'] or '?'} vs {base['division'] or '?'})")
    if row["availability"] != base["availability"]:
        flags.append(f"different availability category ({row['availability'] or 'unknown'} vs {base['availability'] or 'unknown'})")  # fmt: skip
    if row["accelerators"] != base["accelerators"]:
        flags.append(f"different accelerator count ({row['accelerators']} vs {base['accelerators']})")  # fmt: skip
    if "open" in (row["division"], base["division"]) and row["division"] != base["division"]:
        flags.append("open division: model, hyperparameters or quality target may differ from closed rules")  # fmt: skip
    return flags


def compare_rows(rows: Sequence[Mapping[str, Any]], base_id: int | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Rows of ``benchdb.result_table/1`` -> rows of ``benchdb.compare/1``.

    The baseline is ``base_id`` if given and present, else the slowest scored
    result on the first row's benchmark (so each speedup is >= 1). Speedup = baseline
    score / score (a ratio of MLPerf scores); speedup per accelerator =
    speedup x N_base / N (derived). No speedup across benchmarks.
    """
    if not rows:
        return []
    scored = [r for r in rows if r["score_minutes"] and r["benchmark"] == rows[0]["benchmark"]]
    base = next((r for r in rows if r["id"] == base_id), None)
    if base is None:
        base = max(scored, key=lambda r: r["score_minutes"]) if scored else rows[0]
    out = []
    for r in rows:
        speedup = per_acc = None
        if r["score_minutes"] and base["score_minutes"] and r["benchmark"] == base["benchmark"]:
            speedup = base["score_minutes"] / r["score_minutes"]
            if r["accelerators"] and base["accelerators"]:
                per_acc = speedup * base["accelerators"] / r["accelerators"]
        row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.compare/1")}
        row |= {"baseline": r is base, "speedup": speedup, "speedup_per_accelerator": per_acc}
        row["flags"] = "; ".join(comparison_flags(r, base)) if r is not base else ""
        out.append(row)
    return out


# --- divisions, software, scaling ---------------------------------------------------


def _same_system_key(r: Mapping[str, Any]) -> tuple[Any, ...]:
    name = re.sub(r"[^a-z0-9]", "", (r["system_name"] or r["system"]).lower())
    return (r["round"], r["submitter"], r["benchmark"], name, r["accelerator_model"], r["accelerators"])  # fmt: skip


def hyperparameter_differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Keys whose values differ between two runs' hyperparameters, as
    ``"key: a -> b"`` (a key missing on one side shows as ``-``), sorted by key."""
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            out.append(f"{key}: {a.get(key, '-')} -> {b.get(key, '-')}")
    return out


def division_rows(rows: Sequence[Mapping[str, Any]], hyper: Mapping[int, Mapping[str, Any]]) -> list[dict[str, Any]]:  # fmt: skip
    """Pairs each open result with the closed result of the same round, submitter,
    benchmark and system (same system name, accelerator model and count).

    ``rows``: rows of ``benchdb.result_table/1``; ``hyper``: result id -> the
    hyperparameters of one of its counted runs. Open results without a closed
    twin get a row with empty closed columns. Rows of ``benchdb.divisions/1``.
    """
    closed: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for r in rows:
        if r["division"] == "closed":
            closed.setdefault(_same_system_key(r), r)
    out = []
    for o in rows:
        if o["division"] != "open":
            continue
        c = closed.get(_same_system_key(o))
        ratio = None
        if c and c["score_minutes"] and o["score_minutes"]:
            ratio = c["score_minutes"] / o["score_minutes"]
        diffs = hyperparameter_differences(hyper.get(c["id"], {}), hyper.get(o["id"], {})) if c else []  # fmt: skip
        out.append({
            "round": o["round"], "submitter": o["submitter"], "benchmark": o["benchmark"],
            "system_name": o["system_name"], "accelerator_model": o["accelerator_model"],
            "accelerators": o["accelerators"], "closed_id": c["id"] if c else None,
            "closed_system": c["system"] if c else "",
            "closed_score_minutes": c["score_minutes"] if c else None,
            "open_id": o["id"], "open_system": o["system"],
            "open_score_minutes": o["score_minutes"], "open_speedup": ratio,
            "differences": "; ".join(diffs),
        })  # fmt: skip
    return out


def software_rows(rows: Sequence[Mapping[str, Any]], software_stacks: Mapping[int, str]) -> list[dict[str, Any]]:  # fmt: skip
    """Rows of ``benchdb.result_table/1`` (scored or not) -> ``benchdb.software/1``.

    A line is one submitter, accelerator count and framework family over rounds;
    ``progress`` is the line's score in its earliest round over this score;
    ``relative_to_fastest`` this score over the fastest of its round and size
    (PaddlePaddle against PopART on the same Bow-Pod16).
    ``software_stacks``: result id -> the system's software stack (for the SDK).
    Rows come out ordered by accelerator count, framework family, submitter, round.
    """
    out = []
    for r in rows:
        family = framework_family(r["framework"])
        row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.software/1")}
        row["framework_family"] = family
        row["sdk"] = sdk_version(r["framework"], software_stacks.get(r["id"], ""))
        row["line"] = f"{r['submitter']} {r['accelerators']}× {family}"
        out.append(row)
    out.sort(key=lambda x: (x["accelerators"] or 0, x["framework_family"], x["submitter"], round_key(x["round"]), x["score_minutes"] or float("inf")))  # fmt: skip
    first: dict[str, float] = {}
    fastest: dict[tuple[str, Any], float] = {}
    for row in out:
        score = row["score_minutes"]
        if score and row["line"] not in first:
            first[row["line"]] = score
        if score:
            key = (row["round"], row["accelerators"])
            fastest[key] = min(score, fastest.get(key, score))
    for row in out:
        score = row["score_minutes"]
        row["progress"] = first[row["line"]] / score if score and row["line"] in first else None
        row["relative_to_fastest"] = score / fastest[(row["round"], row["accelerators"])] if score else None  # fmt: skip
    return out


def scaling_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Scored rows of ``benchdb.result_table/1`` -> ``benchdb.scaling/1``.

    One series per round and framework family; its reference is its smallest
    system (fewest accelerators; the best score among those). Efficiency
    E(N) = (T_ref x N_ref) / (T_N x N) (``benchdb.scoring.scaling_efficiency``),
    ideal time T_ref x N_ref / N. Rows without a score or accelerator count are
    left out. Ordered by round, family, N, score.
    """
    usable = [r for r in rows if r["score_minutes"] and r["accelerators"]]
    series: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in usable:
        series.setdefault((r["round"], framework_family(r["framework"])), []).append(r)
    out = []
    for (_round, family), members in sorted(series.items(), key=lambda kv: (round_key(kv[0][0]), kv[0][1])):  # fmt: skip
        members = sorted(members, key=lambda r: (r["accelerators"], r["score_minutes"]))
        ref = members[0]
        t_ref, n_ref = ref["score_minutes"], ref["accelerators"]
        for r in members:
            t, n = r["score_minutes"], r["accelerators"]
            row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.scaling/1")}
            row |= {
                "framework_family": family, "accelerator_minutes": t * n,
                "reference_system": ref["system"], "reference_accelerators": n_ref,
                "reference_minutes": t_ref, "ideal_minutes": t_ref * n_ref / n,
                "speedup": t_ref / t, "efficiency": scaling_efficiency(t_ref, n_ref, t, n),
            }  # fmt: skip
            out.append(row)
    return out


def round_key(version: str) -> tuple[int, ...]:
    """Sort key of a round version: ``"v1.1"`` -> ``(1, 1)``; ``(0,)`` if it has no digits."""
    return tuple(int(p) for p in re.findall(r"\d+", version)) or (0,)


def round_order(versions: Iterable[str]) -> list[str]:
    """Round versions sorted numerically (``v0.7`` < ``v1.0`` < ``v1.1`` < ``v2.0``)."""
    return sorted(set(versions), key=round_key)


# --- CSV and JSON -------------------------------------------------------------------


def to_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows -> CSV text with a header; None becomes an empty cell, a list its items
    joined by spaces, text starting with ``= + - @`` gets a leading ``'``; floats
    keep full precision (``repr``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([_cell(row.get(c)) for c in columns])
    return buf.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = " ".join(map(str, value))
    if isinstance(value, str) and value[:1] in _FORMULA_START:
        # Scraped text opened in a spreadsheet must not run as a formula (OWASP
        # "CSV injection"): a leading apostrophe makes it text. JSON keeps it as is.
        return "'" + value
    return value


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_json(rows: Iterable[dict[str, Any]], columns: Sequence[str], schema: str) -> str:
    """Rows -> the JSON document described in the module docstring."""
    return json.dumps(
        {"schema": schema, "columns": list(columns), "rows": [{c: row.get(c) for c in columns} for row in rows]},  # fmt: skip
        ensure_ascii=False,
    )


def download_name(*parts: Any) -> str:
    """A safe file name stem from parts: ``("leaderboard", "v1.1", "resnet")`` ->
    ``"benchdb-leaderboard-v1.1-resnet"``; anything but letters, digits, ``.``,
    ``_`` and ``-`` becomes ``_``; empty parts are skipped; at most 120 characters."""
    clean = [re.sub(r"[^A-Za-z0-9._-]+", "_", str(p)).strip("._") for p in parts if p not in (None, "")]  # fmt: skip
    return "-".join(["benchdb", *[c for c in clean if c]])[:120]
