"""Which stored result a claim is judged against when several fit, and what the claim
says about it: the results tried, the one chosen, and why; and, when none fits, what
was looked for. Pure: no Django. Used by :mod:`benchdb.claims.verdicts`.

A choice is kept in ``Verification.details["choices"]``: a list of ``{"role":
"subject" | "compared" | "baseline", "looked_for": str, "tried": [{"pk": int,
"label": str}], "judged_against": int | None, "why": str}`` (at most
:data:`MAX_TRIED` results listed; ``n_tried`` counts them all).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from benchdb.claims.facts import ClaimFacts, ResultFacts, candidates
from benchdb.vocabulary import ROUND_PUBLISHED, canonical_benchmark, round_tuple

#: Most results a choice lists (the rest are counted in ``n_tried``).
MAX_TRIED = 12


def described(system: str, accelerators: int | None, submitter: str = "") -> str:
    """A subject as looked for: ``"384 x Gaudi2 (Intel)"``, ``"IPU-POD16"``,
    ``"Intel's results"``; ``"an unnamed system"`` when nothing names it."""
    if system:
        sized = accelerators and str(accelerators) not in system  # not IPU-POD16
        what = f"{accelerators} x {system}" if sized else system
        return f"{what} ({submitter})" if submitter else what
    if submitter:
        count = f" on {accelerators} accelerators" if accelerators else ""
        return f"{submitter}'s results{count}"
    return f"a system of {accelerators} accelerators" if accelerators else "an unnamed system"


def looked_for(c: ClaimFacts, role: str = "subject") -> str:
    """What a side of a claim was looked for as (:func:`described`)."""
    if role == "subject":
        return described(c.system, c.accelerators, c.submitter)
    return described(c.compared_system, c.compared_accelerators, c.compared_submitter)


def no_result(what: str, bench: str, rnd: str) -> str:
    """The reason of a claim no stored result fits: names what it looked for."""
    return f"no stored result for {what} on {bench} in {rnd}"


def choice(
    role: str,
    what: str,
    tried: Sequence[ResultFacts],
    chosen: ResultFacts | None,
    why: str,
) -> dict[str, Any]:
    """A choice as stored (module docstring)."""
    return {
        "role": role,
        "looked_for": what,
        "tried": [{"pk": r.pk, "label": r.label()} for r in tried[:MAX_TRIED]],
        "n_tried": len(tried),
        "judged_against": chosen.pk if chosen else None,
        "why": why,
    }


def _scope(name: str) -> Callable[[ResultFacts], bool]:
    if name == "single-node":
        return lambda r: r.nodes == 1
    if name == "multi-node":
        return lambda r: (r.nodes or 1) > 1
    return lambda r: True


def fastest(rs: Sequence[ResultFacts]) -> ResultFacts | None:
    """The best (shortest) time of ``rs``, closed division first."""
    timed = [r for r in rs if r.score_minutes is not None]
    return min(timed, key=lambda r: (r.division != "closed", r.score_minutes), default=None)


def _earlier_round(where: str, new: str, rounds: Sequence[str]) -> str:
    """The round a ``best:<where>`` baseline names, of ``rounds`` (those holding the
    benchmark): ``where`` itself (``v1.0``), the one before ``new``
    (``previous-round``), or the one published nearest a year before ``new``
    (``year-earlier``, :data:`vocabulary.ROUND_PUBLISHED`); "" when none."""
    before = [r for r in rounds if round_tuple(r) < round_tuple(new)]
    if where.startswith("v"):
        return where if where in before else ""
    if where == "year-earlier" and new in ROUND_PUBLISHED:
        year_ago = ROUND_PUBLISHED[new] - timedelta(days=365)
        dated = [r for r in before if r in ROUND_PUBLISHED]
        return min(dated, key=lambda r: abs(ROUND_PUBLISHED[r] - year_ago), default="")
    return max(before, key=round_tuple, default="")


def best_pairs(
    c: ClaimFacts, bench: str, results: Sequence[ResultFacts]
) -> list[tuple[ResultFacts, ResultFacts, str]]:
    """The pair a gain over an earlier round's best result is read from
    (``c.baseline`` is ``best:<where>[:<scope>]``,
    :func:`benchdb.claims.resolve.best_baseline`): the subject's fastest result of
    ``c.round`` (by system, submitter and count, :func:`facts.candidates`) and the
    fastest result of the benchmark in the earlier round, both within the scope
    (``single-node``: one node; ``multi-node``: more), closed division first. One
    pair or none."""
    _, where, *rest = c.baseline.split(":")
    fits = _scope(rest[0] if rest else "")
    subject = fastest(
        [
            r
            for r in candidates(
                results,
                round=c.round,
                benchmark=bench,
                system=c.system,
                submitter=c.submitter,
                accelerators=c.accelerators,
            )
            if fits(r)
        ]
    )
    key = c.benchmark_key or bench
    rounds = sorted({r.round for r in results if r.benchmark == canonical_benchmark(key, r.round)})
    old = _earlier_round(where, c.round, rounds)
    if subject is None or not old:
        return []
    old_key = canonical_benchmark(key, old)
    # one node of no more accelerators than the subject's: "单机" is one server
    # (an IPU-POD64 states one node of 64 IPUs; Inspur's single-node wins are 8 GPUs)
    most = subject.accelerators if rest and rest[0] == "single-node" else None
    base = fastest(
        [
            r
            for r in results
            if r.round == old
            and r.benchmark == old_key
            and fits(r)
            and (most is None or (r.accelerators or 0) <= most)
        ]
    )
    return [(subject, base, "baseline")] if base is not None else []
