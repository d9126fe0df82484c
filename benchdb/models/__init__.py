"""Every table of results and claims, one module per domain; import them from here
(``from benchdb.models import Result``).

* ``mlperf``: what every suite shares (rounds, submitters, systems, problems) and the
  MLPerf Training results, runs and logs;
* ``inference``: MLPerf Inference results, their rule findings, logs and compliance tests;
* ``storage``: MLPerf Storage results (their runs on the row);
* ``claims``: vendor pages, their tables and claims; ``pins``: claims settled by hand;
* ``history``: result versions and tombstones, claims' verdict history;
* ``data_version``: the counter every committed change bumps (caches key on it).
"""

from benchdb.models.claims import (
    Claim,
    ClaimCorrection,
    ClaimResult,
    ResultIdCitation,
    VendorPage,
    VendorResult,
)
from benchdb.models.data_version import DataVersion
from benchdb.models.history import ClaimVerdictVersion, ResultVersion
from benchdb.models.inference import (
    InferenceComplianceTest,
    InferenceFinding,
    InferenceLog,
    InferenceResult,
)
from benchdb.models.mlperf import (
    Benchmark,
    IngestProblem,
    Result,
    Round,
    RoundTree,
    Run,
    RunLog,
    Submitter,
    System,
)
from benchdb.models.pins import ClaimPin
from benchdb.models.storage import StorageResult

__all__ = [
    "Benchmark",
    "Claim",
    "ClaimCorrection",
    "ClaimPin",
    "ClaimResult",
    "ClaimVerdictVersion",
    "DataVersion",
    "InferenceComplianceTest",
    "InferenceFinding",
    "InferenceLog",
    "InferenceResult",
    "IngestProblem",
    "Result",
    "ResultIdCitation",
    "ResultVersion",
    "Round",
    "RoundTree",
    "Run",
    "RunLog",
    "StorageResult",
    "Submitter",
    "System",
    "VendorPage",
    "VendorResult",
]
