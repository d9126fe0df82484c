"""The claim a vendor page makes, and how its numbers are read. Pure: no Django.

:class:`Claim` extends :class:`benchdb.claims.facts.ClaimFacts` (what verification
reads) with where the claim stands in the text; ``claim_text`` finds claims.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from benchdb.claims.facts import ClaimFacts

#: Largest magnitude read as a value. No figure a vendor page states comes near it;
#: the bound keeps every ratio derived from two values finite (1e15 / 1e-6 < 1e308).
MAX_VALUE = 1e15
#: Largest accelerator count kept (a PostgreSQL ``integer`` column holds it).
MAX_COUNT = 2**31 - 1


def to_number(text: str) -> float | None:
    """A number as written (``"28.3"``, ``"3,584"``) -> float, or None when it is not
    a finite number of magnitude <= :data:`MAX_VALUE` (a 400-digit number, which
    ``float`` reads as infinity; ``"nan"``; ``"inf"``; no number at all). A claim
    whose number is None keeps its text and span, with no value."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) <= MAX_VALUE else None


def to_count(value: float | None) -> int | None:
    """An accelerator count from a value: its integer part when 0 <= value <=
    :data:`MAX_COUNT`, else None."""
    if value is None or not 0 <= value <= MAX_COUNT:
        return None
    return int(value)


@dataclass
class Quantity:
    """A figure of a sentence before it becomes a claim (``claim_quantities``,
    ``claim_words``): ``kind`` and ``unit`` as :class:`Claim`'s, the span of the
    figure, its qualifier, the system written with it ("8x H100": H100), a range's
    upper figure ``high`` ("2-3x": 3) and a count's whole ``compared`` ("four of the
    six benchmarks": 6)."""

    kind: str
    value: float | None  # None: too large to be a figure (see to_number)
    unit: str
    start: int
    end: int
    qualifier: str = ""
    qualifier_text: str = ""
    system_hint: str = ""
    high: float | None = None
    compared: float | None = None


@dataclass(frozen=True, kw_only=True)
class Claim(ClaimFacts):
    """One numeric claim: the fields verification reads
    (:class:`benchdb.claims.facts.ClaimFacts`, described there) and where it stands.

    Spans are character offsets into the text given to ``extract_claims``:
    ``start``/``end`` cover the claimed quantity (both sides of a head-to-head),
    ``sentence_start``/``sentence_end`` its sentence. ``value``/``compared_value``
    are in ``unit`` (``min``, ``s``, ``h``, ``%``, ``x``, ``GPU``/``IPU``/...,
    ``TFLOPS``...); None when the page's number is no finite figure (:func:`to_number`).
    ``qualifier_text``: the qualifier as written; ``benchmark``: the benchmark as
    written; ``source``: ``text`` or ``table``, and ``table_row`` (table, row) for a
    table's row; ``value_high`` (a range's upper figure) is a
    :class:`ClaimFacts` field. ``round`` is "" unless the text names one (the
    verifier fills it in from the page's date).
    """

    sentence: str
    sentence_start: int
    sentence_end: int
    start: int
    end: int
    qualifier_text: str = ""
    benchmark: str = ""
    mlperf_context: bool = False
    source: str = "text"
    table_row: tuple[int, int] | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every field (tuples as lists)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = list(v) if isinstance(v, tuple) else v
        return out
