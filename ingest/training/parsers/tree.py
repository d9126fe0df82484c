"""Finding the result folders of an MLPerf Training results repository. Pure: no Django.

Every folder is listed through :mod:`ingest.parsers.safe_tree`: no symbolic link is
followed and walks are bounded in depth. What is found but not read is a
:class:`~ingest.parsers.types.Problem`: a link, a name that is not printable UTF-8
or longer than the database keeps, a folder that differs from another only by case
(``graphcore/`` beside ``Graphcore/``), a benchmark folder that is another name of
one beside it (``resnet50/`` beside ``resnet/``). Each such thing is read once, or
not at all, never twice.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from benchdb.vocabulary import canonical_benchmark
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem, ResultDir
from ingest.training.parsers import power as training_power

RUN_FILE = re.compile(r"^result_.*\.txt\Z")  # result_summarizer globs result_*.txt
ROUND_DIR = re.compile(r"training_results_v(\d+\.\d+)")
#: The repository name of each suite's rounds (``hpc_results_v1.0`` for MLPerf HPC).
ROUND_DIRS = {"training": ROUND_DIR, "hpc": re.compile(r"hpc_results_v(\d+\.\d+)")}
#: MLPerf HPC from v1.0: ``results/<system>/{strong,weak}/<benchmark>/``
#: (``result_summarizer._compute_{strong,weak}_scaling_scores`` at hpc-1.0.0-rc2).
HPC_SCALING_TYPES = ("strong", "weak")

#: Widths of the database columns that keep these names (``benchdb.models``: the
#: submitter folder, the system folder, ``Benchmark.key``, ``Result.source_path``).
MAX_SUBMITTER_FOLDER = 200
MAX_SYSTEM_FOLDER = 300
MAX_BENCHMARK_FOLDER = 64
MAX_PATH = 500
#: Folders walked below ``v0.5.0/<org>`` to find a submission's ``results`` (the
#: deepest in v0.5 is 2: ``google/cloud_v3.8/resnet-tpuv3-8/results``).
MAX_V05_DEPTH = 6


@dataclass(frozen=True)
class Discovery:
    """A repository's result folders (in path order) and what was not read."""

    dirs: tuple[ResultDir, ...]
    problems: tuple[Problem, ...]


def infer_round(repo_root: str, suite: str = "training") -> str | None:
    """``.../training_results_v1.1`` -> ``"v1.1"`` (``hpc_results_v1.0`` with
    ``suite="hpc"``); also reads a git remote URL (``.git/config``, not followed if a
    link)."""
    round_dir = ROUND_DIRS[suite]
    m = round_dir.search(os.path.basename(os.path.abspath(repo_root)))
    if m:
        return "v" + m.group(1)
    try:
        config = safe_tree.read_file(repo_root, ".git/config", safe_tree.TEXT_BYTES, head=True)
    except (OSError, ParseError):
        return None
    m = round_dir.search(config.decode("utf-8", errors="replace"))
    return "v" + m.group(1) if m else None


def find_repositories(folder: str, suite: str = "training") -> list[str]:
    """A results repository, or a folder of them named as the repositories are
    (``training_results_v*``, or ``hpc_results_v*`` with ``suite="hpc"``).

    Returns the repository roots, sorted by round. Linked repositories are not
    followed (:func:`linked_repositories` names them).
    """
    if infer_round(folder, suite) or _has_submitters(folder):
        return [folder]
    subs = [d for d in safe_tree.list_dir(folder).dirs if ROUND_DIRS[suite].fullmatch(d)]
    subs.sort(key=lambda d: tuple(int(x) for x in d.rsplit("_v", 1)[1].split(".")))
    return [f"{folder.rstrip('/')}/{d}" for d in subs]


def linked_repositories(folder: str, suite: str = "training") -> list[str]:
    """Names in ``folder`` that look like repositories but are symbolic links."""
    try:
        links = safe_tree.list_dir(folder).links
    except (OSError, ParseError):
        return []
    return [d for d in links if ROUND_DIRS[suite].fullmatch(d)]


def _has_submitters(folder: str) -> bool:
    return any(
        safe_tree.kind(folder, f"{d}/results") == "dir" for d in safe_tree.list_dir(folder).dirs
    )


def discover_results(repo_root: str, round_version: str = "") -> list[ResultDir]:
    """Every result folder of a repository (:func:`discover_tree` without its
    problems)."""
    return list(discover_tree(repo_root, round_version).dirs)


def discover_tree(repo_root: str, round_version: str = "", suite: str = "training") -> Discovery:
    """Every result folder of a repository, v0.5 layout included, and the problems
    of what was found but not read.

    v0.6 on: ``<Submitter>/results/<system>/<benchmark>/result_*.txt`` with
    ``<Submitter>/systems/<system>.json``. v0.5:
    ``v0.5.0/<org>/<submission>/results/<system>/<benchmark>/result_*.txt`` with
    ``.../results/<system>/entry.json``. Only ``result_*.txt`` directly in the
    benchmark folder counts (``result_summarizer._compute_strong_score_standalone``).
    ``round_version`` tells which benchmark folders are the same benchmark
    (``benchdb.vocabulary.canonical_benchmark``); without it, aliases are read
    without the round's renames. Raises OSError if ``repo_root`` cannot be listed.

    ``suite="hpc"``: MLPerf HPC, ``results/<system>/<benchmark>/`` in v0.7 (strong
    scaling only) and ``results/<system>/{strong,weak}/<benchmark>/`` from v1.0,
    where the summarizer reads nothing else; the result's ``benchmark_folder`` is
    then ``strong/<benchmark>`` (one system has a strong and a weak result).
    """
    finder = _Finder(repo_root, round_version or "v0.5", suite)
    if safe_tree.kind(repo_root, "v0.5.0") == "dir":
        for org in finder.subdirs("v0.5.0", "organization"):
            rel = f"v0.5.0/{org}"
            if not finder.too_long(rel, org, MAX_SUBMITTER_FOLDER, "organization folder name"):
                finder.walk_v05(rel, org)
    else:
        for submitter in finder.subdirs("", "submitter"):
            finder.submitter(submitter)
    return Discovery(tuple(finder.found), tuple(finder.problems))


def _join(*parts: str) -> str:
    return "/".join(p for p in parts if p)


class _Finder:
    """Walks one repository; keeps the result folders found and the problems."""

    def __init__(self, root: str, round_version: str, suite: str = "training") -> None:
        self.root = root
        self.round_version = round_version
        self.suite = suite
        self.found: list[ResultDir] = []
        self.problems: list[Problem] = []

    def problem(self, rel: str, message: str, sink: list[Problem] | None = None) -> None:
        (self.problems if sink is None else sink).append(Problem(rel, None, message))

    def listing(self, rel: str, sink: list[Problem] | None = None) -> safe_tree.Listing | None:
        """The folder's listing, with its odd names recorded; None if refused."""
        try:
            listing = safe_tree.list_dir(self.root, rel)
        except (OSError, ParseError) as exc:
            return self.noted(rel, exc, sink)
        return self.noted(rel, listing, sink)

    def noted(
        self,
        rel: str,
        listing: safe_tree.Listing | ParseError | OSError,
        sink: list[Problem] | None = None,
    ) -> safe_tree.Listing | None:
        """``listing`` after recording its problems (odd names, a cut listing), or
        None after recording why the folder was not listed."""
        if isinstance(listing, (OSError, ParseError)):
            exc = listing
            why = exc.reason if isinstance(exc, ParseError) else f"{type(exc).__name__}: {exc}"
            self.problem(rel, why if why.endswith("not read") else f"folder not read: {why}", sink)
            return None
        if listing.truncated:
            self.problem(rel, f"over {safe_tree.MAX_ENTRIES:,} entries: the rest not read", sink)
        for name in listing.odd_names:
            if not name.startswith("."):
                self.problem(_join(rel, name), "name is not printable UTF-8: not read", sink)
        return listing

    def subdirs(self, rel: str, what: str) -> list[str]:
        """The real sub-folders of ``rel``, one per name up to case (the first in
        sorted order); links and the other spellings are problems."""
        listing = self.listing(rel)
        if listing is None:
            return []
        for name in listing.links:
            if not name.startswith("."):
                self.problem(_join(rel, name), f"{what} folder is a symbolic link, not followed")
        kept: dict[str, str] = {}
        for name in listing.dirs:
            if name.startswith("."):
                continue
            first = kept.setdefault(name.casefold(), name)
            if first != name:
                self.problem(
                    _join(rel, name),
                    f"{what} folder {name!r} differs from {first!r} only by case: "
                    f"only {first!r} is read",
                )
        return list(kept.values())

    def too_long(self, rel: str, name: str, limit: int, what: str) -> bool:
        if len(name) <= limit and len(rel) <= MAX_PATH:
            return False
        if len(name) > limit:
            self.problem(rel, f"{what} of {len(name)} characters, over the {limit} kept: not read")
        else:
            self.problem(rel, f"path of {len(rel)} characters, over the {MAX_PATH} kept: not read")
        return True

    def submitter(self, submitter: str) -> None:
        if self.too_long(submitter, submitter, MAX_SUBMITTER_FOLDER, "submitter folder name"):
            return
        listing = self.listing(submitter)
        if listing is None:
            return
        if "results" in listing.links:
            self.problem(f"{submitter}/results", "results folder is a symbolic link, not followed")
        if "results" not in listing.dirs:
            return
        systems = self.listing(f"{submitter}/systems") if "systems" in listing.dirs else None
        if "systems" in listing.links:
            self.problem(f"{submitter}/systems", "systems folder is a symbolic link, not followed")
        self.results(submitter, submitter, "", systems or _EMPTY)

    def walk_v05(self, org_rel: str, org: str) -> None:
        """v0.5 submissions nest at different depths (google/cloud_v3.8/resnet-tpuv3-8):
        every ``results`` folder below the organization's, at most
        :data:`MAX_V05_DEPTH` folders down."""
        walk = safe_tree.walk(
            self.root,
            org_rel,
            max_depth=MAX_V05_DEPTH,
            descend=lambda name: name != "results" and not name.startswith("."),
        )
        for rel, found in walk:
            listing = self.noted(rel, found)
            if listing is None:
                continue
            if "results" in listing.links:
                self.problem(f"{rel}/results", "results folder is a symbolic link, not followed")
            if "results" in listing.dirs:
                parts = rel.split("/", 2)
                prefix = parts[2] + "/" if len(parts) > 2 else ""
                self.results(rel, org, prefix, None)

    def results(
        self, base: str, submitter: str, prefix: str, systems: safe_tree.Listing | None
    ) -> None:
        """The systems of ``<base>/results``, described in ``systems`` (the listing
        of ``<base>/systems``) or, when it is None (v0.5), in
        ``results/<system>/entry.json``. v0.5 names systems per submission ("tpu" in
        several): ``prefix``, the submission path, is part of the key."""
        for system in self.subdirs(f"{base}/results", "system"):
            rel = f"{base}/results/{system}"
            if self.too_long(rel, prefix + system, MAX_SYSTEM_FOLDER, "system folder name"):
                continue
            sys_listing = self.listing(rel)
            if sys_listing is None:
                continue
            found: list[Problem] = []
            if systems is None:  # v0.5: results/<system>/entry.json
                sys_file = _file_in(sys_listing, rel, "entry.json", found)
            else:
                sys_file = _file_in(systems, f"{base}/systems", f"{system}.json", found)
            owner = (submitter, prefix + system, sys_file, found)
            if self.suite == "hpc":
                self.hpc_system(rel, sys_listing, owner)
                continue
            for bench in self.benchmarks(rel, sys_listing):
                self.benchmark(rel, bench, owner)

    def hpc_system(self, rel: str, listing: safe_tree.Listing, owner: tuple[Any, ...]) -> None:
        """MLPerf HPC: v0.7's benchmark folders are strong scaling; from v1.0 only
        those in ``strong/`` and ``weak/`` are results."""
        if self.round_version in ("v0.5", "v0.6", "v0.7"):
            for bench in self.benchmarks(rel, listing):
                self.benchmark(rel, bench, owner, "strong")
            return
        for scaling in HPC_SCALING_TYPES:
            if scaling in listing.links:
                self.problem(f"{rel}/{scaling}", "symbolic link, not followed")
            sub = self.listing(f"{rel}/{scaling}") if scaling in listing.dirs else None
            for bench in self.benchmarks(f"{rel}/{scaling}", sub or _EMPTY):
                self.benchmark(rel, f"{scaling}/{bench}", owner, scaling)

    def benchmarks(self, rel: str, listing: safe_tree.Listing) -> list[str]:
        """A system's benchmark folders, one per benchmark: the one named as the
        benchmark's key if there is one, else the first in sorted order."""
        for name in listing.links:
            if not name.startswith("."):
                self.problem(_join(rel, name), "benchmark folder is a symbolic link, not followed")
        groups: dict[str, list[str]] = {}
        for name in listing.dirs:
            if not name.startswith("."):
                groups.setdefault(canonical_benchmark(name, self.round_version), []).append(name)
        kept = []
        for key, names in groups.items():
            first = key if key in names else names[0]
            kept.append(first)
            for other in names:
                if other != first:
                    self.problem(
                        f"{rel}/{other}",
                        f"benchmark folder {other!r} is another name of {first!r} "
                        f"(benchmark {key}): only {first!r} is read",
                    )
        return sorted(kept)

    def benchmark(
        self, system_rel: str, bench: str, owner: tuple[Any, ...], scaling: str = ""
    ) -> None:
        submitter, system_folder, sys_file, sys_problems = owner
        rel = f"{system_rel}/{bench}"
        if self.too_long(rel, bench, MAX_BENCHMARK_FOLDER, "benchmark folder name"):
            return
        found: list[Problem] = list(sys_problems)
        listing = self.listing(rel, found)
        if listing is None:
            return
        refused = []
        for name in listing.links:
            if RUN_FILE.match(name) or name == "scaling.json":
                self.problem(f"{rel}/{name}", "symbolic link, not followed", found)
                refused += [f"{rel}/{name}"] if RUN_FILE.match(name) else []
        for name in listing.others:
            self.problem(f"{rel}/{name}", "not a regular file (a FIFO, socket or device)", found)
            refused += [f"{rel}/{name}"] if RUN_FILE.match(name) else []
        runs = sorted((n for n in listing.files if RUN_FILE.match(n)), key=_natural)
        if "power" in listing.links:
            self.problem(f"{rel}/power", "symbolic link, not followed", found)
        has_power = "power" in listing.dirs  # result_summarizer._has_power
        power = training_power.power_files(self.root, rel, found) if has_power else ()
        self.found.append(
            ResultDir(
                repo_root=self.root,
                submitter_folder=submitter,
                system_folder=system_folder,
                benchmark_folder=bench,
                path=rel,
                runs=tuple(f"{rel}/{n}" for n in runs),
                system_file=sys_file,
                scaling_file=f"{rel}/scaling.json" if "scaling.json" in listing.files else None,
                problems=tuple(found),
                scaling_type=scaling,
                has_power=has_power,
                power_files=power,
                refused_runs=tuple(refused),
            )
        )


_EMPTY = safe_tree.Listing((), (), (), ())


def _file_in(listing: safe_tree.Listing, rel: str, name: str, sink: list[Problem]) -> str | None:
    """``rel/name`` if it is a regular file of ``listing``; a link is a problem."""
    if name in listing.links:
        sink.append(Problem(f"{rel}/{name}", None, "symbolic link, not followed"))
    return f"{rel}/{name}" if name in listing.files else None


def _natural(name: str) -> tuple[Any, ...]:
    """``result_2.txt`` before ``result_10.txt``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))
