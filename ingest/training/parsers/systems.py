"""Readers for the small JSON files of MLPerf Training results: ``systems/<system>.json``,
v0.5 ``entry.json`` and ``scaling.json``. Pure: bytes in, dataclasses out; no Django.

Every file goes through :func:`ingest.parsers.safe_json.loads` (depth-bounded) and its
values through :func:`~ingest.parsers.safe_json.storable` (no NUL, NaN or 300-digit
integer reaches the database); a bad value is a warning on the file and the rest is
kept.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from benchdb.mlperf.training.rules import scaling_factor_error
from benchdb.vocabulary import availability_of
from ingest.parsers import safe_json
from ingest.parsers.types import MAX_COUNT, ParsedSystem, ParseError, Problem

#: Longest submitter name and division kept (the database columns' widths).
MAX_SUBMITTER = 200
MAX_DIVISION = 16

Hook = Callable[[list[tuple[str, Any]]], dict[str, Any]]


def _pairs_no_duplicates(path: str, text: str) -> tuple[Hook, list[Problem]]:
    """object_pairs_hook that records duplicate keys instead of losing them silently."""
    dups: list[Problem] = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                same = "same value" if out[k] == v else f"was {out[k]!r}, now {v!r}"
                dups.append(
                    Problem(
                        path,
                        _line_of(text, f'"{k}"', 2),
                        safe_json.cut(f"duplicate key {k!r} ({same}); the last one is kept")[0],
                        "warning",
                    )
                )
            out[k] = v
        return out

    return hook, dups


def _line_of(text: str, needle: str, nth: int = 1) -> int | None:
    pos = -1
    for _ in range(nth):
        pos = text.find(needle, pos + 1)
        if pos < 0:
            return None
    return text.count("\n", 0, pos) + 1


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


def _json_object(text: str, path: str, hook: Hook | None = None) -> dict[str, Any]:
    """The file's JSON object. Raises ParseError (with the line when the decoder
    gives one) if it is not JSON, nests too deep, or is not an object."""
    try:
        raw = safe_json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    except ValueError as exc:  # TooDeep, or an integer of over 4,300 digits
        raise ParseError(f"not read: {exc}", path=path, line=1) from exc
    if not isinstance(raw, dict):
        raise ParseError("not a JSON object", path=path, line=1)
    return raw


def _storable_object(raw: dict[str, Any], path: str, problems: list[Problem]) -> dict[str, Any]:
    clean, note = safe_json.storable(raw)
    if note:
        problems.append(Problem(path, None, f"values changed to be stored: {note}", "warning"))
    return clean  # type: ignore[no-any-return]


def _int(
    raw: dict[str, Any], key: str, path: str, text: str, problems: list[Problem]
) -> int | None:
    """A count in [0, MAX_COUNT) (benchdb sanity bound), else None and a warning."""
    v = raw.get(key)
    if v in (None, ""):
        return None
    try:
        n = int(float(str(v).strip()))
    except (ValueError, OverflowError):
        why = "is not a number"
    else:
        if 0 <= n < MAX_COUNT:
            return n
        why = f"is outside [0, {MAX_COUNT:.0e}) (benchdb sanity bound): not kept"
    shown = safe_json.cut(repr(v), 80)[0]
    problems.append(Problem(path, _line_of(text, f'"{key}"'), f"{key} {why}: {shown}", "warning"))
    return None


def _text(
    raw: dict[str, Any], key: str, limit: int, path: str, text: str, problems: list[Problem]
) -> str:
    value = str(raw.get(key, "")).strip()
    if len(value) <= limit:
        return value
    problems.append(
        Problem(
            path,
            _line_of(text, f'"{key}"'),
            f"{key} has {len(value):,} characters, over {limit}: not kept",
            "warning",
        )
    )
    return ""


def parse_systems_json(data: bytes, path: str = "") -> ParsedSystem:
    """Parse ``<Submitter>/systems/<system>.json`` (v0.6 onwards).

    Raises :class:`ParseError` (with the line of the fault) if the file is not a JSON
    object or nests deeper than ``safe_json.MAX_DEPTH``. Duplicate keys are kept
    (last wins, as ``json.load`` does) and reported as warnings in ``problems``, as
    are counts out of range, over-long names and values changed to be stored.
    """
    text = _decode(data)
    hook, dups = _pairs_no_duplicates(path, text)
    problems = dups
    try:
        obj = _json_object(text, path, hook)
    except ParseError:
        entry = _key_value_entry(text, path)
        if entry is None:
            raise
        note = "not JSON but mlperf_log_utils 'key: {\"value\": ...}' lines (v0.6): read as such"
        problems.append(Problem(path, 1, note, "warning"))
        return _entry_system(_storable_object(entry, path, problems), path, problems)
    raw = _storable_object(obj, path, problems)
    availability = availability_of(raw.get("status", ""))
    if not availability:
        status = safe_json.cut(repr(raw.get("status")), 80)[0]
        problems.append(
            Problem(
                path, _line_of(text, '"status"'), f"unknown availability status {status}", "warning"
            )
        )
    stack = " ".join(
        str(raw.get(k, "")).strip()
        for k in ("other_software_stack", "operating_system")
        if raw.get(k)
    )
    system = ParsedSystem(
        path=path,
        raw=raw,
        division=_text(raw, "division", MAX_DIVISION, path, text, problems).lower(),
        availability=availability,
        system_name=str(raw.get("system_name", "")).strip(),
        submitter=_text(raw, "submitter", MAX_SUBMITTER, path, text, problems),
        number_of_nodes=_int(raw, "number_of_nodes", path, text, problems),
        host_processor_model=str(raw.get("host_processor_model_name", "")).strip(),
        host_processors_per_node=_int(raw, "host_processors_per_node", path, text, problems),
        accelerator_model=str(raw.get("accelerator_model_name", "")).strip(),
        accelerators_per_node=_int(raw, "accelerators_per_node", path, text, problems),
        framework=str(raw.get("framework", "")).strip(),
        software_stack=stack,
    )
    _check_total(system, problems)
    return _with_problems(system, problems)


def _check_total(system: ParsedSystem, problems: list[Problem]) -> None:
    nodes, per_node = system.number_of_nodes, system.accelerators_per_node
    if nodes is not None and per_node is not None and system.accelerators is None:
        problems.append(
            Problem(
                system.path,
                None,
                f"{nodes} nodes x {per_node} accelerators is not below {MAX_COUNT:.0e} "
                "(benchdb sanity bound): total not kept",
                "warning",
            )
        )


def _with_problems(system: ParsedSystem, problems: list[Problem]) -> ParsedSystem:
    return replace(system, problems=tuple(problems))


def _count(v: Any) -> int | None:
    """A count from a systems file (``"16"``, ``16``, ``16.0``); None if it is not one
    in [0, MAX_COUNT)."""
    try:
        n = int(float(str(v).strip()))
    except (ValueError, OverflowError):
        return None
    return n if 0 <= n < MAX_COUNT else None


def parse_entry_json(data: bytes, path: str = "") -> ParsedSystem:
    """Parse a v0.5 ``results/<system>/entry.json`` (nodes listed under ``nodes``).

    Raises :class:`ParseError` if it is not a JSON object (or nests too deep).
    """
    problems: list[Problem] = []
    raw = _storable_object(_json_object(_decode(data), path), path, problems)
    return _entry_system(raw, path, problems)


def _entry_system(raw: dict[str, Any], path: str, problems: list[Problem]) -> ParsedSystem:
    """A system from an ``entry``-shaped object: v0.5 ``entry.json``, or the ``entry`` of
    a v0.6 key-value systems file (:func:`_key_value_entry`)."""
    nodes_list = raw.get("nodes", [])
    nodes = [n for n in nodes_list if isinstance(n, dict)] if isinstance(nodes_list, list) else []
    n_nodes = sum(_count(n.get("num_nodes", 1)) or 1 for n in nodes) or None
    if n_nodes is not None and n_nodes >= MAX_COUNT:
        n_nodes = None
    accel = next(
        (str(n.get("accelerator")) for n in nodes if n.get("accelerator") not in (None, "NA")), ""
    )
    per_node = _count(nodes[0].get("num_accelerators", 0)) if nodes else None
    division = str(raw.get("division", "")).lower()
    availability = availability_of(raw.get("status", ""))
    if not availability:
        status = safe_json.cut(repr(raw.get("status")), 80)[0]
        problems.append(Problem(path, None, f"unknown availability status {status}", "warning"))
    system = ParsedSystem(
        path=path,
        raw=raw,
        division=division if len(division) <= MAX_DIVISION else "",
        availability=availability,
        system_name=str(raw.get("hardware", "")),
        submitter=str(raw.get("submitter", ""))[:MAX_SUBMITTER],
        number_of_nodes=n_nodes,
        host_processor_model=str(nodes[0].get("cpu", "")) if nodes else "",
        host_processors_per_node=None,
        accelerator_model=accel,
        accelerators_per_node=per_node,
        framework=str(raw.get("framework", "")),
        software_stack=str(raw.get("libraries", "")),
    )
    _check_total(system, problems)
    return _with_problems(system, problems)


#: A line of mlperf_log_utils output: ``status: {"value": "onprem", "metadata": {...}}``.
_KEY_VALUE_LINE = re.compile(r"([A-Za-z_]\w{0,63}): (\{.*\})")


def _key_value_entry(text: str, path: str) -> dict[str, Any] | None:
    """v0.6 NVIDIA ``systems/*.json`` files are not JSON but mlperf_log_utils output, one
    ``key: {"value": ...}`` line per field (``org``, ``division``, ``status``, ``platform``,
    ``entry``: a Python-literal dict as v0.5's ``entry.json``, its ``nodes`` another).
    Returns an ``entry``-shaped object (``submitter`` from ``org``), or None when ``text``
    is not in that form (any other line, a value that is not such an object)."""
    values: dict[str, Any] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _KEY_VALUE_LINE.fullmatch(line.strip())
        try:
            v = safe_json.loads(m.group(2)) if m else None
        except ValueError:
            return None
        if not isinstance(v, dict) or "value" not in v or not m:
            return None
        values[m.group(1)] = v["value"]
    if not values:
        return None
    entry = _literal_dict(values.get("entry"))
    nodes = _literal_dict(entry.get("nodes"))
    return {
        **{k: v for k, v in entry.items() if isinstance(v, str | int | float)},
        "submitter": values.get("org", ""),
        "division": values.get("division", entry.get("division", "")),
        "status": values.get("status", ""),
        "hardware": values.get("platform") or entry.get("hardware", ""),
        "nodes": [nodes] if nodes else [],
    }


def _literal_dict(value: Any) -> dict[str, Any]:
    """A Python-literal dict written as a string (v0.6 ``entry``), else ``{}``: read with
    ``ast.literal_eval`` (literals only, never code), bounded by the 1 MiB file limit."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or len(value) > 100_000:
        return {}
    try:
        out = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return {}
    return out if isinstance(out, dict) else {}


def parse_scaling_json(data: bytes, path: str = "") -> float:
    """``scaling.json`` -> its ``scaling_factor`` (dimensionless).

    Raises :class:`ParseError` if the file is not JSON (or nests too deep), has no
    ``scaling_factor``, or the factor is not a finite number in [0.01, 10]
    (``benchdb.mlperf.training.rules.scaling_factor_error``).
    Source: ``result_summarizer._get_scaling_factor`` (mlperf_logging 2.0.0), which
    reads ``json.load(f)['scaling_factor']``.
    """
    try:
        factor = float(_json_object(_decode(data), path)["scaling_factor"])
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        if isinstance(exc, ParseError):
            raise
        why = f"{type(exc).__name__}: {exc}"
        raise ParseError(f"no usable scaling_factor: {why}", path=path, line=1) from exc
    error = scaling_factor_error(factor)
    if error:
        raise ParseError(error, path=path, line=1)
    return factor
