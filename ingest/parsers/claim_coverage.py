"""Every number on a page accounted for: a claim, or a number not treated as a claim
and why. Pure: no Django.

``account_numbers(text, claims, tables)`` -> one :class:`NumberUse` per number written
in digits (a run of digits with its separators: ``3,584``, ``1.18.0``, ``2021-12-02``)
and per gain written in words (``一倍多``, ``halved``), in text order. ``status`` is
``claim`` when a claim's span holds it (or it is the accelerator count of a
one-cell-per-line table row the claim was read with), else ``not-claim`` with a
``reason``, tested in this order:

``url`` (a web address or file name), ``result-id`` (``1.1-2040``), ``date`` (a year,
``2021-12-02``, ``7 月 15 日``, a month name), ``version`` (``v1.1``, ``SDK 1.4``,
``1.18.0``, "MLPerf 3.1"), ``model-size`` (``70B``, ``175B``), ``name`` (digits inside
or after a name: ``A100``, ``IPU-POD16``, ``ResNet-50``, ``Llama 2``, "表 1"), ``price``,
``page-count`` (a page's article and view counters), ``footnote`` (``[1]``),
``negated`` ("不能說 100% 超越": a figure the page denies), ``vendor-table`` (a cell of
the page's own table that is no claim: a throughput, a batch size), ``setting`` (batch
size, sequence length, precision bits), ``count`` (a count of machines, people,
days...), ``other`` (a bare number the page gives no unit or comparison for).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .claim_patterns import FRACTION, GLOSS, RESULT_ID
from .claim_quantities import negated
from .claim_tables import count_line_above
from .claim_types import Claim
from .vendor_tables import VendorTable

REASONS = (
    "url",
    "result-id",
    "date",
    "version",
    "model-size",
    "name",
    "price",
    "page-count",
    "footnote",
    "negated",
    "vendor-table",
    "setting",
    "count",
    "other",
)
_NUMBER = re.compile(r"(?<![\d])\d+(?:[.,:/-]\d+)*")
_URL = re.compile(r"(?i:https?://\S+|www\.\S+|[\w-]+\.(?:png|jpe?g|gif|html?|js|php|pdf)\b)")
_MONTHS = (
    r"January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_DATE_AFTER = re.compile(r"^\s*(?:年|月|日|号|號)")
_DATE_NEAR = re.compile(rf"(?i:(?:{_MONTHS})\.?\s*$)")
_DATE_AFTER_MONTH = re.compile(rf"(?i:^\s*(?:{_MONTHS})\b)")
_VERSION_BEFORE = re.compile(
    r"(?i:(?:[vV]|version|release|SDK|MLPerf(?:™|\*|TM|®)?(?:\s*(?:Training|Inference|HPC))?"
    r"|Training|Inference|Ubuntu|PyTorch|TensorFlow|Lightning|DeepSpeed|SynapseAI\*?|software"
    r"|CUDA|NGC|CANN|Poplar|round|PR\s*#|#|版本?)\s*:?\s*)$"
)
_VERSION_AFTER = re.compile(r"^\s*(?:版|版本|-\d{3})")
_MODEL_SIZE = re.compile(r"^(?:\.\d+)?\s?[BbMm](?![A-Za-z])")
_PRICE = re.compile(r"[$€£¥]\s*$")
_PRICE_AFTER = re.compile(r"(?i:^\s*(?:元|美元|USD|dollars?))")
_NAME_BEFORE = re.compile(
    r"(?i:(?:Llama|LLaMA|GPT|Mistral|Mixtral|Gemma|Qwen|Gaudi|Table|Figure|Fig\.?|表|图|圖)\s*)$"
)
_PAGE_COUNT = re.compile(r"^\s*(?:文章|瀏覽量|浏览量|關注|关注|評論|评论|views|likes|comments)")
_SETTING_NEAR = re.compile(
    r"(?i:batch|sequence|seq\.?\s*len|length|bits?|FP\d|BF\d|INT\d|precision|TP|PP|DP|epochs?)"
)
_COUNT_AFTER = re.compile(
    r"^\s*(?:个|個|台|位|名|家|种|種|项|項|天|周|週|年|次|(?i:machines?|servers?|people|days?"
    r"|weeks?|times|members?|models?|years?|months?|workloads?|benchmarks?|tests?))"
)


@dataclass(frozen=True)
class NumberUse:
    """A number on the page: its span and text, ``status`` (``claim`` or
    ``not-claim``), ``reason`` (one of :data:`REASONS`, "" for a claim), ``claim`` the
    index of the claim that holds it (None when none)."""

    start: int
    end: int
    text: str
    status: str
    reason: str = ""
    claim: int | None = None

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def account_numbers(
    text: str, claims: Sequence[Claim], tables: Sequence[VendorTable] = ()
) -> list[NumberUse]:
    """Every number of ``text`` (module docstring), aligned with nothing: in text order.
    ``claims``: the page's claims (``claim_text.extract_claims``) whose spans point into
    ``text``; ``tables``: its vendor tables (their rows' cells that are no claim are
    ``vendor-table``)."""
    spans = [(c.start, c.end, i) for i, c in enumerate(claims)]
    for i, c in enumerate(claims):
        cell = count_line_above(text, c) if c.kind == "time" and c.source == "text" else None
        if cell and c.accelerators is not None:
            spans.append((cell[0], cell[1], i))
    rows = [(r.start, r.end) for tb in tables for r in tb.rows]
    found = [(m.start(), m.end()) for m in _NUMBER.finditer(text)]
    found += [(m.start(), m.end()) for m in FRACTION.finditer(text)]
    out = []
    for a, b in sorted(set(found)):
        holder = next((i for s, e, i in spans if s <= a < e), None)
        if holder is not None:
            out.append(NumberUse(a, b, text[a:b], "claim", "", holder))
            continue
        in_row = any(s <= a < e for s, e in rows)
        out.append(NumberUse(a, b, text[a:b], "not-claim", _reason(text, a, b, in_row)))
    return out


def _reason(text: str, a: int, b: int, in_row: bool) -> str:
    tok, before, after = text[a:b], text[max(0, a - 30) : a], text[b : b + 30]
    line_start = text.rfind("\n", 0, a) + 1
    if any(m.start() <= a - line_start < m.end() for m in _URL.finditer(text[line_start : b + 40])):
        return "url"
    if RESULT_ID.fullmatch(tok):
        return "result-id"
    glued_l = a > 0 and (text[a - 1].isascii() and text[a - 1].isalpha() or text[a - 1] == "-")
    if glued_l and not re.match(r"^[BbMm](?![A-Za-z])", after) and text[a - 1] not in "vV":
        return "name"  # "M2000", "A100", "ResNet-50" (before a year: "IPU-M2000")
    if _is_date(tok, before, after):
        return "date"
    if _is_version(tok, before, after):
        return "version"
    if _MODEL_SIZE.match(after) and glued_l is False or re.match(r"^[Bb](?![A-Za-z])", after):
        return "model-size"
    if glued_l or re.match(r"^[A-Za-z]", after):
        return "name"
    if _NAME_BEFORE.search(before):
        return "name"
    if before.endswith("[") and after.startswith("]"):
        return "footnote"
    if _PRICE.search(before) or _PRICE_AFTER.match(after):
        return "price"
    if _PAGE_COUNT.match(after):
        return "page-count"
    if negated(GLOSS.sub("", before), len(GLOSS.sub("", before))):
        return "negated"
    if in_row:
        return "vendor-table"
    if _SETTING_NEAR.search(before[-12:]) or _SETTING_NEAR.match(after.strip()):
        return "setting"
    if _COUNT_AFTER.match(after):
        return "count"
    return "other"


def _is_date(tok: str, before: str, after: str) -> bool:
    if re.fullmatch(r"(?:19|20)\d\d(?:[-/.]\d{1,2}(?:[-/.]\d{1,2})?)?", tok):
        return not re.match(r"^\s*(?:[xX×倍%]|min|s\b|GB|MB)", after)
    return bool(
        _DATE_AFTER.match(after) or _DATE_NEAR.search(before) or _DATE_AFTER_MONTH.match(after)
    )


def _is_version(tok: str, before: str, after: str) -> bool:
    if re.fullmatch(r"\d+\.\d+\.\d+(?:[-.]\d+)*", tok):
        return True
    return bool(_VERSION_BEFORE.search(before) or _VERSION_AFTER.match(after)) and bool(
        re.fullmatch(r"\d+(?:\.\d+)*", tok)
    )


def coverage_counts(uses: Sequence[NumberUse]) -> dict[str, int]:
    """Counts of a page's numbers: ``numbers``, ``claim`` and each reason."""
    counts = Counter(u.reason or u.status for u in uses)
    return {"numbers": len(uses), "claim": counts.pop("claim", 0), **dict(sorted(counts.items()))}
