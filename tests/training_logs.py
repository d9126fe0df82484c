"""Synthetic MLPerf Training logs for tests: what the compliance rules require of a
closed resnet log besides its timing and quality lines (benchdb checks every round's
full mlperf_logging rules, ``benchdb.mlperf.training.compliance``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

# The tensors closed_resnet.yaml of 2.0.0 requires a weights_initialization line for (its
# END CHECK ``sorted(s['initialized_tensors']) == sorted([...])``; the same list from 1.1.0).
_RESNET_YAML = Path(__file__).resolve().parents[1] / (
    "benchdb/mlperf/training/compliance_yaml/v2.0/training_2.0.0/closed_resnet.yaml"
)
TENSORS = re.findall(r'^\s+"([^"]+)",?$', _RESNET_YAML.read_text(), re.M)

# What the v1.1 compliance rules (common, closed_common, closed_resnet, closed_resnet_lars
# .yaml) require besides the lines above: the first line of each key in the real
# training_results_v1.1 Baidu/results/1_node_8_A100_NGC21.05_MXNet/resnet/result_0.txt
# (metadata "file"/"lineno" left out).
COMPLIANT: list[tuple[str, object, dict[str, object]]] = [
    ("submission_benchmark", "resnet", {}),
    ("submission_org", "Acme", {}),
    ("submission_status", "onprem", {}),
    ("submission_platform", "1 x NVIDIA A100 GPU", {}),
    ("cache_clear", True, {}),
    ("seed", 30356, {}),
    ("model_bn_span", 408, {}),
    ("sgd_opt_learning_rate_decay_poly_power", 2, {}),
    ("sgd_opt_end_learning_rate", 0.0001, {}),
    ("lars_opt_learning_rate_decay_poly_power", 2, {}),
    ("lars_opt_end_learning_rate", 0.0001, {}),
    ("gradient_accumulation_steps", 1, {}),
    ("opt_name", "lars", {}),
    ("lars_epsilon", 0, {}),
    ("lars_opt_weight_decay", 5e-05, {}),
    ("lars_opt_momentum", 0.9, {}),
    ("lars_opt_base_learning_rate", 10.5, {}),
    ("lars_opt_learning_rate_warmup_epochs", 2, {}),
    ("lars_opt_learning_rate_decay_steps", 37, {}),
    ("train_samples", 1281167, {}),
    ("eval_samples", 50000, {}),
    ("block_start", None, {"first_epoch_num": 1, "epoch_count": 3}),
    ("epoch_start", None, {"epoch_num": 1}),
    ("epoch_stop", None, {"epoch_num": 1}),
    ("eval_start", None, {"epoch_num": 3}),
    ("eval_stop", None, {"epoch_num": 3}),
    ("block_stop", None, {"first_epoch_num": 1}),
]


def compliant_resnet_lines(line: Callable[..., str], t: float) -> list[str]:
    """MLLOG lines, made by ``line(key, value, time_ms, **metadata)``, that complete a
    closed resnet log of v1.1-v2.1 (rounds whose rules these are): one
    ``weights_initialization`` per tensor, then :data:`COMPLIANT`; to go after
    ``run_stop`` (``block_start`` must follow ``run_start``)."""
    out = [line("weights_initialization", None, t, tensor=name) for name in TENSORS]
    return out + [line(k, v, t, **meta) for k, v, meta in COMPLIANT]
