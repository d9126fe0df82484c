"""Quality targets a page states ("the model must reach Minimum Box mAP: 0.377"), checked
against the round's rules: the closed-division target of
:meth:`benchdb.mlperf.training.rules.Ruleset.target` (``ATLEAST_ONE_CHECK`` of
``compliance_checker/training_<ruleset>/closed_<benchmark>.yaml`` at the round's tag).
Pure: no Django.

The claim's frame gives the benchmark (required; a part only one benchmark's target
has, named in the sentence, decides it over a benchmark taken from elsewhere) and the
round: the one named, else every training round whose rules check a target for the
benchmark, each a reading
(:mod:`benchdb.claims.readings`); the verdict holds for every round or is left open.
A two-part target is read by the part the text names (``metric`` ``quality:BBOX``:
Mask R-CNN's box mAP; ``quality:SEGM`` its mask mAP; ``FID``/``CLIP`` for Stable
Diffusion), else by its headline figure; the claimed value never picks the part. A
figure agrees when it equals the target to the digits printed (half a unit of the
last digit: 0.377 is 0.3765-0.3775; 75.9% is 0.7585-0.7595).
"""

from __future__ import annotations

from benchdb.claims.facts import ClaimFacts, Verification, printed_tolerance
from benchdb.claims.readings import Reading, settle
from benchdb.mlperf.training.rules import ruleset_for
from benchdb.vocabulary import ROUNDS, UNVERIFIABLE, canonical_benchmark, round_tuple

#: The benchmark whose target alone has a part (rules._targets): a part named in the
#: sentence decides the benchmark over one taken from another sentence or the title.
_PART_OF = {
    "BBOX": "maskrcnn",
    "SEGM": "maskrcnn",
    "FID": "stable_diffusion",
    "CLIP": "stable_diffusion",
}
#: Context tags of a benchmark taken from outside the sentence (ingest.claims.parsers.context,
#: benchdb.claims.resolve).
_BENCHMARK_ELSEWHERE = frozenset({"benchmark", "benchmark-title", "benchmark-page"})


def target_threshold(benchmark: str, round_version: str, part: str = "") -> float | None:
    """The closed-division quality target of ``benchmark`` in ``round_version``, as a
    fraction (or Stable Diffusion's FID), for ``part`` ("" the headline figure, else
    ``BBOX``, ``SEGM``, ``FID``, ``CLIP``), or None when the round checks none or the
    target has no such part. Raises ValueError for a round before v0.5."""
    target = ruleset_for(round_version).target(benchmark, "closed")
    if target is None:
        return None
    if not part:
        return target.value
    for name, lo, _lo_incl, hi, _hi_incl in target.bounds:
        if name == part:
            return lo if target.higher_is_better or name == "CLIP" else hi
    return None


def verify_target(c: ClaimFacts) -> Verification:
    """A ``target`` claim (module docstring). Unverifiable, naming what is missing,
    without a benchmark, a value, or a round whose rules check a target."""
    if c.value is None or not c.benchmark_key:
        return Verification(
            UNVERIFIABLE, details={"reason": "a quality target needs the benchmark it is for"}
        )
    part = c.metric.partition(":")[2]
    bench_key = c.benchmark_key
    if _PART_OF.get(part) and (set(c.context) & _BENCHMARK_ELSEWHERE):
        bench_key = _PART_OF[part]  # "Minimum Box mAP" is Mask R-CNN's, whatever came before
    claimed = c.value / 100.0 if c.unit == "%" else c.value
    tol = printed_tolerance(c.value) * claimed
    rounds = [c.round] if c.round else sorted(ROUNDS, key=round_tuple)
    readings = []
    for rnd in rounds:
        bench = canonical_benchmark(bench_key, rnd)
        want = target_threshold(bench, rnd, part) if round_tuple(rnd) >= (0, 5) else None
        if want is None:
            continue
        holds = abs(claimed - want) <= tol + 1e-12
        label = f"{rnd} {bench}{' ' + part if part else ''} target {want:g}"
        figure = want * 100.0 if c.unit == "%" else want
        readings.append(Reading((), figure, holds, {"round": rnd, "benchmark": bench}, label))
    if not readings:
        where = c.round or "any round"
        return Verification(
            UNVERIFIABLE,
            details={"reason": f"no quality target of {bench_key} in {where}"},
        )
    source = "closed_<benchmark>.yaml ATLEAST_ONE_CHECK (mlperf_logging compliance_checker)"
    return settle(readings, {"tolerance": tol, "source": source})
