"""An MLPerf Tiny round's tree -> judged records, pure (files through
``ingest.parsers.safe_tree``: no link followed, sizes bounded).

Layout (the round's ``README.md``, ``directory_structure.adoc``):
``<division>/<submitter>/systems/<system>.json`` and
``<division>/<submitter>/results/<system>/<model>/{performance,accuracy,energy}/
{results.txt,log.txt,...}``. A file that cannot be read or parsed becomes a problem
naming the file and line; its result is judged without it and the round goes on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from benchdb.mlperf.tiny import checks, rules
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem
from ingest.tiny.parsers.runner import RunnerResults, SystemDescription, parse_results, parse_system

TESTS = ("performance", "accuracy", "energy")
#: Files kept with a result (compressed): the runner's summaries and logs.
KEPT = ("results.txt", "log.txt")
_SHORT = {"performance": "perf", "accuracy": "acc", "energy": "energy"}


@dataclass(frozen=True)
class TinyFile:
    """A file of a result: path relative to the round's root, size, sha256, bytes."""

    path: str
    kind: str
    size: int
    sha256: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class TinyRecord:
    """One judged result: ``path`` = ``<division>/<submitter>/results/<system>/<model>``."""

    path: str
    division: str
    submitter: str
    system: str
    model_folder: str
    system_description: SystemDescription | None
    judgement: checks.Judgement
    files: tuple[TinyFile, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class RoundRead:
    """Every record of a round and the problems of the tree itself."""

    records: tuple[TinyRecord, ...]
    problems: tuple[Problem, ...]


def _problem(exc: Exception, path: str) -> Problem:
    if isinstance(exc, ParseError):
        return Problem(exc.path or path, exc.line, exc.reason)
    return Problem(path, None, f"{type(exc).__name__}: {exc}")


def read_round(root: str, version: str) -> RoundRead:
    """Read and judge every result folder under ``root`` (a Tiny results repository of
    round ``version``, a key of :data:`benchdb.mlperf.tiny.rules.ROUNDS`)."""
    records, problems = [], []
    for division in rules.VALID_DIVISIONS:
        if safe_tree.kind(root, division) != "dir":
            continue
        for submitter in safe_tree.list_dir(root, division).dirs:
            base = f"{division}/{submitter}"
            if safe_tree.kind(root, f"{base}/results") != "dir":
                continue
            systems: dict[str, SystemDescription | None] = {}
            try:
                listing = safe_tree.list_dir(root, f"{base}/results")
            except (ParseError, OSError) as exc:
                problems.append(_problem(exc, f"{base}/results"))
                continue
            for system in listing.dirs:
                desc = _system(root, base, system, systems, problems)
                try:
                    models = safe_tree.list_dir(root, f"{base}/results/{system}").dirs
                except (ParseError, OSError) as exc:
                    problems.append(_problem(exc, f"{base}/results/{system}"))
                    continue
                for model in models:
                    records.append(_record(root, version, f"{base}/results/{system}/{model}", desc))
    return RoundRead(tuple(records), tuple(problems))


def _system(
    root: str,
    base: str,
    system: str,
    cache: dict[str, SystemDescription | None],
    problems: list[Problem],
) -> SystemDescription | None:
    rel = f"{base}/systems/{system}.json"
    if rel not in cache:
        cache[rel] = None
        if safe_tree.kind(root, rel) == "file":
            try:
                cache[rel] = parse_system(
                    safe_tree.read_file(root, rel, safe_tree.SYSTEM_BYTES), rel
                )
            except (ParseError, OSError) as exc:
                problems.append(_problem(exc, rel))
    return cache[rel]


def _read(root: str, rel: str, files: list[TinyFile], problems: list[Problem]) -> bytes | None:
    if safe_tree.kind(root, rel) != "file":
        return None
    try:
        data = safe_tree.read_file(root, rel, safe_tree.LOG_BYTES)
    except (ParseError, OSError) as exc:
        problems.append(_problem(exc, rel))
        return None
    test, name = rel.rsplit("/", 2)[-2:]
    kind = f"{_SHORT.get(test, test)[:8]}-{name.split('.')[0][:7]}"
    files.append(TinyFile(rel, kind, len(data), hashlib.sha256(data).hexdigest(), data))
    return data


def _parsed(
    root: str, rel: str, files: list[TinyFile], problems: list[Problem]
) -> RunnerResults | None:
    data = _read(root, rel, files, problems)
    if data is None:
        return None
    try:
        return parse_results(data, rel)
    except ParseError as exc:
        problems.append(_problem(exc, rel))
        return None


def _windows(
    path: str, perf: RunnerResults | None, log: RunnerResults | None
) -> tuple[checks.Window, ...]:
    """The performance windows: ``results.txt``'s, else ``log.txt``'s (v1.3 runners that
    print only the median in ``results.txt``)."""
    src = perf if perf is not None and perf.windows else log
    if src is None:
        return ()
    return tuple(checks.Window(w.value, src.path, w.line) for w in src.windows)


def _record(root: str, version: str, path: str, desc: SystemDescription | None) -> TinyRecord:
    division, submitter, _, system, model = path.split("/")
    files: list[TinyFile] = []
    problems: list[Problem] = []
    results: dict[str, tuple[str, list[str]]] = {}
    parsed: dict[str, RunnerResults | None] = {}
    for test in TESTS:
        rel = f"{path}/{test}/results.txt"
        parsed[test] = _parsed(root, rel, files, problems)
        data = next((f.data for f in files if f.path == rel), None)
        if data is not None:
            results[test] = (rel, data.decode("utf-8", "replace").splitlines())
        log = f"{path}/{test}/log.txt"
        if test == "performance":  # its windows, when results.txt has none
            parsed["performance/log"] = _parsed(root, log, files, problems)
        else:
            _read(root, log, files, problems)
    energy = parsed["energy"]
    f = checks.ResultFiles(
        version=version,
        division=division,
        model_folder=model,
        folder=path,
        status=desc.status if desc is not None else None,
        results=results,
        windows=_windows(path, parsed["performance"], parsed["performance/log"]),
        energies=tuple(checks.Window(w.value, energy.path, w.line) for w in energy.energies)
        if energy is not None
        else (),
    )
    return TinyRecord(
        path=path,
        division=division,
        submitter=submitter,
        system=system,
        model_folder=model,
        system_description=desc,
        judgement=checks.judge(f),
        files=tuple(files),
        problems=tuple(problems),
    )
