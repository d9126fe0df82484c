"""Claim checking measured against hand-established truths (issue 20).

Usage (from the repository root, with DATABASE_URL naming a database that holds the
MLPerf rounds the truths cite, ingested whole)::

    python bench/claims_truth.py [--corpus ../shared/vendor-dev] [--page 05-jetson ...]
                                 [--claims] [--json out.json]

For each page of the corpus (``NN-name.<lang>.txt`` beside a ``TRUTH.json``): the three
header lines (``URL:``, ``DATE:``, blank) are stripped and the text is ingested as a
user would (``manage.py ingest vendor FILE --url URL [--published DATE]``), through
``ingest.claims.pages.vendor_page_ingest``; a page already stored with the same bytes
is deleted first (this writes to the database it is pointed at: use a bench database).
Then every truth is matched to at most one stored claim of the page, and counted:

* **extracted**: a claim whose value (or compared value) is one of the truth's printed
  numbers (``truth_numbers``: "2.2x", "~420k", "7-54%", "六", "37 minutes 21 seconds"),
  the claim's sentence sharing the most words (Chinese: character pairs) with the
  truth's text; each claim serves one truth;
* **checkable**: truth ``consistent``, ``inconsistent`` or ``ambiguous``;
* **checked**: a checkable truth whose claim has one of those verdicts (basis
  ``mlperf``) or a page verdict (basis ``page-arithmetic``);
* **right**: checked, the verdict equals the truth, and every linked result is one
  ``official`` names (its system folder name, or its score to the printed digits,
  appears in ``official``);
* **false consistent / false inconsistent**: a ``consistent`` / ``inconsistent``
  verdict (MLPerf or page) on a claim whose truth is something else, or resting on
  results ``official`` does not name;
* **page arithmetic**: claims with a page verdict, right when it agrees with the
  truth (or the truth's ``arithmetic:`` flag), wrong when it does not, unlinked when
  the claim has no checkable truth (a claim the page repeats, same kind and figure as a
  matched one, is scored as that one).

Libraries: cn2an reads Chinese numerals in the truths' printed values (the scorer reads
them itself, not with the parser under test, so that its expectations are not the
code's own output). Nothing is
asserted; ``tests/bench/test_claims_truth.py`` runs the same scoring on the pages whose
rounds ``../shared`` holds and asserts the floor reached.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

CHECKED = ("consistent", "inconsistent", "ambiguous")
PAGE_VERDICTS = {"consistent-with-page": "consistent", "inconsistent-with-page": "inconsistent"}

_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
    "half-dozen": 6,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "single": 1,
    "quad": 4,
    "double": 2,
    "twice": 2,
    "triple": 3,
}
_SCALE = {"k": 1e3, "m": 1e6, "万": 1e4, "亿": 1e8, "billion": 1e9, "million": 1e6}
# A suffix counts only as a whole word ("5 minutes" is no 5 million); a unit after the
# number ("2.3X", "141GB", "2.8GHz") leaves the number as printed.
_NUM = re.compile(r"(\d[\d,]*(?:\.\d+)?)(?:\s*(k|m|万|亿|billion|million)(?![a-z]))?", re.I)
_MIN_SEC = re.compile(r"(\d+)\s*minutes?\s*(\d+)\s*seconds?")
_CN = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")


def truth_numbers(value: str) -> set[float]:
    """The numbers a truth's printed value may stand for: "2.2x" -> {2.2}, "~420k" ->
    {420000, 420}, "7-54%" -> {7, 54}, "37 minutes 21 seconds" -> {37.35, 37, 21},
    "六" -> {6}, "half-dozen" -> {6}. Empty for a value with no number ("fastest")."""
    import cn2an  # type: ignore[import-untyped]

    text = value.lower()
    out: set[float] = set()
    for m in _MIN_SEC.finditer(text):
        out.add(int(m.group(1)) + int(m.group(2)) / 60)
    for m in _NUM.finditer(text):
        n = float(m.group(1).replace(",", ""))
        out.add(n)
        if m.group(2):
            out.add(n * _SCALE[m.group(2).lower()])
    for word in re.findall(r"[a-z][a-z-]*", text):
        if word in _WORDS:
            out.add(float(_WORDS[word]))
    for m in _CN.finditer(value):
        try:
            out.add(float(cn2an.cn2an(m.group(0), "smart")))
        except (ValueError, KeyError, TypeError):
            continue
    return out


def same_number(a: float | None, b: float) -> bool:
    """``a`` equals ``b`` up to float noise or the printed rounding of ``b`` (0.5% or
    half a unit of its last digit, whichever is larger)."""
    if a is None or not math.isfinite(a):
        return False
    return abs(a - b) <= max(abs(b) * 0.005, 1e-9)


def _tokens(text: str) -> set[str]:
    words = set(re.findall(r"[a-z0-9][a-z0-9.\-]*", text.lower()))
    han = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return words | {han[i : i + 2] for i in range(len(han) - 1)}


def overlap(truth_text: str, sentence: str) -> float:
    """Share of the truth text's words (and Chinese character pairs) found in
    ``sentence``: 0..1."""
    want = _tokens(truth_text.replace("...", " ").replace("[", " ").replace("]", " "))
    return len(want & _tokens(sentence)) / len(want) if want else 0.0


@dataclass
class ClaimView:
    """What scoring reads of a stored (or checked) claim: ids, numbers, sentence,
    verdicts, linked results as ``(system folder, submitter, score)``."""

    pk: int
    kind: str
    value: float | None
    compared_value: float | None
    sentence: str
    verdict: str
    page_verdict: str
    links: list[tuple[str, str, float | None]] = field(default_factory=list)
    reason: str = ""
    arithmetic: str = ""


@dataclass
class Scored:
    """One truth and what became of it."""

    truth: dict[str, Any]
    claim: ClaimView | None
    outcome: str  # "right", "wrong", "unchecked", "not-extracted", "false consistent", ...
    evidence_ok: bool | None = None


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _folder_named(system: str, official: str) -> bool:
    """``official`` names the folder whole, by an elided prefix ("F8000X_..." for every
    ``F8000X_...`` folder), or by its first two ``_`` parts as the
    truths abbreviate folders ("abci_512xV100" for ``abci_512xV100_tensorflow_closed``,
    "dgxa100_n128" for ``dgxa100_n128_ngc21.09_mxnet``), not followed by a letter or
    digit ("dgxa100_n12" does not name ``dgxa100_n128_...``)."""
    if _norm(system) in _norm(official):
        return True
    for elided in re.findall(r"(?<![A-Za-z0-9_])([A-Za-z0-9]+_)(?:\.\.\.|…)", official):
        if system.startswith(elided):  # "F8000X_..." names every F8000X_ folder
            return True
    parts = system.split("_")
    if len(parts) < 3:
        return False
    head = "_".join(parts[:2])
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(head)}(?![A-Za-z0-9])", official) is not None


def evidence_named(links: list[tuple[str, str, float | None]], official: str) -> bool:
    """Every linked result is one ``official`` names: its system folder name (whole or
    abbreviated, :func:`_folder_named`), or its score to 2-4 decimals, appears there."""
    flat = official.replace(",", "")
    for system, _submitter, score in links:
        if system and _folder_named(system, official):
            continue
        if score is not None and any(f"{score:.{d}f}" in flat for d in (1, 2, 3, 4)):
            continue
        return False
    return True


def match(truths: list[dict[str, Any]], claims: list[ClaimView]) -> list[ClaimView | None]:
    """Each truth's claim (or None): candidates share a number, best sentence overlap
    first; each claim serves one truth."""
    pairs = []
    for ti, t in enumerate(truths):
        nums = truth_numbers(str(t.get("value", "")))
        for c in claims:
            if any(same_number(c.value, n) or same_number(c.compared_value, n) for n in nums):
                pairs.append((overlap(t["text"], c.sentence), ti, c))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2].pk))
    out: list[ClaimView | None] = [None] * len(truths)
    used: set[int] = set()
    for score, ti, c in pairs:
        if out[ti] is None and c.pk not in used and score >= 0.2:
            out[ti] = c
            used.add(c.pk)
    return out


def score_truth(t: dict[str, Any], c: ClaimView | None) -> Scored:
    """The outcome of one truth given its matched claim (see the module docstring): the
    MLPerf verdict for a truth of basis ``mlperf``, the page verdict for one of basis
    ``page-arithmetic``."""
    truth, basis = t["truth"], t.get("basis", "")
    if c is None:
        return Scored(t, None, "not-extracted")
    if basis == "page-arithmetic":
        verdict = PAGE_VERDICTS.get(c.page_verdict, "")
    else:
        verdict = c.verdict if c.verdict in CHECKED else ""
    if not verdict:
        return Scored(t, c, "unchecked" if truth in CHECKED else "abstained")
    ok_evidence = evidence_named(c.links, t.get("official", "")) if c.links else True
    if verdict == truth and ok_evidence:
        return Scored(t, c, "right", True)
    if verdict in ("consistent", "inconsistent"):
        return Scored(t, c, f"false {verdict}", ok_evidence)
    return Scored(t, c, "wrong", ok_evidence)


def page_arithmetic_outcome(t: dict[str, Any] | None, c: ClaimView) -> str:
    """``right``, ``wrong`` or ``unlinked`` for a claim with a page verdict: right when
    it agrees with the truth (or the truth's ``arithmetic:`` flag), unlinked when the
    truth neither is checkable nor recomputes the page's numbers."""
    if t is None:
        return "unlinked"
    m = re.search(r"arithmetic:(\w+)", " ".join(t.get("flags", [])))
    want = m.group(1) if m else t["truth"] if t["truth"] in CHECKED else ""
    if not want:
        return "unlinked"
    return "right" if PAGE_VERDICTS.get(c.page_verdict) == want else "wrong"


# --- the corpus and the database -------------------------------------------------------


def read_corpus(root: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(page file, its truth entry) for every page of every ``TRUTH.json`` under
    ``root``, in folder and file order."""
    out = []
    for truth_file in sorted(root.glob("*/TRUTH.json")):
        truths = json.loads(truth_file.read_text(encoding="utf-8"))
        for name in sorted(truths):
            out.append((truth_file.parent / name, truths[name]))
    return out


def split_header(path: Path) -> tuple[str, date | None, bytes]:
    """(URL, date or None, the page's bytes without the three header lines)."""
    raw = path.read_bytes()
    lines = raw.split(b"\n", 3)
    url = lines[0].decode().removeprefix("URL:").strip()
    day = lines[1].decode().removeprefix("DATE:").strip()
    when = date.fromisoformat(day) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) else None
    return url, when, lines[3] if len(lines) > 3 else b""


def ingest_page(path: Path) -> list[ClaimView]:
    """Ingest one corpus page afresh and return its stored claims."""
    import hashlib

    from benchdb.models import Claim, VendorPage
    from ingest.claims.pages import vendor_page_ingest

    url, when, data = split_header(path)
    VendorPage.objects.filter(sha256=hashlib.sha256(data).hexdigest()).delete()
    report = vendor_page_ingest(data=data, path_or_url=path.name, url=url, published=when)
    rows = (
        Claim.objects.filter(page_id=report.page_id)
        .order_by("position")
        .prefetch_related("links__result__system", "links__inference_result__system")
    )
    return [_view(r) for r in rows]


def _view(r: Any) -> ClaimView:
    links = []
    for lk in r.links.all():
        target = lk.target
        folder = getattr(getattr(target, "system", None), "folder", "") or ""
        score = getattr(target, "score_minutes", None)
        if score is None:
            score = getattr(target, "value", None)
        links.append((str(folder), "", score))
    arith = r.page_arithmetic.get("text", "") if isinstance(r.page_arithmetic, dict) else ""
    return ClaimView(
        r.pk,
        r.kind,
        r.value,
        r.compared_value,
        r.sentence,
        r.verdict,
        r.page_verdict or "",
        links,
        str(r.details.get("reason", ""))[:160],
        arith or json.dumps(r.page_arithmetic)[:160] if r.page_arithmetic else "",
    )


def score_page(truth: dict[str, Any], claims: list[ClaimView]) -> tuple[Counter[str], list[Any]]:
    """Counts for one page and the rows to print (truth, claim, outcome)."""
    truths = truth["claims"]
    matched = match(truths, claims)
    n: Counter[str] = Counter(truths=len(truths), claims=len(claims))
    rows = []
    for t, c in zip(truths, matched, strict=True):
        s = score_truth(t, c)
        rows.append(s)
        n["extracted"] += c is not None
        if t["truth"] in CHECKED:
            n["checkable"] += 1
            n["checked"] += s.outcome in (
                "right",
                "wrong",
                "false consistent",
                "false inconsistent",
            )
        n[s.outcome] += 1
    by_claim = {c.pk: t for t, c in zip(truths, matched, strict=True) if c is not None}
    twins = {(c.kind, c.value): by_claim[c.pk] for c in claims if c.pk in by_claim}
    for c in claims:
        if c.page_verdict in PAGE_VERDICTS:
            n["page verdicts"] += 1
            # a claim the page repeats (a headline, a summary) is scored as its twin
            t = by_claim.get(c.pk) or twins.get((c.kind, c.value))
            n["page " + page_arithmetic_outcome(t, c)] += 1
    # verdicts on claims that match no truth are not scored (the truths list every
    # numeric claim; an unmatched claim is a spurious extraction, counted apart)
    n["spurious"] = len(claims) - len(by_claim)
    return n, rows


COLUMNS = (
    ("truths", "truths"),
    ("extracted", "extr"),
    ("checkable", "chkbl"),
    ("checked", "chkd"),
    ("right", "right"),
    ("false consistent", "F-cons"),
    ("false inconsistent", "F-inc"),
    ("wrong", "wrong"),
    ("page verdicts", "pg"),
    ("page right", "pg-ok"),
    ("page wrong", "pg-bad"),
    ("page unlinked", "pg-unl"),
    ("spurious", "spur"),
)


def _setup() -> None:
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    import django

    django.setup()


def run(corpus: Path, only: list[str] | None = None) -> tuple[Counter[str], list[Any]]:
    """Ingest and score every page of ``corpus`` (or those whose name starts with one
    of ``only``): (totals, [(page name, counts, rows)])."""
    total: Counter[str] = Counter()
    pages = []
    for path, truth in read_corpus(corpus):
        name = f"{path.parent.name}/{path.name}"
        if only and not any(name.startswith(o) or path.name.startswith(o) for o in only):
            continue
        counts, rows = score_page(truth, ingest_page(path))
        total.update(counts)
        pages.append((name, counts, rows))
    return total, pages


def _print(total: Counter[str], pages: list[Any], claims: bool) -> None:
    head = " ".join(f"{short:>6}" for _, short in COLUMNS)
    print(f"{'page':52} {head}")
    for name, n, rows in pages:
        print(f"{name[:52]:52} " + " ".join(f"{n[k]:>6}" for k, _ in COLUMNS))
        if claims:
            for s in rows:
                c = s.claim
                what = (
                    f"#{c.pk} {c.kind} {c.value}/{c.compared_value} -> {c.verdict}"
                    f"{' ' + c.page_verdict if c.page_verdict else ''}"
                    f" {[lk[0] for lk in c.links]} {c.reason[:90]}"
                    if c
                    else "-"
                )
                print(
                    f"    [{s.outcome:18}] {s.truth['truth']:12} {s.truth['value']!s:22} | {what}"
                )
    print(f"{'all pages':52} " + " ".join(f"{total[k]:>6}" for k, _ in COLUMNS))
    checkable, checked = total["checkable"], total["checked"]
    print(
        f"extracted {total['extracted']}/{total['truths']}"
        f" ({total['extracted'] / max(total['truths'], 1):.0%}); checked {checked}/{checkable}"
        f" ({checked / max(checkable, 1):.0%}); right {total['right']}/{checked}"
        f" ({total['right'] / max(checked, 1):.0%}); false consistent"
        f" {total['false consistent']}; false inconsistent {total['false inconsistent']};"
        f" page verdicts {total['page verdicts']} (right {total['page right']}, wrong"
        f" {total['page wrong']}, unlinked {total['page unlinked']})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/vendor-dev"))
    ap.add_argument("--page", nargs="*", help="only pages whose file name starts so")
    ap.add_argument("--claims", action="store_true", help="print every truth's outcome")
    ap.add_argument("--json", type=Path, help="write totals and per-page counts here")
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    _setup()
    total, pages = run(corpus, args.page)
    _print(total, pages, args.claims)
    if args.json:
        args.json.write_text(
            json.dumps({"total": total, "pages": {p: dict(n) for p, n, _ in pages}}, indent=1)
        )


if __name__ == "__main__":
    main()
