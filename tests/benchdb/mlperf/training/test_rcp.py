"""The RCP checker reimplementation (benchdb.mlperf.training.rcp) against what
mlcommons/logging's rcp_checker at 6.0.0-rc6 computes on the same RCP files (printed
by ``RCP_Checker('training', '6.0.0', <benchmark>, False).pruned_rcp_data`` and
``_eval_submission_record``; copied here, not produced by benchdb)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchdb.mlperf.training import rcp as rcp_rules

DATA = Path(__file__).resolve().parents[3] / "data" / "training-v6.0" / "training_results_v6.0"
LORA = DATA / "Inventec/results/P9000IG7_ngc26.04_nemo/llama2_70b_lora"

#: pruned records: (BS, RCP Mean, Min Epochs, Max Speedup), as the checker printed them
OFFICIAL = {
    "llama2_70b_lora": [
        (8, 3178.6666666666665, 2960.6339616775513, 1.0736439248523562),
        (16, 4032.0, 3732.957371234894, 1.0801087714179227),
        (128, 11264.0, 10649.842998504639, 1.0576681742239389),
    ],
    "gpt_oss_20b": [
        (16, 194560.0, 188719.16724920273, 1.030949865008065),
        (64, 301056.0, 290308.2886712551, 1.0370217170785487),
    ],
    "deepseekv3_671b": [
        (15360, 725760.0, 685345.6848641485, 1.0589692414038654),
        (16384, 765952.0, 736328.4462344646, 1.0402314400822463),
        (18432, 861696.0, 824655.668326512, 1.0449161184432947),
    ],
    "llama31_8b": [
        (16, 161109.33333333334, 157919.5454909007, 1.0201988160016358),
        (32, 178858.66666666666, 173649.76494948068, 1.0299965952657717),
        (64, 226645.33333333334, 218921.86611715954, 1.0352795604804523),
        (96, 278640.0, 270339.6594262775, 1.0307033773414442),
        (128, 344746.6666666667, 327042.93556571007, 1.054132742755422),
    ],
    "flux1": [
        (512, 7223523.555555556, 7112400.31802114, 1.0156238727526143),
        (2048, 10296433.777777778, 9786846.6510946, 1.0520685717116232),
        (4096, 15379114.666666666, 15015146.771095276, 1.0242400491397154),
    ],
    "dlrm_dcnv2": [
        (32768, 0.7071428571428571, 0.692684064592634, 1.02087357467755),
        (55296, 0.7614583333333332, 0.7283211390177406, 1.0454980537298195),
        (160000, 0.9583333333333334, 0.9319241841634115, 1.0283383022124588),
    ],
    "llama31_405b": [
        (1152, 313344.0, 285344.1411244869, 1.0981266297081516),
        (2304, 368640.0, 340640.1411008835, 1.0821977668533906),
        (4608, 493056.0, 456015.66833361983, 1.08122600655748),
    ],
}


@pytest.mark.parametrize("benchmark", sorted(OFFICIAL))
def test_pruned_records_equal_the_checker(benchmark: str) -> None:
    got = [
        (r.bs, r.mean, r.min_epochs, r.max_speedup)
        for r in rcp_rules.pruned_rcps("v6.0", benchmark)
    ]
    assert got == [tuple(map(float, row)) for row in OFFICIAL[benchmark]]


def _samples_to_converge(folder: Path) -> list[float]:
    out = []
    for path in sorted(folder.glob("result_*.txt")):
        last = None
        for line in path.read_text(encoding="utf-8").splitlines():
            event = json.loads(line.split(":::MLLOG ", 1)[1])
            if event["key"] == "eval_accuracy":
                last = event["metadata"]["samples_count"]
        out.append(float(last))  # type: ignore[arg-type]
    return out


def test_the_v60_lora_result_is_normalized_as_the_summarizer_wrote_it() -> None:
    """The summarizer at 6.0.0-rc6 wrote scaling.json 1.034722222222222 into this
    folder (tests/data/README.md): RCP mean 3178.67 / submission mean 3072."""
    got = rcp_rules.check("v6.0", "llama2_70b_lora", 8, _samples_to_converge(LORA))
    assert (got.passed, got.message) == (True, "RCP found")
    assert got.norm_factor == 1.034722222222222 and got.subm_mean == 3072.0


def test_an_interpolated_record_and_its_factor() -> None:
    """gpt_oss_20b at BS 24 lies between the records of 16 and 64; the checker's
    ``_create_interp_rcp`` + ``_eval_submission_record`` gave 1.0315091210613598 for
    nine runs at 205824 samples and one at 230000 (Inventec's gpt_oss_20b scaling.json
    holds the same factor)."""
    got = rcp_rules.check("v6.0", "gpt_oss_20b", 24, [205824.0] * 9 + [230000.0])
    assert (got.passed, got.message) == (True, "RCP Interpolation")
    assert got.norm_factor == 1.0315091210613598


def test_405b_uses_its_own_max_speedup_and_slow_runs_are_not_scaled() -> None:
    """llama31_405b: max speedup = mean / (min epochs - 46080); the checker gave
    (True, 1.04448) for runs of 300000, 290000, 310000 samples at BS 1152."""
    got = rcp_rules.check("v6.0", "llama31_405b", 1152, [300000.0, 290000.0, 310000.0])
    assert got.passed and got.norm_factor == pytest.approx(1.04448, rel=1e-12)
    slow = rcp_rules.check("v6.0", "llama2_70b_lora", 8, [4000.0] * 10)
    assert slow.passed and slow.norm_factor == 1.0


@pytest.mark.parametrize(
    ("bs", "subm", "message", "passed"),
    [
        (8, [2000.0] * 10, "RCP found", False),  # faster than the max speedup allows
        (256, [12000.0] * 10, "Missing RCP, please submit RCP with BS = 256", False),
        (4, [3500.0] * 10, "RCP not found but slower convergence on smaller batch size", True),
        (8, [3072.0] * 8 + [float("inf")] * 2, "Insufficient convergence", False),
    ],
)
def test_check_directory_messages(bs: int, subm: list[float], message: str, passed: bool) -> None:
    got = rcp_rules.check("v6.0", "llama2_70b_lora", bs, subm)
    assert (got.message, got.passed) == (message, passed)


def test_epochs_are_rounded_as_the_checker_reads_them() -> None:
    """read_submission_file: ``round(epoch_num, 3)``; LLM benchmarks count samples."""
    assert rcp_rules.convergence_point("dlrm_dcnv2", 0.70714999) == 0.707
    assert rcp_rules.convergence_point("gpt_oss_20b", 205824) == 205824.0
