"""Hardware figures a submission's MLPerf system description states: a CPU's core
count ("56 cores", "quad core") or clock ("2.8GHz") checked against the systems JSON
of every system the sentence allows. Pure: no Django.

This is a check of the system description (``host_processor_core_count``,
``host_processor_frequency`` of ``systems/<system>.json``, as the submitter wrote
them), not of a performance result: its verdict says so. A sentence allows the
systems of the claim's round that its words name: a system folder or name written
whole ("n2-highcpu-16"), or a processor model number ("i5-8257U", "8480+") of the
systems JSON's ``host_processor_model_name``; the figure's clause (between commas,
colons, semicolons) is read first, the whole sentence when the clause names none. When
the sentence also names the submitter of some of those systems ("Intel ... 8480+"),
the submitter's systems are those allowed. The claimed number never chooses a
system: every allowed system must state the figure (``consistent``), or every one
another figure in the same field (``inconsistent``); else ``unverifiable`` naming
the systems that disagree or state none.

Only a plain core count (the figure's own words: "56个核心", "8 core", "quad-core",
"56 CPU cores"; not "CUDA cores", "logical cores" or "vCPU") and a clock in GHz/MHz
in a clause that names a processor model or says CPU, and says no boost, turbo or
base clock (the JSON does not say which clock its frequency is), are read; anything else (GPU
cores, memory, a figure of no system named) stays as :func:`benchdb.claims.verdicts`
labels it (``not-mlperf``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE

#: Context tags a spec claim carries from its sentence (:func:`scope_tags`).
CLAUSE_TAG = "spec-clause:"
SENTENCE_TAG = "spec-sentence:"
#: "<i>/<n>": the figure is item i (from 0) of n coordinated ones the clause pairs with
#: its n systems "respectively" ("single and 8 core ... (n2-highcpu-2, n2-highcpu-16
#: GCP instances, respectively)": 8 is item 1 of 2).
RESPECTIVELY_TAG = "spec-respectively:"
_ITEMS = re.compile(r"(?:[\w.]+\s*,\s*)*[\w.]+,?\s+(?:and|or)\s+$")
#: Characters before a figure searched for the list it ends.
_LIST_CHARS = 400

_NUMBER = r"(?:[\d.,]+|[A-Za-z]+|[一二两三四五六七八九十百]+)"
_PLAIN_CORES = re.compile(
    rf"^{_NUMBER}\s*个?\s*(?:CPU[\s-]*)?-?\s*(?:cores?|核心|核)$", re.IGNORECASE
)
_PLAIN_CLOCK = re.compile(r"^[\d.,]+\s*(?:GHz|MHz)$", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:,;:、]")
_BOOST = re.compile(r"boost|turbo|max|peak|base|all-core|睿频|加速|基础频率", re.IGNORECASE)
_CPU_WORDS = re.compile(r"\bCPUs?\b|处理器", re.IGNORECASE)
_MODEL_NUMBER = re.compile(r"[A-Za-z0-9]*\d[A-Za-z0-9+-]*")


def _kind(c: ClaimFacts) -> str:
    """``cores`` or ``clock`` for the claims this module reads, else ""."""
    if c.kind != "spec" or c.value is None or c.qualifier:
        return ""
    if c.metric == "hardware" and c.unit == "core":
        return "cores"
    if c.metric == "clock" and c.unit in ("GHz", "MHz"):
        return "clock"
    return ""


def _clause(sentence: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the part of ``sentence`` between the clause breaks around ``start:end``,
    breaks inside parentheses ignored ("(n2-highcpu-2, n2-highcpu-16)")."""
    depth, cuts = 0, [-1]
    for i, ch in enumerate(sentence):
        if ch in "((":
            depth += 1
        elif ch in "))":
            depth -= 1
        if depth <= 0 and _CLAUSE_BREAK.fullmatch(ch):
            cuts.append(i)
    cuts.append(len(sentence))
    lo = max(x for x in cuts if x < start)
    hi = min(x for x in cuts if x >= end)
    return lo + 1, hi


def scope_tags(c: ClaimFacts, sentence: str, start: int, end: int) -> tuple[str, ...]:
    """The figure's clause and sentence as context tags, for a plain core count or a
    CPU clock (``start:end``: the figure's offsets in ``sentence``, its own words); ()
    for any other claim or when the offsets are unknown."""
    kind = _kind(c)
    if not kind or start < 0 or end > len(sentence):
        return ()
    figure = sentence[start:end].strip()
    if not (_PLAIN_CORES if kind == "cores" else _PLAIN_CLOCK).match(figure):
        return ()
    lo, hi = _clause(sentence, start, end)
    clause = sentence[lo:hi].strip()
    tags: tuple[str, ...] = (CLAUSE_TAG + clause, SENTENCE_TAG + sentence)
    if not re.search(r"\brespectively\b", clause, re.IGNORECASE):
        return tags
    # the list ends at the figure; 400 characters bound the search (quadratic in a list)
    before = _ITEMS.search(sentence[max(lo, start - _LIST_CHARS) : start])
    if before:
        # the figure ends the list ("single and 8 core"): item n-1 of n
        n = len(re.findall(r"[\w.]+(?=\s*,|\s+(?:and|or)\s)", before.group(0))) + 1
        tags += (f"{RESPECTIVELY_TAG}{n - 1}/{n}",)
    return tags


def _tag(c: ClaimFacts, prefix: str) -> str:
    return next((t[len(prefix) :] for t in c.context if t.startswith(prefix)), "")


def _written(name: str, text: str, shortest: int = 4) -> bool:
    """``name`` stands whole in ``text`` (case ignored; no letter or digit around it),
    names shorter than ``shortest`` never."""
    return bool(_spots(name, text, shortest))


def _model_numbers(processor: str) -> list[str]:
    """A processor name's model numbers as a text writes them ("Intel(R) Core(TM)
    i5-8257U CPU @ 1.40GHz" -> ["i5-8257U"], "AMD EPYC 7763 64-Core Processor" ->
    ["EPYC 7763"]): words with a digit, a bare number with the word before it; no
    clock, core count ("64-Core") or count ("2xAMD")."""
    words = processor.replace("(R)", " ").replace("(TM)", " ").split()
    out = []
    for i, w in enumerate(words):
        if not _MODEL_NUMBER.fullmatch(w) or len(w) < 4:
            continue
        if re.fullmatch(r"[\d.]+[GM]Hz|\d+-?cores?|\d+x\w*", w, re.IGNORECASE):
            continue
        if w.isdigit():  # "7763": only as "EPYC 7763"
            w = f"{words[i - 1]} {w}" if i else ""
        if w:
            out.append(w)
    return out


def _named(text: str, systems: Sequence[ResultFacts], *, by_processor: bool) -> list[ResultFacts]:
    return [
        r
        for r in systems
        if _written(r.system_folder, text)
        or _written(r.system_name, text)
        or (by_processor and any(_written(m, text) for m in _model_numbers(r.processor)))
    ]


def _systems(results: Sequence[ResultFacts], rnd: str | None) -> list[ResultFacts]:
    """One result per system (round, submitter, division, folder) of round ``rnd``
    (None: of any round)."""
    seen: dict[tuple[str, str, str, str], ResultFacts] = {}
    for r in results:
        if rnd is None or r.round == rnd:
            seen.setdefault((r.round, r.submitter, r.division, r.system_folder), r)
    return list(seen.values())


def _allowed(c: ClaimFacts, kind: str, results: Sequence[ResultFacts]) -> list[ResultFacts]:
    """The systems the claim's clause (else its sentence) names, narrowed to the
    submitters the sentence names when it names some of theirs."""
    clause, sentence = _tag(c, CLAUSE_TAG), _tag(c, SENTENCE_TAG)
    if not sentence or not c.round:
        return []
    systems = _systems(results, c.round)
    found = _named(clause, systems, by_processor=True)
    if kind == "clock":  # a clock of the CPU: the clause names its model or says CPU
        by_model = len(_named(clause, found, by_processor=False)) < len(found)
        if not (by_model or _CPU_WORDS.search(clause)) or _BOOST.search(clause):
            return []  # a boost or turbo clock: the JSON's frequency may be the base one
    elif not found:
        found = _named(sentence, systems, by_processor=True)
    submitters = {r.submitter for r in found if _written(r.submitter, sentence, 2)}
    found = [r for r in found if r.submitter in submitters] if submitters else found
    return _respective(c, clause, found)


def _respective(c: ClaimFacts, clause: str, found: list[ResultFacts]) -> list[ResultFacts]:
    """The system paired with the figure by "respectively" (:data:`RESPECTIVELY_TAG`)
    when the clause names exactly as many systems, in the order it writes them; all of
    ``found`` otherwise."""
    tag = _tag(c, RESPECTIVELY_TAG)
    if not tag:
        return found
    index, count = (int(x) for x in tag.split("/"))
    at: dict[int, list[ResultFacts]] = {}
    for r in found:
        spots = [m.start() for n in (r.system_folder, r.system_name) for m in _spots(n, clause)]
        if not spots:  # named by its processor: no place in the list
            return found
        at.setdefault(min(spots), []).append(r)
    if len(at) != count:
        return found
    return at[sorted(at)[index]]


def _spots(name: str, text: str, shortest: int = 4) -> list[re.Match[str]]:
    """Where ``name`` stands whole in ``text`` (see :func:`_written`)."""
    if len(name) < shortest:
        return []
    pat = rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])"
    return list(re.finditer(pat, text, re.IGNORECASE))


def _raw(r: ResultFacts, kind: str) -> str:
    return (r.processor_cores if kind == "cores" else r.processor_clock).strip()


def _stated(r: ResultFacts, kind: str, unit: str) -> float | None:
    """The figure ``r``'s systems JSON states, in the claim's ``unit``; None when it
    states none (or words, not one figure)."""
    raw = _raw(r, kind)
    if kind == "cores":
        return float(raw) if re.fullmatch(r"\d+(?:\.0)?", raw) else None
    m = re.fullmatch(r"([\d.]+)\s*(GHz|MHz)", raw, re.IGNORECASE)
    if not m:
        return None
    ghz = float(m.group(1)) / (1000.0 if m.group(2).lower() == "mhz" else 1.0)
    return ghz * 1000.0 if unit == "MHz" else ghz


def _agrees(claimed: float, stated: float) -> bool:
    """The stated figure rounded to the claim's printed digits is the claim."""
    decimals = len(repr(claimed).split(".")[1].rstrip("0")) if "." in repr(claimed) else 0
    return round(stated, decimals) == round(claimed, decimals)


def _differs(claimed: float, stated: float, r: ResultFacts, kind: str) -> bool:
    """The stated figure is another one, not the claimed cores counted over the node's
    processors or as threads (Dell's v3.0 R760 JSON: 224 for two 56-core 8480+): the
    field is a count per processor, which a submitter may have written otherwise."""
    if _agrees(claimed, stated):
        return False
    if kind != "cores":
        return True
    per_node = r.processors or 1
    return stated not in {claimed * k for k in {per_node, 2, 2 * per_node}}


_FIELD = {"cores": "host_processor_core_count", "clock": "host_processor_frequency"}


def verify(
    c: ClaimFacts, results: Sequence[ResultFacts], pinned: Sequence[Link] | None
) -> Verification | None:
    """The verdict of a core count or CPU clock against the system description of
    every system the text allows (module doc), or of the pinned subject results'
    systems; None when the claim is no such figure or its text names no system
    (the caller's ``not-mlperf`` stands)."""
    kind = _kind(c)
    if not kind or not _tag(c, SENTENCE_TAG):  # no plain CPU figure (scope_tags)
        return None
    if pinned:
        by_pk = {r.pk: r for r in results}
        subjects = [by_pk[k.result] for k in pinned if k.role == "subject" and k.result in by_pk]
        allowed = _systems(subjects, None)
    else:
        allowed = _allowed(c, kind, results)
    if not allowed:
        return None
    field, claimed = _FIELD[kind], float(c.value or 0.0)
    stated = [(r, _stated(r, kind, c.unit)) for r in allowed]
    said = "; ".join(
        f"the MLPerf system description of {r.round} {r.submitter} {r.division}"
        f" {r.system_folder} gives {field} "
        + (repr(_raw(r, kind)) if v is not None else f"{_raw(r, kind)!r}, no figure")
        for r, v in stated
    )
    head = "a hardware figure checked against the systems JSON, not a performance result: "
    if all(v is not None and _agrees(claimed, v) for _, v in stated):
        verdict = CONSISTENT
    elif all(v is not None and _differs(claimed, v, r, kind) for r, v in stated):
        verdict = INCONSISTENT
    else:
        verdict = UNVERIFIABLE
        head += (
            "the systems the text allows disagree, state none, or give the figure times the"
            " node's processors or threads (which system, or what the JSON counts, left open): "
        )
    values = {v for _, v in stated if v is not None}
    return Verification(
        verdict,
        recomputed_value=values.pop() if len(values) == 1 else None,
        details={"reason": head + said, "field": field, "basis": "system-description"},
    )
