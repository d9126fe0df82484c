"""What every ingest service shares: the report, the error, problem rows, submitters,
finite numbers, git checkouts. The services (``ingest.training.service``,
``ingest.inference.service``)
each read their suite's files and write their suite's tables with these.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from benchdb.models import IngestProblem, Round, Submitter
from ingest import fetch
from ingest.parsers import safe_json, safe_tree
from ingest.parsers.provenance import readme_commits
from ingest.parsers.types import ParsedSystem, ParseError, Problem


class IngestError(Exception):
    """The input cannot be ingested at all (not found, round unknown)."""


@dataclass
class IngestReport:
    """Counts of one ingest. ``reasons`` counts unscored (training) or not valid
    (inference) results by reason."""

    results_seen: int = 0
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    failed: int = 0
    failed_paths: list[str] = field(default_factory=list)
    scored: int = 0
    unscored: int = 0
    runs_stored: int = 0
    problems: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    rounds: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "reasons": dict(self.reasons)}


#: Start of the problem recorded for a result folder whose transaction rolled back
#: (``ingest.jobs.run`` turns these into job errors).
NOT_STORED = "result not stored"

#: ``IngestProblem.path`` and ``.message`` widths (``message`` is text: cut to keep
#: problem lists readable).
PATH_WIDTH = 500
MESSAGE_WIDTH = 2000

#: What ``ingest mlperf-*`` clones rather than reads as a folder: any git URL
#: (an operator's command may name ssh or file:// remotes; the site fetches only http(s)).
GIT_URL = re.compile(r"^(https?://|git@|ssh://|file://).+|.+\.git$")


def not_stored(rnd: Round, path: str, why: str, report: IngestReport) -> None:
    """Count a result folder that was read but not stored, and record why (the next
    ingest reads it again: its content hash was not stored)."""
    report.failed += 1
    report.failed_paths.append(path)
    IngestProblem.objects.get_or_create(
        round=rnd,
        path=safe_tree.shorten(path, PATH_WIDTH),
        line=None,
        message=safe_json.storable(f"{NOT_STORED}: {why}")[0][:MESSAGE_WIDTH],
    )


def problem_row(rnd: Round | None, p: Problem, **result: Any) -> IngestProblem:
    """An IngestProblem for ``p``: the path shortened to fit, no NUL in the message;
    ``result`` is ``result=`` (training) or ``inference_result=`` (inference)."""
    message = safe_json.storable(p.message)[0][:MESSAGE_WIDTH]
    return IngestProblem(
        round=rnd,
        path=safe_tree.shorten(safe_tree.printable(p.path), PATH_WIDTH),
        line=p.line,
        message=message,
        severity=p.severity,
        **result,
    )


def record_problems(rnd: Round | None, problems: list[Problem] | tuple[Problem, ...]) -> None:
    """Store problems tied to no result (a second ingest adds no duplicate)."""
    IngestProblem.objects.bulk_create(
        [problem_row(rnd, p) for p in problems], ignore_conflicts=True
    )


def tree_problems_replace(rnd: Round, problems: tuple[Problem, ...]) -> int:
    """Record what the repository's walk found but did not read (links, odd or
    duplicate names); drop such problems recorded before that are gone now.
    Returns how many there are."""
    rows = [problem_row(rnd, p) for p in problems]
    current = {(r.path, r.line, r.message) for r in rows}
    stale = IngestProblem.objects.filter(round=rnd, result=None, inference_result=None).exclude(
        message__startswith=NOT_STORED
    )
    found = stale.values_list("pk", "path", "line", "message")
    gone = [pk for pk, *key in found if tuple(key) not in current]
    if gone:
        IngestProblem.objects.filter(pk__in=gone).delete()
    # Only the new ones: SQLite (the quick start) has no problem_unique constraint
    # (models.W047), so ignore_conflicts alone would store a problem again at each ingest.
    kept = {tuple(key) for _, *key in found}
    new = [r for r in rows if (r.path, r.line, r.message) not in kept]
    IngestProblem.objects.bulk_create(new, ignore_conflicts=True)
    return len(rows)


def reason_kind(reason: str) -> str:
    """A reason with its numbers as N, for counting reasons alike."""
    return re.sub(r"\d+", "N", reason.split(";")[0])


def submitter_for(folder: str, json_name: str, cache: dict[str, Submitter]) -> Submitter:
    """The submitter a folder (``NVIDIA``) and the name its systems file gives belong
    to: found by name or alias, else created; new spellings join its aliases.
    ``cache`` holds what this ingest found already (committed rows only)."""
    key = f"{folder}\0{json_name}"
    if key in cache:
        return cache[key]
    spellings = [s for s in (json_name, folder) if s]
    found = None
    for sub in Submitter.objects.all():
        if any(s in sub.aliases or s == sub.name for s in spellings):
            found = sub
            break
    if found is None:
        try:
            with transaction.atomic():
                found = Submitter.objects.create(
                    name=json_name or folder, aliases=sorted(set(spellings))
                )
        except IntegrityError:  # another ingest created it meanwhile
            found = Submitter.objects.get(name=json_name or folder)
    elif not set(spellings) <= set(found.aliases):
        found.aliases = sorted(set(found.aliases) | set(spellings))
        found.save(update_fields=["aliases"])
    cache[key] = found
    return found


def system_fields(s: ParsedSystem, division: str) -> dict[str, Any]:
    """The ``System`` columns of a parsed systems file (every suite's), ``division``
    where the file gives none."""
    return {
        "raw": s.raw,
        "name": s.system_name,
        "division": s.division or division,
        "availability": s.availability,
        "nodes": s.number_of_nodes,
        "host_processor_model": s.host_processor_model,
        "host_processors_per_node": s.host_processors_per_node,
        "accelerator_model": s.accelerator_model,
        "accelerators_per_node": s.accelerators_per_node,
        "accelerators": s.accelerators,
        "framework": s.framework,
        "software_stack": s.software_stack,
        "source_path": safe_tree.shorten(s.path, PATH_WIDTH),
    }


def finite(x: Any) -> float | None:
    """``x`` as a float if it is a finite number (not a bool), else None: PostgreSQL
    would store NaN and Infinity, and every page and export would then show them."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        f = float(x)
    except OverflowError:  # an integer beyond the float range
        return None
    return f if math.isfinite(f) else None


def git_checkout(url: str, ref: str = "") -> tuple[str, str]:
    """Clone (or fetch) ``url`` into ``BENCHDB_CACHE``; returns (folder, commit).
    Raises :class:`IngestError` when git fails (after ``ingest.fetch``'s retries)."""
    try:
        return fetch.git_checkout(url=url, ref=ref, dest=fetch.cache_dir(url))
    except (fetch.SyncError, fetch.TransientError) as exc:
        raise IngestError(str(exc)) from exc


def readme_commits_in(folder: str) -> dict[str, str]:
    """``{repository URL: commit}`` from ``folder``'s ``README.md`` (a folder of results
    repositories copied from git, as ``../shared/mlperf``), {} without one."""
    if safe_tree.kind(folder, "README.md") != "file":
        return {}
    try:
        data = safe_tree.read_file(folder, "README.md", 1024 * 1024)
    except (OSError, ParseError):
        return {}
    return readme_commits(data.decode("utf-8", errors="replace"))


def repository_url(root: str, version: str, suite: str, round_dir: re.Pattern[str]) -> str:
    """Where a results tree came from, for provenance links: the git checkout's
    ``origin`` URL (credentials dropped); else, for a folder named as MLCommons names
    its repositories (``round_dir`` matches its name: ``training_results_v1.1``,
    ``inference_results_v5.1``, as ../shared's byte-exact copies are), that public
    repository ``https://github.com/mlcommons/<suite>_results_<version>``; else the
    folder's absolute path."""
    url = fetch.git_origin_url(root)
    if url:
        return url.removesuffix(".git")
    if round_dir.fullmatch(os.path.basename(os.path.abspath(root))):
        return f"https://github.com/mlcommons/{suite}_results_{version}"
    return os.path.abspath(root)


def round_roots(
    location: str,
    round_version: str | None,
    *,
    round_dir: re.Pattern[str],
    divisions: tuple[str, ...] | frozenset[str],
    rounds: Any,
    label: str,
) -> list[tuple[str, str]]:
    """(round root, version) of each results repository under ``location``, for the
    suites read as one unit per round (Automotive, Tiny, Mobile): ``location`` itself when
    its name matches ``round_dir`` (``tiny_results_v1.2``) or it holds a division folder
    (``divisions``; the version then from ``round_version``), else each child folder
    whose name matches ``round_dir``. Raises :class:`IngestError` naming the folder when
    none is found, or when a version is not one of ``rounds`` (the suite's rule tags),
    with ``label`` ("MLPerf Tiny") in the message. Folders are listed without following
    a symlink (:mod:`ingest.parsers.safe_tree`)."""
    name = os.path.basename(os.path.abspath(location))
    m = round_dir.fullmatch(name)
    if m or any(safe_tree.kind(location, d) == "dir" for d in divisions):
        found = [(location, round_version or (m.group(1) if m else ""))]
    else:
        matches = [round_dir.fullmatch(e) for e in safe_tree.list_dir(location, "").dirs]
        found = [(os.path.join(location, m.group(0)), m.group(1)) for m in matches if m]
    if not found:
        raise IngestError(f"{location}: no {label} results repository found")
    for where, version in found:
        if version not in rounds:
            known = ", ".join(rounds)
            raise IngestError(f"{where}: cannot tell the round; pass --round (one of {known})")
    return found
