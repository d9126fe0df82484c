"""Figures as a page prints them, with the magnitude suffix the claim parser reads
("~420k tokens/s" is 420,000; "1.2M samples/s" is 1,200,000; "3,584" is 3,584):
where in a sentence the claimed value stands, so that the clause around it, and the
system and benchmark named there, are the figure's own. Pure: no Django.

The suffixes are the parser's (``ingest.claims.parsers.patterns.QUANTITY``'s ``mag``:
``k``/``K`` a thousand, ``M`` a million, right after the digits or after one space;
``words.py``'s Chinese throughput: 万/萬 ten thousand, "每秒生成2万个token"); a k/M
followed by a letter or digit is no suffix ("8K80", "16 MB", "5 Mbps").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

#: A figure as printed: digits with thousands commas and decimals, and a magnitude
#: suffix (group ``mag``) when one follows.
FIGURE = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?(?:\s?(?P<mag>[kKM](?![A-Za-z\d])|[万萬]))?")
_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "万": 1e4, "萬": 1e4}


def figure_value(m: re.Match[str]) -> float | None:
    """The value of a :data:`FIGURE` match (its suffix applied); None when the digits
    do not read as a number ("1,2,3")."""
    digits = m.group()
    if m.group("mag"):
        digits = digits[: -len(m.group("mag"))].rstrip()
    try:
        value = float(digits.replace(",", ""))
    except ValueError:
        return None
    return value * _SCALE[m.group("mag")] if m.group("mag") else value


def figures(text: str) -> Iterator[tuple[re.Match[str], float]]:
    """Each figure of ``text`` that reads as a number, with its value."""
    for m in FIGURE.finditer(text):
        value = figure_value(m)
        if value is not None:
            yield m, value


def figure_values(text: str) -> set[float]:
    """The values of every figure ``text`` prints."""
    return {value for _, value in figures(text)}


def figure_at(text: str, value: float | None) -> re.Match[str] | None:
    """The first figure of ``text`` equal to ``value`` (as printed, its suffix
    applied: "420k" is 420,000, never 420), None when ``value`` is None or absent."""
    if value is None:
        return None
    for m, v in figures(text):
        if math.isclose(v, value, rel_tol=1e-9, abs_tol=1e-12):
            return m
    return None


#: Words before a figure that bound it ("more than 3,000 Nvidia H100 GPUs", "upwards of",
#: "逾5,000顆 Blackwell GPU", "多达", "nearly"): the figure is no exact count, and pins
#: no system of that size.
BOUND_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?:more than|over|upwards of|in excess of|north of|at least|as many as"
    r"|up to|nearly|about|almost|around|approximately|roughly)|~|超过|超過|逾|多达|多達|高达|高達"
    r"|至少|近|将近|將近|接近|约|約)\s*$",
    re.I,
)


def bound_before(text: str, at: int) -> bool:
    """Whether a word of :data:`BOUND_BEFORE` ends right before offset ``at`` of
    ``text`` (looked for in the 24 characters before it)."""
    return bool(BOUND_BEFORE.search(text[max(0, at - 24) : at]))
