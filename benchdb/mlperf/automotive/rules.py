"""MLPerf Automotive rule tables, round by round, and the published result IDs. Pure.

Every table is written out from the checker the round was published with:
mlcommons/mlperf_automotive ``tools/submission/submission_checker.py`` at
:data:`CHECKER_COMMIT` (2025-08-13, the merge of PR #85, 79b9c535 "Use (99.9) latency as
the metric for Constant stream"), the last change to the checker before the results
were committed (mlcommons/automotive_results_v0.5 87400b50, 2025-08-25) and the one
whose values ``summary_results.json`` prints. The submitters had checked with the tag
``v0.5`` (ebcf058f, 2025-07-14), which still read ConstantStream as throughput
(``closed/NVIDIA/results/submission_checker_log.txt`` prints 12.0, completed samples
per second, for the result published as 5.319681 ms). The IDs follow
``tools/submission/generate_final_report.py`` at the same commit.

The checker is the MLPerf Inference v5.0 checker cut down: its system-description field
lists equal Inference's from v3.1 (``SYSTEM_DESC_REQUIRED_FIELDS``,
``SYSTEM_DESC_MEANINGFUL_RESPONSE_REQUIRED_FIELDS``, compared set for set), so
``checks.py`` reuses ``benchdb.mlperf.inference.submission.system_desc_findings`` for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: The checker's commit (mlcommons/mlperf_automotive, master).
CHECKER_COMMIT = "bcf2c672a451ae306f983efee38541861d27e11a"
CHECKER = "mlcommons/mlperf_automotive tools/submission/submission_checker.py"
REPORT = "mlcommons/mlperf_automotive tools/submission/generate_final_report.py"

#: Where the published table of a round is, relative to the round's root.
PUBLISHED_TABLE = "summary_results.json"

LATENCY_MS = "Latency (ms)"
#: What each value key is, in words (LoadGen ``loadgen/results.cc``: the early-stopping
#: estimate is the latency bound the run's query count allows at the 99.9th percentile).
METRIC_LABELS = {
    "early_stopping_latency_ss": "99.9th percentile latency (early-stopping estimate)",
    "early_stopping_latency_ms": "99.9th percentile latency (early-stopping estimate)",
    "result_99.90_percentile_latency_ns": "99.9th percentile latency",
    "result_samples_per_second": "samples per second",
}
LOWER, HIGHER = "lower", "higher"

#: ``SCENARIO_MAPPING``: folder names (lower-case in the open division) -> scenario.
SCENARIO_MAPPING = {
    "singlestream": "SingleStream",
    "multistream": "MultiStream",
    "server": "ConstantStream",
    "constantstream": "ConstantStream",
    "offline": "Offline",
}

#: File lists of ``check_results_dir()`` / ``files_diff()``: a folder's files must be
#: exactly the required ones, give or take the optional ones.
REQUIRED_PERF_FILES = ("mlperf_log_summary.txt", "mlperf_log_detail.txt")
OPTIONAL_PERF_FILES = ("mlperf_log_accuracy.json",)
REQUIRED_ACC_FILES = (
    "mlperf_log_summary.txt",
    "mlperf_log_detail.txt",
    "accuracy.txt",
    "mlperf_log_accuracy.json",
)
#: ``files_diff()`` always tolerates these.
ALWAYS_OPTIONAL = ("mlperf_log_trace.json", "results.json", ".gitkeep")
#: ``REQUIRED_MEASURE_FILES`` and ``SYSTEM_IMP_REQUIRED_FILES`` (``check_measurement_dir()``).
REQUIRED_MEASURE_FILES = ("user.conf", "README.md")
SYSTEM_IMP_REQUIRED_FIELDS = (
    "input_data_types",
    "retraining",
    "starting_weights_filename",
    "weight_data_types",
    "weight_transformations",
)
MS_TO_NS = 1_000_000
#: The MLPerf Inference round whose checker this one was cut from (v5.0): its
#: ``ignore_errors`` is empty, as ``MODEL_CONFIG["v0.5"]["ignore_errors"]`` here, and its
#: system-description field lists (Inference v3.1 on) are this checker's.
INFERENCE_PEER = (5, 0)


@dataclass(frozen=True)
class AutomotiveRound:
    """One round's tables (``MODEL_CONFIG[<version>]`` and the module constants).

    ``accuracy_targets``: model -> ((metric, lower bound), ...), the reference times the
    fraction, as the checker writes them; ``result_field``: log scenario -> detail-log key
    of the value (``RESULT_FIELD_NEW``), divided by :data:`MS_TO_NS` for the scenarios of
    ``ns_to_ms``; ``units``: scenario -> unit (``log_result()`` ``unit_dict``);
    ``min_queries`` is the table the checker holds but never applies (it checks it only
    for scenarios without early stopping, and every scenario here has early stopping).
    """

    version: str
    id_prefix: str
    models: tuple[str, ...]
    required: Mapping[str, frozenset[str]]
    optional: Mapping[str, frozenset[str]]
    accuracy_targets: Mapping[str, tuple[tuple[str, float], ...]]
    accuracy_patterns: Mapping[str, str]
    performance_sample_count: Mapping[str, int]
    seeds: Mapping[str, int]
    model_mapping: Mapping[str, str]
    result_field: Mapping[str, str]
    ns_to_ms: frozenset[str]
    units: Mapping[str, str]
    availabilities: tuple[str, ...]
    system_types: tuple[str, ...]
    min_duration_ms: int
    target_latency_percentile: float
    grouped_qsl_models: frozenset[str]
    early_stopping_scenarios: frozenset[str]
    max_accuracy_log_bytes: int
    min_queries: Mapping[str, Mapping[str, int]]

    def direction(self, scenario: str) -> str:
        """``lower`` for a latency unit, else ``higher`` (samples or queries per second)."""
        return LOWER if self.units.get(scenario, "").startswith("Latency") else HIGHER


_ADAS = ("bevformer", "deeplabv3plus", "ssd")

#: v0.5: ``MODEL_CONFIG["v0.5"]``, ``RESULT_FIELD_NEW["v0.5"]``, ``ACC_PATTERN``,
#: ``VALID_AVAILABILITIES``, ``TEST_DURATION_MS``, ``MAX_ACCURACY_LOG_SIZE`` of the
#: checker at :data:`CHECKER_COMMIT`; ``check_performance_dir()`` for the fixed
#: target-latency percentile (0.999), grouped QSL (bevformer) and the early-stopping
#: scenarios (``Config.uses_early_stopping``); ``check_results_dir()``'s ``valid_system_types``.
V0_5 = AutomotiveRound(
    version="v0.5",
    id_prefix="0.5",  # generate_final_report.py --version default
    models=_ADAS,
    required={m: frozenset({"SingleStream"}) for m in _ADAS},
    optional={m: frozenset({"ConstantStream"}) for m in _ADAS},
    accuracy_targets={
        "bevformer": (("mAP_3D", 0.2683556 * 0.99),),
        "deeplabv3plus": (("mIOU", 0.924355 * 0.999),),
        "ssd": (("mAP", 0.7179 * 0.999),),
    },
    accuracy_patterns={
        "mAP": r"mAP:\s*([0-9.]+)",
        "mIOU": r"Mean IoU:\s*([0-9.]+)",
        "mAP_3D": r"mAP_3D:\s*([0-9.]+)",
    },
    performance_sample_count={"bevformer": 256, "deeplabv3plus": 128, "ssd": 128},
    seeds={
        "qsl_rng_seed": 1575625098,
        "sample_index_rng_seed": 2227286192,
        "schedule_rng_seed": 3495234579,
    },
    model_mapping={"SSD": "ssd", "BEVFORMER": "bevformer", "DEEPLABV3PLUS": "deeplabv3plus"},
    result_field={
        "Offline": "result_samples_per_second",
        "SingleStream": "early_stopping_latency_ss",
        "MultiStream": "early_stopping_latency_ms",
        "ConstantStream": "result_99.90_percentile_latency_ns",
    },
    ns_to_ms=frozenset({"SingleStream", "MultiStream", "ConstantStream"}),
    units={
        "SingleStream": LATENCY_MS,
        "MultiStream": LATENCY_MS,
        "Offline": "Samples/s",
        "ConstantStream": LATENCY_MS,
    },
    availabilities=("hardened", "development", "engineering_samples", "presilicon"),
    system_types=("adas",),
    min_duration_ms=600_000,
    target_latency_percentile=0.999,
    grouped_qsl_models=frozenset({"bevformer"}),
    early_stopping_scenarios=frozenset({"ConstantStream", "SingleStream", "MultiStream"}),
    max_accuracy_log_bytes=10 * 1024,
    min_queries={m: {"ConstantStream": 100_000, "SingleStream": 6636} for m in _ADAS},
)

ROUNDS: dict[str, AutomotiveRound] = {"v0.5": V0_5}


def round_for(version: str) -> AutomotiveRound:
    """The tables of ``version`` (``"v0.5"``). Raises KeyError for a round not known."""
    return ROUNDS[version]


def mlperf_model(rnd: AutomotiveRound, folder: str, extra: Mapping[str, str] | None) -> str:
    """``Config.get_mlperf_model()``: the folder name when it is a model of the round,
    else ``model_mapping``, else the submitter's ``model_mapping.json`` (``extra``), else
    the folder name itself (the checker's resnet/bert guesses cannot apply here)."""
    if folder in rnd.models:
        return folder
    return rnd.model_mapping.get(folder) or (extra or {}).get(folder) or folder


def scenario_of(folder: str) -> str:
    """``SCENARIO_MAPPING.get(scenario, scenario)``: ``singlestream`` -> ``SingleStream``."""
    return SCENARIO_MAPPING.get(folder, folder)


# --- result IDs (generate_final_report.py) --------------------------------------------


@dataclass(frozen=True)
class IdKey:
    """What ``generate_final_report.py`` numbers a result by: its checker CSV row's
    ``Division`` (Category), ``Availability``, ``Organization`` (Submitter), ``SystemType``
    (Suite), ``Platform`` (the system folder) and ``Model`` (UsedModel, the model folder)."""

    division: str
    availability: str
    submitter: str
    suite: str
    platform: str
    used_model: str

    @property
    def unique_id(self) -> str:
        """``MakeUniqueID``: ``Suite/Category/Submitter/Platform`` (+ ``/UsedModel`` in
        the open division), the "Unique ID (e.g. for Audit)" column."""
        parts = [self.suite, self.division, self.submitter, self.platform]
        if self.division == "open":
            parts.append(self.used_model)
        return "/".join(parts)


def result_ids(rnd: AutomotiveRound, keys: Iterable[IdKey]) -> dict[str, str]:
    """Unique ID -> result ID (``"0.5-0001"``), as ``generate_final_report.py`` numbers
    them with no ``ids.json`` beforehand: rows sorted by Category, Availability,
    Submitter and Unique ID (pandas' stable sort: byte order of the text), unique IDs
    numbered from 1 in that order, ``"{version}-{:04}"``. Every scenario of one unique ID
    shares its ID (closed: every model of a system too)."""
    ordered = sorted(keys, key=lambda k: (k.division, k.availability, k.submitter, k.unique_id))
    out: dict[str, str] = {}
    for key in ordered:
        if key.unique_id not in out:
            out[key.unique_id] = f"{rnd.id_prefix}-{len(out) + 1:04}"
    return out
