"""One sentence in its page: what a claim in it is about, looked up in its clause,
its sentence and the sentences before it (see ``claim_text``). Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

from benchdb.claims.facts import BATCH_ONE as BATCH_ONE_TAG

from .patterns import (
    BATCH_ONE,
    CLAUSE,
    DAYS_METRIC,
    METRICS,
    NOT_MLPERF,
    PER_ACCEL,
    RESULT_ID,
)
from .quantities import find_quantities
from .sentences import Mention, Sentence
from .types import Claim, Quantity, to_count


class SentenceContext:
    """One sentence of a page and the lookups its claims need (``claim_text``'s docstring:
    clause, then sentence, then earlier sentences of the paragraph)."""

    def __init__(
        self, t: str, sentences: list[Sentence], i: int, page_mlperf: bool, page_unverified: bool
    ) -> None:
        self.t, self.all, self.i, self.s = t, sentences, i, sentences[i]
        self.text = t[self.s.start : self.s.end]
        self.page_mlperf, self.page_unverified = page_mlperf, page_unverified
        self.quantities = find_quantities(t, self.s)
        self.clauses = self._clauses()
        self._said: dict[tuple[re.Pattern[str], int, int], bool] = {}

    def says(self, rx: re.Pattern[str], span: tuple[int, int] | None = None) -> bool:
        """Whether the sentence (or ``span`` of it, offsets in the prepared text) matches
        ``rx``; each is searched once (quantities of one clause share their span, and
        a sentence with many quantities asks the same for each)."""
        a, b = span or (self.s.start, self.s.end)
        if (rx, a, b) not in self._said:
            self._said[(rx, a, b)] = bool(rx.search(self.t[a:b]))  # a slice: lookbehinds stop at a
        return self._said[(rx, a, b)]

    @cached_property
    def _result_ids(self) -> tuple[str, ...]:
        return tuple(f"{a}-{b}" for a, b in RESULT_ID.findall(self.text))

    @cached_property
    def _accelerator_counts(self) -> list[Quantity]:
        return [
            x for x in self.quantities if x.kind == "scale" and x.unit not in ("node", "system")
        ]

    def _clauses(self) -> list[tuple[int, int]]:
        cuts = (
            [self.s.start]
            + [self.s.start + m.start() for m in CLAUSE.finditer(self.text)]
            + [self.s.end]
        )
        return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]

    def own(self, q: Quantity) -> tuple[int, int]:
        """The quantity's clause plus following clauses without number or system."""
        k = next(j for j, (a, b) in enumerate(self.clauses) if a <= q.start < b)
        a, b = self.clauses[k]
        for a2, b2 in self.clauses[k + 1 :]:
            if (
                self.t[a2] in ";；"
                or any(a2 <= x.start < b2 for x in self.quantities)
                or any(
                    m.kind in ("system", "benchmark", "nonmlperf") and a2 <= m.start < b2
                    for m in self.s.mentions
                )
            ):
                break
            b = b2
        return a, b

    def mentions_in(self, kind: str, span: tuple[int, int], role: str | None = "") -> list[Mention]:
        return [
            m
            for m in self.s.mentions
            if m.kind == kind and span[0] <= m.start < span[1] and (role is None or m.role == role)
        ]

    def nearest(self, kind: str, q: Quantity, used: list[str]) -> Mention | None:
        own = self.mentions_in(kind, self.own(q))
        if own:
            return min(own, key=lambda m: abs(m.start - q.start))
        sent = self.mentions_in(kind, (self.s.start, self.s.end))
        before = [m for m in sent if m.start < q.start]
        if before:
            return before[-1]
        if sent:
            return sent[0]
        for s in reversed(self.all[max(0, self.i - 6) : self.i]):
            if s.paragraph != self.s.paragraph:
                break
            prev = [m for m in s.mentions if m.kind == kind and not m.role]
            if prev:
                used.append(kind)
                return prev[-1]
        return None

    def attrs(self, q: Quantity) -> dict[str, object]:
        used: list[str] = []
        own = self.own(q)
        system = self.nearest("system", q, used)
        nonml = [m for m in self.s.mentions if m.kind == "nonmlperf"]
        in_sentence = bool(self.mentions_in("benchmark", (self.s.start, self.s.end)))
        bench = None
        if in_sentence or not (nonml or q.kind in ("spec", "throughput")):
            bench = self.nearest("benchmark", q, used)
        rnd = self.nearest("round", q, used)
        divs = self.mentions_in("division", own) or self.mentions_in(
            "division", (self.s.start, self.s.end)
        )
        fw = self.mentions_in("framework", own) or self.mentions_in(
            "framework", (self.s.start, self.s.end)
        )
        sub = self.mentions_in("submitter", own) or self.mentions_in(
            "submitter", (self.s.start, self.s.end)
        )
        ids = self._result_ids
        metric = next((name for rx, name in METRICS if self.says(rx, own)), "")
        if q.kind == "throughput":
            metric = "throughput"
        elif q.kind == "spec":
            metric = _SPEC_METRICS.get(
                q.unit, "compute" if "FLOPS" in q.unit or q.unit == "TOPS" else "memory"
            )
        if q.kind == "time" and q.unit == "d":  # "trains GPT-3 in 8 days"
            metric = DAYS_METRIC
        if metric == "cost" and q.kind in ("time", "head_to_head"):
            metric = ""  # "66.9 minutes, ... a more cost-effective option": still a time
        counts = self._accelerator_counts
        if len([x for x in self.quantities if x.kind == "time"]) > 1:
            # "8B in 5.2 minutes with up to 512 ... GPUs and FLUX.1 in 12.5 minutes with
            # 1,152 GPUs": a count goes with the time of its own clause only
            counts = [x for x in counts if own[0] <= x.start < own[1]]
        return {
            "accelerators": to_count(counts[0].value)
            if len(counts) == 1 and q.kind != "scale"
            else None,
            "system": (system.text if system else q.system_hint),
            "benchmark": bench.text if bench else "",
            "benchmark_key": bench.key if bench else "",
            "round": rnd.key if rnd else "",
            "division": divs[0].key if len({d.key for d in divs}) == 1 else "",
            "result_ids": ids,
            "framework": fw[0].key if fw else "",
            "submitter": sub[0].key if sub else "",
            "metric": metric or ("time-to-train" if q.kind in ("time", "head_to_head") else ""),
            "non_mlperf": (BATCH_ONE_TAG if self.says(BATCH_ONE) else "")
            or (nonml[0].text if nonml and not bench else "")
            or ("stated" if self.says(NOT_MLPERF) else ""),
            "mlperf_context": self.page_mlperf,
            "per_accelerator": self.says(PER_ACCEL, own),
            "unverified": self.page_unverified,
            "context": tuple(used),
            "qualifier": q.qualifier,
            "qualifier_text": q.qualifier_text,
        }

    def claim(self, kind: str, q: Quantity, **extra: object) -> Claim:
        attrs = self.attrs(q) | extra
        return Claim(
            kind=kind,
            sentence=self.text.strip(),
            sentence_start=self.s.start,
            sentence_end=self.s.end,
            start=q.start,
            end=q.end,
            value=q.value,
            unit=q.unit,
            value_high=q.high,
            **attrs,  # type: ignore[arg-type]
        )


#: A hardware figure's metric by unit (others: compute for FLOPS/TOPS, else memory).
_SPEC_METRICS = {
    "GHz": "clock",
    "MHz": "clock",
    "nm": "process",
    "W": "power",
    "core": "hardware",
    "CPU": "hardware",
    "transistor": "hardware",
    "parameter": "hardware",
    "mm2": "hardware",
}


def distinct_keys(ms: Iterable[Mention]) -> list[Mention]:
    out: list[Mention] = []
    for m in ms:
        if all(o.key != m.key for o in out):
            out.append(m)
    return out
