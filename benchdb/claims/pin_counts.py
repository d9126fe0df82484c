"""A count settled on the results a person pins (the claim workbench, issue 27): "Qualcomm
beat Nvidia in two out of three measures of power efficiency", "Qualcomm was third".
Pure: no Django.

The automatic check counts wins and entries only over a round held whole
(:mod:`benchdb.claims.round_wins`) and leaves other counts open. A person may name the
counted results instead: the **subject**'s (``subject`` pins) and, for wins and ranks,
the **field** they are compared with (``compared`` pins). The count is then computed
over exactly those results, with round_wins' rules for a win:

* a **test** is a benchmark (inference: the model as the submission checker names it,
  "bert-99"), scenario and division (closed and open are not compared); only tests with a
  pinned result on each side are counted when ``compared`` is pinned ("N out of M": M
  is the number of such tests);
* the figure is the result's score (a time to train: lower is better) or value
  (higher is better), or its throughput per watt when the claim's figure is per watt
  (the pin ``normalisation: per-watt``: :func:`benchdb.claims.per_watt.per_watt`);
  a result without that figure is left out;
* a **count of benchmarks** (unit benchmark, task, test...) with a field: the tests
  the subject wins (its best figure at least as good as every pinned result of the
  field: ties count as wins, as in round_wins; a subject whose pinned results all lack
  the figure, a result with no power measured for a count per watt, wins none);
  without a field: the tests the subject has a pinned result in (entries);
* a **rank** ("third"): in each test, the subject's best result's place among the
  pinned results (1 + the results with a strictly better figure); each test is a
  reading, settled by :func:`benchdb.claims.readings.settle` (consistent only if every
  test gives the claimed place, inconsistent only if none does).

``consistent`` when the count (and M) is the claimed one, else ``inconsistent``: the
person chose the results; the reason names each test and its figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification
from benchdb.claims.per_watt import per_watt
from benchdb.claims.readings import Reading, settle
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE

#: Units of a count of tests (as the parser gives them).
TEST_UNITS = frozenset({"benchmark", "task", "test", "win", "category", "measure", "workload"})


def _figure(r: ResultFacts, per_w: bool) -> float | None:
    """A result's figure, "higher is better" (a time negated), or None."""
    if per_w:
        return per_watt(r)
    if r.score_minutes is not None:
        return -r.score_minutes
    if r.value is None:
        return None
    return r.value if r.higher_is_better else -r.value


Test = tuple[str, str, str]


def _tests(rs: Sequence[ResultFacts], per_w: bool) -> dict[Test, list[tuple[ResultFacts, float]]]:
    """The results with the figure, by test: (benchmark as the checker names it,
    scenario, division: the closed and open divisions are not compared)."""
    out: dict[Test, list[tuple[ResultFacts, float]]] = {}
    for r in rs:
        f = _figure(r, per_w)
        if f is not None:
            out.setdefault((r.benchmark, r.scenario, r.division), []).append((r, f))
    return out


def _name(test: Test) -> str:
    return " ".join(x for x in test if x)


def count_pinned(
    c: ClaimFacts, chosen: Mapping[str, Sequence[ResultFacts]], per_w: bool
) -> Verification:
    """The verdict of count ``c`` over the pinned results ``chosen`` (role -> results:
    ``subject``, ``compared``), by the module's rule; ``per_w``: the figure is per
    watt. ``unverifiable`` saying why when the subject has no pinned result with that
    figure, or the unit is neither tests nor a rank."""
    mine = _tests(chosen.get("subject", ()), per_w)
    field = _tests(chosen.get("compared", ()), per_w)
    links = tuple(Link(r.pk, role, r.suite) for role, rs in chosen.items() for r in rs)
    if not mine and not (chosen.get("subject") and field and c.unit in TEST_UNITS):
        why = "no pinned subject result has the claim's figure" + (" per watt" if per_w else "")
        return Verification(UNVERIFIABLE, details={"reason": why})
    # a subject whose pinned results lack the figure (no power measured) wins none of the
    # field's tests: "bested both in one category" over results without a figure per watt
    if c.unit == "rank":
        return _ranks(c, mine, field, links)
    if c.unit not in TEST_UNITS:
        why = f"a count of {c.unit}s is not counted over pinned results (tests and ranks are)"
        return Verification(UNVERIFIABLE, details={"reason": why})
    if not field:  # entries: the tests the subject's pinned results are in
        got = sorted(mine)
        n, of, what = len(got), None, "tests entered"
    else:
        both = sorted(set(mine) & set(field))
        got = [t for t in both if max(f for _, f in mine[t]) >= max(f for _, f in field[t])]
        n, of, what = len(got), len(both), f"tests won of the {len(both)} both sides ran"
    holds = n == c.value and (c.compared_value is None or of is None or of == c.compared_value)
    said = f"{what}: {n} ({', '.join(_name(t) for t in got) or 'none'})"
    return Verification(
        CONSISTENT if holds else INCONSISTENT,
        float(n),
        float(of) if of is not None and c.compared_value is not None else None,
        links=links,
        details={"reason": f"counted over the pinned results, {said}", "counted": "pinned"},
    )


def _ranks(
    c: ClaimFacts,
    mine: Mapping[Test, list[tuple[ResultFacts, float]]],
    field: Mapping[Test, list[tuple[ResultFacts, float]]],
    links: tuple[Link, ...],
) -> Verification:
    """Each test's place of the subject's best pinned result among the pinned results."""
    readings = []
    for test in sorted(mine):
        best_r, best = max(mine[test], key=lambda rf: rf[1])
        place = 1 + sum(f > best for _, f in field.get(test, ()))
        readings.append(
            Reading(
                tuple(lk for lk in links if lk.result == best_r.pk),
                float(place),
                place == c.value,
                {"benchmark": _name(test)},
                f"{_name(test)}: place {place} of {1 + len(field.get(test, ()))}",
            )
        )
    return settle(readings, {"counted": "pinned"})
