"""MLPerf HPC's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): results (training's columns and the scaling ones), rounds
and boards. Pure."""

from __future__ import annotations

from benchdb.mlperf.training.schemas import SCHEMAS as TRAINING
from benchdb.tables.columns import Column, cols

SCHEMAS: dict[str, tuple[Column, ...]] = {}

#: MLPerf HPC: strong scaling fills ``score_minutes`` (as training), weak scaling the
#: last four columns (``result_summarizer._compute_weak_scaling_scores``).
_HPC_EXTRA_SPEC = """
scaling_type | string | "strong" (time to train) or "weak" (many models trained at once)
models_count | integer|null | weak: models that passed (the summarizer's number_of_models)
instance_scale | integer|null | weak: accelerators per model, nodes x max(accelerators, 1)
time_to_train_all_minutes | number|null | weak: first run_start to last run_stop, minutes
throughput_models_per_minute | number|null | weak: models_count / time_to_train_all_minutes
    (derived by benchdb; the summarizer reports the two figures)
"""
HPC_EXTRA_COLUMNS = tuple(c.name for c in cols(_HPC_EXTRA_SPEC))
_HPC_ROUNDS_SPEC = """
round | string | HPC round version, e.g. "v1.0"
tag | string | mlperf_logging tag whose summarizer scored it ("" for v0.7: none existed)
benchmark | string | benchmark key: cosmoflow, deepcam, oc20, openfold
scaling_type | string | "strong" or "weak"
results | integer | results of the board
scored | integer | results with a score
"""
SCHEMAS |= {
    "benchdb.hpc_results/1": TRAINING["benchdb.results/1"] + cols(_HPC_EXTRA_SPEC),
    "benchdb.hpc_rounds/1": cols(_HPC_ROUNDS_SPEC),
    # HPC leaderboard (``/hpc/<round>/<benchmark>/<scaling>/``): the rows of the export
    # with the result's id and page.
    "benchdb.hpc_board/1": (
        Column("id", "integer", "id of the result"),
        *TRAINING["benchdb.results/1"],
        *cols(_HPC_EXTRA_SPEC),
        Column("url", "string", "path of the result page"),
    ),
}
