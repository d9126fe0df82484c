"""A loaded training result's energy to train: its power logs -> per-run and result joules.

No Django: ``ingest.training.service`` stores what :func:`result_energy` returns. The rules are
``benchdb.mlperf.training.energy`` (each citing ``result_summarizer.py`` at the round's
version); this module groups a folder's power logs by run (``power/<run name>/``, as
``_compute_total_power`` globs them) and turns every refusal into a :class:`Problem`
naming the file (and line). All or nothing per result: when any counted run has no
energy, the result has none.
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from benchdb.mlperf.training import energy as training_energy
from benchdb.mlperf.training.energy import Event
from benchdb.mlperf.training.scoring import Score
from ingest.parsers.types import LoadedResult, ParsedRun, Problem
from ingest.training.parsers.power import NODE_FILE, run_name


@dataclass(frozen=True)
class Energy:
    """``runs``: J per run (None: no energy, a failed run); ``joules``/``scope``: the
    result's energy to train and scope ("" when none); ``problems``: why not."""

    runs: tuple[float | None, ...]
    joules: float | None
    scope: str
    problems: tuple[Problem, ...]

    def fields(self) -> dict[str, Any]:
        """The Result columns: ``energy_joules`` (None unless finite) and ``energy_scope``."""
        ok = self.joules is not None and math.isfinite(self.joules)
        return {"energy_joules": self.joules if ok else None, "energy_scope": self.scope}


NONE = Energy((), None, "", ())


@dataclass(frozen=True)
class RunPower:
    """One run's energy (J, None when it has none), scope and the problems found."""

    joules: float | None
    scope: str
    problems: tuple[Problem, ...]


#: A run without power logs.
NO_RUN = RunPower(None, "", ())


def with_run_energies(item: LoadedResult, version: str | None) -> LoadedResult:
    """``item`` with each run's energy computed as :func:`result_energy` would for a
    run that did not fail, and its power events dropped (``power_runs`` instead of
    ``power_logs``). Called where the logs were parsed (a reader process), so that a
    round's ~1M power readings are neither pickled back to the writer nor summed
    there. ``version``: the round ("v4.0"); None, or a folder without power logs:
    ``item`` unchanged."""
    if version is None or not item.dir.has_power or not item.power_logs:
        return item
    by_run, broken = _grouped(item)
    runs = tuple((r.path, _one_run(r, by_run, broken, version)) for r in item.runs)
    return replace(item, power_logs=(), power_runs=runs)


def result_energy(
    item: LoadedResult,
    runs: Sequence[ParsedRun],
    failed: Sequence[bool],
    score: Score,
    version: str,
) -> Energy:
    """The energy of each run that did not fail (``failed[i]``) and of the result.

    Only for a folder with ``power/`` (``item.dir.has_power``); else :data:`NONE`.
    The result has an energy only when it has a time score and each counted run has one.
    Each run's energy is computed once, by :func:`with_run_energies` (in the reader that
    parsed the logs; here only for an item that did not pass there): this sums them.
    """
    if not item.dir.has_power:
        return NONE
    if item.power_logs:
        item = with_run_energies(item, version)
    ready = dict(item.power_runs)
    problems: list[Problem] = []
    energies: list[float | None] = []
    scopes: dict[int, str] = {}
    for i, run in enumerate(runs):
        if failed[i]:
            energies.append(None)
            continue
        power = ready.get(run.path, NO_RUN)
        problems += power.problems
        energies.append(power.joules)
        if power.joules is not None:
            scopes[i] = power.scope
    counted = score.counted if score.score_minutes is not None else ()
    total = training_energy.result_energy_j(energies, counted, score.scaling_factor)
    if total is None and counted:
        missing = [runs[i].path for i in counted if energies[i] is None]
        why = f"no energy to train: no energy for counted run(s) {', '.join(missing)}"
        problems.append(Problem(item.dir.path, None, why))
    scope = (
        training_energy.SCOPE_SWITCH
        if any(scopes.get(i) == training_energy.SCOPE_SWITCH for i in counted)
        else training_energy.SCOPE_NODE
    )
    return Energy(tuple(energies), total, scope if total is not None else "", tuple(problems))


def _grouped(
    item: LoadedResult,
) -> tuple[dict[str, list[tuple[str, Sequence[Event]]]], set[str]]:
    """The power logs by run name (``power/<run>/``), and the runs with a log that
    did not parse."""
    by_run: dict[str, list[tuple[str, Sequence[Event]]]] = {}
    for rel, events in item.power_logs:
        by_run.setdefault(posixpath.basename(posixpath.dirname(rel)), []).append((rel, events))
    broken = {posixpath.basename(posixpath.dirname(rel)) for rel in item.power_failed}
    return by_run, broken


def _one_run(
    run: ParsedRun,
    by_run: dict[str, list[tuple[str, Sequence[Event]]]],
    broken: set[str],
    version: str,
) -> RunPower:
    """One run's energy from its power logs (none without a start and stop, or with a
    log that did not parse), with the warnings of its switch files."""
    name = run_name(run.path)
    if run.run_start_ms is None or run.run_stop_ms is None or name in broken:
        return RunPower(None, "", ())
    logs = by_run.get(name, [])
    nodes = [(p, e) for p, e in logs if NODE_FILE.match(posixpath.basename(p))]
    switches = [(p, e) for p, e in logs if not NODE_FILE.match(posixpath.basename(p))]
    problems: list[Problem] = []
    for path, sw_events in switches:
        if not training_energy.switch_estimated(sw_events):
            why = "switch log without interconnect_power_est: counted as 0 J, as the summarizer"
            problems.append(Problem(path, None, why, "warning"))
    joules, scope = _run_energy(run, name, nodes, switches, version, problems)
    return RunPower(joules, scope, tuple(problems))


def _noted(notes: dict[str, training_energy.Notes]) -> list[Problem]:
    """One warning a file: its first note, and how many more."""
    out = []
    for path, found in notes.items():
        if found:
            line, message = found[0]
            more = f" (and {len(found) - 1} more such lines)" if len(found) > 1 else ""
            out.append(Problem(path, line, message + more, "warning"))
    return out


def _run_energy(
    run: ParsedRun,
    name: str,
    nodes: list[tuple[str, Sequence[Event]]],
    switches: list[tuple[str, Sequence[Event]]],
    version: str,
    problems: list[Problem],
) -> tuple[float | None, str]:
    """One run's (energy J, scope), or (None, "") with the refusal in ``problems``."""
    notes: dict[str, training_energy.Notes] = {}
    ttt_ms = run.run_stop_ms - run.run_start_ms  # type: ignore[operator]
    try:
        joules, scope = training_energy.run_energy_j(
            nodes,
            switches,
            ttt_ms,
            version,
            notes,
        )
    except training_energy.EnergyError as exc:
        where = exc.path or f"{posixpath.dirname(run.path)}/power/{name}/"
        problems.append(Problem(where, exc.line, f"no energy for {run.path}: {exc.reason}"))
        return None, ""
    problems += _noted(notes)
    return joules, scope
