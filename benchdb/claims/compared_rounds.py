"""The round of a compared product that has no result in the claim's round, and which
MLPerf Inference results of two rounds can be compared at all. Pure: no Django.

A vendor compares its new product with its previous one ("Jetson AGX Orin delivers up
to 5x more than Jetson AGX Xavier" on NVIDIA's MLPerf Inference v2.0 page), whose
results are of an earlier round: Xavier ran no v2.0 benchmark. When the text names no
round for the compared product and the claim's round holds no result of it, its results
are read from the round before the claim's in MLPerf's sequence
(:data:`benchdb.vocabulary.INFERENCE_ROUNDS`), the same convention as a gain over "the
previous round" (``verdicts_values._baseline_round``); when that round holds no result
of it either, no round is taken (the verdict abstains, naming the compared side). The
claimed figure plays no part.

A benchmark whose dataset changed between rounds is not compared across the change:
3D U-Net moved from BraTS 2019 to KiTS19 in v2.0 (MLPerf Inference v2.0 release notes;
``mlcommons/inference`` r2.0 ``vision/medical_imaging/3d-unet-kits19``), so a v2.0 and
a v1.1 "3d-unet-99" result measure different tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from benchdb.claims.facts import ResultFacts
from benchdb.vocabulary import INFERENCE_ROUNDS, round_key

__all__ = ["CHANGED_DATASET", "PREVIOUS_TAG", "comparable", "previous_round_of", "round_before"]

#: model -> the first round of its current dataset (results before it are another task).
CHANGED_DATASET: dict[str, str] = {"3d-unet": "v2.0"}
#: The context tag of a compared product read from the round before the claim's.
PREVIOUS_TAG = "compared-previous-round"


def comparable(model: str, round_a: str, round_b: str) -> bool:
    """Whether results of ``model`` from ``round_a`` and ``round_b`` measure the same
    task (:data:`CHANGED_DATASET`)."""
    change = CHANGED_DATASET.get(model)
    if not change or not round_a or not round_b:
        return True
    return (round_key(round_a) < round_key(change)) == (round_key(round_b) < round_key(change))


def round_before(rnd: str) -> str:
    """The MLPerf Inference round before ``rnd`` in MLPerf's sequence, whether or not
    benchdb holds it; "" for the first round or an unknown one."""
    rounds = sorted(INFERENCE_ROUNDS, key=round_key)
    if rnd not in rounds or rounds.index(rnd) == 0:
        return ""
    return rounds[rounds.index(rnd) - 1]


def previous_round_of(
    rnd: str,
    results: Sequence[ResultFacts],
    of_product: Callable[[ResultFacts], bool],
    of_subject: Callable[[ResultFacts], bool] = lambda r: True,
) -> str:
    """The round before ``rnd`` (MLPerf's inference sequence) when ``results`` hold a
    result of ``rnd`` that ``of_subject`` accepts (benchdb holds the claim's round), none
    of ``rnd`` that ``of_product`` accepts, and some of that previous round; else ""
    (the product ran in ``rnd``, or not in the round before it, or benchdb holds no
    subject's result of ``rnd``, or ``rnd`` is the first or unknown)."""
    prev = round_before(rnd)
    if not prev:
        return ""
    here = there = held = False
    for r in results:
        if r.round == rnd:
            here = here or of_product(r)
            held = held or of_subject(r)
        elif r.round == prev:
            there = there or of_product(r)
    return prev if held and there and not here else ""
