"""The fuzz targets' shared Hypothesis settings: ``FUZZ_EXAMPLES`` cases per target
(``make fuzz`` sets 10,000; 200 by default), no deadline, no example database."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
