"""One MLPerf Training result folder, end to end: hashed, then read and parsed.

Pure: paths in, :class:`~ingest.parsers.types.LoadedResult` out; no Django. Every file
is read through ``safe_tree`` (no link followed, bounded sizes); the run logs are
parsed by :func:`ingest.training.parsers.log.parse_log`, the systems file and
``scaling.json`` by ``ingest.training.parsers.systems``, the power logs by
``ingest.training.parsers.power``. Split from ``log.py`` (which parses one log).
"""

from __future__ import annotations

import hashlib
from typing import Any

from benchdb import logcodec
from ingest.parsers import safe_tree
from ingest.parsers.types import LoadedResult, ParsedRun, ParseError, Problem, ResultDir
from ingest.training.parsers import power as training_power
from ingest.training.parsers.log import MLL06, MLP05, parse_log
from ingest.training.parsers.mllog import MLLOG
from ingest.training.parsers.systems import parse_entry_json, parse_scaling_json, parse_systems_json
from ingest.training.parsers.tree import discover_results


def infer_round_from_logs(repo_root: str) -> str | None:
    """The round when the log format tells it: ``:::MLPv0.5.0`` -> v0.5, ``:::MLL``
    -> v0.6. MLLOG (v0.7 on) does not name its round: None."""
    for rd in discover_results(repo_root):
        for rel in rd.runs[:1]:
            try:
                head = safe_tree.read_file(repo_root, rel, safe_tree.TEXT_BYTES, head=True)
            except (OSError, ParseError):
                continue
            if MLP05 in head:
                return "v0.5"
            if MLL06 in head and MLLOG not in head:
                return "v0.6"
            return None
    return None


#: Bytes of one folder's files kept in memory between hashing and parsing; beyond
#: it, files are read again to be parsed (40 unet3d logs of 100 MiB would not fit).
KEEP_BYTES = 256 * 2**20

_LIMITS = {"system": safe_tree.SYSTEM_BYTES, "scaling": safe_tree.SCALING_BYTES}


def _files(rd: ResultDir) -> list[tuple[str, str]]:
    """(kind, path) of every file of the folder: systems file, scaling.json, runs."""
    out = [("system", rd.system_file)] if rd.system_file else []
    out += [("scaling", rd.scaling_file)] if rd.scaling_file else []
    return out + [("run", rel) for rel in rd.runs] + [("power", rel) for rel in rd.power_files]


def _read(rd: ResultDir, kind: str, rel: str) -> bytes:
    return safe_tree.read_file(rd.repo_root, rel, _LIMITS.get(kind, safe_tree.LOG_BYTES))


def _content_hash(rd: ResultDir, code_version: str) -> tuple[str, dict[str, bytes], dict[str, str]]:
    """sha256 over the code version, every file's path and bytes (or refusal) and
    the folder's problems; the bytes kept (up to :data:`KEEP_BYTES`) and the sha256
    (hex) of each kept file, so that a run log kept is not hashed a second time."""
    h = hashlib.sha256(code_version.encode())
    kept: dict[str, bytes] = {}
    sums: dict[str, str] = {}
    size = 0
    for kind, rel in sorted(_files(rd), key=lambda f: f[1]):
        h.update(f"\0{rel}\0".encode("utf-8", "surrogateescape"))
        try:
            data = _read(rd, kind, rel)
        except ParseError as exc:
            h.update(f"refused: {exc.reason}".encode())
            continue
        file_sha = hashlib.sha256(data).digest()
        h.update(file_sha)
        size += len(data)
        if size <= KEEP_BYTES:
            kept[rel], sums[rel] = data, file_sha.hex()
    for p in rd.problems:
        h.update(f"\0{p.path}\0{p.message}".encode("utf-8", "surrogateescape"))
    return h.hexdigest(), kept, sums


def load_result_dir(
    rd: ResultDir,
    known_sha256: str | None = None,
    code_version: str = "",
    compliance_round: str | None = None,
) -> LoadedResult:
    """Read and parse one result folder: its runs, systems file and scaling.json.

    Reads the files under ``rd.repo_root`` through ``safe_tree``. The content hash
    covers every file it reads, the folder's problems and ``code_version`` (the
    caller's hash of the parsing and scoring code); when it equals ``known_sha256``
    nothing is parsed (``unchanged=True``). Never raises for bad content: problems
    come back in ``problems``; OSError (an unreadable file) propagates.
    ``compliance_round``: check each run log with that round's compliance rules
    (:func:`parse_log`).
    """
    digest, kept, sums = _content_hash(rd, code_version)
    if digest == known_sha256:
        return LoadedResult(dir=rd, content_sha256=digest, unchanged=True)
    problems: list[Problem] = list(rd.problems)
    system = _load_system(rd, kept, problems)
    scaling, scaling_error = _load_scaling(rd, kept, problems)
    runs = []
    for rel in rd.runs:
        run = _load_run(rd, rel, kept.pop(rel, None), compliance_round, sums.get(rel))
        problems += run.parse_errors + run.warnings
        runs.append(run)
    if not rd.runs:
        problems.append(Problem(rd.path, None, "no result_*.txt files in result folder"))
    logs, failed = _load_power(rd, kept, problems)
    return LoadedResult(
        dir=rd,
        content_sha256=digest,
        unchanged=False,
        system=system,
        scaling_factor=scaling,
        scaling_error=scaling_error,
        runs=tuple(runs),
        problems=tuple(problems),
        power_logs=logs,
        power_failed=failed,
    )


def _load_power(
    rd: ResultDir, kept: dict[str, bytes], problems: list[Problem]
) -> tuple[tuple[tuple[str, tuple[Any, ...]], ...], tuple[str, ...]]:
    """The power logs parsed (``training_power.parse_power_log``) and those that failed."""
    logs, failed = [], []
    for rel in rd.power_files:
        try:
            data = kept.pop(rel, None) or _read(rd, "power", rel)
            logs.append((rel, training_power.parse_power_log(data, rel)))
        except ParseError as exc:
            problems.append(Problem(exc.path or rel, exc.line, exc.reason))
            failed.append(rel)
    return tuple(logs), tuple(failed)


def _load_system(rd: ResultDir, kept: dict[str, bytes], problems: list[Problem]) -> Any:
    if rd.system_file is None:
        problems.append(Problem(rd.path, None, f"no systems file for system {rd.system_folder!r}"))
        return None
    parse = parse_entry_json if rd.system_file.endswith("entry.json") else parse_systems_json
    try:
        data = kept.get(rd.system_file) or _read(rd, "system", rd.system_file)
        system = parse(data, rd.system_file)
    except ParseError as exc:
        problems.append(Problem(exc.path or rd.system_file, exc.line, exc.reason))
        return None
    problems += system.problems
    return system


def _load_scaling(
    rd: ResultDir, kept: dict[str, bytes], problems: list[Problem]
) -> tuple[float | None, str]:
    if not rd.scaling_file:
        return None, ""
    try:
        data = kept.get(rd.scaling_file) or _read(rd, "scaling", rd.scaling_file)
        return parse_scaling_json(data, rd.scaling_file), ""
    except ParseError as exc:
        problems.append(Problem(exc.path or rd.scaling_file, exc.line, exc.reason))
        return None, exc.reason


def _load_run(
    rd: ResultDir,
    rel: str,
    data: bytes | None,
    compliance_round: str | None = None,
    sha256: str | None = None,
) -> ParsedRun:
    """One run log parsed (``data``: its bytes as hashed, whose hex sha256 is ``sha256``;
    None: read now); a log refused by ``safe_tree`` or one that the parser cannot read
    is a run without log lines (it fails), with the reason."""
    try:
        if data is None:
            data, sha256 = _read(rd, "run", rel), None
    except ParseError as exc:
        return ParsedRun(
            path=rel,
            sha256=hashlib.sha256(b"").hexdigest(),
            size=0,
            log_format="none",
            parse_errors=(Problem(rel, None, exc.reason),),
            compressed_log=logcodec.compress(b""),
        )
    try:
        return parse_log(data, rel, compliance_round=compliance_round, sha256=sha256)
    except Exception as exc:  # noqa: BLE001 - one unreadable log must not stop the round
        problem = Problem(rel, None, f"cannot read log: {type(exc).__name__}: {exc}")
        return ParsedRun(
            path=rel,
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
            log_format="none",
            parse_errors=(problem,),
            parse_error_count=1,
            compressed_log=logcodec.compress(data),
        )
