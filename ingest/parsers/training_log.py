"""Readers for MLPerf Training result repositories: run logs, systems files, layout.

Pure: bytes or paths in, dataclasses from ``ingest.parsers.types`` out; no Django.

Log formats, by round:

* v0.5: ``:::MLPv0.5.0 <benchmark> <unix seconds> (<file>:<line>) <key>[: <json>]``
* v0.6: ``:::MLL <unix seconds> <key>: <json>``
* v0.7 on: ``:::MLLOG {"key": ..., "value": ..., "time_ms": ..., "metadata": ...}``

Any text before the token is dropped, as ``mlp_parser`` does
(``mlperf_logging/compliance_checker/mlp_parser/ruleset_*.py`` ``strip_and_dedup``:
``re.sub(".*" + TOKEN, TOKEN, line)``, i.e. everything up to the *last* token on the
line), and files are decoded as latin-1, as ``parse_file`` opens them.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import re
import zlib
from collections.abc import Iterator
from typing import Any

from benchdb.vocabulary import AVAILABILITY

from .types import (
    EvalPoint,
    LoadedResult,
    ParsedRun,
    ParsedSystem,
    ParseError,
    Problem,
    ResultDir,
)

MLLOG = b":::MLLOG "
MLL06 = b":::MLL "
MLP05 = b":::MLPv0.5.0 "
RUN_FILE = re.compile(r"^result_.*\.txt$")  # result_summarizer globs result_*.txt

# Keys logged once, before the run, that describe how it was configured. Kept per run
# so that batch sizes and optimizer settings can be compared across systems.
_NOT_HYPERPARAMETERS = {
    "run_start",
    "run_stop",
    "init_start",
    "init_stop",
    "eval_accuracy",
    "eval_start",
    "eval_stop",
    "epoch_start",
    "epoch_stop",
    "block_start",
    "block_stop",
    "cache_clear",
    "tracked_stats",
    "train_loss",
    "power_reading",
    "conv_weights",
}


def parse_log(data: bytes, path: str = "", *, compress: bool = True) -> ParsedRun:
    """Parse one run log (``result_N.txt``) of any round from v0.5 on.

    ``data``: the file's bytes. Returns a :class:`ParsedRun`; problems inside the log
    (broken MLLOG JSON, a cut-off file) are reported in it, never raised, so that
    one bad log cannot stop a round. With ``compress`` the whole file is kept,
    zlib-compressed, in ``compressed_log``.
    """
    sha = hashlib.sha256(data).hexdigest()
    packed = zlib.compress(data, 6) if compress else b""
    if MLLOG in data:
        fmt, records = "mllog", _mllog_records(data, path)
    elif MLL06 in data:
        fmt, records = "mll-0.6", _mll06_records(data, path)
    elif MLP05 in data:
        fmt, records = "mlperf-0.5", _mlp05_records(data, path)
    else:
        return ParsedRun(
            path=path,
            sha256=sha,
            size=len(data),
            log_format="none",
            parse_errors=(Problem(path, None, "no MLPerf log lines in file"),),
            compressed_log=packed,
        )
    return _collect(path, sha, len(data), fmt, records, packed)


# A record: (line, key, time_ms, value, metadata); a line that does not parse is a Problem.
Record = tuple[int, str | None, float, Any, dict[str, Any]]


def _lines_with(data: bytes, token: bytes) -> Iterator[tuple[int, bytes]]:
    """Yield (1-based line number, text after the last ``token`` on that line).

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (Python's universal newlines,
    as ``open(..., encoding='latin-1')`` in ``mlp_parser.parse_file`` reads them);
    line numbers count ``\\n`` so that they match what an editor shows.
    """
    pos = data.find(token)
    counted_to, line = 0, 1
    while pos >= 0:
        end_n = data.find(b"\n", pos)
        end_r = data.find(b"\r", pos)
        ends = [e for e in (end_n, end_r) if e >= 0]
        end = min(ends) if ends else len(data)
        line += data.count(b"\n", counted_to, pos)
        counted_to = pos
        last = data.rfind(token, pos, end)
        yield line, data[last + len(token) : end]
        pos = data.find(token, end)


def _no_constant(name: str) -> None:
    """``NaN``/``Infinity`` in a log (a diverged loss, say) become None: PostgreSQL's
    jsonb cannot store them, and no target can be met by them."""
    return None


def _mllog_records(data: bytes, path: str) -> Iterator[Record | Problem]:
    for line, text in _lines_with(data, MLLOG):
        try:
            m = json.loads(text.decode("latin-1"), parse_constant=_no_constant)
            key, t, meta = m["key"], float(m["time_ms"]), m["metadata"] or {}
            if not isinstance(key, str) or not isinstance(meta, dict):
                raise TypeError("key must be a string and metadata an object")
            record: Record | Problem = (line, key, t, m["value"], meta)
        except (ValueError, KeyError, TypeError, OverflowError) as exc:
            record = Problem(path, line, f"MLLOG line does not parse: {exc}")
        yield record


def _seconds_ms(secs: str) -> float:
    """Unix seconds as logged by v0.5/v0.6 (``1560873710.141``) -> ms; NaN when the
    digits do not make a number (``1.2.3``), so that the run has no usable time."""
    try:
        return float(secs) * 1000.0
    except ValueError:
        return math.nan


_MLL06_LINE = re.compile(r"\s*([0-9.]+)\s+([A-Za-z0-9_]+)(?::\s*(.*))?$", re.S)


def _mll06_records(data: bytes, path: str) -> Iterator[Record | Problem]:
    """v0.6 lines. Some submitters logged Python dicts (``{'lineno': 615}``) rather
    than JSON: those are read with ``ast.literal_eval``; a body that is neither is
    a problem, but its key and time still count (the first v0.6 summarizer read
    only ``<time> run_start``/``run_stop``)."""
    for line, text in _lines_with(data, MLL06):
        m = _MLL06_LINE.match(text.decode("latin-1").strip())
        if not m:
            yield Problem(path, line, "MLL line does not parse")
            continue
        secs, key, rest = m.groups()
        body: Any = {}
        if rest:
            try:
                body = json.loads(rest)
            except ValueError as exc:
                try:
                    body = ast.literal_eval(rest.replace("null", "None").replace("true", "True").replace("false", "False"))  # fmt: skip
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    yield Problem(path, line, f"MLL line does not parse: {exc}")
        if not isinstance(body, dict):
            body = {"value": body}
        meta = body.get("metadata")
        yield (
            line,
            key,
            _seconds_ms(secs),
            body.get("value"),
            meta if isinstance(meta, dict) else {},
        )


_MLP05_LINE = re.compile(r"\s*\S+\s+([0-9.]+)\s+\(([^)]*)\)\s+([A-Za-z0-9_]+)\s*(?::\s*(.*))?$")


def _mlp05_records(data: bytes, path: str) -> Iterator[Record | Problem]:
    for line, text in _lines_with(data, MLP05):
        m = _MLP05_LINE.match(text.decode("latin-1").strip())
        if not m:
            yield Problem(path, line, "MLPv0.5.0 line does not parse")
            continue
        secs, _source, key, rest = m.groups()
        value: Any = None
        if rest:
            try:
                value = json.loads(rest)
            except ValueError:
                value = rest  # v0.5 values are often bare words
        meta: dict[str, Any] = {}
        if key == "run_stop" and isinstance(value, dict) and "success" in value:
            ok = value["success"] in (True, "true", "True")
            meta["status"] = "success" if ok else "aborted"
        if key == "eval_accuracy" and isinstance(value, dict):
            meta["epoch_num"] = value.get("epoch")
            value = value.get("value")
        yield line, key, _seconds_ms(secs), value, meta


def _collect(
    path: str,
    sha: str,
    size: int,
    fmt: str,
    records: Iterator[Record | Problem],
    packed: bytes,
) -> ParsedRun:
    """Fold a log's records into a ParsedRun (one pass, file order)."""
    errors: list[Problem] = []
    n_errors = 0
    counts: dict[str, int] = {}
    first: dict[str, Any] = {}
    differ: set[str] = set()
    evals: list[EvalPoint] = []
    hyper: dict[str, Any] = {}
    submission: dict[str, Any] = {}
    start = stop = None  # (time_ms, line)
    stop_status: str | None = None
    stop_has_status = False
    init_start = init_stop = None
    eval_unit = "epochs"
    for rec in records:
        if isinstance(rec, Problem):
            n_errors += 1
            if n_errors <= MAX_PROBLEMS_PER_FILE:
                errors.append(rec)
            continue
        line, key, t, value, meta = rec
        assert key is not None
        counts[key] = counts.get(key, 0) + 1
        if key in first:
            if key not in differ and first[key] != (value, meta):
                differ.add(key)
        else:
            first[key] = (value, meta)
        # _query_run_start_stop(): last run_start before the first run_stop.
        if key == "run_start" and stop is None:
            start = (t, line)
        elif key == "run_stop" and stop is None:
            stop = (t, line)
            stop_has_status = "status" in meta
            stop_status = meta.get("status")
        elif key == "eval_accuracy":
            if "epoch_num" not in meta and "samples_count" in meta:
                eval_unit = "samples"
            at = _num(meta.get("epoch_num", meta.get("samples_count")))
            metric = meta.get("metric")
            if metric and evals and evals[-1].at == at and isinstance(evals[-1].value, dict):
                # Stable Diffusion logs FID and CLIP as two events of one evaluation.
                prev = evals.pop()
                evals.append(
                    EvalPoint(at, {**prev.value, str(metric): value}, prev.time_ms, prev.line)
                )
            else:
                evals.append(EvalPoint(at, {str(metric): value} if metric else value, t, line))
        elif key == "init_start" and init_start is None:
            init_start = t
        elif key == "init_stop" and init_stop is None:
            init_stop = t
        elif key.startswith("submission_"):
            submission.setdefault(key[len("submission_") :], value)
        elif key not in _NOT_HYPERPARAMETERS and key not in hyper and _scalar(value):
            hyper[key] = value
    return ParsedRun(
        path=path,
        sha256=sha,
        size=size,
        log_format=fmt,
        run_start_ms=start[0] if start else None,
        run_start_line=start[1] if start else None,
        run_stop_ms=stop[0] if stop else None,
        run_stop_line=stop[1] if stop else None,
        run_stop_status=None if stop_status is None else str(stop_status),
        run_stop_has_status=stop_has_status,
        init_start_ms=init_start,
        init_stop_ms=init_stop,
        parse_errors=tuple(errors) + _more(path, n_errors),
        parse_error_count=n_errors,
        key_counts=counts,
        repeated_differ=tuple(sorted(differ)),
        evals=tuple(evals),
        eval_unit=eval_unit,
        hyperparameters=hyper,
        submission=submission,
        compressed_log=packed,
    )


#: Problems kept per file; the rest are counted (one log can hold 20,000 bad lines).
MAX_PROBLEMS_PER_FILE = 20


def _more(path: str, n_errors: int) -> tuple[Problem, ...]:
    if n_errors <= MAX_PROBLEMS_PER_FILE:
        return ()
    more = n_errors - MAX_PROBLEMS_PER_FILE
    return (
        Problem(
            path, None, f"{more} more log lines do not parse (first {MAX_PROBLEMS_PER_FILE} listed)"
        ),
    )


def _num(x: Any) -> float | None:
    try:
        f = float(x)
    except (TypeError, ValueError, OverflowError):
        return None
    return f if math.isfinite(f) else None


def _scalar(v: Any) -> bool:
    return (
        v is None
        or isinstance(v, (str, int, float, bool))
        or (
            isinstance(v, list)
            and len(v) <= 64
            and all(isinstance(i, (int, float, str)) for i in v)
        )
    )


# --- systems files ---------------------------------------------------------------


def _pairs_no_duplicates(path: str, text: str):  # type: ignore[no-untyped-def]
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
                        f"duplicate key {k!r} ({same}); the last one is kept",
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


def _int(
    raw: dict[str, Any], key: str, path: str, text: str, problems: list[Problem]
) -> int | None:
    v = raw.get(key)
    if v in (None, ""):
        return None
    try:
        return int(float(str(v).strip()))
    except (ValueError, OverflowError):
        problems.append(
            Problem(path, _line_of(text, f'"{key}"'), f"{key} is not a number: {v!r}", "warning")
        )
        return None


def parse_systems_json(data: bytes, path: str = "") -> ParsedSystem:
    """Parse ``<Submitter>/systems/<system>.json`` (v0.6 onwards).

    Raises :class:`ParseError` (with the line of the fault) if the file is not a JSON
    object. Duplicate keys are kept (last wins, as ``json.load`` does) and reported
    as warnings in ``problems``.
    """
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    hook, dups = _pairs_no_duplicates(path, text)
    try:
        raw = json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    if not isinstance(raw, dict):
        raise ParseError("not a JSON object", path=path, line=1)
    problems = list(dups)
    availability = AVAILABILITY.get(str(raw.get("status", "")).strip().lower(), "")
    if not availability:
        problems.append(
            Problem(
                path,
                _line_of(text, '"status"'),
                f"unknown availability status {raw.get('status')!r}",
                "warning",
            )
        )
    stack = " ".join(
        str(raw.get(k, "")).strip()
        for k in ("other_software_stack", "operating_system")
        if raw.get(k)
    )
    return ParsedSystem(
        path=path,
        raw=raw,
        division=str(raw.get("division", "")).strip().lower(),
        availability=availability,
        system_name=str(raw.get("system_name", "")).strip(),
        submitter=str(raw.get("submitter", "")).strip(),
        number_of_nodes=_int(raw, "number_of_nodes", path, text, problems),
        host_processor_model=str(raw.get("host_processor_model_name", "")).strip(),
        host_processors_per_node=_int(raw, "host_processors_per_node", path, text, problems),
        accelerator_model=str(raw.get("accelerator_model_name", "")).strip(),
        accelerators_per_node=_int(raw, "accelerators_per_node", path, text, problems),
        framework=str(raw.get("framework", "")).strip(),
        software_stack=stack,
        problems=tuple(problems),
    )


def _count(v: Any) -> int | None:
    """A count from a systems file (``"16"``, ``16``, ``16.0``); None if it is not one."""
    try:
        n = int(float(str(v).strip()))
    except (ValueError, OverflowError):
        return None
    return n if 0 <= n < 2**31 else None


def parse_entry_json(data: bytes, path: str = "") -> ParsedSystem:
    """Parse a v0.5 ``results/<system>/entry.json`` (nodes listed under ``nodes``).

    Raises :class:`ParseError` if it is not a JSON object.
    """
    text = data.decode("utf-8", errors="replace")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    if not isinstance(raw, dict):
        raise ParseError("not a JSON object", path=path, line=1)
    nodes = [n for n in raw.get("nodes", []) if isinstance(n, dict)]
    n_nodes = sum(_count(n.get("num_nodes", 1)) or 1 for n in nodes) or None
    accel = next(
        (str(n.get("accelerator")) for n in nodes if n.get("accelerator") not in (None, "NA")), ""
    )
    per_node = _count(nodes[0].get("num_accelerators", 0)) if nodes else None
    return ParsedSystem(
        path=path,
        raw=raw,
        division=str(raw.get("division", "")).lower(),
        availability=AVAILABILITY.get(str(raw.get("status", "")).lower(), ""),
        system_name=str(raw.get("hardware", "")),
        submitter="",
        number_of_nodes=n_nodes,
        host_processor_model=str(nodes[0].get("cpu", "")) if nodes else "",
        host_processors_per_node=None,
        accelerator_model=accel,
        accelerators_per_node=per_node,
        framework=str(raw.get("framework", "")),
        software_stack=str(raw.get("libraries", "")),
    )


def parse_scaling_json(data: bytes, path: str = "") -> float:
    """``scaling.json`` -> its ``scaling_factor`` (dimensionless, > 0).

    Raises :class:`ParseError` if absent or not a positive number.
    Source: ``result_summarizer._get_scaling_factor`` (mlperf_logging 2.0.0).
    """
    try:
        factor = float(json.loads(data)["scaling_factor"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ParseError(f"no usable scaling_factor: {exc}", path=path, line=1) from exc
    if not (math.isfinite(factor) and factor > 0):
        raise ParseError(
            f"scaling_factor must be a finite number > 0, got {factor}", path=path, line=1
        )
    return factor


# --- repository layout -----------------------------------------------------------

ROUND_DIR = re.compile(r"training_results_v(\d+\.\d+)")


def infer_round(repo_root: str) -> str | None:
    """``.../training_results_v1.1`` -> ``"v1.1"``; also reads a git remote URL."""
    m = ROUND_DIR.search(os.path.basename(os.path.abspath(repo_root)))
    if m:
        return "v" + m.group(1)
    config = os.path.join(repo_root, ".git", "config")
    if os.path.isfile(config):
        with open(config, encoding="utf-8", errors="replace") as f:
            m = ROUND_DIR.search(f.read())
        if m:
            return "v" + m.group(1)
    return None


def infer_round_from_logs(repo_root: str) -> str | None:
    """The round when the log format tells it: ``:::MLPv0.5.0`` -> v0.5, ``:::MLL``
    -> v0.6. MLLOG (v0.7 on) does not name its round: None."""
    for rd in discover_results(repo_root):
        for rel in rd.runs[:1]:
            with open(os.path.join(repo_root, rel), "rb") as f:
                head = f.read(1 << 20)
            if MLP05 in head:
                return "v0.5"
            if MLL06 in head and MLLOG not in head:
                return "v0.6"
            return None
    return None


def find_repositories(folder: str) -> list[str]:
    """A results repository, or a folder of them named as the repositories are.

    Returns the repository roots, sorted by round.
    """
    if infer_round(folder) or _has_submitters(folder):
        return [folder]
    subs = [os.path.join(folder, d) for d in sorted(os.listdir(folder)) if ROUND_DIR.fullmatch(d)]
    return sorted(subs, key=lambda p: tuple(int(x) for x in infer_round(p)[1:].split(".")))  # type: ignore[index]


def _has_submitters(folder: str) -> bool:
    return any(os.path.isdir(os.path.join(folder, d, "results")) for d in os.listdir(folder))


def discover_results(repo_root: str) -> list[ResultDir]:
    """Every result folder of a repository, v0.5 layout included.

    v0.6 on: ``<Submitter>/results/<system>/<benchmark>/result_*.txt`` with
    ``<Submitter>/systems/<system>.json``. v0.5:
    ``v0.5.0/<org>/<submission>/results/<system>/<benchmark>/result_*.txt`` with
    ``.../results/<system>/entry.json``. Only ``result_*.txt`` directly in the
    benchmark folder counts (``result_summarizer._compute_strong_score_standalone``).
    """
    found: list[ResultDir] = []
    v05 = os.path.join(repo_root, "v0.5.0")
    if os.path.isdir(v05):
        for org in _dirs(v05):
            # Submissions nest at different depths (google/cloud_v3.8/resnet-tpuv3-8/results).
            for parent, subdirs, _files in sorted(os.walk(os.path.join(v05, org))):
                subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
                if "results" in subdirs:
                    base = os.path.relpath(parent, repo_root)
                    found += _result_dirs(repo_root, base, org, v05_entry=True)
                    subdirs.remove("results")
        return found
    for submitter in _dirs(repo_root):
        found += _result_dirs(repo_root, submitter, submitter, v05_entry=False)
    return found


def _result_dirs(repo_root: str, base: str, submitter: str, *, v05_entry: bool) -> list[ResultDir]:
    results = os.path.join(repo_root, base, "results")
    if not os.path.isdir(results):
        return []
    out = []
    # v0.5 names systems per submission ("tpu" in several): the submission path is
    # part of the system's key there.
    prefix = base.split(os.sep, 2)[2] + "/" if v05_entry and base.count(os.sep) >= 2 else ""
    for system in _dirs(results):
        if v05_entry:
            sys_file: str | None = os.path.join(base, "results", system, "entry.json")
        else:
            sys_file = os.path.join(base, "systems", system + ".json")
        if not os.path.isfile(os.path.join(repo_root, sys_file or "")):
            sys_file = None
        for bench in _dirs(os.path.join(results, system)):
            rel = os.path.join(base, "results", system, bench)
            names = sorted(
                (n for n in os.listdir(os.path.join(repo_root, rel)) if RUN_FILE.match(n)),
                key=_natural,
            )
            names = [n for n in names if os.path.isfile(os.path.join(repo_root, rel, n))]
            scaling = os.path.join(rel, "scaling.json")
            out.append(
                ResultDir(
                    repo_root=repo_root,
                    submitter_folder=submitter,
                    system_folder=prefix + system,
                    benchmark_folder=bench,
                    path=rel,
                    runs=tuple(os.path.join(rel, n) for n in names),
                    system_file=sys_file,
                    scaling_file=scaling
                    if os.path.isfile(os.path.join(repo_root, scaling))
                    else None,
                )
            )
    return out


def _natural(name: str) -> tuple[Any, ...]:
    """``result_2.txt`` before ``result_10.txt``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def _dirs(path: str) -> list[str]:
    return sorted(
        d
        for d in os.listdir(path)
        if not d.startswith(".") and os.path.isdir(os.path.join(path, d))
    )


# --- one result folder, end to end -------------------------------------------------


def load_result_dir(
    rd: ResultDir, known_sha256: str | None = None, code_version: str = ""
) -> LoadedResult:
    """Read and parse one result folder: its runs, systems file and scaling.json.

    Reads the files under ``rd.repo_root``. The content hash covers every file it
    reads and ``code_version`` (the caller's hash of the parsing and scoring code);
    when it equals ``known_sha256`` nothing is parsed (``unchanged=True``). Never raises for bad content: problems come back
    in ``problems``; OSError (unreadable repository) propagates.
    """

    def read(rel: str) -> bytes:
        with open(os.path.join(rd.repo_root, rel), "rb") as f:
            return f.read()

    blobs = {rel: read(rel) for rel in (rd.system_file, rd.scaling_file, *rd.runs) if rel}
    h = hashlib.sha256(code_version.encode())
    for rel in sorted(blobs):
        h.update(f"\0{rel}\0".encode())
        h.update(hashlib.sha256(blobs[rel]).digest())
    digest = h.hexdigest()
    if digest == known_sha256:
        return LoadedResult(dir=rd, content_sha256=digest, unchanged=True)
    problems: list[Problem] = []
    system = None
    if rd.system_file is None:
        problems.append(Problem(rd.path, None, f"no systems file for system {rd.system_folder!r}"))
    else:
        parse = parse_entry_json if rd.system_file.endswith("entry.json") else parse_systems_json
        try:
            system = parse(blobs[rd.system_file], rd.system_file)
            problems += system.problems
        except ParseError as exc:
            problems.append(Problem(exc.path, exc.line, exc.reason))
        except Exception as exc:  # noqa: BLE001 - as for logs: record, go on
            problems.append(Problem(rd.system_file, None, f"cannot read systems file: {type(exc).__name__}: {exc}"))  # fmt: skip
    scaling = None
    if rd.scaling_file:
        try:
            scaling = parse_scaling_json(blobs[rd.scaling_file], rd.scaling_file)
        except ParseError as exc:
            problems.append(Problem(exc.path, exc.line, exc.reason))
    runs = []
    for rel in rd.runs:
        data = blobs.pop(rel)
        try:
            run = parse_log(data, rel)
        except Exception as exc:  # noqa: BLE001 - one unreadable log must not stop the round
            problem = Problem(rel, None, f"cannot read log: {type(exc).__name__}: {exc}")
            run = ParsedRun(path=rel, sha256=hashlib.sha256(data).hexdigest(), size=len(data), log_format="none", parse_errors=(problem,), parse_error_count=1, compressed_log=zlib.compress(data, 6))  # fmt: skip
        problems += run.parse_errors
        runs.append(run)
    if not rd.runs:
        problems.append(Problem(rd.path, None, "no result_*.txt files in result folder"))
    return LoadedResult(
        dir=rd,
        content_sha256=digest,
        unchanged=False,
        system=system,
        scaling_factor=scaling,
        runs=tuple(runs),
        problems=tuple(problems),
    )
