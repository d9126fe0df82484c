"""MLPerf Mobile's rules, pure: the rounds and the app commit each follows, the tasks of
each round, and the throughput the app reports for a result.

A Mobile result is one task (``benchmark_id`` of the app's ``flutter/assets/tasks.pbtxt``)
on one phone or laptop, run by the MLPerf Mobile app (mlcommons/mobile_app_open) in
LoadGen's performance mode and, separately, in accuracy mode. The app exports both runs
in ``result.json`` (``performance_run.throughput.value``, ``accuracy_run.accuracy``);
those are the figures the results table publishes. Sources, at each round's tag
(:data:`ROUNDS`):

* ``flutter/lib/backend/loadgen_info.dart`` ``LoadgenInfo.extractLoadgenInfo``: from
  ``mlperf_log_detail.txt`` the app reads ``result_90.00_percentile_latency_ns`` (divided
  by 1e9: seconds) and ``result_validity`` (``"VALID"``);
* ``flutter/lib/state/task_runner.dart`` ``_calculateThroughput``: SingleStream
  throughput = ``1.0 / latency90``; Offline = ``result.numSamples / latency90``, where
  ``numSamples`` is the native driver's sample counter
  (``flutter/cpp/flutter/dart_run_benchmark.cc``: ``driver.GetCounter()``), exported as
  ``performance_run.measured_samples``; LoadGen's log does not hold it;
* accuracy: computed by the app's dataset classes (``flutter/cpp/datasets/*.cc``)
  against ground truth that is not in the results repositories: read, not recomputed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

#: Round -> mlcommons/mobile_app_open commit of the round's tag (v4.0, v4.1, v5.0).
ROUNDS: Mapping[str, str] = {
    "v4.0": "3d0892f73eb7cee04c56de6b9cb02e1f3eed48f0",
    "v4.1": "2dab2014fac581f74778e3e3926a4603efb534d9",
    "v5.0": "d3d667f1a6d2f760c937ca57b935326e96edc0e8",
}
#: Round -> publication date: the day (the committer's, as ``git log --date=short``
#: prints it) of the newest commit of the round's results repository, whose whole
#: history is that publication: mlcommons/mobile_results_v4.0 5a937a5 ("Merge pull
#: request #1 from mlcommons/create-readme", 2024-05-16; results pushed 3e6d7f0 the same
#: day), mobile_results_v4.1 8acdbad ("Commit results", 2024-10-16, its one commit),
#: mobile_results_v5.0 82adb4f ("Commit results", 2025-03-21, its one commit).
PUBLISHED: Mapping[str, date] = {
    "v4.0": date(2024, 5, 16),
    "v4.1": date(2024, 10, 16),
    "v5.0": date(2025, 3, 21),
}
APP = "mlcommons/mobile_app_open"
DIVISIONS = ("closed", "open")


@dataclass(frozen=True)
class Task:
    """A task of the app's ``tasks.pbtxt``: ``name`` (as the app shows it), ``model``,
    LoadGen ``scenario``, ``accuracy`` (what the app's formatted accuracy measures), and
    its submission run's ``min_query_count``, ``min_duration`` and ``max_duration``
    (s; v4.1 on: ``runs.normal``)."""

    name: str
    model: str
    scenario: str
    accuracy: str
    min_query_count: int = 1024
    min_duration: int = 60
    max_duration: int = 600


_IC2 = "MobileNetEdgeTPUv2-L"
_IC1 = "MobileNetEdgeTPU 224 1.0"
_COMMON = {
    "image_classification_v2": Task("Image Classification v2", _IC2, "SingleStream", "top-1"),
    "object_detection": Task("Object Detection", "SSD-MobileDET", "SingleStream", "mAP"),
    "image_segmentation_v2": Task("Image Segmentation v2", "MOSAIC", "SingleStream", "mIoU"),
    "natural_language_processing": Task(
        "Language Understanding", "MobileBert", "SingleStream", "F1"
    ),
    "super_resolution": Task("Super Resolution", "EDSR", "SingleStream", "PSNR"),
    "image_classification_offline_v2": Task(
        "Image Classification v2 (Offline)", _IC2, "Offline", "top-1", 24576, 0, 0
    ),
}
_SD = {
    "stable_diffusion": Task(
        "Stable Diffusion", "StableDiffusion", "SingleStream", "CLIP", 1024, 60, 300
    )
}
#: Round -> benchmark_id -> task: ``flutter/assets/tasks.pbtxt`` at the round's tag.
TASKS: Mapping[str, Mapping[str, Task]] = {
    "v4.0": {
        **_COMMON,
        "image_classification": Task("Image Classification", _IC1, "SingleStream", "top-1"),
        "image_classification_offline": Task(
            "Image Classification (Offline)", _IC1, "Offline", "top-1", 24576, 0, 0
        ),
    },
    "v4.1": {**_COMMON, **_SD},
    "v5.0": {**_COMMON, **_SD},
}

#: Qualcomm's v4.x layout ``results/<system>/<model folder>/<scenario>/log_*``: the folder
#: (lower case) and scenario -> benchmark_id. Read off the round's files: each folder's
#: 90th percentile latency is the one ``result.json`` gives that task.
MODEL_FOLDERS: Mapping[tuple[str, str], str] = {
    ("mobilenetv4", "SingleStream"): "image_classification_v2",
    ("mobilenetv4", "Offline"): "image_classification_offline_v2",
    ("mobilenetedgetpu", "SingleStream"): "image_classification",
    ("mobilenetedgetpu", "Offline"): "image_classification_offline",
    ("mobiledetssd", "SingleStream"): "object_detection",
    ("mosaic", "SingleStream"): "image_segmentation_v2",
    ("mobilebert", "SingleStream"): "natural_language_processing",
    ("edsr", "SingleStream"): "super_resolution",
    ("stable_diffusion", "SingleStream"): "stable_diffusion",
}


def latency_seconds(latency90_ns: int) -> float:
    """``result_90.00_percentile_latency_ns`` (int, ns) -> seconds, as
    ``loadgen_info.dart`` ``extractLoadgenInfo`` (``/ nanosecondsPerSecond``). Raises
    ValueError when it is not positive."""
    if latency90_ns <= 0:
        raise ValueError(f"90th percentile latency {latency90_ns} ns is not positive")
    return latency90_ns / 1_000_000_000


def loadgen_settings(task: Task) -> dict[str, int]:
    """The LoadGen settings the app requests for ``task``'s submission run, as
    ``flutter/cpp/mlperf_driver.cc`` ``MlperfDriver::RunMLPerfTest`` sets them:
    ``min_query_count``, ``min_duration_ms`` = ceil(min_duration * 1000),
    ``max_duration_ms`` = ceil(max_duration * 1000); keyed as the detail log's
    ``requested_*`` keys."""
    return {
        "requested_min_query_count": task.min_query_count,
        "requested_min_duration_ms": math.ceil(task.min_duration * 1000.0),
        "requested_max_duration_ms": math.ceil(task.max_duration * 1000.0),
    }


def throughput(scenario: str, latency90_ns: int, num_samples: int | None = None) -> float:
    """The app's throughput of a performance run, as ``task_runner.dart``
    ``_calculateThroughput``: SingleStream ``1 / latency90`` (queries/s); Offline
    ``num_samples / latency90`` (samples/s; ``num_samples``: the driver's counter,
    ``measured_samples``). Raises ValueError for another scenario, an Offline run
    without ``num_samples`` or a latency that is not positive."""
    seconds = latency_seconds(latency90_ns)
    if scenario == "SingleStream":
        return 1.0 / seconds
    if scenario == "Offline":
        if num_samples is None:
            raise ValueError("Offline throughput needs the app's sample count")
        return num_samples / seconds
    raise ValueError(f"scenario {scenario!r} is not one the app runs")


@dataclass(frozen=True)
class Read:
    """A figure as read: ``value``, the file (relative to the round's root), its 1-based
    line (None: the whole file), ``text`` as written."""

    value: object
    path: str
    line: int | None
    text: str = ""


@dataclass(frozen=True)
class Finding:
    """A line read or a rule applied; ``invalidates``: it keeps the result out."""

    rule: str
    path: str
    line: int | None
    message: str
    invalidates: bool = False


@dataclass(frozen=True)
class Inputs:
    """What a result's judgement reads. From the performance run's
    ``mlperf_log_detail.txt``: ``scenario`` (``effective_scenario``), ``latency90_ns``,
    ``validity`` (``result_validity``), ``samples_per_second`` (LoadGen's, Offline);
    from the app's export (``result.json``) or the submitter's text:
    ``app_samples`` (``measured_samples``), ``accuracy`` (value: normalized 0..1 or
    None, text: as formatted), ``published`` (``throughput.value``),
    ``published_latency`` (``loadgen.latency90``, s); ``settings``: the detail log's
    ``requested_*`` LoadGen settings."""

    version: str
    benchmark_id: str
    scenario: Read | None = None
    latency90_ns: Read | None = None
    validity: Read | None = None
    samples_per_second: Read | None = None
    app_samples: Read | None = None
    accuracy: Read | None = None
    published: Read | None = None
    published_latency: Read | None = None
    settings: Mapping[str, Read] = field(default_factory=dict)


@dataclass
class Judgement:
    """``throughput`` (queries/s or samples/s, higher is better), ``basis`` (how it was
    computed), ``latency90_s``, ``accuracy`` (normalized) and ``accuracy_text``,
    ``settings_differ`` (the run's LoadGen settings are not the app's), ``valid`` and
    ``reasons``, ``findings`` (evidence and rules)."""

    valid: bool = True
    scenario: str = ""
    throughput: float | None = None
    basis: str = ""
    latency90_s: float | None = None
    accuracy: float | None = None
    accuracy_text: str = ""
    settings_differ: bool = False
    reasons: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def read(self, rule: str, r: Read, message: str) -> None:
        self.findings.append(Finding(rule, r.path, r.line, message))

    def fail(self, rule: str, path: str, line: int | None, reason: str) -> None:
        self.valid = False
        self.reasons.append(reason)
        self.findings.append(Finding(rule, path, line, reason, invalidates=True))
