"""MLPerf Training energy to train (v4.0 on): per run and per result, in joules.

Pure. A power result's benchmark folder has ``power/result_<name>/node_*.txt`` (one
per node: ``power_measurement_start``, ``power_reading`` in W, ``power_measurement_stop``,
optionally ``conversion_eff``) and ``sw_*.txt`` (one per switch:
``interconnect_power_est`` in W), as ``mlperf_logging.result_summarizer``
``_compute_total_power`` globs them. A run's energy is the sum over its node files of
:func:`node_energy_j` and over its switch files of :func:`switch_energy_j`; a result's
is :func:`result_energy_j`. Each rule follows ``result_summarizer.py`` at the round's
summarizer version (:data:`SUMMARIZER`); where that code would divide by zero, read a
reading logged before the measurement starts, or take a negative or non-finite power,
:class:`EnergyError` is raised instead (names the file and line).

Units: power readings are watts, times milliseconds; ``agg_power`` (W x ms) divided by
the measurement window (ms) is the mean power in W, times the run's time to train (ms)
/ 1000 gives joules, as the summarizer's "convert ms to s" does.

Events are ``(line, key, time_ms, value)`` tuples in file order (``line`` 1-based);
only the keys in :data:`POWER_KEYS` matter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Event = tuple[int, str, float, Any]

START = "power_measurement_start"
STOP = "power_measurement_stop"
READING = "power_reading"
CONVERSION = "conversion_eff"
SWITCH = "interconnect_power_est"
POWER_KEYS = frozenset({START, STOP, READING, CONVERSION, SWITCH})

#: Which ``_compute_power_node`` a round's results were scored with (mlcommons/logging):
#: "v4.0": commit a9f4839 (2024-05-30, "Add missing declaration of conversion_eff", after
#: tag 4.0.0-rc3-rcp-prunning, whose ``_compute_power_sw`` fails with UnboundLocalError
#: on switch logs without ``conversion_eff``, as every v4.0 sw_*.txt is): file order,
#: stop at the first ``power_measurement_stop``, window end = max(stop, last reading).
#: "v4.1": tag 4.1.0-rc4 (commit c401ff0 "Compute power only in start - stop window"), the
#: same in 5.0.0-rc3 and 5.1.0-rc4: events sorted by time, readings counted only between
#: start and stop, a missing stop is the last reading; 6.0.0-rc6's ``_has_power`` ...
#: ``_compute_power_sw`` are 5.1.0-rc4's, line for line.
SUMMARIZER = {
    "v4.0": "a9f4839",
    "v4.1": "4.1.0-rc4",
    "v5.0": "5.0.0-rc3",
    "v5.1": "5.1.0-rc4",
    "v6.0": "6.0.0-rc6",
}

#: Measurement scopes: node power only, or nodes and the interconnect's switches.
SCOPE_NODE = "node"
SCOPE_SWITCH = "node+switch"


class EnergyError(ValueError):
    """An energy that cannot be computed: ``path`` and ``line`` (1-based, or None)
    say where, ``reason`` why."""

    def __init__(self, reason: str, path: str = "", line: int | None = None) -> None:
        self.reason, self.path, self.line = reason, path, line
        super().__init__(f"{path}{'' if line is None else f':{line}'}: {reason}")


#: Notes on odd values the summarizer counts as they are: (line, message), appended to.
Notes = list[tuple[int, str]]


def _power(value: Any, path: str, line: int, what: str, notes: Notes | None = None) -> float:
    """``value`` as a finite number (W, or a conversion efficiency), > 0 for an
    efficiency, >= 0 otherwise, except that with ``notes`` a negative power reading
    is kept (the summarizer adds it: v4.0 SMC logs have -9 W and -32 W) and noted."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EnergyError(f"{what} {value!r} is not a number", path, line)
    try:
        v = float(value)
    except OverflowError:  # an integer of 309 digits or more
        why = f"{what} is not a finite number (beyond the float range)"
        raise EnergyError(why, path, line) from None
    if not math.isfinite(v):
        raise EnergyError(f"{what} {value!r} is not a finite number", path, line)
    if v <= 0 and what == CONVERSION or v < 0 and notes is None:
        raise EnergyError(
            f"{what} {value!r} is impossible (<{'=' if v == 0 else ''} 0)", path, line
        )
    if v < 0 and notes is not None:
        notes.append((line, f"negative {what} {value!r} W, counted as the summarizer does"))
    return v


def node_energy_j(
    events: Sequence[Event], ttt_ms: float, version: str, path: str = "", notes: Notes | None = None
) -> float:
    """One node file's energy over a run (J): mean power in the measurement window x
    time to train. ``version``: the round ("v4.0" ...). Source: ``result_summarizer.py``
    ``_compute_power_node`` at :data:`SUMMARIZER` [version]. Negative readings and
    (v4.0, file order) readings earlier than the one before are counted as the
    summarizer counts them and noted in ``notes``. Raises EnergyError: no start, a
    window <= 0 ms, a value that is not a finite number, an energy that is not > 0
    (benchdb sanity bound)."""
    notes = [] if notes is None else notes
    if version == "v4.0":
        agg, start, stop, eff = _node_v40(events, path, notes)
    else:
        agg, start, stop, eff = _node_v41(events, path, notes)
    if stop - start <= 0:
        raise EnergyError(f"power measurement window of {stop - start} ms", path)
    joules = eff * agg * ttt_ms / (stop - start) / 1000
    if not math.isfinite(joules) or joules <= 0:
        # benchdb sanity bound: a node that ran a run drew power (0 J: readings of 0 W)
        raise EnergyError(f"energy {joules} J: not a finite number > 0", path)
    return joules


def _node_v40(
    events: Sequence[Event], path: str, notes: Notes
) -> tuple[float, float, float, float]:
    """a9f4839: file order; ``break`` at the first stop; stop = max(stop, last reading)."""
    prev = last = start = stop = agg = 0.0
    eff, started = 1.0, False
    for line, key, t, value in events:
        if key == START:
            start = prev = t
            started = True
        if key == READING:
            if not started:  # the summarizer would multiply by (t - 0)
                raise EnergyError("power_reading before power_measurement_start", path, line)
            if t < prev:
                notes.append((line, f"power_reading at {t} ms, before the previous ({prev} ms)"))
            agg += _power(value, path, line, READING, notes) * (t - prev)
            prev = t
            last = max(last, t)
        if key == STOP:
            stop = t
            break
        if key == CONVERSION:
            eff = _power(value, path, line, CONVERSION)
    if not started:
        raise EnergyError("no power_measurement_start", path)
    return agg, start, max(stop, last), eff


def _node_v41(
    events: Sequence[Event], path: str, notes: Notes
) -> tuple[float, float, float, float]:
    """4.1.0-rc4 on: sorted by time (stable); readings between start and stop."""
    prev = last = start = stop = agg = 0.0
    eff, started, stopped = 1.0, False, False
    for line, key, t, value in sorted(events, key=lambda e: e[2]):
        if key == START:
            start = prev = t
            started = True
        if key == READING and started and not stopped:
            agg += _power(value, path, line, READING, notes) * (t - prev)
            prev = t
            last = max(last, t)
        if key == STOP:
            stop, stopped = t, True
        if key == CONVERSION:
            eff = _power(value, path, line, CONVERSION)
    if not started:  # the summarizer: ValueError("Power start timestamp not found")
        raise EnergyError("no power_measurement_start", path)
    return agg, start, stop if stopped else last, eff


def switch_energy_j(events: Sequence[Event], ttt_ms: float, path: str = "") -> float:
    """One switch file's energy over a run (J): the first ``interconnect_power_est``
    (W; 0 if none) x ``conversion_eff`` logged before it (default 1.0) x time to
    train. Source: ``result_summarizer.py`` ``_compute_power_sw`` (a9f4839 to 5.1.0-rc4)."""
    agg, eff = 0.0, 1.0
    for line, key, _t, value in events:
        if key == CONVERSION:
            eff = _power(value, path, line, CONVERSION)
        if key == SWITCH:
            agg = _power(value, path, line, SWITCH)
            break
    return eff * agg * ttt_ms / 1000


def run_energy_j(
    nodes: Sequence[tuple[str, Sequence[Event]]],
    switches: Sequence[tuple[str, Sequence[Event]]],
    ttt_ms: float,
    version: str,
    notes: dict[str, Notes] | None = None,
) -> tuple[float, str]:
    """(a run's energy in J, its scope): the sum over ``nodes`` then ``switches``
    (``(path, events)`` each), as ``_compute_total_power`` adds them; ``notes`` gets
    each node file's notes by path. Raises EnergyError when there is no node file
    (the summarizer asserts one) or any file fails."""
    if not nodes:
        raise EnergyError("no power/<run>/node_*.txt file for this run")
    notes = {} if notes is None else notes
    total = 0.0
    for path, events in nodes:
        total += node_energy_j(events, ttt_ms, version, path, notes.setdefault(path, []))
    for path, events in switches:
        total += switch_energy_j(events, ttt_ms, path)
    if not math.isfinite(total):
        raise EnergyError(f"energy {total} J is not finite", nodes[0][0])
    estimated = any(switch_estimated(events) for _, events in switches)
    return total, SCOPE_SWITCH if estimated else SCOPE_NODE


def switch_estimated(events: Sequence[Event]) -> bool:
    """True if a switch file logs ``interconnect_power_est``; one that does not (v4.1
    Dell's ``sw_0.txt`` logs ``power_reading`` as a node file does) adds 0 J, as
    ``_compute_power_sw`` reads nothing else, and the run's scope stays "node"."""
    return any(key == SWITCH for _, key, _t, _v in events)


def result_energy_j(
    energies: Sequence[float | None], counted: Sequence[int], scaling_factor: float
) -> float | None:
    """A result's energy to train (J): the mean of the energies of the runs the time
    score counts, summed in the order of their times (``counted`` as
    ``scoring.olympic_mean`` gives it, fastest first), x ``scaling_factor``.
    None when a counted run has no energy or nothing is counted. Source:
    ``result_summarizer._index_olympic_average`` (power scores sorted by the runs'
    times, the same slice as ``_compute_olympic_average``) and its caller."""
    values = [energies[i] for i in counted]
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None) * 1.0 / len(values) * scaling_factor
