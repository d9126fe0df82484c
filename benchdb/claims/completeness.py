"""A best result is the best of what benchdb holds: verdicts that take one need the round whole.

Some readings take the best of a set of results: a gain over an earlier round's best
(``best:<round>`` baselines, :func:`benchdb.claims.choices.best_pairs`: "相较于V1.0竞赛最佳
成绩", "the June record"), or a record read as the subject's fastest result of its round
(``record`` in the claim's context). A result that the round's repository lists but
benchdb does not store (a blob missing from the snapshot it was read from, a folder that
could not be read) may be better than every stored one, and the verdict would then rest on
the wrong result. Such a verdict stands only when the round's tree (``manage.py
round-tree``, :class:`benchdb.claims.round_counts.Holding`) shows every listed result
folder stored: of the whole round for an earlier round's best, of the subject's
submitter (every submitter when the text names none) for the subject's fastest.

Seen on Inspur's Training v1.1 release: NVIDIA's Mask R-CNN and RNN-T gains "over v1.0's
best" were judged against v1.0 results while NVIDIA's v1.0 Mask R-CNN and RNN-T results at
scale (``dgxa100_n34``, ``dgxa100_n192``) were listed but not stored.

A round whose tree benchdb has not recorded is left as the verdict says (benchdb cannot
tell); the claims page shows which rounds are held whole. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchdb.claims.facts import ClaimFacts, ResultFacts, Verification, submitter_name_matches
from benchdb.claims.round_counts import Holding

CHECKED = frozenset({"consistent", "inconsistent", "ambiguous"})


def best_needs_whole_rounds(
    c: ClaimFacts,
    v: Verification,
    holdings: Mapping[tuple[str, str], Holding] | None,
    by_pk: Mapping[int, ResultFacts],
) -> Verification:
    """``v`` unchanged, or ``unverifiable`` (the reason naming each round and the
    submitters whose listed results are not stored, ``details["was"]`` the verdict it
    replaces) when ``v`` rests on a best result (module docstring) of a round that
    ``holdings`` ((suite, round) -> :class:`Holding`; None: no tree known) shows held in
    part. ``by_pk``: the claim suite's results by pk, to find each link's round."""
    best = c.baseline.startswith("best:")
    if v.verdict not in CHECKED or holdings is None or not (best or "record" in c.context):
        return v
    gaps: dict[str, list[str]] = {}
    for link in v.links:
        r = by_pk.get(link.result)
        held = holdings.get((r.suite, r.round)) if r is not None else None
        if r is None or held is None:
            continue
        if link.role == "baseline" and best:
            missing = sorted(held.incomplete)
        elif link.role == "subject":
            missing = sorted(
                f
                for f in held.incomplete
                if not c.submitter or submitter_name_matches(c.submitter, f)
            )
        else:
            continue
        if missing:
            gaps[r.round] = missing
    if not gaps:
        return v
    where = "; ".join(f"{rnd}: {', '.join(who)}" for rnd, who in sorted(gaps.items()))
    reason = (
        "the reading takes a best result, and benchdb does not hold every result it is the"
        f" best of (listed in the round's repository but not stored: {where})"
    )
    details = {**v.details, "reason": reason, "was": v.verdict, "rounds_held_in_part": gaps}
    return Verification("unverifiable", details=details)
