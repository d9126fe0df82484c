"""Where the MLPerf Inference test data is: ``settings.MLPERF_INFERENCE_DATA``
(``$MLPERF_INFERENCE_DATA``, by default ``../shared/mlperf-inference``; read in place,
never copied)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

INFERENCE_DATA = Path(settings.MLPERF_INFERENCE_DATA)
