"""MLPerf HPC's ingest: the training pipeline (``ingest.training.service``: the same
tree layout, MLLOG logs and systems files) with HPC's rules
(``benchdb.mlperf.hpc.rules``: strong scaling by olympic mean; weak scaling by models,
time to train all and throughput) and HPC's round folders (``hpc_results_v*``)."""

from __future__ import annotations

from typing import Any

from ingest.store import IngestReport
from ingest.training.service import mlperf_training_ingest


def mlperf_hpc_ingest(**kwargs: Any) -> IngestReport:
    """Ingest MLPerf HPC results (``hpc_results_v0.7`` ... ``v3.0``, a folder of them,
    or a git URL): :func:`ingest.training.service.mlperf_training_ingest` with
    ``suite="hpc"``; the same keyword arguments (but ``suite``), the same errors
    (``IngestError`` when nothing can be read)."""
    return mlperf_training_ingest(**kwargs, suite="hpc")
