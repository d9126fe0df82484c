"""The MLPerf Training run log reader: one ``result_N.txt`` to a ``ParsedRun``.

Pure: bytes in, dataclasses from ``ingest.parsers.types`` out; no Django. A whole
result folder (hash, systems file, scaling.json, runs, power logs) is read by
``ingest.training.parsers.folder``.

Log formats, by round:

* v0.5: ``:::MLPv0.5.0 <benchmark> <unix seconds> (<file>:<line>) <key>[: <json>]``
* v0.6: ``:::MLL <unix seconds> <key>: <json>``
* v0.7 on: ``:::MLLOG {"key": ..., "value": ..., "time_ms": ..., "metadata": ...}``

Any text before the token is dropped, as ``mlp_parser`` does
(``mlperf_logging/compliance_checker/mlp_parser/ruleset_*.py`` ``strip_and_dedup``:
``re.sub(".*" + TOKEN, TOKEN, line)``, i.e. everything up to the *last* token on the
line), and files are decoded as latin-1, as ``parse_file`` opens them.

Bounds (benchdb's, not mlp_parser's): a line nested deeper than
``safe_json.MAX_DEPTH`` does not parse; values are made storable
(``safe_json.storable``) and an unknown key's value keeps at most
``safe_json.MAX_TEXT`` characters, each change a warning with its line.
"""

from __future__ import annotations

import ast
import hashlib
import math
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from benchdb import logcodec
from benchdb.mlperf.training.compliance import Line, check_log
from benchdb.mlperf.training.compliance_files import RULE_DIRS, has_rules, rule_keys
from ingest.parsers import safe_json
from ingest.parsers.types import EvalPoint, ParsedRun, Problem
from ingest.training.parsers.mllog import MLLOG, Record, lines_with, mllog_records

MLL06 = b":::MLL "
MLP05 = b":::MLPv0.5.0 "

# Keys logged once, before the run, that describe how it was configured. Kept per run
# so that batch sizes and optimizer settings can be compared across systems.
_NOT_HYPERPARAMETERS = {
    "run_start",
    "run_stop",
    "init_start",
    "init_stop",
    "eval_accuracy",
    "eval_error",
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


def parse_log(
    data: bytes,
    path: str = "",
    *,
    compress: bool = True,
    compliance_round: str | None = None,
    sha256: str | None = None,
) -> ParsedRun:
    """Parse one run log (``result_N.txt``) of any round from v0.5 on.

    ``data``: the file's bytes. Returns a :class:`ParsedRun`; problems inside the log
    (broken MLLOG JSON, a cut-off file) are reported in it, never raised, so that
    one bad log cannot stop a round. With ``compress`` the whole file is kept,
    compressed (:func:`benchdb.logcodec.compress`), in ``compressed_log``. With
    ``compliance_round`` (``"v3.0"``; a round with rules,
    :func:`compliance_files.has_rules`) an MLLOG log is also checked by that round's
    compliance rules (``ParsedRun.compliance``). ``sha256``: the hex sha256 of ``data``
    when the caller has computed it (``ingest.training.parsers.folder`` hashes every
    file of a folder first), else it is computed here.
    """
    sha = sha256 or hashlib.sha256(data).hexdigest()
    packed = logcodec.compress(data) if compress else b""
    check = compliance_round if compliance_round and has_rules(compliance_round) else None
    if MLLOG in data:
        sink: list[Line] | None = [] if check else None
        keep = rule_keys(check) if check else frozenset()
        fold = _Fold(path)
        for rec in mllog_records(data, path, sink, keep):
            fold.add(rec)
        run = fold.run(sha, len(data), "mllog", packed)
        if check and sink is not None:
            lines = sum(run.key_counts.values())
            found = check_log(sink, check, parse_errors=fold.n_errors, total_lines=lines)
            run = replace(run, compliance=tuple(found), compliance_ruleset=RULE_DIRS[check])
        return run
    if MLL06 in data:
        fmt, records = "mll-0.6", _mll06_records(data, path)
    elif MLP05 in data:
        fmt, records = "mlperf-0.5", _mlp05_records(data, path)
    else:
        none = ParsedRun(
            path=path,
            sha256=sha,
            size=len(data),
            log_format="none",
            parse_errors=(Problem(path, None, "no MLPerf log lines in file"),),
            compressed_log=packed,
        )
        return _no_mllog(none, check)
    fold = _Fold(path)
    for rec in records:
        fold.add(rec)
    return _no_mllog(fold.run(sha, len(data), fmt, packed), check)


def _no_mllog(run: ParsedRun, check: str | None) -> ParsedRun:
    """A log of a round with compliance rules but no MLLOG line: ``mlp_parser`` finds
    no line in it, and the checker says so ("No log lines detected")."""
    if not check:
        return run
    found = check_log([], check, total_lines=0)
    return replace(run, compliance=tuple(found), compliance_ruleset=RULE_DIRS[check])


def _seconds_ms(secs: str) -> float:
    """Unix seconds as logged by v0.5/v0.6 (``1560873710.141``) -> ms; NaN when the
    digits do not make a finite number (``1.2.3``, 400 digits), so that the run has
    no usable time."""
    try:
        ms = float(secs) * 1000.0
    except ValueError:
        return math.nan
    return ms if math.isfinite(ms) else math.nan


_MLL06_LINE = re.compile(r"\s*([0-9.]+)\s+([A-Za-z0-9_]+)(?::\s*(.*))?$", re.S)


def _mll06_records(data: bytes, path: str) -> Iterator[Record | Problem]:
    """v0.6 lines. Some submitters logged Python dicts (``{'lineno': 615}``) rather
    than JSON: those are read with ``ast.literal_eval``; a body that is neither is
    a problem, but its key and time still count (the first v0.6 summarizer read
    only ``<time> run_start``/``run_stop``)."""
    for line, text in lines_with(data, MLL06):
        m = _MLL06_LINE.match(text.decode("latin-1").strip())
        if not m:
            yield Problem(path, line, "MLL line does not parse")
            continue
        secs, key, rest = m.groups()
        body: Any = {}
        if rest and safe_json.too_deep(rest):
            yield Problem(path, line, f"MLL line nested deeper than {safe_json.MAX_DEPTH} levels")
        elif rest:
            try:
                body = safe_json.loads(rest)
            except ValueError as exc:
                try:
                    body = ast.literal_eval(_python_literal(rest))
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
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


def _python_literal(text: str) -> str:
    return text.replace("null", "None").replace("true", "True").replace("false", "False")


_MLP05_LINE = re.compile(r"\s*\S+\s+([0-9.]+)\s+\(([^)]*)\)\s+([A-Za-z0-9_]+)\s*(?::\s*(.*))?$")


def _mlp05_records(data: bytes, path: str) -> Iterator[Record | Problem]:
    for line, text in lines_with(data, MLP05):
        m = _MLP05_LINE.match(text.decode("latin-1").strip())
        if not m:
            yield Problem(path, line, "MLPv0.5.0 line does not parse")
            continue
        secs, _source, key, rest = m.groups()
        value: Any = None
        if rest:
            try:
                value = safe_json.loads(rest)
            except safe_json.TooDeep as exc:
                yield Problem(path, line, f"MLPv0.5.0 line does not parse: {exc}")
                continue
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


#: Problems kept per file; the rest are counted (one log can hold 20,000 bad lines).
MAX_PROBLEMS_PER_FILE = 20
#: Longest hyperparameter name kept (benchdb sanity bound; real ones are under 64).
MAX_KEY = 200


class _Fold:
    """Folds a log's records, in file order, into the fields of a ParsedRun."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.errors: list[Problem] = []
        self.n_errors = 0
        self.warnings: list[Problem] = []
        self.counts: dict[str, int] = {}
        self.first: dict[str, Any] = {}
        self.differ: set[str] = set()
        self.times: dict[str, float] = {}
        self.times_differ: set[str] = set()
        self.evals: list[EvalPoint] = []
        self.eval_errors: list[EvalPoint] = []
        self.eval_unit = "epochs"
        self.hyper: dict[str, Any] = {}
        self.submission: dict[str, Any] = {}
        self.start: tuple[float, int] | None = None
        self.stop: tuple[float, int] | None = None
        self.stop_status: str | None = None
        self.stop_has_status = False
        self.init: dict[str, float] = {}

    def add(self, rec: Record | Problem) -> None:
        if isinstance(rec, Problem):
            self.n_errors += 1
            if self.n_errors <= MAX_PROBLEMS_PER_FILE:
                self.errors.append(rec)
            return
        line, key, t, value, meta = rec
        assert key is not None
        self.counts[key] = self.counts.get(key, 0) + 1
        if key in self.first:
            if key not in self.differ and self.first[key] != (value, meta):
                self.differ.add(key)
        else:
            self.first[key] = (value, meta)
        if key in ("run_start", "run_stop"):
            if self.times.setdefault(key, t) != t:
                self.times_differ.add(key)
            self._start_stop(key, t, line, meta)
        elif key == "eval_accuracy":
            self._eval(line, t, value, meta)
        elif key == "eval_error":  # MLPerf HPC cosmoflow and oc20 (lower is better)
            at = _num(meta.get("epoch_num"))
            value = self.storable(line, key, value)
            self.eval_errors.append(EvalPoint(at, value, t, line))
        elif key in ("init_start", "init_stop"):
            self.init.setdefault(key, t)
        elif key.startswith("submission_"):
            self._submission(line, key[len("submission_") :], value)
        elif key not in _NOT_HYPERPARAMETERS and key not in self.hyper and _scalar(value):
            self._hyper(line, key, value)

    def warn(self, line: int, message: str) -> None:
        if len(self.warnings) < MAX_PROBLEMS_PER_FILE:
            self.warnings.append(Problem(self.path, line, message, "warning"))

    def storable(self, line: int, what: str, value: Any) -> Any:
        clean, note = safe_json.storable(value)
        if note:
            self.warn(line, f"{what}: {note}")
        return clean

    def _start_stop(self, key: str, t: float, line: int, meta: dict[str, Any]) -> None:
        # _query_run_start_stop(): the last run_start before the first run_stop.
        if self.stop is not None:
            return
        if key == "run_start":
            self.start = (t, line)
            return
        self.stop = (t, line)
        self.stop_has_status = "status" in meta
        status = meta.get("status")
        self.stop_status = None if status is None else self.storable(line, key, str(status))

    def _eval(self, line: int, t: float, value: Any, meta: dict[str, Any]) -> None:
        if "epoch_num" not in meta and "samples_count" in meta:
            self.eval_unit = "samples"
        at = _num(meta.get("epoch_num", meta.get("samples_count")))
        metric = meta.get("metric")
        value = self.storable(line, "eval_accuracy", value)
        evals = self.evals
        if metric and evals and evals[-1].at == at and isinstance(evals[-1].value, dict):
            # Stable Diffusion logs FID and CLIP as two events of one evaluation.
            prev = evals.pop()
            merged = self.storable(line, "eval_accuracy", {**prev.value, str(metric): value})
            evals.append(EvalPoint(at, merged, prev.time_ms, prev.line))
        else:
            if metric:
                value = self.storable(line, "eval_accuracy", {str(metric): value})
            evals.append(EvalPoint(at, value, t, line))

    def _submission(self, line: int, name: str, value: Any) -> None:
        if name in self.submission:
            return
        value = self.storable(line, f"submission_{name}", value)
        if isinstance(value, str):
            value, note = safe_json.cut(value)
            if note:
                self.warn(line, f"submission_{name}: {note}")
        self.submission[name] = value

    def _hyper(self, line: int, key: str, value: Any) -> None:
        """An unknown key's first value, kept when it is short: a string is cut to
        ``safe_json.MAX_TEXT`` characters, a longer list is not kept."""
        name = self.storable(line, "key", key)
        if len(name) > MAX_KEY:
            self.warn(line, f"key of {len(name):,} characters (over {MAX_KEY}) not kept")
            return
        value = self.storable(line, name, value)
        if isinstance(value, str):
            value, note = safe_json.cut(value)
            if note:
                self.warn(line, f"{name}: {note}")
        elif isinstance(value, list) and sum(len(str(i)) for i in value) > safe_json.MAX_TEXT:
            self.warn(line, f"{name}: list over {safe_json.MAX_TEXT:,} characters not kept")
            return
        self.hyper[key] = value

    def run(self, sha: str, size: int, fmt: str, packed: bytes) -> ParsedRun:
        start, stop = self.start, self.stop
        return ParsedRun(
            path=self.path,
            sha256=sha,
            size=size,
            log_format=fmt,
            run_start_ms=start[0] if start else None,
            run_start_line=start[1] if start else None,
            run_stop_ms=stop[0] if stop else None,
            run_stop_line=stop[1] if stop else None,
            run_stop_status=self.stop_status,
            run_stop_has_status=self.stop_has_status,
            init_start_ms=self.init.get("init_start"),
            init_stop_ms=self.init.get("init_stop"),
            parse_errors=tuple(self.errors) + _more(self.path, self.n_errors),
            parse_error_count=self.n_errors,
            key_counts=self.counts,
            repeated_differ=tuple(sorted(self.differ)),
            repeated_times=tuple(sorted(self.times_differ)),
            evals=tuple(self.evals),
            eval_errors=tuple(self.eval_errors),
            eval_unit=self.eval_unit,
            hyperparameters=self.hyper,
            submission=self.submission,
            warnings=tuple(self.warnings),
            compressed_log=packed,
        )


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
