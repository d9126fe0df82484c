"""The rows of one MLPerf Training or HPC result folder: each parsed run's ``Run`` row,
the runs' roles in the olympic mean, HPC's strong and weak scores and the Result
columns of a weak-scaling result (split from ``ingest.training.service``). Django models are
built here, never saved.
"""

from __future__ import annotations

import math
import posixpath
from dataclasses import replace
from typing import Any

from benchdb.mlperf.hpc import rules as hpc_rules
from benchdb.mlperf.training import compliance as compliance_rules
from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training import scoring as training_scoring
from benchdb.models import Result, Run
from ingest.parsers import safe_tree
from ingest.parsers.types import LoadedResult, ParsedRun
from ingest.store import PATH_WIDTH, finite


def scaling_factor(item: LoadedResult, applies: bool) -> float:
    """The ``scaling.json`` factor when the round applies one, else 1.0; a
    scaling.json that gives no factor is NaN (the result is left without a score)."""
    if not (applies and item.dir.scaling_file):
        return 1.0
    return item.scaling_factor if item.scaling_factor is not None else math.nan


def set_roles(
    rows: list[tuple[Run, ParsedRun]],
    minutes: list[float | None],
    score: training_scoring.Score,
    unused: tuple[int, ...] = (),
) -> None:
    """Each run's role in the olympic mean (failed, counted, dropped, unused)."""
    roles = {i: Run.Role.UNUSED for i in unused}
    roles |= {i: Run.Role.COUNTED for i in score.counted}
    roles |= {i: Run.Role.DROPPED_FASTEST for i in score.dropped_fastest}
    roles |= {i: Run.Role.DROPPED_SLOWEST for i in score.dropped_slowest}
    for i, (row, _) in enumerate(rows):
        row.role = Run.Role.FAILED if minutes[i] is None else roles.get(i, Run.Role.DROPPED_SLOWEST)


def hpc_score(
    item: LoadedResult, rules: hpc_rules.HpcRuleset, bench: str
) -> tuple[list[tuple[Run, ParsedRun]], training_scoring.Score, hpc_rules.WeakScore | None]:
    """An MLPerf HPC folder's runs and score: strong scaling as training (olympic
    mean); weak scaling as ``hpc_rules.weak_score`` (runs that pass are counted)."""
    rows: list[tuple[Run, ParsedRun]] = []
    minutes: list[float | None] = []
    spans: list[tuple[float, float, int | None] | None] = []
    for i, p in enumerate(item.runs):
        why = hpc_rules.run_failure(p, rules, bench)
        ttt = None
        if p.run_start_ms is not None and p.run_stop_ms is not None:
            ttt = finite(training_rules.time_to_train(p.run_start_ms, p.run_stop_ms))
        minutes.append(None if why else ttt)
        ok = not why and p.run_start_ms is not None and p.run_stop_ms is not None
        scale = hpc_rules.instance_scale(p.hyperparameters)
        spans.append((p.run_start_ms, p.run_stop_ms, scale) if ok else None)  # type: ignore[arg-type]
        rows.append((run_row(i, p, ttt, why, []), p))
    factor = scaling_factor(item, rules.applies_scaling)
    score, _ = training_scoring.score_result(minutes, rules.training_view(), bench, factor)
    if item.dir.scaling_type != "weak":
        set_roles(rows, minutes, score, ())
        return rows, score, None
    weak = hpc_rules.weak_score(spans, rules, bench)
    for i, (row, _) in enumerate(rows):
        row.role = Run.Role.FAILED if spans[i] is None else Run.Role.COUNTED
    none = training_scoring.Score.none(weak.reason, weak.failed, 1.0)
    return rows, none, weak


def weak_fields(scaling_type: str, weak: hpc_rules.WeakScore | None) -> dict[str, Any]:
    """The Result columns of MLPerf HPC (all empty for training and strong scaling).
    A weak-scaling result is ``scored`` when it has its time to train all."""
    out: dict[str, Any] = {
        "scaling_type": scaling_type,
        "models_count": None,
        "instance_scale": None,
        "time_to_train_all_minutes": None,
        "throughput_models_per_minute": None,
    }
    if weak is not None:
        out |= {
            "models_count": weak.models,
            "instance_scale": weak.instance_scale,
            "time_to_train_all_minutes": finite(weak.time_to_train_all_minutes),
            "throughput_models_per_minute": finite(weak.throughput_models_per_minute),
            "runs_counted": len(weak.counted),
            "runs_failed": len(weak.failed),
            "reason": weak.reason,
            "status": Result.Status.SCORED if not weak.reason else Result.Status.UNSCORED,
        }
    return out


def run_row(i: int, p: ParsedRun, ttt: float | None, why: str | None, warnings: list[str]) -> Run:
    """The Run row of one parsed log: names shortened to their columns' widths (with a
    hash, so that they stay unique), no NaN or Infinity in a float column."""
    evals = p.evals or p.eval_errors  # MLPerf HPC cosmoflow and oc20 log eval_error
    before_stop = [e for e in evals if p.run_stop_line is None or e.line <= p.run_stop_line]
    gbs = finite(p.hyperparameters.get("global_batch_size"))
    if ttt is not None and training_rules.time_error(0.0, ttt * 60_000.0):
        ttt = None  # an impossible time (negative, 30 days and over): the run fails, unstored
    return Run(
        index=i,
        file_name=safe_tree.shorten(posixpath.basename(p.path), FILE_NAME_WIDTH),
        path=safe_tree.shorten(p.path, PATH_WIDTH),
        sha256=p.sha256,
        size=p.size,
        log_format=p.log_format,
        run_start_ms=finite(p.run_start_ms),
        run_start_line=p.run_start_line,
        run_stop_ms=finite(p.run_stop_ms),
        run_stop_line=p.run_stop_line,
        run_stop_status=(p.run_stop_status or "")[:STATUS_WIDTH],
        time_to_train_minutes=ttt,
        failure_reason=why or "",
        warnings=warnings,
        global_batch_size=int(gbs) if gbs is not None and abs(gbs) < 2**62 else None,
        converge_at=before_stop[-1].at if before_stop else None,
        converge_unit=p.eval_unit if before_stop else "",
        hyperparameters=p.hyperparameters,
        eval_curve=[[e.at, e.value, finite(e.time_ms), e.line] for e in evals],
        compliance=compliance_rules.findings_json(p.compliance),
        compliance_ruleset=p.compliance_ruleset,
    )


#: ``Run.file_name`` and ``Run.run_stop_status`` widths.
FILE_NAME_WIDTH = 200
STATUS_WIDTH = 32


def refused_runs_score(
    item: LoadedResult,
    runs: list[tuple[Run, ParsedRun]],
    score: training_scoring.Score,
    weak: hpc_rules.WeakScore | None,
) -> tuple[list[tuple[Run, ParsedRun]], training_scoring.Score, hpc_rules.WeakScore | None]:
    """``(runs, score, weak)`` unchanged, unless the folder has run files that were
    refused (``ResultDir.refused_runs``: a symbolic link, a FIFO): then no score (nor
    time to train all) with the reason naming them, and no run counted (the others are
    ``dropped_slowest``, as in any result without a score); scored from the others,
    the result would silently have fewer runs."""
    names = item.dir.refused_runs
    if not names:
        return runs, score, weak
    listed = ", ".join(posixpath.basename(n) for n in names)
    why = f"run file(s) refused, not read: {listed} (the result would have fewer runs)"
    failed = tuple(i for i, (row, _) in enumerate(runs) if row.role == Run.Role.FAILED)
    for row, _ in runs:
        row.role = Run.Role.FAILED if row.role == Run.Role.FAILED else Run.Role.DROPPED_SLOWEST
    none = training_scoring.Score.none(why, failed, score.scaling_factor)
    if weak is not None:
        weak = replace(weak, time_to_train_all_minutes=None, throughput_models_per_minute=None)
        weak = replace(weak, reason=why)
    return runs, none, weak
