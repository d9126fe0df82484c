"""One MLPerf Storage result read and judged: the folder holding a result's
``mlperf_storage_report.json`` (Submission_guidelines.md at mlcommons/storage v1.0,
"What to submit": the report is written per result by ``benchmark.sh reportgen``) with
its runs' DLIO summaries below it, recomputed with :mod:`benchdb.mlperf.storage.rules`.
The report is read only to be compared: the value comes from the summaries.

Pure (no Django): the safe tree walk (``ingest.parsers.safe_tree``), the parsers of
``ingest.storage.parsers.files`` and the rules.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from typing import Any

from benchdb.mlperf.storage import rules
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem
from ingest.storage.parsers import files as parse

REPORT = "mlperf_storage_report.json"
SUMMARY = "summary.json"
#: Largest summary/report/config read (they are 2-8 KB in v1.0).
SMALL_BYTES = 2**20
#: Folders below a division at which a result tree starts (``<div>/<org>/results``).
DIVISIONS = ("closed", "open")


@dataclass(frozen=True)
class Run:
    """One run: its name (the first folder below the result's common prefix, as
    ``report.py`` names it), its summaries and what the rules made of them."""

    name: str
    summaries: tuple[parse.Summary, ...]
    figures: rules.RunFigures | None
    au_threshold: float | None
    au_mean_percentage: float | None


@dataclass(frozen=True)
class StorageRecord:
    """A result folder read and judged. ``status`` "valid" or "invalid" (``reason``: the
    first refusal); ``overall`` None when no run could be read; ``published`` the
    report's figures (None when it could not be read)."""

    path: str
    division: str
    submitter: str
    system: str
    model: str
    accelerator: str
    accelerators: int | None
    runs: tuple[Run, ...]
    overall: rules.Overall | None
    status: str
    reason: str
    published: parse.Report | None
    system_path: str
    system_json: dict[str, Any] | None
    files: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...] = field(default=())


def find_results(root: str) -> tuple[list[str], list[Problem]]:
    """The result folders under ``root`` (a round's repository): every folder holding
    ``mlperf_storage_report.json``, sorted; code folders and hidden ones are not
    entered. Problems: folders that cannot be listed, and a ``summary.json`` under no
    result folder (a result submitted without its report)."""
    found, problems = [], []

    def descend(name: str) -> bool:
        low = name.lower()
        return not name.startswith(".") and low != "code" and not low.endswith("_code")

    runs = []
    for here, listing in safe_tree.walk(root, "", max_depth=12, descend=descend):
        if isinstance(listing, Exception):
            problems.append(Problem(here, None, f"not read: {listing}"))
        elif REPORT in listing.files:
            found.append(here)
        elif SUMMARY in listing.files:
            runs.append(f"{here}/{SUMMARY}")
    for path in runs:  # a run whose result folder has no report is not a result
        if not any(path.startswith(f"{f}/") for f in found):
            note = f"no {REPORT} in any folder above it: not part of a result"
            problems.append(Problem(path, None, note, "warning"))
    return sorted(found), problems


def _natural(name: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _summaries(root: str, rel: str) -> list[str]:
    out = []
    for here, listing in safe_tree.walk(root, rel, max_depth=6):
        if not isinstance(listing, Exception) and SUMMARY in listing.files:
            out.append(f"{here}/{SUMMARY}")
    return out


def group_runs(rel: str, summary_paths: list[str]) -> dict[str, list[str]]:
    """Run name -> its summaries: the first folder below ``rel`` after the folders every
    summary shares (``runs/run1/summary.json`` -> ``run1``; ``run1/c008/summary.json``
    -> ``run1``). ``report.py`` names a run by the first folder below the folder it was
    run on; submitters moved reports up or down, so the shared prefix is skipped."""
    parts = [p[len(rel) + 1 :].split("/")[:-1] for p in summary_paths]
    n = 0
    while parts and all(len(p) > n + 1 for p in parts) and len({p[n] for p in parts}) == 1:
        n += 1
    runs: dict[str, list[str]] = {}
    for path, p in zip(summary_paths, parts, strict=True):
        runs.setdefault(p[n] if p else "", []).append(path)
    return {k: runs[k] for k in sorted(runs, key=_natural)}


class _Reader:
    def __init__(self, root: str) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.files: list[tuple[str, str]] = []

    def read(self, rel: str) -> bytes | None:
        try:
            data = safe_tree.read_file(self.root, rel, SMALL_BYTES)
        except (ParseError, OSError) as exc:
            self.problems.append(Problem(rel, None, f"not read: {exc}"))
            return None
        self.files.append((rel, hashlib.sha256(data).hexdigest()))
        return data

    def parsed(self, rel: str, fn: Any, *, warn: bool = False) -> Any:
        """``fn(bytes, rel)``, or None with a problem naming the file (and line) when it
        cannot be read or parsed; ``warn``: the problem is a warning (a file
        ``report.py`` does not read: a system description, a run's ``config.yaml``)."""
        before = len(self.problems)
        data = self.read(rel)
        value = None
        if data is not None:
            try:
                value = fn(data, rel)
            except ParseError as exc:
                field = f" ({exc.field})" if exc.field else ""
                self.problems.append(Problem(exc.path or rel, exc.line, exc.reason + field))
        if warn:
            self.problems[before:] = [
                replace(p, severity="warning") for p in self.problems[before:]
            ]
        return value


def _check_summary(
    s: parse.Summary, cfg: parse.RunConfig | None
) -> tuple[list[Problem], float | None]:
    """DLIO's figures of one summary recomputed from its epochs (``StatsCounter.end_run``):
    errors when a stored figure is not what its epochs give; (problems, AU mean)."""
    out = []

    def line(key: str) -> int | None:
        return dict(s.lines).get(key)

    if rules.epoch_mean(s.epoch_samples_per_second) != s.mean_samples_per_second:
        got = rules.epoch_mean(s.epoch_samples_per_second)
        out.append(
            Problem(
                s.path,
                line("train_throughput_mean_samples_per_second"),
                f"train_throughput_mean_samples_per_second {s.mean_samples_per_second!r} "
                f"is not the mean of its epochs ({got!r})",
            )
        )
    if cfg is None:
        return out, None
    au_mean, meets = rules.au_check(s.au_percentages, cfg.au)
    if meets != (s.au_meet_expectation == "success"):
        out.append(
            Problem(
                s.path,
                line("train_au_meet_expectation"),
                f"train_au_meet_expectation {s.au_meet_expectation!r}: the epochs' mean AU "
                f"{au_mean:.4f}% is {'at or over' if meets else 'under'} {cfg.au * 100:g}%",
            )
        )
    mbps = rules.io_mb_per_second(s.epoch_samples_per_second, cfg.record_length)
    if mbps != s.io_mean_mb_per_second:
        out.append(
            Problem(
                s.path,
                line("train_io_mean_MB_per_second"),
                f"train_io_mean_MB_per_second {s.io_mean_mb_per_second!r} is not "
                f"{mbps!r} (mean samples/s x record_length {cfg.record_length:g} / 2^20)",
            )
        )
    return out, au_mean


def _run(reader: _Reader, name: str, paths: list[str]) -> Run:
    summaries = [s for p in paths if (s := reader.parsed(p, parse.parse_summary))]
    first = paths[0].rsplit("/", 1)[0]
    workload = reader.parsed(f"{first}/configs/overrides.yaml", parse.parse_overrides)
    cfg = reader.parsed(f"{first}/configs/config.yaml", parse.parse_config, warn=True)
    au_means = []
    for s in summaries:
        found, au_mean = _check_summary(s, cfg)
        reader.problems += found
        if au_mean is not None:
            au_means.append(au_mean)
    if len(summaries) != len(paths) or workload is None:
        return Run(name, tuple(summaries), None, cfg.au if cfg else None, None)
    figures = rules.RunFigures(
        name=name,
        samples_per_second=rules.run_sum([s.mean_samples_per_second for s in summaries]),
        mb_per_second=rules.run_sum([s.io_mean_mb_per_second for s in summaries]),
        model=workload[0],
        accelerator=workload[1],
        accelerators=sum(s.num_accelerators for s in summaries),
        num_files_train=summaries[0].num_files_train,
        num_samples_per_file=summaries[0].num_samples_per_file,
        au_fail=tuple(s.path for s in summaries if s.au_meet_expectation == "fail"),
    )
    au = au_means[0] if len(au_means) == 1 else None
    return Run(name, tuple(summaries), figures, cfg.au if cfg else None, au)


def _system(reader: _Reader, division: str, submitter: str, system: str) -> tuple[str, Any]:
    folder = f"{division}/{submitter}/systems"
    try:
        names = safe_tree.list_dir(reader.root, folder).files
    except (ParseError, OSError):
        names = ()
    match = [n for n in names if n.lower() == f"{system.lower()}.json"]
    described = [n for n in names if n.lower().endswith(".json") and n.lower() != "schema.json"]
    if not match and len(described) == 1:
        match = described
        note = f"no {system}.json: {described[0]}, the only description of {submitter}, is taken"
        reader.problems.append(Problem(folder, None, note, "warning"))
    if not match:
        note = f"no {system}.json: the system is not described"
        reader.problems.append(Problem(folder, None, note, "warning"))
        return "", None
    # report.py never reads the systems folder: a description it cannot read is a warning
    return f"{folder}/{match[0]}", reader.parsed(
        f"{folder}/{match[0]}", parse.parse_system, warn=True
    )


def read_result(root: str, rel: str) -> StorageRecord:
    """The result folder ``rel`` (a folder holding the report) of the repository at
    ``root``, read and judged. Never raises for bad input: what cannot be read is a
    problem naming the file and line, and the result is then invalid."""
    reader = _Reader(root)
    parts = rel.split("/")
    division, submitter = (parts + ["", ""])[:2]
    system = parts[3] if len(parts) > 3 and parts[2].lower() == "results" else ""
    published = reader.parsed(f"{rel}/{REPORT}", parse.parse_report)
    runs = [
        _run(reader, name, paths) for name, paths in group_runs(rel, _summaries(root, rel)).items()
    ]
    system_path, system_json = (
        _system(reader, division, submitter, system) if system else ("", None)
    )
    figures = [r.figures for r in runs if r.figures is not None]
    why = rules.refusals(figures)
    if len(figures) != len(runs):
        why.insert(0, f"{len(runs) - len(figures)} run(s) could not be read")
    errors = [p for p in reader.problems if p.severity == "error"]
    why += [f"{p.path}{':' + str(p.line) if p.line else ''}: {p.message}" for p in errors]
    overall = rules.overall(figures) if figures else None
    if published and overall:
        reader.problems += _against_report(rel, published, overall)
    first = figures[0] if figures else None
    return StorageRecord(
        path=rel,
        division=division.lower(),
        submitter=submitter,
        system=system,
        model=first.model if first else "",
        accelerator=first.accelerator if first else "",
        accelerators=first.accelerators if first else None,
        runs=tuple(runs),
        overall=overall,
        status="invalid" if why or not figures else "valid",
        reason=(why[0] if why else "" if figures else "no run could be read")[:2000],
        published=published,
        system_path=system_path,
        system_json=system_json,
        files=tuple(reader.files),
        problems=tuple(reader.problems),
    )


#: Relative difference under which a recomputed mean is the report's up to the order
#: of ``np.mean``'s additions (``report.py`` sums in ``os.walk`` order): a few ulps.
ORDER_TOLERANCE = 1e-14


def _against_report(rel: str, rep: parse.Report, o: rules.Overall) -> list[Problem]:
    ours = {
        "train_throughput_mean_samples_per_second": o.samples_per_second,
        "train_throughput_mean_MB_per_second": o.mb_per_second,
    }
    out = []
    for key, theirs in rep.overall:
        if key in ours and abs(ours[key] - theirs) > ORDER_TOLERANCE * abs(theirs):
            out.append(
                Problem(
                    f"{rel}/{REPORT}",
                    None,
                    f"{key}: published {theirs!r}, the runs' summaries give {ours[key]!r}",
                    "warning",
                )
            )
    return out
