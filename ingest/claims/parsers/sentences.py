"""Claim extraction, first steps: the text prepared (tables blanked, pinyin glosses
dropped, full-width forms folded), cut into sentences, and the mentions of systems,
benchmarks, frameworks, submitters, rounds and divisions in each. Pure: no Django.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchdb.vocabulary import BENCHMARKS, FRAMEWORK_NAMES, KNOWN_ROUNDS

from .patterns import (
    ABBREV,
    BASELINE_AFTER,
    BASELINE_BEFORE,
    COMPARE_EN_BEFORE,
    COMPARE_ZH_AFTER,
    DIVISIONS,
    EDGE_L,
    EDGE_R,
    FULLWIDTH,
    GLOSS,
    NON_MLPERF_MODELS,
    NOT_ROUND_BEFORE,
    ROUND_PATTERNS,
    ROUND_WORDS,
    SENTENCE_END,
    SUBMITTERS,
    SYSTEMS,
    WORD_BEFORE,
)

# --- text preparation --------------------------------------------------------------


@dataclass(frozen=True)
class Mention:
    kind: str  # system | benchmark | nonmlperf | framework | submitter | round | division
    start: int  # offsets in the prepared text
    end: int
    text: str
    key: str = ""
    role: str = ""  # "baseline" for a round named as a gain's baseline; "compared"


@dataclass
class Sentence:
    start: int
    end: int
    paragraph: int
    mentions: list[Mention] = field(default_factory=list)


class OffsetMap:
    """Offsets in the prepared text -> offsets in the text as given.

    Removing a gloss shifts every later character; the map keeps one entry per
    gloss (not per character), so it costs nothing on a page without any.
    """

    def __init__(self, length: int) -> None:
        self.length = length  # of the prepared text
        self._starts = [0]  # prepared offsets from which ...
        self._shifts = [0]  # ... this many characters were removed before them

    def add_cut(self, at: int, removed: int) -> None:
        """``removed`` characters were dropped just before prepared offset ``at``."""
        self._starts.append(at)
        self._shifts.append(self._shifts[-1] + removed)

    def __call__(self, i: int) -> int:
        """The offset in the given text of prepared offset ``i`` (clipped to the end)."""
        i = min(max(i, 0), self.length)
        return i + self._shifts[bisect.bisect_right(self._starts, i) - 1]


def prepare_text(text: str, skip: Sequence[tuple[int, int]]) -> tuple[str, OffsetMap]:
    """Blank table spans, drop pinyin glosses and fold full-width forms.

    Returns the prepared text and the map of its offsets back into ``text``."""
    pieces: list[str] = []
    pos = 0
    for a, b in sorted((max(0, a), min(len(text), b)) for a, b in skip):
        if b <= pos:
            continue
        a = max(a, pos)
        pieces += [text[pos:a], _NOT_NEWLINE.sub(" ", text[a:b])]
        pos = b
    blanked = ("".join(pieces) + text[pos:]).translate(FULLWIDTH)
    out: list[str] = []
    cuts: list[tuple[int, int]] = []
    kept = pos = 0
    for m in GLOSS.finditer(blanked):
        out.append(blanked[pos : m.start()])
        kept += m.start() - pos
        cuts.append((kept, m.end() - m.start()))
        pos = m.end()
    out.append(blanked[pos:])
    prepared = "".join(out)
    where = OffsetMap(len(prepared))
    for at, removed in cuts:
        where.add_cut(at, removed)
    return prepared, where


_NOT_NEWLINE = re.compile(r"[^\n]")


#: A longer run of text without a sentence end is cut into pieces of at most this
#: many characters (at a space where there is one): real sentences are shorter
#: (the longest in ../shared/vendor has 1,128), and the work per sentence grows
#: with its quantities times its length.
MAX_SENTENCE_CHARS = 2000


def _sentence(out: list[Sentence], t: str, start: int, end: int, paragraph: int) -> None:
    while end - start > MAX_SENTENCE_CHARS:
        cut = t.rfind(" ", start + 1, start + MAX_SENTENCE_CHARS)
        cut = cut if cut > start else start + MAX_SENTENCE_CHARS
        out.append(Sentence(start, cut, paragraph))
        start = cut
    out.append(Sentence(start, end, paragraph))


def split_sentences(t: str) -> list[Sentence]:
    """Split on newlines, 。！？, and on '.', '!' or '?' before a space or the end of the
    line (not after vs., e.g., i.e., single initials, or inside a number); pieces
    longer than :data:`MAX_SENTENCE_CHARS` are cut."""
    out: list[Sentence] = []
    paragraph = 0
    pos = 0
    for line in t.split("\n"):
        if not line.strip():
            paragraph += 1
        start = pos
        for m in SENTENCE_END.finditer(line):
            # ABBREV's longest word has 6 letters: a window keeps this linear in the line
            if m.group().startswith(".") and ABBREV.search(line[max(0, m.start() - 8) : m.start()]):
                continue
            end = pos + m.end()
            if t[start:end].strip():
                _sentence(out, t, start, end, paragraph)
            start = end
        if t[start : pos + len(line)].strip():
            _sentence(out, t, start, pos + len(line), paragraph)
        pos += len(line) + 1
    return out


def find_mentions(t: str, s: Sentence) -> list[Mention]:
    seg = t[s.start : s.end]
    found: list[Mention] = []

    def add(kind: str, m: re.Match[str], key: str = "", role: str = "") -> None:
        found.append(Mention(kind, s.start + m.start(), s.start + m.end(), m.group(), key, role))

    for rx, key in _BENCHMARK_RX if _BENCHMARK_GATE.search(seg) else ():
        for m in rx.finditer(seg):
            add("benchmark", m, key)
    for m in _NON_MLPERF_RX.finditer(seg):
        add("nonmlperf", m, m.group())
    for m in _SYSTEM_RX.finditer(seg):
        before = seg[max(0, m.start() - _BEFORE_WINDOW) : m.start()]
        compared = COMPARE_EN_BEFORE.search(before) or COMPARE_ZH_AFTER.match(seg[m.end() :])
        add("system", m, _system_key(m.group()), "compared" if compared else "")
    for rx, kind, canon in _NAME_RX if _NAME_GATE.search(seg) else ():
        for m in rx.finditer(seg):
            add(kind, m, canon)
    for k, rx in enumerate(_ROUND_RX if _ROUND_GATE.search(seg) else ()):
        for m in rx.finditer(seg):
            r = m.group("r")
            before = seg[max(0, m.start() - _BEFORE_WINDOW) : m.start()]
            if r not in KNOWN_ROUNDS or NOT_ROUND_BEFORE.search(before):
                continue
            word = WORD_BEFORE.search(before)
            if k == 1 and word and word.group(1).lower() not in ROUND_WORDS:
                continue  # "MLFramework v4.1", "LLaMA V3.1": a product's version
            role = (
                "baseline"
                if (BASELINE_BEFORE.search(before) or BASELINE_AFTER.match(seg[m.end() :]))
                else ""
            )
            found.append(
                Mention(
                    "round", s.start + m.start("r"), s.start + m.end("r"), m.group(), "v" + r, role
                )
            )
    for rx, key in _DIVISION_RX:
        for m in rx.finditer(seg):
            add("division", m, key)
    return _drop_nested(found)


#: Characters before a mention that the patterns ending at it (COMPARE_EN_BEFORE,
#: NOT_ROUND_BEFORE, WORD_BEFORE, BASELINE_BEFORE: a few words, at most about 40
#: characters besides runs of spaces) are searched in: searching the whole sentence
#: before each of a sentence's mentions was quadratic in it (issue 21: 8,000 "H100").
_BEFORE_WINDOW = 200
_BENCHMARK_RX = [(re.compile(pat, 0 if key == "ssd" else re.I), key) for pat, key in BENCHMARKS]
_NON_MLPERF_RX = re.compile(NON_MLPERF_MODELS)
_SYSTEM_RX = re.compile(EDGE_L + r"(?:" + SYSTEMS + r")" + EDGE_R, re.I)
_NAME_RX = [
    (
        re.compile(
            re.escape(name) if not name.isascii() else EDGE_L + re.escape(name) + EDGE_R, re.I
        ),
        "submitter" if name in SUBMITTERS else "framework",
        canon,
    )
    for name, canon in {**SUBMITTERS, **FRAMEWORK_NAMES}.items()
]
_ROUND_RX = [re.compile(pat, re.I) for pat in ROUND_PATTERNS]
# Gates: one search that every match of a group's patterns also matches (a superset),
# so a sentence without any of them is scanned once instead of once per pattern.
_BENCHMARK_GATE = re.compile("|".join(f"(?:{pat})" for pat, _ in BENCHMARKS), re.I)
_NAME_GATE = re.compile("|".join(rx.pattern for rx, _, _ in _NAME_RX), re.I)
_ROUND_GATE = re.compile(r"\d\.\d")
_DIVISION_RX = [(re.compile(pat), key) for pat, key in DIVISIONS]


def _drop_nested(ms: list[Mention]) -> list[Mention]:
    """Keep the longest of overlapping mentions of the same kind ("DGX A100" over "A100")."""
    ms.sort(key=lambda m: (m.start, -(m.end - m.start)))
    out: list[Mention] = []
    # Every kept mention starts at or before m: one of m's kind holds m iff the furthest
    # end of its kind reaches m.end, and a kept system overlaps a non-empty m iff the
    # furthest system end passes m.start (a running maximum, not a scan of all kept:
    # the scan was quadratic in a sentence's mentions, issue 21).
    reach: dict[str, int] = {}
    for m in ms:
        if reach.get(m.kind, -1) >= m.end:
            continue
        if m.kind == "system" and (
            reach.get("system", -1) > m.start
            if m.end > m.start
            else any(o.kind == "system" and o.start < m.end and m.start < o.end for o in out)
        ):
            continue
        out.append(m)
        reach[m.kind] = max(reach.get(m.kind, -1), m.end)
    return out


def _system_key(mention: str) -> str:
    return re.sub(r"[^a-z0-9]", "", mention.lower())
