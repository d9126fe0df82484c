"""Every number on a page accounted for: a claim, or a number not treated as a claim
and why. Pure: no Django.

``account_numbers(text, claims, tables)`` -> one :class:`NumberUse` per number written
in digits (a run of digits with its separators: ``3,584``, ``1.18.0``, ``2021-12-02``),
per gain written in words (``一倍多``, ``halved``) and per number written in Chinese
numerals before a measure word (``四个``, ``两周``, ``一倍``; a lone 一 only before a
unit of time or 倍, since 一个 is mostly "a"), in text order. ``status`` is
``claim`` when a claim's span holds it (or it is the accelerator count of a
one-cell-per-line table row the claim was read with), else ``not-claim`` with a
``reason``, tested in this order:

``url`` (a web address, file name or path segment), ``result-id`` (``1.1-2040``),
``date`` (a year, ``2021-12-02``, ``7 月 15 日``, a month name, a time of day ``20:00``,
"7 month 6" as machine translation writes 7月6日), ``version`` (``v1.1``, ``SDK 1.4``,
``1.18.0``, "MLPerf 3.1", "2.3 Version"), ``model-size`` (``70B``, ``175B``), ``name``
(digits inside or after a name: ``A100``, ``IPU-POD16&64``, ``ResNet-50``, ``Llama 2``,
``Gaudi® 2``, ``Xeon Platinum 8380``, "表 1", "chart 1", "section 3"), ``price``
(``$``, ``元``, ``3000万美元``), ``page-count`` (a page's article, view and follower
counters), ``footnote`` (``[1]``), ``negated`` ("不能說 100% 超越": a figure the page
denies), ``quality`` (a quality target or metric: loss 0.1293, 75.9% accuracy, 准确率),
``ratio`` (one figure to another: "1比8", "1:8"), ``share`` (a percentage that is no
gain: "30% of the servers", 占 20%), ``vendor-table`` (a cell of the page's own table
that is no claim: a throughput, a batch size), ``setting`` (batch size, sequence length,
parallelism "1,1,8", precision bits; a bare cell of a one-cell-per-line table whose
header names such columns), ``count`` (a count of machines, GPUs, people, days...; the
accelerator-count cell of a one-cell-per-line table), ``other`` (a bare number the page
gives no unit or comparison for).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .page_tables import VendorTable
from .patterns import FRACTION, GLOSS, RESULT_ID, quality_figure, share_figure
from .quantities import negated
from .tables import count_line_above
from .types import Claim

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
    "quality",
    "ratio",
    "share",
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
_VERSION_AFTER = re.compile(r"^\s*(?:版|版本|-\d{3}|(?i:version\b))")
_MODEL_SIZE = re.compile(r"^(?:\.\d+)?\s?[BbMm](?![A-Za-z])")
_PRICE = re.compile(r"[$€£¥]\s*$")
_PRICE_AFTER = re.compile(r"(?i:^\s*(?:万|萬|亿|億|million|billion)?\s*(?:元|美元|USD|dollars?))")
_NAME_BEFORE = re.compile(
    r"(?i:(?:Llama|LLaMA|GPT|Mistral|Mixtral|Gemma|Qwen|Gaudi|Xeon(?:\s+\w+)?|Platinum|Table"
    r"|Figure|Fig\.?|chart|section|chapter|part|leetcode|insider|表|图|圖)[®™*]?\s*)$"
)
_PAGE_COUNT = re.compile(r"^\s*(?:文章|瀏覽量|浏览量|關注|关注|評論|评论|views|likes|comments)")
_PAGE_COUNT_BEFORE = re.compile(r"(?:瀏覽量|浏览量|views)\s*$")
_RATIO = re.compile(r"^\s*(?:比|:|to)\s*\d")
_RATIO_BEFORE = re.compile(r"\d\s*(?:比|:)\s*$")
_SETTING_NEAR = re.compile(
    r"(?i:batch|sequence|seq\.?\s*len|length|bits?|FP\d|BF\d|INT\d|precision|TP|PP|DP|epochs?)"
)
_COUNT_AFTER = re.compile(
    r"^\s*(?:个|個|台|位|名|家|种|種|项|項|天|周|週|年|次|月|小时|小時|分钟|分鐘|秒"
    r"|(?i:(?:[A-Za-z][\w-]*\s+){0,4}(?:machines?|servers?|people|days?|weeks?|times|members?"
    r"|models?|years?|months?|workloads?|benchmarks?|tests?|GPUs|CPUs|nodes|instances)\b))"
)
#: Numbers written in Chinese numerals before a measure word ("四个", "两周", "一倍").
_ZH_DIGITS = "一二两兩三四五六七八九十百千万萬"
ZH_NUMBER = re.compile(
    rf"(?<![{_ZH_DIGITS}第之统統唯同])(?:[{_ZH_DIGITS}]{{2,12}}|[二两兩三四五六七八九十])"
    r"(?=个|個|台|位|名|家|种|種|项|項|天|周|週|年|次|倍|月|小时|小時|分钟|分鐘|秒|颗|顆|张|張"
    r"|节点|節點|款|代|轮|輪|场|場)"
    rf"|(?<![{_ZH_DIGITS}第之统統唯同])一(?=倍|周|週|天|年|个月|個月|小时|小時|分钟|分鐘)"
)
#: A one-cell-per-line table's header (Intel's Gaudi tables: "Model / # HPU / Precision
#: / Throughput / Sequence Length / TP,PP,DP / Batch Size / Framework Version").
_CELL_HEADER = re.compile(r"(?m)^(?:Model|Benchmark|Network)\n(?:[^\d\n]{1,40}\n){2,}")
_SETTING_HEADER = re.compile(r"(?i:batch|sequence|TP\s*,\s*PP|micro)")


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
    found = [(m.start(), m.end()) for m in _NUMBER.finditer(text)]
    found += [(m.start(), m.end()) for m in FRACTION.finditer(text)]
    inside = _inside_any(found)
    found += [(m.start(), m.end()) for m in ZH_NUMBER.finditer(text) if not inside(m.start())]
    heads = [(m.start(), m.end()) for m in _CELL_HEADER.finditer(text)]
    numbers = sorted(set(found))
    # Each span and row marks the numbers it holds (a bisect, then only those): asking
    # every span and row for every number was quadratic on a page of 80,000 table rows
    # (issue 21). The first span in list order that holds a number is its holder.
    starts = [a for a, _ in numbers]
    holders: dict[int, int] = {}
    for s, e, i in spans:
        for k in range(bisect.bisect_left(starts, s), bisect.bisect_left(starts, e)):
            holders.setdefault(k, i)
    in_rows: set[int] = set()
    for tb in tables:
        for r in tb.rows:
            in_rows.update(
                range(bisect.bisect_left(starts, r.start), bisect.bisect_left(starts, r.end))
            )
    out = []
    for k, (a, b) in enumerate(numbers):
        holder = holders.get(k)
        if holder is not None:
            out.append(NumberUse(a, b, text[a:b], "claim", "", holder))
            continue
        in_row = k in in_rows
        reason = _reason(text, a, b) or _reason_by_use(text, a, b, in_row, heads)
        out.append(NumberUse(a, b, text[a:b], "not-claim", reason))
    return out


def _inside_any(spans: Sequence[tuple[int, int]]) -> Callable[[int], bool]:
    """A test of whether an offset lies in one of ``spans`` ((start, end), any order):
    a bisect on the sorted starts and the furthest end up to each."""
    ordered = sorted(spans)
    starts = [a for a, _ in ordered]
    reach = list(itertools.accumulate((b for _, b in ordered), max))

    def inside(x: int) -> bool:
        k = bisect.bisect_right(starts, x)
        return k > 0 and reach[k - 1] > x

    return inside


def _reason(text: str, a: int, b: int) -> str:
    """The reasons read from how a number is written and named ("" when none)."""
    tok, before, after = text[a:b], text[max(0, a - 30) : a], text[b : b + 30]
    # The address a number stands in starts at most 300 characters before it (a longer
    # window makes a 100,000-character line quadratic: [\w-]+ from every start).
    w = max(text.rfind("\n", 0, a) + 1, a - 300)
    if any(m.start() <= a - w < m.end() for m in _URL.finditer(text[w : min(b, a + 300) + 40])):
        return "url"
    if RESULT_ID.fullmatch(tok):
        return "result-id"
    glued_l = a > 0 and (text[a - 1].isascii() and text[a - 1].isalpha() or text[a - 1] == "-")
    glued_l = glued_l or a > 1 and text[a - 1] == "&" and text[a - 2].isalnum()
    if a > 0 and text[a - 1] == "/" and text[b : b + 1] == "/":
        return "url"  # a path segment: "MODIS/006/MCD19A2"
    v_name = text[a - 1 : a] == "V" and re.fullmatch(r"\d{3}", tok)  # "V100", not "v1.1"
    if (
        glued_l
        and not re.match(r"^[BbMm](?![A-Za-z])", after)
        and (text[a - 1] not in "vV" or v_name)
    ):
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
    if _PAGE_COUNT.match(after) or _PAGE_COUNT_BEFORE.search(before):
        return "page-count"
    if negated(GLOSS.sub("", before), len(GLOSS.sub("", before))):
        return "negated"
    return ""


def _reason_by_use(
    text: str, a: int, b: int, in_row: bool, heads: Sequence[tuple[int, int]]
) -> str:
    """The reasons read from what a number measures (after names, dates, versions);
    ``heads``: the spans of the page's one-cell-per-line table headers."""
    before, after = text[max(0, a - 30) : a], text[b : b + 30]
    if quality_figure(before, after):
        return "quality"
    if _RATIO.match(after) or _RATIO_BEFORE.search(before):
        return "ratio"
    if share_figure(before, after):
        return "share"
    if in_row:
        return "vendor-table"
    cell = _table_cell(text, a, b, heads)
    if cell:
        return cell
    if _SETTING_NEAR.search(before[-12:]) or _SETTING_NEAR.match(after.strip()):
        return "setting"
    if re.fullmatch(r"\d+(?:,\d{1,2}){2}", text[a:b]):
        return "setting"  # "1,1,8": tensor, pipeline and data parallel degrees
    if _COUNT_AFTER.match(after):
        return "count"
    return "other"


def _table_cell(text: str, a: int, b: int, heads: Sequence[tuple[int, int]]) -> str:
    """``count`` or ``setting`` for a bare cell (alone on its line) of a one-cell-per-
    line table whose header names setting columns: the line right after the row's
    label (a line starting with a letter) is its accelerator count, the other bare
    cells its settings (batch size, sequence length, parallelism). "" otherwise."""
    line_start = text.rfind("\n", 0, a) + 1
    line_end = text.find("\n", b)
    if text[line_start:a].strip() or text[b : line_end if line_end >= 0 else None].strip():
        return ""
    k = bisect.bisect_right(heads, (a, a)) - 1
    if k < 0 or a - heads[k][1] > 5000 or "\n\n" in text[heads[k][1] : a]:
        return ""
    if not _SETTING_HEADER.search(text[heads[k][0] : heads[k][1]]):
        return ""
    prev = text[text.rfind("\n", 0, line_start - 1) + 1 : max(line_start - 1, 0)]
    return "count" if re.match(r"[A-Za-z]", prev) else "setting"


def _is_date(tok: str, before: str, after: str) -> bool:
    if re.fullmatch(r"(?:19|20)\d\d(?:[-/.]\d{1,2}(?:[-/.]\d{1,2})?)?", tok):
        return not re.match(r"^\s*(?:[xX×倍%]|min|s\b|GB|MB)", after)
    if re.fullmatch(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?", tok):
        return True  # a time of day: "22:38:00", "20:00"
    return bool(
        _DATE_AFTER.match(after)
        or _DATE_NEAR.search(before)
        or _DATE_AFTER_MONTH.match(after)
        or re.match(r"(?i:^\s*month\b)", after)
        or re.search(r"(?i:\bmonth\s*$)", before)
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
