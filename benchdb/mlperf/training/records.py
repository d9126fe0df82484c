"""Reads of one record by its natural key, the permalinks: a result with everything its
page shows, a run's stored log (streamed), a system; and the natural key of an id, for
the old id URLs' redirects. Lists and the table rows are in
:mod:`benchdb.mlperf.training.selectors`.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.db.models.functions import Substr
from django.http import Http404
from django.urls import reverse

from benchdb import logcodec, vocabulary
from benchdb.mlperf.training import derived, result_ids_v6, selectors
from benchdb.mlperf.training import rcp as rcp_rules
from benchdb.mlperf.training import rules as training_rules
from benchdb.models import IngestProblem, Result, ResultIdCitation, Run, RunLog, System
from benchdb.models.mlperf import key_from_url, url_args


@dataclass(frozen=True)
class ResultDetail:
    """A result with everything its page shows: ``runs`` (``benchdb.runs/1``),
    the olympic mean step by step, each run's eval curve, the quality target and the
    first counted run's hyperparameters (``selectors.hyperparameters_get``)."""

    result: Result
    row: dict[str, Any]
    runs: list[dict[str, Any]]
    steps: derived.OlympicSteps
    curves: list[dict[str, Any]]
    target: training_rules.Target | None
    problems: list[IngestProblem]
    hyperparameters: list[tuple[str, Any]]
    #: the result IDs vendor pages cite for this result's system row, with what became
    #: of each (``ResultIdCitation``; ``ingest.result_ids.result_ids_cite``)
    id_citations: list[ResultIdCitation] = field(default_factory=list)
    compliance: list[dict[str, Any]] = field(default_factory=list)
    #: v6.0 on: the runs the round asks for, whether IDs come from the frozen ID list,
    #: and the system's private ID (``round_rules``)
    round_rules: dict[str, Any] = field(default_factory=dict)


def round_rules(
    result: Result, runs: Sequence[Run], hyper: Sequence[tuple[str, Any]]
) -> dict[str, Any]:
    """What a result's page says about its round's rules beyond the olympic mean:
    ``runs_required`` (``training_rules.runs_required``), ``id_list`` (True from v6.0:
    IDs come from MLCommons' frozen ID list, ``benchdb.mlperf.training.result_ids_v6``),
    ``private_id`` (the summarizer's ``--generate_private_ids`` ID of the systems JSON,
    "" when a hashed field is missing) and ``rcp`` (``_rcp``). Empty for HPC and rounds
    before v6.0."""
    version = result.round.version
    if result.round.suite != "training" or vocabulary.round_tuple(version) < (6, 0):
        return {}
    try:
        private = result_ids_v6.private_id(result.system.raw)
    except (KeyError, TypeError):
        private = ""
    return {
        "runs_required": training_rules.runs_required(version, result.benchmark.key),
        "id_list": True,
        "private_id": private,
        "rcp": _rcp(result, runs, dict(hyper)),
    }


def _rcp(result: Result, runs: Sequence[Run], hyper: dict[str, Any]) -> dict[str, Any] | None:
    """The RCP checker's verdict on a closed result (``rcp_rules.check``): each run's
    samples to converge is the ``at`` of its last evaluation when it stopped with
    success; with the score the summarizer gives once it has written ``scaling.json``.
    None when the round has no RCPs here, or no batch size was logged."""
    bs = hyper.get("global_batch_size")
    if result.division != "closed" or not isinstance(bs, int | float) or not runs:
        return None
    subm = []
    for run in runs:
        curve = run.eval_curve or []
        ok = run.run_stop_status == "success" and curve and curve[-1][0] is not None
        key = result.benchmark.key
        subm.append(rcp_rules.convergence_point(key, curve[-1][0]) if ok else float("inf"))
    try:
        verdict = rcp_rules.check(result.round.version, result.benchmark.key, float(bs), subm)
    except KeyError:
        return None
    olympic = result.score_minutes / result.scaling_factor if result.score_minutes else None
    return {
        "verdict": verdict,
        "bs": bs,
        "scaled": olympic * verdict.norm_factor if olympic is not None else None,
    }


def _by_key(model_path: str, key: Sequence[str]) -> dict[str, str]:
    """ORM filters selecting a result (``model_path`` "") or a run ("result__") by
    the result's natural key (``Result.natural_key()``)."""
    key = key_from_url(tuple(key))
    return {model_path + path: value for path, value in zip(selectors.KEY_FIELDS, key, strict=True)}


def result_get(key: Sequence[str]) -> ResultDetail:
    """The result of natural key ``key`` (``Result.natural_key()``). Raises Http404.
    Queries: the result with its joins, its runs (no logs, no hyperparameters), its
    ingest problems, the first counted run's hyperparameters, cut; the result IDs vendor
    pages cite for its system row (5)."""
    result = (
        Result.objects.select_related(*selectors.RESULT_JOINS)
        .prefetch_related(
            Prefetch("runs", queryset=Run.objects.defer("hyperparameters").order_by("index")),
            Prefetch("problems", queryset=IngestProblem.objects.order_by("path", "line")),
        )
        .filter(**_by_key("", key))
        .first()
    )
    if result is None:
        raise Http404(f"no result {'/'.join(key)}")
    result.system.round = result.round  # the same row: System.get_absolute_url needs it
    runs = list(result.runs.all())
    rows = [run_row(result, run) for run in runs]
    target = _target(result)
    part = target.part if target else None
    curves = [
        {"run": r.file_name, "role": r.role, "points": derived.eval_points(r.eval_curve, part)}
        for r in runs
    ]
    first = next((r for r in runs if r.role == Run.Role.COUNTED), runs[0] if runs else None)
    hyper = (
        sorted(selectors.hyperparameters_get([first.pk]).get(first.pk, {}).items()) if first else []
    )
    return ResultDetail(
        result=result,
        row=selectors.result_table_row(result),
        runs=rows,
        steps=derived.olympic_steps(rows, result.scaling_factor),
        curves=curves,
        target=target,
        problems=list(result.problems.all()),
        hyperparameters=hyper,
        id_citations=list(
            ResultIdCitation.objects.filter(
                result__system_id=result.system_id, result__division=result.division
            ).select_related("page", "claim", "result__benchmark")
        ),
        compliance=compliance_rows(runs),
        round_rules=round_rules(result, runs, hyper),
    )


def compliance_rows(runs: Sequence[Run]) -> list[dict[str, Any]]:
    """Every compliance finding of ``runs`` (``Run.compliance``), errors first, each
    with its run's file and a link to the log page at the line at fault."""
    out = []
    for run in runs:
        for f in run.compliance or []:
            line = f.get("line")
            out.append(
                {
                    **f,
                    "file": run.file_name,
                    "ruleset": run.compliance_ruleset,
                    "log_page": run_log_page_url(run, line) if line else "",
                }
            )
    return sorted(out, key=lambda r: r.get("severity") != "error")


def result_key_get(pk: int) -> tuple[str, ...]:
    """The natural key of result ``pk`` (old id URLs redirect to it). Raises Http404.
    Queries: 1."""
    key = Result.objects.filter(pk=pk).values_list(*selectors.KEY_FIELDS).first()
    if key is None:
        raise Http404(f"no result {pk}")
    return url_args(tuple(key))


def _target(result: Result) -> training_rules.Target | None:
    try:
        rules = training_rules.ruleset_for(result.round.version)
        return rules.target(result.benchmark.key, result.division)
    except ValueError:
        return None


def run_row(result: Result, run: Run) -> dict[str, Any]:
    """A run as a row of ``benchdb.runs/1``; ``run.result`` is ``result``."""
    run.result = result
    source = derived.line_url(
        result.repository, result.commit, run.path, run.run_start_line, run.run_stop_line
    )
    return {
        "result": result.pk,
        "run": run.pk,
        "index": run.index,
        "file": run.file_name,
        "path": run.path,
        "role": run.role,
        "counted": run.role == Run.Role.COUNTED,
        "converged": run.converged,
        "time_to_train_minutes": run.time_to_train_minutes,
        "converge_at": run.converge_at,
        "converge_unit": run.converge_unit,
        "global_batch_size": run.global_batch_size,
        "run_start_line": run.run_start_line,
        "run_stop_line": run.run_stop_line,
        "run_stop_status": run.run_stop_status,
        "failure_reason": run.failure_reason,
        "sha256": run.sha256,
        "log_url": run.get_absolute_url(),
        "log_page": run_log_page_url(run, run.run_start_line),
        "source": source,
        "energy_joules": run.energy_joules,
    }


def run_log_page_url(run: Run, line: int | None = None) -> str:
    """The log viewer of ``run`` (needs ``result`` with round and system), opened at
    ``line`` (its window and its ``#L`` anchor) when given."""
    url = reverse("benchdb:run_log_page", args=url_args((*run.result.natural_key(), run.file_name)))
    if not line:
        return url
    start = (line - 1) // LOG_WINDOW * LOG_WINDOW + 1
    return f"{url}?start={start}#L{line}" if start > 1 else f"{url}#L{line}"


# Compressed bytes read per query and most bytes decompressed at once: a stored log is
# streamed in pieces of at most LOG_CHUNK bytes, whatever its size.
LOG_CHUNK = 1 << 20
#: Lines the log viewer shows at once (a window: ``?start=N``): 1,000 lines of MLLOG are
#: ~250 KB of HTML, served in ~20 ms.
LOG_WINDOW = 1000


@dataclass(frozen=True)
class LogPage:
    """A window of a run's stored log: ``lines`` are (1-based number, text, mark) with
    mark ``run_start``, ``run_stop``, ``eval`` (an ``eval_accuracy`` line), ``target``
    (the evaluation that reached the quality target) or ""; ``total`` lines in the log;
    ``source`` the file in its repository at the ingested commit."""

    run: Run
    lines: list[tuple[int, str, str]]
    start: int
    total: int
    source: str


def run_log_page_get(key: Sequence[str], file_name: str, start: int = 1) -> LogPage:
    """Lines ``start`` .. ``start + LOG_WINDOW - 1`` of a run's stored log, decoded as
    UTF-8 (undecodable bytes replaced), with the lines the rules read marked. Raises
    Http404. Queries: the run with its result, round and system (1), the log read in
    pieces of ``LOG_CHUNK`` (one per MiB compressed)."""
    run = (
        Run.objects.select_related("result__round", "result__system")
        .filter(**_by_key("result__", key), file_name=file_name, log__isnull=False)
        .defer("hyperparameters")
        .first()
    )
    if run is None:
        raise Http404(f"no stored log for {'/'.join([*key, file_name])}")
    marks = {int(p[3]): "eval" for p in run.eval_curve if len(p) > 3 and p[3]}
    if run.converged and run.run_stop_line:
        reached = [line for line in marks if line <= run.run_stop_line]
        if reached:
            marks[max(reached)] = "target"
    marks |= {
        n: m for n, m in ((run.run_start_line, "run_start"), (run.run_stop_line, "run_stop")) if n
    }
    end = start + LOG_WINDOW
    lines: list[tuple[int, str, str]] = []
    total = 0
    for total, text in enumerate(_log_lines(run.pk), 1):
        if start <= total < end:
            lines.append((total, text, marks.get(total, "")))
    result = run.result
    source = derived.line_url(result.repository, result.commit, run.path, None, None)
    return LogPage(run, lines, start, total, source)


def _log_lines(run_id: int) -> Iterator[str]:
    """The stored log's lines, numbered as the ingest numbered them: a line ends at
    ``\\n``, ``\\r\\n`` or a lone ``\\r`` (``training_log``); decoded, streamed."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    rest = ""
    for chunk in run_log_chunks(run_id):
        text = rest + decoder.decode(chunk)
        # A trailing \r stays with the unfinished line: its \n may start the next piece.
        cut = len(text) - 1 if text.endswith("\r") else len(text)
        parts = _LINE_END.split(text[:cut])
        rest = parts.pop() + text[cut:]
        yield from parts
    parts = _LINE_END.split(rest + decoder.decode(b"", final=True))
    if parts[-1] == "":  # the log ends with a line end (or is empty)
        parts.pop()
    yield from parts


_LINE_END = re.compile(r"\r\n|\r|\n")


def run_log_get(key: Sequence[str], file_name: str) -> Run:
    """The run ``file_name`` of the result of natural key ``key``, if its log is
    stored (:func:`run_log_chunks` reads it). Raises Http404. Queries: 1."""
    run = (
        Run.objects.filter(**_by_key("result__", key), file_name=file_name, log__isnull=False)
        .only("id", "file_name", "sha256")
        .first()
    )
    if run is None:
        raise Http404(f"no stored log for {'/'.join([*key, file_name])}")
    return run


def run_key_get(pk: int) -> tuple[str, ...]:
    """(*result natural key, file name) of run ``pk`` (old id URLs redirect to it).
    Raises Http404. Queries: 1."""
    paths = [f"result__{p}" for p in selectors.KEY_FIELDS]
    key = Run.objects.filter(pk=pk).values_list(*paths, "file_name").first()
    if key is None:
        raise Http404(f"no run {pk}")
    return url_args(tuple(key))


def run_log_chunks(run_id: int, chunk: int = LOG_CHUNK) -> Iterator[bytes]:
    """The stored log of run ``run_id``, byte for byte as ingested, in pieces of at
    most ``chunk`` bytes: the compressed bytes are read ``chunk`` at a time (one query
    each) and decompressed with a bounded output, so neither the compressed nor the
    whole log is ever held in memory; Zstandard or, for logs stored before it, zlib
    (:func:`benchdb.logcodec.stream`). Raises ``zstandard.ZstdError`` or ``zlib.error``
    if the stored bytes are neither (a log replaced while it was read)."""

    def fetch(start: int, size: int) -> bytes:
        part: Any = (
            RunLog.objects.filter(run_id=run_id)
            .annotate(part=Substr("compressed", start, size))
            .values_list("part", flat=True)
            .first()
        )
        return bytes(part) if part else b""

    return logcodec.stream(fetch, chunk)


@dataclass(frozen=True)
class SystemDetail:
    """A system, its normalized fields as (label, value) pairs, its raw JSON
    pretty-printed, and its results (``benchdb.result_table/1``)."""

    system: System
    fields: list[tuple[str, Any]]
    raw_json: str
    rows: list[dict[str, Any]]
    history: list[dict[str, Any]]


_SYSTEM_KEY = ("round__suite", "round__version", "submitter_folder", "folder")


def system_get(key: Sequence[str]) -> SystemDetail:
    """The system of natural key ``key`` (``System.natural_key()``). Raises Http404.
    ``history``: :func:`system_history` as rows. Queries: the system with round and
    submitter, its results, its history (3)."""
    filters = dict(zip(_SYSTEM_KEY, key, strict=True))
    system = System.objects.select_related("round", "submitter").filter(**filters).first()
    if system is None:
        raise Http404(f"no system {'/'.join(key)}")
    results = Result.objects.filter(system=system).order_by("benchmark__key")
    raw = json.dumps(system.raw, indent=2, ensure_ascii=False, sort_keys=True)
    rows = selectors.result_table_rows(results)
    history = history_rows(system_history(system))
    return SystemDetail(system, _system_fields(system), raw, rows, history)


def system_key_get(pk: int) -> tuple[str, ...]:
    """The natural key of system ``pk`` (old id URLs redirect to it). Raises Http404.
    Queries: 1."""
    key = System.objects.filter(pk=pk).values_list(*_SYSTEM_KEY).first()
    if key is None:
        raise Http404(f"no system {pk}")
    return tuple(key)


def _system_fields(system: System) -> list[tuple[str, Any]]:
    return [
        ("Round", system.round.version),
        ("Submitter", system.submitter.name),
        ("System name", system.name),
        ("Folder", system.folder),
        ("Division", system.division),
        ("Availability", system.get_availability_display()),
        ("Nodes", system.nodes),
        ("Accelerator model", system.accelerator_model),
        ("Accelerators per node", system.accelerators_per_node),
        ("Accelerators", system.accelerators),
        ("Host processor", system.host_processor_model),
        ("Host processors per node", system.host_processors_per_node),
        ("Framework", system.framework),
        ("Software stack", system.software_stack),
        ("Source", system.source_path),
    ]


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def system_history(system: System) -> list[System]:
    """The submitter's other systems with the same name (spaces, case and punctuation
    aside), the same folder (the name in the results repository: Graphcore's
    ``ipu-pod16-POPART-closed`` is a GC200 system in v1.1 and a Bow one in v2.0) or the same
    accelerator model, oldest round first; each with ``round`` joined. Queries: 1."""
    same = Q(submitter=system.submitter) & (
        Q(accelerator_model=system.accelerator_model) if system.accelerator_model else Q(pk=-1)
    )
    candidates = (
        System.objects.filter(round__suite=system.round.suite)
        .filter(
            same
            | Q(submitter=system.submitter, name__iexact=system.name or system.folder)
            | Q(submitter=system.submitter, folder=system.folder)
        )
        .exclude(pk=system.pk)
        .select_related("round")
        .defer("raw")
    )
    name = _squash(system.name or system.folder)
    out = [
        s
        for s in candidates
        if _squash(s.name or s.folder) == name
        or s.folder == system.folder
        or s.accelerator_model == system.accelerator_model
    ]
    return sorted(out, key=lambda s: (vocabulary.round_key(s.round.version), s.folder))


def history_rows(systems: Sequence[System]) -> list[dict[str, Any]]:
    """The history as rows for the system page: round, name, accelerators, link."""
    return [
        {
            "round": s.round.version,
            "name": s.name or s.folder,
            "division": s.division,
            "accelerators": s.accelerators,
            "accelerator_model": s.accelerator_model,
            "framework": s.framework,
            "url": s.get_absolute_url(),
        }
        for s in systems
    ]
