"""The stored results of MLPerf Storage, Tiny and Mobile as the facts claims are checked
against (:class:`benchdb.claims.facts.ResultFacts`, the ``throughput`` family of
checks: :mod:`benchdb.claims.verdicts_values`). :mod:`ingest.claims.facts` reads them
with the other suites' (``_rows``); reads only.

A result whose suite publishes two figures gives one fact per figure, both with the
result's pk (a claim's unit picks the figure, never its value):

* **Storage** (``StorageResult``, valid ones): the mean MiB/s over the runs (``unit``
  ``MiB/s``, as DLIO writes ``train_au_mean_MB_per_second``: MiB) and the mean
  samples/s (``Samples/s``), both higher is better (``report.py`` of mlcommons/storage
  v1.0). ``model`` is the workload (``unet3d``, ``resnet50``, ``cosmoflow``);
  ``accelerator_model`` the simulated accelerator as a page names it ("NVIDIA H100
  (simulated)") and ``scenario`` it alone ("H100": Storage's boards are per workload
  and accelerator); ``accelerators`` the simulated accelerators the result kept above the
  AU threshold; ``system_name`` the system folder (Storage has no systems JSON name).
* **Tiny** (``InferenceResult``, suite ``tiny``, valid): the latency in ms (lower is
  better) and, with an energy run, the energy per inference (``unit`` ``uJ``, lower is
  better: the EnergyRunner's median µJ per inference). ``model`` is the benchmark
  (``kws``, ``vww``, ``ic``, ``ad``, ``sww``); sww's energy is a power (mW) and is left
  out.
* **Mobile** (``InferenceResult``, suite ``mobile``, valid): the app's throughput
  (``queries/s`` SingleStream, ``samples/s`` Offline). ``model`` is the task without its
  version and mode (``image_classification_offline_v2`` -> ``image_classification``):
  a page's "image classification" is every variant of the round, each a reading, and
  the scenario tells Offline from SingleStream.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from benchdb.models import StorageResult

#: What a Storage fact's figures are called (``ResultFacts.metric``).
STORAGE_METRIC = "training throughput (mean over 5 runs at the AU threshold)"
_STORAGE = {
    "pk": "pk",
    "round": "round__version",
    "submitter": "submitter__name",
    "system_folder": "system_folder",
    "division": "division",
    "accelerators": "accelerators",
    "accelerator": "accelerator",
    "benchmark": "workload",
    "mb_per_second": "mb_per_second",
    "samples_per_second": "samples_per_second",
}


def storage_rows(
    rounds: Iterable[str] | None, benchmarks: Iterable[str] | None
) -> Iterator[dict[str, Any]]:
    """Two rows of :class:`ResultFacts` fields per valid Storage result (MiB/s, then
    samples/s; a figure that is missing gives no row), in the model's order (round,
    source path). ``benchmarks``: workloads."""
    qs: Any = StorageResult.objects.filter(status=StorageResult.Status.VALID).order_by(
        "round__suite", "round__version", "source_path"
    )
    if rounds is not None:
        qs = qs.filter(round__version__in=list(rounds))
    if benchmarks is not None:
        qs = qs.filter(workload__in=list(benchmarks))
    names = list(_STORAGE)
    for values in qs.values_list(*_STORAGE.values()):
        row = dict(zip(names, values, strict=True))
        accel = str(row.pop("accelerator") or "")
        mib, samples = row.pop("mb_per_second"), row.pop("samples_per_second")
        row |= {
            "system_name": row["system_folder"],
            "availability": "",
            "accelerator_model": f"NVIDIA {accel.upper()} (simulated)" if accel else "",
            "framework": "",
            "score_minutes": None,
            "suite": "storage",
            "metric": STORAGE_METRIC,
            "higher_is_better": True,
            "model": row["benchmark"],
            "scenario": accel.upper(),  # a board is per workload and accelerator
        }
        for unit, value in (("MiB/s", mib), ("Samples/s", samples)):
            if value is not None:
                yield {**row, "unit": unit, "value": value}


def tiny_extra(row: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A Tiny row (latency, ms) and, when its result has an energy run in µJ per
    inference, its energy row (``unit`` ``uJ``, lower is better)."""
    yield row
    if row.get("power") is not None and str(row.get("power_unit", "")).startswith("uJ"):
        yield {
            **row,
            "metric": "energy per inference",
            "unit": "uJ",
            "value": row["power"],
            "higher_is_better": False,
        }


_MOBILE_VARIANT = re.compile(r"(?:_offline)?(?:_v\d+)?$")


def mobile_model(task: str) -> str:
    """A Mobile task without its version and mode: ``image_classification_offline_v2``
    -> ``image_classification``; ``super_resolution`` stays."""
    return _MOBILE_VARIANT.sub("", task)
