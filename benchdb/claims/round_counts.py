"""Counts over a round's results, checked only against a round benchdb holds whole:
"the six MLPerf benchmarks Google entered", "the number of submitters ... dipped to
five this year from eight last year and six the year before". Pure: no Django; the
standard library's ``re`` reads the words.

**Held whole** (``benchdb.models.RoundTree``): benchdb recorded the round's results
repository as git lists it at one commit, and stores a result for every result folder
that listing has for the submitter counted (for a count of submitters: for every
submitter). A round read from a folder that may be a part of it (../shared) has no
tree and is never held whole; the verdict is then ``unverifiable``, saying so.

What is counted comes from the noun phrase alone: "<N> (MLPerf) benchmarks <submitter>
entered" counts the benchmarks of the submitter's stored results of the round, read
with every division the text allows (closed, and all divisions, unless it names one:
the verdict must hold for both); "using TensorFlow and JAX" after the verb keeps the
results whose system's framework names one of them. A count of submitters counts the
repository's submitter folders (MLCommons' convention: a joint submission such as
"Fujitsu+RIKEN" is one submitter), only in a suite with one round a year (HPC), where
"this year", "last year" and "the year before" name the claim's round and the one or
two before it. A round's submitters in other words ("27 submitters", "23 submitting
organizations", "23 家企业"), in any suite with a recorded tree, are counted three ways
that must agree (folders; folders with a closed result; organizations, joint folders
split), and never called inconsistent (MLCommons merges organizations by owner). For
MLPerf Inference, a model's accuracy variants ("bert-99", "bert-99.9") are counted as
two benchmarks and as one, both readings. MLPerf Inference's own applications or
benchmarks ("MLPerf ... tests data center and edge platforms across a half-dozen
applications") are counted over the round's closed-division models as application
areas (and as models, for "benchmarks"). Any other count is left to the other checks
(None); wins and entries after a verb are :mod:`benchdb.claims.round_wins`'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from benchdb.claims.facts import ClaimFacts, Verification
from benchdb.claims.round_facts import suite_clear, suite_rounds
from benchdb.vocabulary import (
    CONSISTENT,
    INCONSISTENT,
    INFERENCE_BENCHMARKS,
    UNVERIFIABLE,
    inference_base_model,
)


@dataclass(frozen=True)
class Score:
    """One stored result of a round held whole, as a win is counted over it:
    ``submitter`` (its submitter folder), ``benchmark`` (benchdb's key: training's
    canonical key, inference's model as the checker names it, "bert-99"), ``division``,
    ``kind`` (inference: the scenario; HPC: strong or weak; training: ""), ``system``
    (system folder), ``accelerator`` (the systems JSON's model name), ``availability``
    (available, preview, research), ``value`` (minutes for a time to train, the
    scenario's metric for inference; None when unscored) and ``lower_better``."""

    submitter: str
    benchmark: str
    division: str
    kind: str
    system: str
    accelerator: str
    availability: str
    value: float | None
    lower_better: bool


@dataclass(frozen=True)
class Holding:
    """What benchdb holds of one round whose tree is recorded: ``submitters`` (the
    tree's submitter folders), ``incomplete`` (submitters with a listed result folder
    that is not stored), ``entries`` (each stored result of a listed folder as
    (submitter folder, benchmark key, division, system folder, framework))."""

    suite: str
    round: str
    commit: str
    submitters: tuple[str, ...]
    incomplete: frozenset[str]
    entries: tuple[tuple[str, str, str, str, str], ...]
    #: every stored result of a listed folder with its score, for wins and ranks
    #: (``benchdb.claims.round_wins``); () where not read.
    scores: tuple[Score, ...] = ()

    def whole(self, submitter: str | None = None) -> bool:
        """Whether every listed result folder (of ``submitter``, or of all) is stored."""
        return not self.incomplete if submitter is None else submitter not in self.incomplete


TAG = "round-count:"
_COUNTED = r"(?i:(?:(?:MLPerf|AI|official|different)\s+){0,2}(?:benchmarks?|workloads?|tests?))"
#: "<N> (MLPerf) benchmarks <submitter> entered (using X and Y)": the submitter's entries.
_ENTERED = re.compile(
    rf"^\s*(?P<noun>{_COUNTED}\s+)?(?:that\s+|which\s+)?(?P<who>[A-Z][\w&.+-]*(?:\s+[A-Z][\w&.+-]*)?|we)"
    r"\s+(?:has\s+|have\s+|had\s+)?(?:entered|submitted\s+(?:to|in|on)|competed\s+in)"
    r"(?P<using>\s+using\s+(?P<fw>[A-Z][\w.+-]*(?:(?:,\s*|\s+and\s+)[A-Z][\w.+-]*)*))?"
    r"(?P<tail>[^.;:]*)"
)
#: Suites whose rounds benchdb holds no tree of: a sentence naming one is not counted.
OTHER_SUITE = re.compile(r"(?i:\b(?:Storage|Tiny|Mobile|Automotive|Client)\b)|存储|存儲|储存")
#: What may follow the verb: nothing, or the round ("in MLPerf Training v1.1").
_ROUND_TAIL = re.compile(
    r"\s*(?:(?:in|for|to)\s+(?:the\s+)?(?:latest\s+|this\s+)?(?:MLPerf|round)[\w\s.™®-]*)?"
)
#: "the number of submitters ... five this year", "from eight last year", "six the year before".
_SUBMITTERS = re.compile(r"(?i:\bnumber\s+of\s+submitters\b|\bsubmitters?\s+(?:count|number)\b)")
_YEAR = re.compile(
    r"^\s*(?i:(?P<this>this\s+year)|(?P<last>last\s+year|the\s+previous\s+year)"
    r"|(?P<before>the\s+year\s+before))\b"
)
#: A count of the round's submitters as its noun says it ("27 submitters", "23 submitting
#: organizations", "23 家企业", "23家提交组织").
_ORGS = re.compile(
    r"(?i:\b(?:submitters|submitting\s+(?:organi[sz]ations|companies)|organi[sz]ations"
    r"|companies)\b)|家(?:企业|企業|公司|提交组织|提交組織|机构|機構)|个提交组织|個提交組織"
)
#: Words that make it a count of some submitters only (power, a division, newcomers...).
_ORGS_NARROW = re.compile(
    r"(?i:\b(?:power|energy|closed|open|edge|data\s*cent(?:er|re)|new|first[\s-]time|"
    r"more\s+than|over|nearly|about|only|cloud|network)\b)|功耗|能耗|数据中心|數據中心|"
    r"边缘|邊緣|新|首次|超过|超過|多家|近"
)
#: Suites with one round a year: "last year" is the round before.
_YEARLY = frozenset({"hpc"})


def scope_tags(
    c: ClaimFacts, sentence: str, start: int, end: int, page: str = ""
) -> tuple[str, ...]:
    """``round-count:entered:<who>[:<frameworks>]`` or ``round-count:submitters:<k>``
    (k rounds before the claim's) for a count claim whose figure is
    ``sentence[start:end]``; () otherwise (module docstring). ``page``: the page's title
    and text; "this year" is the claim's round only when it is the latest round of the
    suite the page names (:func:`latest_named`)."""
    if c.kind != "count" or not 0 <= start <= end <= len(sentence):
        return ()
    after, figure = sentence[end:], sentence[start:end]
    if (
        c.compared_value is not None
        or re.search(r"(?i:\bof\b)", figure)
        or OTHER_SUITE.search(sentence)
    ):
        return ()  # "four of the six benchmarks": a part of a whole (wins), not entries
    m = _ENTERED.match(after)
    noun = m is not None and (m.group("noun") or re.search(rf"{_COUNTED}$", figure))
    if m and noun and c.unit == "benchmark" and _ROUND_TAIL.fullmatch(m.group("tail")):
        fw = re.split(r"\s*,\s*|\s+and\s+", m.group("fw") or "")
        return (f"{TAG}entered:{m.group('who')}:{'|'.join(f.strip('.') for f in fw if f)}",)
    # the clause of the count: up to 40 characters before it, to the next clause break
    clause = (
        sentence[max(0, start - 40) : end]
        + re.split(r"[,;，；]|\band\b|和|及", after, maxsplit=1)[0]
    )
    if c.unit == "organization" and _ORGS.search(figure) and not _ORGS_NARROW.search(clause):
        suite = "hpc" if "suite-hpc" in c.context or c.suite == "hpc" else c.suite or "training"
        return (f"{TAG}organizations",) if suite_clear(suite, sentence, page or sentence) else ()
    suite_count = _suite_benchmarks(c, sentence, start, end)
    if suite_count:
        return (suite_count,)
    y = _YEAR.match(after)
    if y and _SUBMITTERS.search(sentence[:start]) and latest_named(page) == c.round:
        back = 0 if y.group("this") else 1 if y.group("last") else 2
        return (f"{TAG}submitters:{back}",)
    return ()


#: "MLPerf ... tests data center and edge platforms across a half-dozen applications":
#: the suite itself as subject, a verb of covering, nothing but platform words between.
_SUITE_SPANS = re.compile(
    r"\bMLPerf(?:\s+Inference)?\b(?P<between>(?:[^.;:]|\.(?=\d)){0,60}?)\b(?:tests|covers|spans|measures|includes|features"
    r"|comprises|evaluates)\s+(?:(?:data\s*cent(?:er|re)|edge|and|platforms|systems|AI|the|of"
    r"|performance|inference)\s+)*(?:across|on|in|over|with|spanning|covering)?\s*$",
    re.IGNORECASE,
)
#: A name between "MLPerf" and its verb (a submitter's or a product's, not the suite's).
_NAMED = re.compile(r"\b(?!(?:MLPerf|MLCommons|Inference|AI)\b)[A-Z][\w-]*|'s\b|’s\b")
#: Nouns of a count of a suite's application areas ("applications", "use cases").
_AREAS = re.compile(r"(?i:\b(?:applications?|use\s+cases?|areas?|domains?)$)")
_WORKLOADS = re.compile(r"(?i:\b(?:benchmarks?|workloads?|tests?|models?)$)")


def _suite_benchmarks(c: ClaimFacts, sentence: str, start: int, end: int) -> str:
    """``round-count:suite:areas`` (or ``:models``) for a count of MLPerf Inference's own
    applications or benchmarks, the suite the subject and nothing but platforms between
    ("MLPerf ... tests data center and edge platforms across a half-dozen
    applications"); "" otherwise, and when one of data center and edge is named alone
    (a category's benchmarks: not read here)."""
    figure = sentence[start:end].strip()
    spans = _SUITE_SPANS.search(sentence[:start])
    if c.unit != "benchmark" or c.qualifier or spans is None:
        return ""
    if _NAMED.search(spans.group("between")):  # "MLPerf, Dell's PowerEdge covers ...": Dell's
        return ""
    said = sentence[:start]
    dc = re.search(r"(?i:data\s*cent(?:er|re))", said)
    edge = re.search(r"(?i:\bedge\b)", said)
    if bool(dc) != bool(edge) or (c.suite or "inference") != "inference":
        return ""
    kind = "areas" if _AREAS.search(figure) else "models" if _WORKLOADS.search(figure) else ""
    return f"{TAG}suite:{kind}" if kind else ""


_HPC_ROUND = re.compile(r"\bHPC\W{0,3}v?(\d+\.\d+)(?![\d.])")


def latest_named(page: str) -> str:
    """The latest MLPerf HPC round ``page`` names ("MLPerf HPC (v2.0)", "HPC 1.0"); ""
    when it names none."""
    named = {f"v{m.group(1)}" for m in _HPC_ROUND.finditer(page)}
    rounds = [r for r in suite_rounds("hpc") if r in named]
    return rounds[-1] if rounds else ""


def verify(
    c: ClaimFacts, holdings: Mapping[tuple[str, str], Holding] | None
) -> Verification | None:
    """The verdict on a count tagged by :func:`scope_tags` (None for any other claim):
    counted over the round benchdb holds whole, else ``unverifiable`` naming what is
    missing. ``holdings``: (suite, round) -> :class:`Holding`; None when none was read."""
    tag = next((t[len(TAG) :] for t in c.context if t.startswith(TAG)), "")
    if not tag or c.value is None or not c.mlperf_context or c.non_mlperf:
        return None
    suite = "hpc" if "suite-hpc" in c.context or c.suite == "hpc" else c.suite or "training"
    kind, _, arg = tag.partition(":")
    rnd = c.round
    if kind == "submitters":
        if suite not in _YEARLY:
            return _open(f"'last year' names no one round of {suite} (two rounds a year)")
        rounds = suite_rounds(suite)
        back = int(arg)
        if rnd not in rounds or rounds.index(rnd) < back:
            return _open(f"no {suite} round {back} before {rnd or 'the claim'}'s")
        rnd = rounds[rounds.index(rnd) - back]
    if not rnd:
        return _open("no round named and no publication date")
    held = (holdings or {}).get((suite, rnd))
    if held is None:
        return _open(
            f"benchdb holds no whole {suite} {rnd}: no record of its results repository"
            " (a count needs every result of the round; a folder read may be a part)"
        )
    if kind == "submitters":
        return _submitters(c, held)
    if kind == "suite":
        if "round-date" in c.context:
            return _open(
                "the round comes from the page's date only; the suite's benchmarks"
                " of a round need it named"
            )
        return _suite(c, held, arg)
    if kind == "organizations":
        if "round-date" in c.context:
            return _open(
                "the round comes from the page's date only; a count of submitters needs it named"
            )
        return _organizations(c, held)
    return _entered(c, held, arg)


def _open(why: str) -> Verification:
    return Verification(UNVERIFIABLE, details={"reason": why, "round_count": True})


def _submitters(c: ClaimFacts, held: Holding) -> Verification:
    if not held.whole():
        return _open(
            f"{held.round}'s repository at {held.commit[:12]} lists result folders benchdb"
            f" does not store ({', '.join(sorted(held.incomplete))})"
        )
    n = len(held.submitters)
    return _settle(
        c, [("submitter folders of the repository", n, ", ".join(held.submitters))], held
    )


def _organizations(c: ClaimFacts, held: Holding) -> Verification:
    """A round's submitters counted three ways, which must agree: its submitter folders;
    those with a closed-division result; organizations, a joint folder counted as its
    partners ("AMD_MangoBoost" when "AMD" or "MangoBoost" is a folder of the round:
    MLCommons counts each organization once, a joint submission under each partner).
    Never inconsistent: MLCommons' announced count also merges organizations by owner
    (Inference v5.1: 27, with VMware counted as Broadcom; 28 organizations in its
    folders), which no folder says. A person who gives the owners (the workbench's pin
    ``owners``, context :data:`OWNERS`) counts organizations by owner: the one reading,
    which may then be inconsistent."""
    if not held.whole():
        return _open(
            f"{held.round}'s repository at {held.commit[:12]} lists result folders benchdb"
            f" does not store ({', '.join(sorted(held.incomplete))})"
        )
    folders = sorted(held.submitters)
    closed = sorted({e[0] for e in held.entries if e[2] == "closed"})
    orgs = _split_orgs(folders)
    owners = owners_pinned(c)
    if owners:
        unknown = [o for o in owners if o not in orgs]
        if unknown:
            return _open(
                f"the owners pinned name no organization of {held.round}: {', '.join(unknown)}"
            )
        merged: dict[str, str] = {}
        for k, name in orgs.items():  # an owner keeps the spelling of its own folder
            owner = owners.get(k, "")
            merged.setdefault(_key(owner) if owner else k, orgs.get(_key(owner), owner or name))
        said = ", ".join(f"{orgs[k]} as {v}" for k, v in owners.items())
        label = f"organizations, joint folders split, by owner ({said})"
        return _settle(c, [(label, len(merged), ", ".join(sorted(merged.values())))], held)
    readings = [
        ("submitter folders of the repository", len(folders), ", ".join(folders)),
        ("submitter folders with a closed-division result", len(closed), ", ".join(closed)),
        ("organizations, joint folders split", len(orgs), ", ".join(sorted(orgs.values()))),
    ]
    out = _settle(c, readings, held)
    if out.verdict == INCONSISTENT:  # MLCommons' own count knows owners folders do not
        why = "no reading gives the claimed count, but MLCommons counts organizations by"
        why += " owner (VMware as Broadcom), which the folders do not say (a person may pin"
        why += " the owners: 'owners'): "
        return _open(why + str(out.details.get("reason", "")))
    return out


def _suite(c: ClaimFacts, held: Holding, counted: str) -> Verification:
    """The round's benchmarks, as its closed division's results name them: application
    areas (``vocabulary.INFERENCE_BENCHMARKS``' tasks, object detection small and large
    one area; and again with the LLM tasks as one), and for a count of benchmarks also
    models (accuracy variants as one): every reading must agree."""
    if not held.whole():
        return _open(
            f"{held.round}'s repository at {held.commit[:12]} lists result folders benchdb"
            f" does not store ({', '.join(sorted(held.incomplete))})"
        )
    models = sorted({e[1] for e in held.entries if e[2] == "closed"})
    unknown = [m for m in models if m not in INFERENCE_BENCHMARKS]
    if unknown:
        return _open(f"no application area known for {held.round}'s {', '.join(unknown)}")
    areas = sorted({re.sub(r"\s*\(.*\)$", "", INFERENCE_BENCHMARKS[m]) for m in models})
    llm = sorted({re.sub(r"^LLM\b.*", "LLM", a) for a in areas})  # LLM tasks as one
    readings = [
        (f"{held.round}'s application areas, closed division", len(areas), ", ".join(areas)),
        (f"{held.round}'s application areas, LLM tasks as one", len(llm), ", ".join(llm)),
    ]
    if counted == "models":
        base = sorted({inference_base_model(m) for m in models})
        readings.append((f"{held.round}'s models, closed division", len(base), ", ".join(base)))
    return _settle(c, readings, held)


def _split_orgs(folders: list[str]) -> dict[str, str]:
    """The organizations of a round's submitter folders, a joint folder split into its
    partners when one of them is a folder of the round: key -> the spelling of its
    first folder or part ("AMD_MangoBoost" -> AMD, MangoBoost)."""
    keys = {_key(f) for f in folders}
    orgs: dict[str, str] = {}
    for f in folders:
        parts = [p for p in re.split(r"[_+]", f) if p]
        joint = len(parts) > 1 and any(_key(p) in keys for p in parts)
        for name in parts if joint else [f]:
            orgs.setdefault(_key(name), name)
    return orgs


#: Context of a count of organizations whose owners a person pinned (the workbench's
#: pin ``owners``: "VMware=Broadcom, X=Y", each organization counted as its owner).
OWNERS = "owners:"
#: What the pin ``owners`` may say: "<organization>=<owner>", comma-separated.
OWNERS_PIN = re.compile(r"^\s*[^=,]+=[^=,]+(?:,\s*[^=,]+=[^=,]+)*\s*$")


def owners_pinned(c: ClaimFacts) -> dict[str, str]:
    """The owners a person pinned on ``c`` (context :data:`OWNERS`), organization key
    (:func:`_key`: lower case, letters and digits) -> the owner as pinned; {} when none."""
    tag = next((t[len(OWNERS) :] for t in c.context if t.startswith(OWNERS)), "")
    pairs = [[x.strip() for x in p.split("=", 1)] for p in tag.split(",") if "=" in p]
    return {_key(a): b for a, b in pairs if _key(a) and _key(b) and _key(a) != _key(b)}


def _entered(c: ClaimFacts, held: Holding, arg: str) -> Verification:
    who, _, fws = arg.partition(":")
    sub = _submitter_folder(c, who, held)
    if not sub:
        return _open(
            f"{who!r} is not the claim's submitter, or no submitter folder of {held.round}"
        )
    if not held.whole(sub):
        return _open(
            f"{held.round}'s repository at {held.commit[:12]} lists results of {sub} that"
            " benchdb does not store"
        )
    frameworks = [f.lower() for f in fws.split("|") if f]
    mine = [
        e
        for e in held.entries
        if e[0] == sub and (not frameworks or any(f in e[4].lower() for f in frameworks))
    ]
    ours = [e for e in held.entries if e[0] == sub]
    unknown = [f for f in frameworks if not any(f in e[4].lower() for e in ours)]
    if unknown:  # a framework no stored system of the submitter names: spelled otherwise?
        return _open(f"no stored {held.round} result of {sub} names framework {unknown[0]!r}")
    divisions = [c.division] if c.division else ["closed", ""]
    # inference: "bert-99" and "bert-99.9" are two models of the checker, one benchmark
    # in MLCommons' words; both readings
    names: list[tuple[str, Callable[[str], str]]] = [("", str)]
    if held.suite in ("inference", "automotive"):
        names.append((", accuracy variants as one", inference_base_model))
    readings = []
    for div in divisions:
        for how, name in names:
            benches = sorted({name(e[1]) for e in mine if not div or e[2] == div})
            label = f"{sub}'s benchmarks, {div or 'every'} division{how}" + (
                f", {fws.replace('|', ' or ')}" if fws else ""
            )
            readings.append((label, len(benches), ", ".join(benches)))
    return _settle(c, readings, held)


def _submitter_folder(c: ClaimFacts, who: str, held: Holding) -> str:
    """The submitter folder the relative clause names: ``who`` (or "we": the claim's
    submitter) must be the claim's resolved submitter and one folder of the tree."""
    name = c.submitter if who.lower() == "we" else who
    if not name or not c.submitter or _key(name) != _key(c.submitter):
        return ""
    folders = [s for s in held.submitters if _key(s) == _key(name)]
    return folders[0] if len(folders) == 1 else ""


def _key(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _settle(c: ClaimFacts, readings: list[tuple[str, int, str]], held: Holding) -> Verification:
    """consistent when every reading's count is the claimed one, inconsistent when none
    is, unverifiable (readings named) otherwise."""
    claimed = c.value or 0.0
    listed = [
        {"label": lb, "value": n, "holds": n == claimed, "slots": {"counted": lb}, "evidence": ev}
        for lb, n, ev in readings
    ]
    said = "; ".join(f"{lb}: {n} ({ev})" for lb, n, ev in readings)
    details = {
        "round_count": True,
        "n_readings": len(readings),
        "readings_list": listed,
        "source": f"{held.suite} {held.round}: results repository at {held.commit[:12]}",
    }
    holds = [n == claimed for _, n, _ in readings]
    if all(holds) or not any(holds):
        verdict = CONSISTENT if all(holds) else INCONSISTENT
        return Verification(verdict, float(readings[0][1]), details=details | {"reason": said})
    details["open_slots"] = ["counted"]
    details["reason"] = f"the readings the text allows disagree: {said}"
    return Verification(UNVERIFIABLE, details=details)
