"""Which stored result a claim is judged against when several fit, and what the claim
says about it: the results tried, the one chosen, and why; and, when none fits, what
was looked for. Pure: no Django. Used by :mod:`benchdb.claims.verdicts`.

A choice is kept in ``Verification.details["choices"]``: a list of ``{"role":
"subject" | "compared" | "baseline", "looked_for": str, "tried": [{"pk": int,
"label": str}], "judged_against": int | None, "why": str}`` (at most
:data:`MAX_TRIED` results listed; ``n_tried`` counts them all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchdb.claims.facts import ClaimFacts, ResultFacts, to_unit, within

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
    return described(c.compared_system, c.compared_accelerators)


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


def pick(
    cands: Sequence[ResultFacts],
    claimed: float | None,
    unit: str,
    tol: float,
    qualifier: str,
) -> tuple[ResultFacts | None, bool, str]:
    """The result a time most likely quotes: closed division before open; within a
    division the score nearest the claimed one; the first of them that agrees within
    ``tol``, else the first. Returns (result, agrees, why)."""
    if not cands:
        return None, False, ""
    order = sorted(
        cands,
        key=lambda r: (
            r.division != "closed",
            abs(to_unit(r.score_minutes or 0.0, unit) - (claimed or 0.0)),
        ),
    )
    if len(order) == 1:
        only = "the only stored result that fits"
        ok = claimed is not None and within(
            claimed, to_unit(order[0].score_minutes or 0.0, unit), tol, qualifier
        )
        return order[0], ok, only
    n = len(order)
    if claimed is None:
        return order[0], False, f"{n} fit and the page gives no figure: the first closed one"
    for r in order:
        if within(claimed, to_unit(r.score_minutes or 0.0, unit), tol, qualifier):
            return (
                r,
                True,
                (
                    f"{n} fit; closed division first, then the score nearest the claimed"
                    f" {claimed:g} {unit}: the first that agrees within {tol:.1%}"
                ),
            )
    return (
        order[0],
        False,
        (
            f"{n} fit and none agrees within {tol:.1%}; judged against the"
            f" {order[0].division or 'unknown'}-division score nearest the claimed"
            f" {claimed:g} {unit}"
        ),
    )
