"""Where the MLPerf Inference test data is: ``$MLPERF_INFERENCE_DATA``, by default
``../shared/mlperf-inference`` beside the repository (read in place, never copied)."""

from __future__ import annotations

import os
from pathlib import Path

INFERENCE_DATA = Path(
    os.environ.get(
        "MLPERF_INFERENCE_DATA",
        Path(__file__).resolve().parents[1].parent / "shared" / "mlperf-inference",
    )
)
