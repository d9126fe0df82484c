"""An MLPerf Automotive round -> judged result records, plain data for a store. Pure.

``read_round`` finds every result folder (``inference_tree.find_results``), reads it
(``parsers.read_folder``), judges it with the round's checker rules
(``benchdb.mlperf.automotive.checks.judge``), parses its system description
(``ingest/parsers/training_systems.parse_systems_json``, as every suite's systems) and
gives it its result ID: the published one of ``summary_results.json`` (matched by
``Location``), else the one ``generate_final_report.py`` would number
(``benchdb.mlperf.automotive.rules.result_ids``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from benchdb.mlperf.automotive.checks import Judgement, judge
from benchdb.mlperf.automotive.rules import (
    METRIC_LABELS,
    PUBLISHED_TABLE,
    IdKey,
    result_ids,
    round_for,
)
from benchdb.mlperf.inference.evidence import Finding
from ingest.automotive.parsers.tree import (
    MAX_TABLE_BYTES,
    AutomotiveFolder,
    PublishedRow,
    parse_summary_results,
    read_folder,
)
from ingest.inference.parsers.tree import Tree, find_results
from ingest.inference.parsers.types import StoredFile
from ingest.parsers.types import ParsedSystem, ParseError, Problem
from ingest.training.parsers.systems import parse_systems_json

ORIGIN_PUBLISHED = "summary_results.json"
ORIGIN_DERIVED = "derived (generate_final_report.py order)"


@dataclass(frozen=True)
class AutomotiveRecord:
    """One judged result, what a store writes.

    ``system`` is the folder name (the table's ``Platform``), ``model`` the MLPerf
    model (``Model``), ``model_folder`` the folder (``UsedModel``), ``scenario`` the
    checker's (``SingleStream``/``ConstantStream``), ``path`` the folder (``Location``).
    ``metric`` the detail-log key of the value, ``metric_label`` it in words;
    ``value`` in ``unit`` (``Latency (ms)``), read from the log even when the result is
    invalid (the checker then prints none; None when the log lacks it), ``direction``
    ``lower``; ``valid`` when the checker publishes it, else ``reasons`` say why
    (``path:line: message``); ``findings`` every rule failed, invalidating or logged only.
    ``accuracy`` metric -> text, ``accuracy_text`` the table's cell, ``accuracy_valid``
    every accuracy rule holds (an open result may be published without).
    ``result_id`` with ``result_id_origin`` (``summary_results.json`` or derived);
    ``published_value``/``published_accuracy`` the table's, None/"" when absent.
    ``system_description`` the parsed ``systems/<system>.json`` (None if unreadable),
    ``problems`` every parse problem (file and line), ``files`` every file read.
    """

    round: str
    division: str
    submitter: str
    system: str
    system_name: str
    availability: str
    model: str
    model_folder: str
    scenario: str
    path: str
    metric: str
    metric_label: str
    unit: str
    value: float | None
    direction: str
    valid: bool
    reasons: tuple[str, ...]
    findings: tuple[Finding, ...]
    accuracy: dict[str, str]
    accuracy_text: str
    accuracy_valid: bool | None
    weight_data_types: str
    result_id: str
    result_id_origin: str
    published_value: float | None
    published_accuracy: str
    system_description: ParsedSystem | None
    problems: tuple[Problem, ...]
    files: tuple[StoredFile, ...]


@dataclass(frozen=True)
class RoundRead:
    """Every record of a round (in folder order) and the round-level problems (an
    unreadable ``summary_results.json``, links met in the tree)."""

    version: str
    records: tuple[AutomotiveRecord, ...]
    problems: tuple[Problem, ...]


def published_rows(tree: Tree) -> tuple[dict[str, PublishedRow], list[Problem]]:
    """``summary_results.json`` by ``Location``; ({}, [problem]) when unreadable, ({}, [])
    when absent."""
    data = tree.read(PUBLISHED_TABLE, MAX_TABLE_BYTES)
    if data is None:
        return {}, []
    try:
        rows = parse_summary_results(data, PUBLISHED_TABLE)
    except ParseError as exc:
        return {}, [Problem(exc.path, exc.line, exc.reason)]
    return {r.location: r for r in rows}, []


def _system(folder: AutomotiveFolder) -> tuple[ParsedSystem | None, list[Problem]]:
    f = folder.result.folder
    path = f"{f.division}/{f.submitter}/systems/{f.system}.json"
    data = folder.system_bytes
    if not data:
        return None, []  # the judgement's system_json_missing says it
    try:
        system = parse_systems_json(data, path)
    except ParseError as exc:
        return None, [Problem(exc.path or path, exc.line, exc.reason)]
    return system, list(system.problems)


def _id_key(folder: AutomotiveFolder, j: Judgement) -> IdKey:
    f, s = folder.result.folder, folder.result.system_json
    status = str(s.get("status") or "").lower()
    return IdKey(f.division, status, f.submitter, str(s.get("system_type", "")), f.system, f.model)


def _record(
    version: str,
    folder: AutomotiveFolder,
    j: Judgement,
    rid: tuple[str, str],
    row: PublishedRow | None,
) -> AutomotiveRecord:
    f = folder.result.folder
    system, problems = _system(folder)
    return AutomotiveRecord(
        round=version,
        division=f.division,
        submitter=f.submitter,
        system=f.system,
        system_name=str(folder.result.system_json.get("system_name", "")),
        availability=str(folder.result.system_json.get("status", "")).lower(),
        model=j.benchmark,
        model_folder=f.model,
        scenario=j.scenario,
        path=f.path,
        metric=j.value.metric,
        metric_label=METRIC_LABELS.get(j.value.metric, j.value.metric),
        unit=j.value.unit,
        value=j.value.value,
        direction=j.direction,
        valid=j.status == "valid",
        reasons=tuple(j.reasons),
        findings=j.findings,
        accuracy=j.accuracy,
        accuracy_text=j.accuracy_text,
        accuracy_valid=j.accuracy_valid,
        weight_data_types=j.weight_data_types,
        result_id=rid[0],
        result_id_origin=rid[1],
        published_value=row.value if row else None,
        published_accuracy=row.accuracy if row else "",
        system_description=system,
        problems=folder.result.problems + tuple(problems),
        files=folder.result.files,
    )


def read_round(
    root: str | Path,
    version: str = "v0.5",
    *,
    keep: bool = False,
    extra_mapping: Mapping[str, str] | None = None,
) -> RoundRead:
    """Read and judge every result folder of an Automotive round's tree at ``root``.

    ``keep``: keep each file's bytes in ``files`` (a store compresses them).
    ``extra_mapping``: model folder -> model (``--extra-model-benchmark-map``). Raises
    KeyError for a ``version`` whose rules are not written; never for bad input (a bad
    log line is a problem and a reason of its result only).
    """
    rnd = round_for(version)
    tree = Tree(root, keep=keep)
    try:
        published, problems = published_rows(tree)
        read = [read_folder(tree, f) for f in find_results(tree)]
        problems += tree.problems
    finally:
        tree.close()
    judged = [(r, judge(rnd, r, extra_mapping)) for r in read]
    derived = result_ids(rnd, [_id_key(r, j) for r, j in judged if j.status == "valid"])
    records = []
    for folder, j in judged:
        row = published.get(folder.result.folder.path)
        key = _id_key(folder, j).unique_id
        rid = (row.result_id, ORIGIN_PUBLISHED) if row else (derived.get(key, ""), ORIGIN_DERIVED)
        records.append(_record(version, folder, j, rid if rid[0] else ("", ""), row))
    return RoundRead(version, tuple(records), tuple(problems))
