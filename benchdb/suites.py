"""The one registry of MLPerf suites: what each suite is called, what it measures, its
rounds and their rule tags, and where its code lives. Models (``Round.Suite``,
``Source.Kind``), ``manage.py ingest`` and ``manage.py export``, the URL table, the
home page and the jobs read this module; nothing else lists suites.

Pure (standard library only): the code a suite names is written as dotted paths, loaded
by the caller (:func:`load`), so that ``benchdb`` never imports ``ingest`` and reading
the registry imports neither Django nor Celery. Adding a suite: ARCHITECTURE.md,
"How to add a suite".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from benchdb import vocabulary
from benchdb.mlperf.automotive.rules import CHECKER_COMMIT as AUTOMOTIVE_CHECKER
from benchdb.mlperf.automotive.rules import ROUNDS as AUTOMOTIVE_ROUNDS
from benchdb.mlperf.hpc.rules import HPC_TAGS
from benchdb.mlperf.mobile.rules import ROUNDS as MOBILE_ROUNDS
from benchdb.mlperf.storage.rules import ROUNDS as STORAGE_ROUNDS
from benchdb.mlperf.tiny.rules import ROUNDS as TINY_ROUNDS


@dataclass(frozen=True)
class Suite:
    """One MLPerf suite.

    ``name``: the value of ``Round.suite``, ``export --suite`` and the URL segment;
    ``label``: its name on pages ("MLPerf Training"); ``short``: ``Round.Suite``'s label;
    ``metric``, ``unit``, ``better`` ("lower" / "higher" / "per-benchmark"): what a
    result's score is; ``rounds``: version -> the tag or commit of the round's official
    tool the rules follow (``""``: none); ``package``: its domain package under
    ``benchdb/mlperf/`` (rules, selectors, records, views, figures, urls);
    ``result_model``: ``app_label.Model`` of its results; ``source_kind``: the
    ``Source.Kind`` value and ``manage.py ingest`` subcommand; ``ingest``: the dotted
    path of its ingest service (keyword arguments ``location``, ``round_version``,
    ``commit``, ``workers``, ``progress`` and the suite's ``ingest_options``; returns an
    ``ingest.store.IngestReport``); ``ingest_options``: the extra options its
    subcommand takes (``model_map``); ``export_rows``: dotted path of ``f(**filters) ->
    list[dict]`` (the rows of ``export_schema``, a schema name of
    :mod:`benchdb.tables.schemas`); ``rounds_url``: URL name of its rounds page;
    ``claim_kinds``: the claim kinds checked against its results
    (``benchdb.claims.facts``); ``claim_checks``: how a claim about its results is
    checked, the family of ``benchdb.claims.facts.CHECKS`` (``time-to-train``,
    ``throughput``; "": no claims row, its claims are not resolved to its results);
    ``source_label``: how a sync source of the suite is
    named (``Source.Kind``; "" when its repositories cannot be a sync source yet);
    ``report_words``: how ``manage.py ingest`` words its report (scored, unscored,
    what is stored besides results, the reasons' heading)."""

    name: str
    label: str
    short: str
    metric: str
    unit: str
    better: str
    rounds: Mapping[str, str]
    package: str
    result_model: str
    source_kind: str
    ingest: str
    export_rows: str
    export_schema: str
    rounds_url: str
    claim_kinds: tuple[str, ...] = ()
    claim_checks: str = ""
    ingest_options: tuple[str, ...] = field(default=())
    source_label: str = ""
    report_words: tuple[str, str, str, str] = ("scored", "without score", "runs", "no score")


_TRAINING_TAGS = {v: tag for v, (_date, tag) in vocabulary.ROUNDS.items()}

SUITES: tuple[Suite, ...] = (
    Suite(
        name="training",
        label="MLPerf Training",
        short="Training",
        metric="time to train",
        unit="minutes",
        better="lower",
        rounds=_TRAINING_TAGS,
        package="benchdb.mlperf.training",
        result_model="benchdb.Result",
        source_kind="mlperf-training",
        ingest="ingest.training.service.mlperf_training_ingest",
        export_rows="benchdb.mlperf.training.selectors.export_rows",
        export_schema="benchdb.results/1",
        rounds_url="benchdb:training_rounds",
        claim_kinds=("time-to-train", "speedup", "gain"),
        claim_checks="time-to-train",
        source_label="MLPerf Training results repository",
    ),
    Suite(
        name="inference",
        label="MLPerf Inference",
        short="Inference",
        metric="throughput or latency per scenario",
        unit="per benchmark and scenario (samples/s, queries/s, tokens/s, ms)",
        better="per-benchmark",
        rounds=vocabulary.INFERENCE_ROUNDS,
        package="benchdb.mlperf.inference",
        result_model="benchdb.InferenceResult",
        source_kind="mlperf-inference",
        ingest="ingest.inference.service.mlperf_inference_ingest",
        export_rows="benchdb.mlperf.inference.selectors.export_rows",
        export_schema="benchdb.inference_results/1",
        rounds_url="benchdb:inference_rounds",
        claim_kinds=("throughput", "speedup", "gain"),
        claim_checks="throughput",
        ingest_options=("model_map",),
        source_label="MLPerf Inference results repository",
        report_words=("valid", "not", "files", "not valid"),
    ),
    Suite(
        name="hpc",
        label="MLPerf HPC",
        short="HPC",
        metric="time to train",
        unit="minutes",
        better="lower",
        rounds=HPC_TAGS,
        package="benchdb.mlperf.hpc",
        result_model="benchdb.Result",
        source_kind="mlperf-hpc",
        ingest="ingest.hpc.service.mlperf_hpc_ingest",
        export_rows="benchdb.mlperf.hpc.selectors.export_rows",
        export_schema="benchdb.hpc_results/1",
        rounds_url="benchdb:hpc_rounds",
        claim_kinds=("time-to-train", "speedup", "gain"),
        # HPC's closed (strong-scaling) score is a time to train, the mean of its runs
        # after dropping the fastest and slowest, as Training's (mlperf_logging
        # result_summarizer at the HPC round's tag); MLCommons publishes no spread of its
        # own for HPC, so Training's figure for non-imaging benchmarks (5%) is applied.
        # Weak-scaling results have no time to train and are not among the claims' facts.
        claim_checks="time-to-train",
    ),
    Suite(
        name="automotive",
        label="MLPerf Automotive",
        short="Automotive",
        metric="99.9th percentile latency per scenario (SingleStream, ConstantStream)",
        unit="ms",
        better="lower",
        rounds={v: AUTOMOTIVE_CHECKER for v in AUTOMOTIVE_ROUNDS},
        package="benchdb.mlperf.automotive",
        result_model="benchdb.InferenceResult",
        source_kind="mlperf-automotive",
        ingest="ingest.automotive.service.mlperf_automotive_ingest",
        export_rows="benchdb.mlperf.automotive.selectors.export_rows",
        export_schema="benchdb.inference_results/1",
        rounds_url="benchdb:automotive_rounds",
        claim_kinds=("throughput", "speedup", "gain"),
        claim_checks="throughput",  # one LoadGen run per result, as inference
        ingest_options=("model_map",),
        report_words=("valid", "not", "files", "not valid"),
    ),
    Suite(
        name="tiny",
        label="MLPerf Tiny",
        short="Tiny",
        metric="latency per model (1000 / median throughput of 5 windows); energy per inference",
        unit="ms",
        better="lower",
        rounds=TINY_ROUNDS,
        package="benchdb.mlperf.tiny",
        result_model="benchdb.InferenceResult",
        source_kind="mlperf-tiny",
        ingest="ingest.tiny.service.mlperf_tiny_ingest",
        export_rows="benchdb.mlperf.tiny.selectors.export_rows",
        export_schema="benchdb.tiny_results/1",
        rounds_url="benchdb:tiny_rounds",
        claim_kinds=("throughput", "speedup", "gain"),
        claim_checks="throughput",
        report_words=("valid", "not", "files", "not valid"),
    ),
    Suite(
        name="storage",
        label="MLPerf Storage",
        short="Storage",
        metric="training throughput: mean over 5 runs at the accelerator-utilisation threshold",
        unit="MiB/s (and samples/s)",
        better="higher",
        rounds=STORAGE_ROUNDS,
        package="benchdb.mlperf.storage",
        result_model="benchdb.StorageResult",
        source_kind="mlperf-storage",
        ingest="ingest.storage.service.mlperf_storage_ingest",
        export_rows="benchdb.mlperf.storage.selectors.export_rows",
        export_schema="benchdb.storage_results/1",
        rounds_url="benchdb:storage_rounds",
        claim_kinds=("throughput", "speedup", "gain"),
        claim_checks="throughput",
        report_words=("valid", "rejected", "runs", "rejected"),
    ),
    Suite(
        name="mobile",
        label="MLPerf Mobile",
        short="Mobile",
        metric="throughput per task (the app's: 1 / 90th percentile latency; Offline samples/s)",
        unit="queries/s",
        better="higher",
        rounds=MOBILE_ROUNDS,
        package="benchdb.mlperf.mobile",
        result_model="benchdb.InferenceResult",
        source_kind="mlperf-mobile",
        ingest="ingest.mobile.service.mlperf_mobile_ingest",
        export_rows="benchdb.mlperf.mobile.selectors.export_rows",
        export_schema="benchdb.mobile_results/1",
        rounds_url="benchdb:mobile_rounds",
        claim_kinds=("throughput", "speedup", "gain"),
        claim_checks="throughput",
        report_words=("valid", "not", "files", "not valid"),
    ),
)

BY_NAME: Mapping[str, Suite] = {s.name: s for s in SUITES}
BY_SOURCE_KIND: Mapping[str, Suite] = {s.source_kind: s for s in SUITES}


def suite(name: str) -> Suite:
    """The registry row of ``name``; raises KeyError naming the known suites."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown suite {name!r} (known: {', '.join(BY_NAME)})") from None


def names() -> list[str]:
    """Every suite's name, in registry order (``["training", "hpc", "inference"]``)."""
    return [s.name for s in SUITES]


def choices() -> list[tuple[str, str]]:
    """``(name, short label)`` pairs: ``Round.suite``'s choices (a callable of the
    field: a new suite needs no migration)."""
    return [(s.name, s.short) for s in SUITES]


def source_choices() -> list[tuple[str, str]]:
    """``(source kind, label)`` of the suites a sync source can follow, then vendor
    pages: ``Source.kind``'s choices."""
    kinds = [(s.source_kind, s.source_label) for s in SUITES if s.source_label]
    return [*kinds, ("vendor", "Vendor page")]


def load(dotted: str) -> Callable[..., Any]:
    """The object a dotted path names (``"ingest.hpc.service.mlperf_hpc_ingest"``);
    raises ImportError / AttributeError as importing it would."""
    module, _, attr = dotted.rpartition(".")
    return getattr(import_module(module), attr)  # type: ignore[no-any-return]
