"""Ingest services: the only code that writes results into the database.

``mlperf_training_ingest`` reads a results repository (or a folder of them),
scores every result with its round's rules (``benchdb.mlperf.training.rules``) and stores each
result with its runs and logs in one short transaction. Re-running it on
unchanged input writes nothing; a broken file is recorded as an
:class:`~ingest.models.IngestProblem` and never stops the round.
"""

from __future__ import annotations

import os
import posixpath
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from django.db import transaction

from benchdb import vocabulary
from benchdb.mlperf.hpc import rules as hpc_rules
from benchdb.mlperf.training import compliance as compliance_rules
from benchdb.mlperf.training import compliance_eval, compliance_files
from benchdb.mlperf.training import energy as training_energy
from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training import scoring as training_scoring
from benchdb.mlperf.training.compliance_files import has_rules
from benchdb.models import Benchmark, IngestProblem, Result, Round, Run, RunLog, Submitter, System
from ingest import fetch, history, pipeline
from ingest.parsers import safe_json, safe_tree
from ingest.parsers import types as parser_types
from ingest.parsers.types import LoadedResult, ParsedRun, Problem, ResultDir
from ingest.result_ids import result_ids_derive
from ingest.store import (
    GIT_URL,
    NOT_STORED,
    IngestError,
    IngestReport,
    finite,
    git_checkout,
    not_stored,
    problem_row,
    readme_commits_in,
    reason_kind,
    record_problems,
    repository_url,
    submitter_for,
    system_fields,
    tree_problems_replace,
)
from ingest.training import energy as ingest_energy
from ingest.training.energy import NONE as NO_ENERGY
from ingest.training.energy import result_energy
from ingest.training.parsers import folder as training_folder
from ingest.training.parsers import log as training_log
from ingest.training.parsers import mllog as training_mllog
from ingest.training.parsers import power as training_power
from ingest.training.parsers import systems as training_systems
from ingest.training.parsers import tree as training_tree
from ingest.training.rows import (
    FILE_NAME_WIDTH,
    hpc_score,
    refused_runs_score,
    run_row,
    scaling_factor,
    set_roles,
    weak_fields,
)

__all__ = [
    "CODE_VERSION",
    "NOT_STORED",
    "IngestError",
    "IngestReport",
    "mlperf_training_ingest",
]

_SUITES = {"training": Round.Suite.TRAINING, "hpc": Round.Suite.HPC}


def mlperf_training_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    progress: bool = False,
    workers: int | None = None,
    on_result: Callable[[LoadedResult], None] | None = None,
    only_paths: set[str] | None = None,
    suite: str = "training",
) -> IngestReport:
    """Ingest MLPerf Training results from ``location`` (MLPerf HPC with
    ``suite="hpc"``: :func:`ingest.hpc.service.mlperf_hpc_ingest`).

    ``location``: a results repository (``training_results_v1.1``), a folder of them
    named as the repositories are, or a git URL (cloned into ``BENCHDB_CACHE``).
    ``round_version`` (``"v1.1"``) overrides the round inferred from the name.
    ``only_paths``: read only the result folders whose path (relative to the
    repository, ``NVIDIA/results/dgxa100/resnet``) is in it (incremental sync).
    ``on_result`` is called after each result folder is stored or found unchanged.
    Raises :class:`IngestError` when nothing can be read; problems inside the
    input are stored, counted in the report, and never raised.
    """
    if GIT_URL.match(location) and not os.path.isdir(location):
        location, commit = git_checkout(location)
    if not os.path.isdir(location):
        raise IngestError(f"{location}: no such folder")
    if suite not in _SUITES:
        raise IngestError(f"unknown suite {suite!r} (known: {', '.join(_SUITES)})")
    repos = training_tree.find_repositories(location, suite)
    report = IngestReport()
    for name in training_tree.linked_repositories(location, suite):
        record_problems(None, [Problem(name, None, "repository is a symbolic link, not followed")])
        report.problems += 1
    if not repos:
        raise IngestError(
            f"{location}: no MLPerf results repository found "
            f"(expected <Submitter>/results/ or {suite}_results_v*/)"
        )
    # A plain folder of repositories may say in its README which commit each came from.
    readme = readme_commits_in(location) if location not in repos else {}
    for repo in repos:
        version = round_version or training_tree.infer_round(repo, suite)
        if suite == "training":
            version = version or training_folder.infer_round_from_logs(repo)
        if not version:
            raise IngestError(
                f"{repo}: cannot tell the round from the folder name or the logs; pass --round vX.Y"
            )
        options = (progress, workers, on_result, only_paths, suite)
        url = repository_url(repo, version, suite, training_tree.ROUND_DIRS[suite])
        commit_of = commit or fetch.git_head(repo) or readme.get(url, "")
        _ingest_repository(repo, version, commit_of, report, *options)
    return report


def _ingest_repository(
    repo: str,
    version: str,
    commit: str,
    report: IngestReport,
    progress: bool,
    workers: int | None,
    on_result: Callable[[LoadedResult], None] | None,
    only_paths: set[str] | None = None,
    suite: str = "training",
) -> None:
    rules, rnd, url = _round_of(repo, version, suite)
    report.rounds.append(rnd.version)
    tree = training_tree.discover_tree(repo, rules.version, suite)
    report.problems += tree_problems_replace(rnd, tree.problems)
    dirs = list(tree.dirs)
    if only_paths is not None:
        dirs = [d for d in dirs if d.path in only_paths]
    known = dict(Result.objects.filter(round=rnd).values_list("source_path", "content_sha256"))
    writer = _Writer(rnd, rules, url, commit)
    check = rules.version if suite == "training" and has_rules(rules.version) else None
    loaded = _load_all(dirs, known, workers, check)
    desc = f"{'MLPerf HPC' if suite == 'hpc' else 'MLPerf Training'} {rnd.version}"
    for item in pipeline.shown(loaded, len(dirs), desc, progress):
        report.results_seen += 1
        if item.unchanged:
            report.unchanged += 1
        elif item.error:
            not_stored(rnd, item.dir.path, item.error, report)
        else:
            pipeline.store_each(partial(writer.store, item, report), rnd, item.dir.path, report)
        if on_result:
            on_result(item)
    history.sweep(
        rnd=rnd, repository=url, present=[d.path for d in tree.dirs], known=known, commit=commit
    )
    if suite == "training":
        result_ids_derive(rnd=rnd)
    summary = Result.objects.filter(round=rnd, source_path__in=[d.path for d in dirs])
    report.scored += summary.filter(status=Result.Status.SCORED).count()
    for reason in summary.filter(status=Result.Status.UNSCORED).values_list("reason", flat=True):
        report.unscored += 1
        report.reasons[reason_kind(reason)] += 1


def _round_of(
    repo: str, version: str, suite: str
) -> tuple[training_rules.Ruleset | hpc_rules.HpcRuleset, Round, str]:
    """The round's rules, its Round row (made if new) and the repository URL.
    Raises IngestError for a round the suite does not have."""
    rules: training_rules.Ruleset | hpc_rules.HpcRuleset
    try:
        if suite == "hpc":
            rules = hpc_rules.ruleset_for(version)
        else:
            rules = training_rules.ruleset_for(version)
    except ValueError as exc:
        raise IngestError(f"{repo}: {exc}") from exc
    url = repository_url(repo, rules.version, suite, training_tree.ROUND_DIRS[suite])
    rnd, _ = Round.objects.get_or_create(
        suite=_SUITES[suite],
        version=rules.version,
        defaults={"ruleset_tag": rules.tag, "repository": url},
    )
    if rnd.ruleset_tag != rules.tag:  # a round first stored under an older label ("3.0.0")
        rnd.ruleset_tag = rules.tag
        rnd.save(update_fields=["ruleset_tag"])
    return rules, rnd, url


def _load_all(
    dirs: list[ResultDir],
    known: dict[str, str],
    workers: int | None,
    compliance_round: str | None = None,
) -> Iterator[LoadedResult]:
    """Read, hash and judge result folders (``ingest.pipeline.read_all``): two reader
    processes by default, this process in Celery's daemon pool processes."""
    n = workers if workers is not None else min(2, os.cpu_count() or 1)
    args = lambda d: (d, known.get(d.path), compliance_round)  # noqa: E731
    for _d, item in pipeline.read_all(_load_one, dirs, args, _unread, n):
        yield item


def _load_one(
    d: ResultDir, known_sha256: str | None, compliance_round: str | None = None
) -> LoadedResult:
    """``load_result_dir``, with any error (an unreadable file) as ``error``."""
    try:
        item = training_folder.load_result_dir(d, known_sha256, CODE_VERSION, compliance_round)
        return ingest_energy.with_run_energies(item, compliance_round)  # None: HPC, v0.5/v0.6
    except Exception as exc:  # noqa: BLE001 - one folder must not stop the round
        return _unread(d, exc)


def _unread(d: ResultDir, exc: BaseException) -> LoadedResult:
    return LoadedResult(
        dir=d,
        content_sha256="",
        unchanged=False,
        error=f"result folder not read: {type(exc).__name__}: {exc}",
    )


def _code_version() -> str:
    """sha256 of the code that turns files into rows (parser, rules, vocabulary, this module)
    and of the vendored compliance rule files (``ingest.pipeline.code_version``): part of
    every result's content hash, so a change to any of them re-scores every result on the
    next ingest, and nothing else does."""
    modules = (
        safe_json,
        safe_tree,
        training_folder,
        training_log,
        training_mllog,
        training_systems,
    )
    modules_more = (training_tree, parser_types, training_power, training_energy, ingest_energy)
    rules = (training_rules, training_scoring, hpc_rules, compliance_rules, compliance_files)
    rules_more = (compliance_eval,)
    yaml_dir = os.path.join(os.path.dirname(compliance_rules.__file__ or ""), "compliance_yaml")
    this = sys.modules[__name__]
    return pipeline.code_version(
        (*modules, *modules_more, *rules, *rules_more, vocabulary, this), [yaml_dir]
    )


CODE_VERSION = _code_version()


class _Writer:
    """Stores loaded results of one repository; caches ids of shared rows."""

    def __init__(
        self,
        rnd: Round,
        rules: training_rules.Ruleset | hpc_rules.HpcRuleset,
        repository: str,
        commit: str,
    ) -> None:
        self.round, self.rules, self.commit = rnd, rules, commit
        self.repository = repository
        self.benchmarks: dict[str, Benchmark] = {}
        self.submitters: dict[str, Submitter] = {}

    def store(self, item: LoadedResult, report: IngestReport) -> None:
        rd = item.dir
        bench = self._benchmark(posixpath.basename(rd.benchmark_folder))
        division, system_fields = self._system_fields(item)
        runs, score, weak, power = self._score_any(item, bench.key, division)
        # Shared rows are committed first: a rolled-back result leaves no cached row.
        json_name = item.system.submitter if item.system and item.system.submitter else ""
        submitter = self._submitter(rd.submitter_folder, json_name)
        with transaction.atomic():
            before = history.result_before(Result, round=self.round, source_path=rd.path)
            system = self._system(rd, submitter, system_fields)
            result = Result.objects.filter(
                system=system, benchmark_folder=rd.benchmark_folder
            ).first()
            is_new = result is None
            result = result or Result(system=system, benchmark_folder=rd.benchmark_folder)
            for name, value in {
                "round": self.round,
                "benchmark": bench,
                "division": division,
                "score_minutes": finite(score.score_minutes),
                "mean_minutes": finite(score.mean_minutes),
                "scaling_factor": finite(score.scaling_factor) or 1.0,
                "runs_total": len(runs),
                "runs_counted": len(score.counted),
                "runs_failed": score.runs_failed,
                "status": Result.Status.SCORED
                if score.score_minutes is not None
                else Result.Status.UNSCORED,
                "reason": score.reason,
                "source_path": rd.path,
                "repository": self.repository,
                "commit": self.commit,
                "content_sha256": item.content_sha256,
                **power.fields(),
                **weak_fields(rd.scaling_type, weak),
            }.items():
                setattr(result, name, value)
            result.save()
            self._clear_earlier(result, rd.path, is_new)
            run_rows = [r for r, _ in runs]
            for r in run_rows:
                r.result = result
            Run.objects.bulk_create(run_rows)
            RunLog.objects.bulk_create(
                [RunLog(run=r, sha256=p.sha256, compressed=p.compressed_log) for r, p in runs]
            )
            history.result_changed(before=before, result=result, commit=self.commit)
            problems = [*item.problems, *self._run_problems(runs), *power.problems]
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p, result=result) for p in problems], ignore_conflicts=True
            )
        report.added += is_new
        report.changed += not is_new
        report.runs_stored += len(run_rows)
        report.problems += len(problems)

    def _clear_earlier(self, result: Result, path: str, is_new: bool) -> None:
        """What an earlier ingest of this folder left: a failure it recorded (history
        now), and the runs and problems of the result being rewritten."""
        IngestProblem.objects.filter(
            round=self.round, path=path, result=None, message__startswith=NOT_STORED
        ).delete()
        if not is_new:
            result.runs.all().delete()
            IngestProblem.objects.filter(round=self.round, result=result).delete()

    def _energy(
        self, item: LoadedResult, runs: list[tuple[Run, ParsedRun]], score: training_scoring.Score
    ) -> ingest_energy.Energy:
        """A training power result's energy (``ingest.training.energy``), set on its run rows."""
        if not item.dir.has_power:
            return NO_ENERGY
        failed = [r.role == Run.Role.FAILED for r, _ in runs]
        power = result_energy(item, [p for _, p in runs], failed, score, self.round.version)
        for (row, _), joules in zip(runs, power.runs, strict=True):
            row.energy_joules = finite(joules)
        return power

    @staticmethod
    def _run_problems(runs: list[tuple[Run, ParsedRun]]) -> list[Problem]:
        out = []
        for row, parsed in runs:
            if row.role == Run.Role.FAILED and not parsed.parse_errors:
                line = row.run_stop_line or row.run_start_line
                out.append(
                    Problem(parsed.path, line, f"run fails: {row.failure_reason}", "warning")
                )
            name = posixpath.basename(parsed.path)
            if row.file_name != name:
                why = f"file name of {len(name)} characters, over {FILE_NAME_WIDTH}"
                out.append(
                    Problem(parsed.path, None, f"{why}: stored as {row.file_name!r}", "warning")
                )
        return out

    def _score_any(
        self, item: LoadedResult, bench: str, division: str
    ) -> tuple[
        list[tuple[Run, ParsedRun]],
        training_scoring.Score,
        hpc_rules.WeakScore | None,
        ingest_energy.Energy,
    ]:
        """Runs and score under the suite's rules (HPC: and the weak-scaling figures;
        training: and the energy to train of a power result)."""
        if isinstance(self.rules, hpc_rules.HpcRuleset):
            runs, score, weak = hpc_score(item, self.rules, bench)
            return (*refused_runs_score(item, runs, score, weak), NO_ENERGY)
        runs, score = self._score(item, self.rules, bench, division)
        if item.dir.refused_runs:  # not scored: no energy either
            return (*refused_runs_score(item, runs, score, None), NO_ENERGY)
        return runs, score, None, self._energy(item, runs, score)

    @staticmethod
    def _score(
        item: LoadedResult, rules: training_rules.Ruleset, bench: str, division: str
    ) -> tuple[list[tuple[Run, ParsedRun]], training_scoring.Score]:
        rows: list[tuple[Run, ParsedRun]] = []
        minutes: list[float | None] = []
        for i, p in enumerate(item.runs):
            why, warnings = training_rules.run_failure(p, rules, bench, division)
            ttt = None
            if p.run_start_ms is not None and p.run_stop_ms is not None:
                ttt = finite(training_rules.time_to_train(p.run_start_ms, p.run_stop_ms))
            minutes.append(None if why else ttt)
            rows.append((run_row(i, p, ttt, why, warnings), p))
        score, unused = training_scoring.score_result(
            minutes, rules, bench, scaling_factor(item, rules.applies_scaling)
        )
        set_roles(rows, minutes, score, unused)
        return rows, score

    def _benchmark(self, folder: str) -> Benchmark:
        key = vocabulary.canonical_benchmark(folder, self.round.version)
        if key not in self.benchmarks:
            aliases = sorted(a for a, k in vocabulary.BENCHMARK_ALIASES.items() if k == key)
            self.benchmarks[key], _ = Benchmark.objects.get_or_create(
                key=key,
                defaults={"name": vocabulary.BENCHMARK_NAMES.get(key, key), "aliases": aliases},
            )
        return self.benchmarks[key]

    def _system_fields(self, item: LoadedResult) -> tuple[str, dict[str, Any]]:
        s = item.system
        sub = next((r.submission for r in item.runs if r.submission), {})
        logged_division = str(sub.get("division", "")).strip().lower()
        if len(logged_division) > training_systems.MAX_DIVISION:
            logged_division = ""
        if s is None:  # no readable systems file: what the logs say about themselves
            division = logged_division
            return division, {"division": division, "name": str(sub.get("platform", "")), "raw": {}}
        # A systems file without a division (v0.7 SIAT, Tencent): the logs' own.
        fields = system_fields(s, logged_division)
        return fields["division"], fields

    def _system(self, rd: ResultDir, submitter: Submitter, fields: dict[str, Any]) -> System:
        system = System.objects.filter(
            round=self.round, submitter_folder=rd.submitter_folder, folder=rd.system_folder
        ).first()
        if system is None:
            return System.objects.create(
                round=self.round,
                submitter=submitter,
                submitter_folder=rd.submitter_folder,
                folder=rd.system_folder,
                **fields,
            )
        changed = [k for k, v in fields.items() if getattr(system, k) != v]
        if changed:
            for k in changed:
                setattr(system, k, fields[k])
            system.save(update_fields=changed)
        return system

    def _submitter(self, folder: str, json_name: str) -> Submitter:
        return submitter_for(folder, json_name, self.submitters)
