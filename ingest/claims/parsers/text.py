"""Numeric claims in vendor pages, English and Chinese (simplified and traditional).

Pure: no Django. ``extract_claims(text, tables=...)`` -> list of :class:`Claim`.

What is found (``Claim.kind``):

* ``time``: a time to train (min, mins, minutes, s, seconds, hours; 分钟 分鐘 秒 小时 小時);
* ``head_to_head``: two times on two systems in one sentence with a comparison word
  (vs, compared to/with, than, while, whereas; 而 相比 相较 相較 对比 對比). ``value``
  is the faster side (the one the claim advertises), ``compared_value`` the other;
* ``multiplier``: x, ×, times, -fold, 倍 (``8x H100`` is a scale, not a multiplier);
* ``percentage``: %, percent (提升/提高/快 N% are percentages with a gain word);
* ``scale``: N GPUs, IPUs, TPUs, HPUs, chips, accelerators, nodes, cards; N 个/個 IPU,
  GPU, 节点/節點, 系统/系統; N 颗/顆/张/張;
* ``parity``: "X performs like / is similar to / on par with / matches Y" (相当 相當
  持平 媲美) between two frameworks or two systems; no number: ``value`` 0 (%);
* ``spec``: hardware figures (TFLOPS, GB, MB, TB, GHz, nm): never an MLPerf metric;
* ``throughput``: tokens/s, samples/s, images/s: not MLPerf Training's metric;
* ``count``: wins, records, tasks, results, organizations (N 项冠军, 14家公司, 180项...成绩,
  "more than 50 other members"): counts that need a whole round to check.

Each claim carries what it is about, looked up in this order: its own clause (the
clause holding the number plus following clauses that hold no number and no
system), then the sentence, then earlier sentences of the same paragraph. Systems
that stand on the compared side of a comparison ("compared to ... DGX A100") are
not taken as the subject. Rounds are taken only when named (``v1.1``, "MLPerf
Training 2.0", "MLPerf 1.1"); a round named after "vs", "since", 相较/相比 is the
baseline of a gain, not the claim's round. The latest round published before the
page is filled in by the verifier (``benchdb.claims.verdicts``), which knows the rounds.

Machine-translated Chinese reposts carry pinyin glosses after converted characters
(``實(shí)現(xiàn)``); they are skipped while reading, and every span still points into
the text as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ingest.parsers.types import ParseError

from .context import SentenceContext
from .inference import inference_claims
from .kinds import sentence_claims
from .page_tables import VendorTable
from .patterns import UNVERIFIED
from .sentences import (
    MAX_SENTENCE_CHARS,
    OffsetMap,
    find_mentions,
    prepare_text,
    split_sentences,
)
from .tables import cell_row_counts, claims_from_tables, header_unit_times, round_in
from .types import MAX_COUNT, MAX_VALUE, Claim, to_count, to_number

__all__ = [
    "MAX_COUNT",
    "MAX_SENTENCE_CHARS",
    "MAX_VALUE",
    "Claim",
    "claims_from_tables",
    "extract_claims",
    "round_in",
    "to_count",
    "to_number",
]

# --- assembling claims ---------------------------------------------------------------


def extract_claims(
    text: str, *, tables: Sequence[VendorTable] = (), max_claims: int | None = None
) -> list[Claim]:
    """Every numeric claim of a cleaned page, in text order.

    ``text``: the cleaned text (``ingest.claims.parsers.page_html.parse_vendor_page``);
    ``tables``: its vendor tables (``ingest.claims.parsers.page_tables.parse_vendor_tables``):
    their lines are read as table rows (:func:`claims_from_tables`), not as prose.
    ``max_claims``: raise :class:`ParseError` (field ``claims``) as soon as more are
    found, so a page of tens of thousands of claims costs no more than the first.
    Raises nothing else on odd text: what cannot be read is left out. Time is linear in
    the text (sentences are cut at :data:`MAX_SENTENCE_CHARS`).
    """
    t, where = prepare_text(text, [(tb.start, tb.end) for tb in tables])
    # MLPerf by name, or MLCommons' published results ("testing data published on
    # Wednesday by MLCommons": MLPerf is the benchmark suite MLCommons publishes)
    page_mlperf = any(word in t.lower() for word in ("mlperf", "mlcommons"))
    page_unverified = bool(UNVERIFIED.search(t))
    sentences = split_sentences(t)
    claims = claims_from_tables(tables, page_unverified=page_unverified)
    for i, s in enumerate(sentences):
        # Mentions are found sentence by sentence: a sentence's claims look back at
        # earlier sentences only.
        s.mentions = find_mentions(t, s)
        ctx = SentenceContext(t, sentences, i, page_mlperf, page_unverified)
        claims.extend(_map_back(c, text, where) for c in sentence_claims(ctx))
        if max_claims is not None and len(claims) > max_claims:
            raise ParseError(f"more than {max_claims} claims", field="claims")
    if max_claims is not None and len(claims) > max_claims:
        raise ParseError(f"more than {max_claims} claims", field="claims")
    claims = header_unit_times(text, claims, [(tb.start, tb.end) for tb in tables])
    return inference_claims(text, cell_row_counts(text, claims))


def _map_back(c: Claim, text: str, where: OffsetMap) -> Claim:
    s0 = where(c.sentence_start)
    s1 = where(max(c.sentence_end - 1, c.sentence_start)) + 1
    return replace(
        c,
        start=where(c.start),
        end=where(max(c.end - 1, c.start)) + 1,
        sentence_start=s0,
        sentence_end=s1,
        sentence=text[s0:s1].strip(),
    )
