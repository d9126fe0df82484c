"""Derived rows of the MLPerf pages: source links, the olympic mean step by step,
eval curves, comparisons with their guideline flags, closed vs open, software and
scaling series. Pure: no Django, no queries; input is selector output (rows of the
schemas in :mod:`benchdb.tables.schemas`).

Derived figures follow MLPerf's results messaging guidelines
(``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``): a ratio of two
scores is flagged with every difference that must be stated (round, division,
availability category, accelerator count), and per-accelerator figures are named
as derived, not MLPerf metrics.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchdb.mlperf.training.scoring import scaling_efficiency
from benchdb.tables.schemas import columns
from benchdb.vocabulary import framework_family, round_key, sdk_version

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
    the roles the scorer gave them (``benchdb.mlperf.training.scoring.olympic_mean``). Minutes."""
    done = [r for r in runs if r["role"] != "failed" and r["time_to_train_minutes"] is not None]
    done.sort(key=lambda r: (r["time_to_train_minutes"], r["index"]))
    counted = tuple(r["time_to_train_minutes"] for r in done if r["role"] == "counted")
    total = sum(counted) if counted else None
    mean = total / len(counted) if total is not None else None
    return OlympicSteps(
        ordered=tuple((r["file"], r["time_to_train_minutes"], r["role"]) for r in done),
        failed=tuple(r["file"] for r in runs if r["role"] == "failed"),
        counted=counted,
        total=total,
        mean=mean,
        scaling_factor=scaling_factor,
        score=None if mean is None else mean * scaling_factor,
    )


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
        flags.append(
            f"different benchmark ({row['benchmark']} vs {base['benchmark']}): not comparable"
        )
    if row["round"] != base["round"]:
        flags.append(f"different round ({row['round']} vs {base['round']})")
    if row["division"] != base["division"]:
        flags.append(f"different division ({row['division'] or '?'} vs {base['division'] or '?'})")
    if row["availability"] != base["availability"]:
        ours, theirs = row["availability"] or "unknown", base["availability"] or "unknown"
        flags.append(f"different availability category ({ours} vs {theirs})")
    if row["accelerators"] != base["accelerators"]:
        flags.append(
            f"different accelerator count ({row['accelerators']} vs {base['accelerators']})"
        )
    if "open" in (row["division"], base["division"]) and row["division"] != base["division"]:
        flags.append(
            "open division: model, hyperparameters or quality target may differ from closed rules"
        )
    return flags


def compare_rows(
    rows: Sequence[Mapping[str, Any]], base_id: int | None = None
) -> list[dict[str, Any]]:
    """Rows of ``benchdb.result_table/1`` -> rows of ``benchdb.compare/1``.

    The baseline is ``base_id`` if given and present, else the first row (the result
    picked first). Speedup = baseline score / score (a ratio of MLPerf scores); speedup
    per accelerator = speedup x N_base / N (derived). No speedup across benchmarks. A
    speedup within the benchmark's run-to-run variation (:func:`run_to_run_variation`)
    is flagged as such.
    """
    if not rows:
        return []
    base = next((r for r in rows if r["id"] == base_id), rows[0])
    out = []
    for r in rows:
        speedup = per_acc = None
        if r["score_minutes"] and base["score_minutes"] and r["benchmark"] == base["benchmark"]:
            speedup = base["score_minutes"] / r["score_minutes"]
            if r["accelerators"] and base["accelerators"]:
                per_acc = speedup * base["accelerators"] / r["accelerators"]
        row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.compare/1")}
        row |= {"baseline": r is base, "speedup": speedup, "speedup_per_accelerator": per_acc}
        flags = comparison_flags(r, base) if r is not base else []
        noise = run_to_run_variation(r["benchmark"])
        if speedup is not None and r is not base and abs(speedup - 1) < noise:
            flags.append(
                f"within run-to-run variation (±{noise:.1%} for {r['benchmark']}): "
                "not a measurable difference"
            )
        row["flags"] = "; ".join(flags)
        out.append(row)
    return out


#: Imaging benchmarks, whose scores vary less from run to run (:func:`run_to_run_variation`).
IMAGING_BENCHMARKS = frozenset({"resnet", "ssd", "retinanet", "maskrcnn", "unet3d"})


def run_to_run_variation(benchmark: str) -> float:
    """How much a benchmark's score varies between runs of the same system, as a
    fraction: 0.025 for imaging benchmarks, 0.05 for the others (MLCommons' figures, as
    issue 13 quotes them). A smaller difference between two scores is noise."""
    return 0.025 if benchmark in IMAGING_BENCHMARKS else 0.05


# --- divisions, software, scaling ---------------------------------------------------


def _same_system_key(r: Mapping[str, Any]) -> tuple[Any, ...]:
    name = re.sub(r"[^a-z0-9]", "", (r["system_name"] or r["system"]).lower())
    return (
        r["round"],
        r["submitter"],
        r["benchmark"],
        name,
        r["accelerator_model"],
        r["accelerators"],
    )


def hyperparameter_differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Keys whose values differ between two runs' hyperparameters, as
    ``"key: a -> b"`` (a key missing on one side shows as ``-``), sorted by key.

    A one-element list is its element: some logs write ``[10000]`` where others write
    ``10000`` for the same setting, which is no difference (issue 13)."""
    out = []
    for key in sorted(set(a) | set(b)):
        va, vb = _one_value(a.get(key, "-")), _one_value(b.get(key, "-"))
        if va != vb:
            out.append(f"{key}: {va} -> {vb}")
    return out


def _one_value(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def division_rows(
    rows: Sequence[Mapping[str, Any]], hyper: Mapping[int, Mapping[str, Any]]
) -> list[dict[str, Any]]:
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
        diffs = (
            hyperparameter_differences(hyper.get(c["id"], {}), hyper.get(o["id"], {})) if c else []
        )
        out.append(
            {
                "round": o["round"],
                "submitter": o["submitter"],
                "benchmark": o["benchmark"],
                "system_name": o["system_name"],
                "accelerator_model": o["accelerator_model"],
                "accelerators": o["accelerators"],
                "closed_id": c["id"] if c else None,
                "closed_system": c["system"] if c else "",
                "closed_score_minutes": c["score_minutes"] if c else None,
                "open_id": o["id"],
                "open_system": o["system"],
                "closed_url": c["url"] if c else "",
                "open_url": o["url"],
                "open_score_minutes": o["score_minutes"],
                "open_speedup": ratio,
                "differences": "; ".join(diffs),
            }
        )
    return out


def software_rows(
    rows: Sequence[Mapping[str, Any]], software_stacks: Mapping[int, str]
) -> list[dict[str, Any]]:
    """Rows of ``benchdb.result_table/1`` (scored or not) -> ``benchdb.software/1``.

    A line is one submitter, accelerator model, accelerator count and framework family
    over rounds: a line never joins hardware generations (GC200, then Bow IPU), so its
    ``progress`` (the line's score in its earliest round over this score) is software's;
    ``relative_to_fastest`` this score over the fastest of its round and size
    (PaddlePaddle against PopART on the same Bow-Pod16).
    ``software_stacks``: result id -> the system's software stack (for the SDK).
    Rows come out ordered by accelerator count, framework family, submitter, accelerator
    model, round.
    """
    out = []
    for r in rows:
        family = framework_family(r["framework"])
        row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.software/1")}
        row["framework_family"] = family
        row["sdk"] = sdk_version(r["framework"], software_stacks.get(r["id"], ""))
        row["line"] = f"{r['submitter']} {r['accelerator_model']} {r['accelerators']}× {family}"
        out.append(row)
    out.sort(
        key=lambda x: (
            x["accelerators"] or 0,
            x["framework_family"],
            x["submitter"],
            x["accelerator_model"],
            round_key(x["round"]),
            x["score_minutes"] or float("inf"),
        )
    )
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
        row["relative_to_fastest"] = (
            score / fastest[(row["round"], row["accelerators"])] if score else None
        )
    return out


def scaling_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Scored rows of ``benchdb.result_table/1`` -> ``benchdb.scaling/1``.

    One series per round and framework family; its reference is its smallest
    system (fewest accelerators; the best score among those). Efficiency
    E(N) = (T_ref x N_ref) / (T_N x N) (``benchdb.mlperf.training.rules.scaling_efficiency``),
    ideal time T_ref x N_ref / N. Rows without a score or accelerator count are
    left out. Ordered by round, family, N, score.
    """
    usable = [r for r in rows if r["score_minutes"] and r["accelerators"]]
    series: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in usable:
        series.setdefault((r["round"], framework_family(r["framework"])), []).append(r)
    out = []
    for (_round, family), members in sorted(
        series.items(), key=lambda kv: (round_key(kv[0][0]), kv[0][1])
    ):
        members = sorted(members, key=lambda r: (r["accelerators"], r["score_minutes"]))
        ref = members[0]
        t_ref, n_ref = ref["score_minutes"], ref["accelerators"]
        for r in members:
            t, n = r["score_minutes"], r["accelerators"]
            row: dict[str, Any] = {c: r.get(c) for c in columns("benchdb.scaling/1")}
            row |= {
                "framework_family": family,
                "accelerator_minutes": t * n,
                "reference_system": ref["system"],
                "reference_accelerators": n_ref,
                "reference_minutes": t_ref,
                "ideal_minutes": t_ref * n_ref / n,
                "speedup": t_ref / t,
                "efficiency": scaling_efficiency(t_ref, n_ref, t, n),
            }
            out.append(row)
    return out


def matching_choices(
    choices: Sequence[Mapping[str, Any]], wanted: Mapping[str, Any]
) -> list[Mapping[str, Any]]:
    """The ``choices`` (rows of ``software_choices`` / ``scaling_choices``) that agree
    with every value already chosen in ``wanted`` (key -> a value, or a list of values
    any of which may match); empty values and keys a choice lacks are not filters."""
    out = []
    for c in choices:
        ok = True
        for key, value in wanted.items():
            if key not in c or value in ("", None, []):
                continue
            ok = ok and (c[key] in value if isinstance(value, list) else c[key] == value)
        if ok:
            out.append(c)
    return out


def missing_choices(wanted: Mapping[str, Any], required: Sequence[str]) -> list[str]:
    """The names in ``required`` that ``wanted`` has no value for, in that order."""
    return [k for k in required if wanted.get(k) in ("", None, [])]
