"""Frames of MLPerf Inference claims that the general resolution half-reads: figures
normalised per watt ("Qualcomm's chips hit 197.6 server queries per watt versus 108.4
queries per watt for Nvidia"). Pure: no Django; the standard library's ``re`` reads
the words (names and applications are short closed lists: no fuzzy matching is needed,
and a fuzzy match could bind a figure to a company the text does not name).

A sentence of a press story often holds several figures, each of its own company:
the general resolution gives the whole sentence one subject (often the page's vendor,
or a product carried from the sentence before). Here each per-watt figure gets the
slots its own words give (:func:`per_watt_frame`):

* **subject**: the company whose words hold the figure: the one that owns it
  ("Nvidia's 2.4"), else the nearest one before it in its stretch of the sentence
  (from the previous figure, or the sentence start, to the figure) that is not on the
  compared side of "beat" / "versus" / "than", else the one after it in its stretch
  ("108.4 queries per watt for Nvidia"); none when the words name none (the verdict
  then abstains, naming the subject);
* **product**: an accelerator of that company named in the stretch, else the one
  product of that company the page names before the figure (the story's "Nvidia's
  flagship H100 chip"; context ``system-page-product``), else none (every result of
  the company is a reading);
* **benchmark**: a model or an application named in the sentence ("classifying
  images": ResNet-50; "object detection": RetinaNet; "natural-language processing":
  BERT), else in the sentence before (context ``benchmark-previous-sentence``);
* **scenario**: named in the sentence ("server queries", "Offline"), else the one
  scenario the page names where it defines its measure per watt (a sentence with no
  figure: :func:`measure_scenarios`; context ``scenario-page``);
* **normalisation**: ``metric="per-watt"``; the verdict says the figure is derived
  (:mod:`benchdb.claims.per_watt`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import replace

from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.subjects import FAMILIES, family_matches, find_mentions
from benchdb.vocabulary import INFERENCE_MODEL_NAMES

#: Claim units (``ingest.claims.parsers.quantities.throughput_unit``) of a figure per watt.
PER_WATT_UNITS = frozenset({"query/W", "sample/W", "token/W", "image/W", "frame/W"})

#: Companies that submit MLPerf Inference results or make the accelerators in them, as
#: press and vendor pages write them -> the name a submitter or accelerator model
#: starts with (``facts.submitter_matches``; the accelerator's maker word).
COMPANIES: tuple[tuple[str, str], ...] = (
    (r"NVIDIA|Nvidia", "NVIDIA"),
    (r"Qualcomm", "Qualcomm"),
    (r"Neuchips|NEUCHIPS|NeuChips", "Neuchips"),
    (r"Intel", "Intel"),
    (r"AMD", "AMD"),
    (r"Google", "Google"),
    (r"Untether(?:\s?AI)?", "UntetherAI"),
    (r"Dell", "Dell"),
    (r"Lenovo", "Lenovo"),
    (r"HPE|Hewlett Packard Enterprise", "HPE"),
    (r"Supermicro", "Supermicro"),
    (r"Cisco", "Cisco"),
    (r"Fujitsu", "Fujitsu"),
    (r"Gigabyte|GIGABYTE", "GIGABYTE"),
    (r"Krai|KRAI", "Krai"),
    (r"Alibaba", "Alibaba"),
    (r"Inspur", "Inspur"),
    (r"Furiosa(?:AI)?", "FuriosaAI"),
    (r"SiMa(?:\.ai)?", "SiMa"),
    (r"Moffett", "Moffett"),
    (r"Rebellions", "Rebellions"),
    (r"Sapeon|SAPEON", "SAPEON"),
    (r"Oracle", "Oracle"),
    (r"Azure|Microsoft", "Azure"),
)
_COMPANY = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(f"(?P<c{i}>{p})" for i, (p, _) in enumerate(COMPANIES)) + r")"
    r"(?![A-Za-z])"
)
#: Inference accelerators the training families (``subjects.FAMILIES``) do not name,
#: with their maker: (pattern, product as ``per_watt`` matches it, maker).
PRODUCTS: tuple[tuple[str, str, str], ...] = (
    (r"(?:Cloud\s+)?AI\s?100(?:\s+(?:Ultra|Pro))?", "Cloud AI 100", "Qualcomm"),
    (r"RecAccel(?:\s?N3000)?", "RecAccel", "Neuchips"),
    (r"speedAI\s?240|speedAI", "speedAI", "UntetherAI"),
)
#: A company whose name stands right after a comparison: the compared side, not the
#: subject ("Qualcomm also beat Nvidia at object detection with a score of 3.2").
_COMPARED_BEFORE = re.compile(
    r"(?:\bbeat(?:s|ing)?|\boutperform(?:s|ed|ing)?|\bthan|\bahead of|\bover)\s+(?:the\s+)?$",
    re.I,
)
_SPLIT = re.compile(r"(?<![A-Za-z])(?:versus|vs\.?|compared (?:to|with)|whereas|while)(?![A-Za-z])")
_POSSESSIVE = re.compile(r"^\s*(?:'s|’s|s')\s*(?:[A-Za-z-]+\s+){0,2}$")

#: Applications as the press names MLPerf Inference's tasks -> models
#: (``ResultFacts.model``). Object detection is RetinaNet from v2.1 (the checker's
#: ``ssd-resnet34`` folder maps to it: ``vocabulary.inference_model_folder_map``) and
#: SSD before; :mod:`benchdb.claims.per_watt` keeps the models the round holds.
APPLICATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"classify(?:ing)? images|image classification", ("resnet",)),
    (r"object detection|detecting objects", ("retinanet", "ssd-large", "ssd-small")),
    (r"natural[- ]language processing|\bNLP\b|language processing", ("bert",)),
    (r"speech recognition", ("rnnt", "whisper")),
    (r"medical imaging", ("3d-unet",)),
    (r"recommendation", ("dlrm", "dlrm-v2", "dlrm-v3")),
)
#: A scenario in a press story's words ("server queries per watt", "in offline mode").
#: "server" alone is as often the hardware ("Lenovo's SR780a V3 server"): in lower
#: case it names the scenario only before one of these words.
_SCENARIO_WORDS = re.compile(
    r"(?<![A-Za-z])(?P<s>(?i:server|offline))\s+"
    r"(?i:quer(?:y|ies)|scenarios?|mode|samples?|throughput)"
    r"|(?<![A-Za-z])(?P<S>Server|Offline)(?![A-Za-z])"
)
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)|\n")


def is_per_watt(c: ClaimFacts) -> bool:
    """Whether ``c`` is a figure per watt (its unit, or ``metric`` ``per-watt``)."""
    return c.unit in PER_WATT_UNITS or c.metric == "per-watt"


def companies_in(text: str) -> list[tuple[int, int, str]]:
    """(start, end, company as submitters are named) of every company ``text`` names
    (:data:`COMPANIES`), in order."""
    out = []
    for m in _COMPANY.finditer(text):
        i = next(int(k[1:]) for k, v in m.groupdict().items() if v)
        out.append((m.start(), m.end(), COMPANIES[i][1]))
    return out


def products_in(text: str) -> list[tuple[int, str, str]]:
    """(start, product, maker) of every accelerator ``text`` names: the inference
    products of :data:`PRODUCTS` and the families of ``subjects.FAMILIES``."""
    out = [
        (m.start(), name, maker)
        for pat, name, maker in PRODUCTS
        for m in re.finditer(rf"(?<![A-Za-z]){pat}(?![A-Za-z0-9])", text)
    ]
    for mention in find_mentions(text):
        out.append((mention.start, mention.family, _maker(mention.family)))
    return sorted(out)


@functools.lru_cache(maxsize=8)
def _page_products(text: str) -> tuple[tuple[int, str, str], ...]:
    """:func:`products_in` of a whole page, once per page (each claim reads the part
    before it)."""
    return tuple(products_in(text))


def _maker(family: str) -> str:
    return next((f.maker for f in FAMILIES if f.name == family), "")


def _stretch(sentence: str, at: int, end: int, figures: list[int]) -> tuple[int, int]:
    """The stretch of ``sentence`` a figure at ``at``..``end`` owns: from the previous
    figure's end (or a "versus" after it), else the sentence start, to the next figure
    (or a "versus" before it), else the sentence end."""
    before = [f for f in figures if f < at]
    after = [f for f in figures if f > at]
    lo = 0
    if before:
        lo = before[-1]
        cut = [m.start() for m in _SPLIT.finditer(sentence, lo, at)]
        lo = cut[-1] if cut else lo
    hi = len(sentence)
    if after:
        hi = after[0]
        cut = [m.start() for m in _SPLIT.finditer(sentence, end, hi)]
        hi = cut[0] if cut else hi
    return lo, hi


def figure_subject(sentence: str, at: int, end: int, figures: list[int]) -> tuple[str, int, int]:
    """(company, stretch start, stretch end) of the figure at ``at``..``end`` of
    ``sentence`` (module docstring); company "" when its words name none or only
    companies on the compared side. ``figures``: where each figure of the sentence
    starts."""
    lo, hi = _stretch(sentence, at, end, figures)
    named = companies_in(sentence[lo:hi])
    for _, e, name in reversed([n for n in named if n[1] + lo <= at]):
        between = sentence[lo + e : at]
        if _POSSESSIVE.match(between):  # "Nvidia's 2.4 queries per watt"
            return name, lo, hi
    before = [
        n
        for n in named
        if n[1] + lo <= at and not _COMPARED_BEFORE.search(sentence[lo : lo + n[0]])
    ]
    if before:
        return before[-1][2], lo, hi
    after = [n for n in named if n[0] + lo >= end]
    if after and not _COMPARED_BEFORE.search(sentence[end : lo + after[0][0]]):
        return after[0][2], lo, hi
    return "", lo, hi


def applications_named(text: str) -> list[tuple[str, ...]]:
    """The model sets (:data:`APPLICATIONS`) ``text`` names by application, and the
    models it names by name (``resolve_suite.models_named``), each once."""
    found = [
        (m.start(), models)
        for pat, models in (*APPLICATIONS, *((p, (k,)) for p, k in INFERENCE_MODEL_NAMES))
        for m in re.finditer(pat, text, re.I)
    ]
    return list(dict.fromkeys(models for _, models in sorted(found)))


def scenarios_in(text: str) -> list[str]:
    """MLPerf Inference scenarios ``text`` names in a story's words (``Server``,
    ``Offline``), each once."""
    out = [(m.group("s") or m.group("S")).capitalize() for m in _SCENARIO_WORDS.finditer(text)]
    return list(dict.fromkeys(out))


def figure_scenarios(sentence: str, at: int, end: int, figures: list[int]) -> list[str]:
    """The scenarios a figure's own words name: after it up to the next figure or
    comparison word ("2520.27 tokens/s in server mode"), else before it back to the
    sentence start or a comparison word (not past another figure, whose words they
    are); a figure on the compared side of "versus" takes the scenario of the figure
    it is compared with (MLCommons compares the same scenario on both sides)."""
    lo, hi = _stretch(sentence, at, end, figures)
    after = scenarios_in(sentence[at:hi])  # the figure's span holds its unit ("server queries")
    if after:
        return after
    before = [f for f in figures if f < at]
    if not before or lo > before[-1]:  # the stretch opens at the sentence or a comparison
        own = scenarios_in(sentence[lo:at])
        if own:
            return own
    if before and _SPLIT.search(sentence, before[-1], at):
        prev = before[-1]
        prev_end = prev + len(_FIGURE.match(sentence, prev).group())  # type: ignore[union-attr]
        return figure_scenarios(sentence, prev, prev_end, figures)
    return []


def measure_scenarios(text: str) -> list[str]:
    """The scenarios ``text`` names where it defines its measure per watt: a sentence
    that speaks of a figure per watt but gives none ("based on how many data center
    server queries each chip can carry out per watt"). A scenario named beside another
    figure is that figure's only, and is not carried to the others."""
    return list(_measure_scenarios(text))


@functools.lru_cache(maxsize=8)
def _measure_scenarios(text: str) -> tuple[str, ...]:
    """:func:`measure_scenarios`, once per page."""
    out: list[str] = []
    start = 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = m.end() if m else len(text)
        sentence, start = text[start:end], end
        if not _PER_WATT_WORDS.search(sentence):
            continue
        if any(_per_watt_after(sentence, f.end()) for f in _FIGURE.finditer(sentence)):
            continue
        out += scenarios_in(sentence)
    return tuple(dict.fromkeys(out))


_PER_WATT_WORDS = re.compile(r"per[ -]watt|/\s?W\b", re.I)
_FIGURE = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?")


def _previous_sentence(text: str, start: int) -> str:
    """The sentence of ``text`` that ends before ``start`` (at most 600 characters
    back; a full stop and the line end after it are one boundary)."""
    lo = max(0, start - 600)
    ends: list[int] = []
    for m in _SENTENCE_END.finditer(text, lo, min(len(text), start + 1)):
        if m.end() > start:
            break
        if ends and not text[ends[-1] : m.end()].strip(".!?。！？\n "):
            ends[-1] = m.end()  # "watt.\n": one boundary
        else:
            ends.append(m.end())
    first = ends[-2] if len(ends) > 1 else lo
    return text[first : ends[-1]].strip() if ends else text[lo:start].strip()


def per_watt_frame(c: ClaimFacts, text: str, start: int, end: int, s0: int, s1: int) -> ClaimFacts:
    """``c`` (a figure per watt: :func:`is_per_watt`) with its frame read from its own
    words (module docstring). ``text``: the page's text its spans point into;
    ``start``/``end``: the figure; ``s0``/``s1``: its sentence. Other claims, and spans
    outside ``text``, are returned unchanged."""
    if not is_per_watt(c) or not 0 <= s0 <= start < end <= s1 <= len(text):
        return c
    sentence = text[s0:s1]
    figures = [m.start() for m in _FIGURE.finditer(sentence) if _per_watt_after(sentence, m.end())]
    at, fend = start - s0, end - s0
    company, lo, hi = figure_subject(sentence, at, fend, figures)
    ctx = [
        t for t in c.context if t not in ("system", "system-previous-sentence", "submitter-page")
    ]
    ctx.append("per-watt")
    if company and _own_words(sentence, lo, at, company):
        ctx.append(OWN_WORDS_TAG)
    product = next((p for _, p, maker in products_in(sentence[lo:hi]) if maker == company), "")
    if company and not product:
        made = {p for pos, p, maker in _page_products(text) if maker == company and pos < start}
        if len(made) == 1:
            product = made.pop()
            ctx.append("system-page-product")
    models = applications_named(sentence)
    if not models:
        models = applications_named(_previous_sentence(text, s0))
        ctx += ["benchmark-previous-sentence"] if len(models) == 1 else []
    scen = figure_scenarios(sentence, at, fend, figures)
    if not scen:
        page_scen = measure_scenarios(text)
        if len(page_scen) == 1:
            scen = page_scen
            ctx.append("scenario-page")
    return replace(
        c,
        suite="inference",
        metric="per-watt",
        kind="throughput",
        submitter=company,
        system=product,
        accelerators=None,
        compared_system="",
        benchmark_key=models[0][0] if len(models) == 1 else "",
        scenario=scen[0] if len(scen) == 1 else "",
        context=tuple(dict.fromkeys(ctx + _models_tag(models))),
    )


#: The context tag of a figure per watt whose company is named in its own clause, with
#: nothing but a few words between them ("while Neuchips ranked second at 8.9 samples
#: per watt"; "Nvidia's 2.4 queries per watt"): the subject is the text's, not a guess.
OWN_WORDS_TAG = "subject-own-words"
_OWN_GAP = re.compile(r"^[^\d]{0,60}$")
#: What stands between a company and its verb without being the clause: a name in
#: brackets ("Neuchips Corp (創鑫智慧)") and one appositive right after the name, set off
#: by commas ("Neuchips Corp, a start-up founded by ..., took the top spot with").
_ASIDE = re.compile(r"\([^()\d]{0,40}\)")
_APPOSITIVE = re.compile(
    r"^(\s*(?:(?:Corp|Inc|Ltd|Co|AI)\.?)?)\s*,\s*(?:a|an|the|which|who|whose)\s[^,\d]{0,120},"
)


def _own_words(sentence: str, lo: int, at: int, company: str) -> bool:
    """Whether ``company`` is the last company named before the figure at ``at`` in its
    stretch (from ``lo``), with at most eight words (not counting a bracketed name and
    one appositive right after the company: :data:`_APPOSITIVE`), no figure, no other
    company and no comparison word ("beat", "than", "versus") between them."""
    named = [n for n in companies_in(sentence[lo:at]) if n[1] + lo <= at]
    if not named or named[-1][2] != company:
        return False
    between = sentence[lo + named[-1][1] : at]
    clause = _APPOSITIVE.sub(r"\1", _ASIDE.sub(" ", between), count=1)
    return (
        bool(_OWN_GAP.match(clause))
        and not re.search(r"\d", between)
        and len(clause.split()) <= 8
        and not _SPLIT.search(between)
        and not re.search(r"\b(?:beat|than|over|ahead of|outperform\w*)\b", between, re.I)
    )


#: The context tag that carries a frame's models when an application names several
#: ("object detection": RetinaNet, or SSD in older rounds).
MODELS_TAG = "models:"


def _models_tag(models: list[tuple[str, ...]]) -> list[str]:
    return [MODELS_TAG + "|".join(models[0])] if len(models) == 1 and len(models[0]) > 1 else []


def frame_models(c: ClaimFacts) -> tuple[str, ...]:
    """The models a frame allows: those its ``models:`` context tag lists, else its
    ``benchmark_key`` (none when it has neither)."""
    for tag in c.context:
        if tag.startswith(MODELS_TAG):
            return tuple(tag[len(MODELS_TAG) :].split("|"))
    return (c.benchmark_key,) if c.benchmark_key else ()


def _per_watt_after(sentence: str, end: int) -> bool:
    """Whether the figure ending at ``end`` is followed by a unit per watt."""
    return bool(
        re.match(r"\s*(?:[A-Za-z-]+\s+){0,2}(?:per\s+watt|/\s?W\b)", sentence[end : end + 40], re.I)
    )


#: Claim units of an inference throughput figure read against one result.
VALUE_UNITS = frozenset({"token/s", "sample/s", "query/s", "image/s"})
_SINGLE = re.compile(r"(?:\b(?:a\s+)?single|\bone|\b1\s*x?)\s*$", re.I)


def _value_figures(sentence: str) -> list[int]:
    """Where each throughput figure of ``sentence`` starts ("2520.27 tokens/s")."""
    return [
        m.start()
        for m in _FIGURE.finditer(sentence)
        if re.match(
            r"\s*(?:tokens?|samples?|queries|images?)\s*(?:/|per)\s*s", sentence[m.end() :], re.I
        )
    ]


def value_frame(c: ClaimFacts, text: str, start: int, end: int, s0: int, s1: int) -> ClaimFacts:
    """An inference throughput figure (:data:`VALUE_UNITS`) of a sentence holding
    several ("A single MI300X can inference 2520.27 tokens/s in server mode or 3062.72
    tokens/s in offline mode, while 8x MI300Xs can do 21,028.20 tokens/s in server
    mode"), with the slots its own words give: the scenario (:func:`figure_scenarios`;
    context ``scenario-figure``) and the accelerator named nearest before it with its
    count ("a single" is one, "8x" eight; none when the mention states none: every
    count is a reading), not the sentence's other system. A sentence with one figure,
    and other claims, are returned unchanged."""
    if c.suite != "inference" or c.unit not in VALUE_UNITS or c.kind != "throughput":
        return c
    if not 0 <= s0 <= start < end <= s1 <= len(text):
        return c
    sentence = text[s0:s1]
    figures = _value_figures(sentence)
    at = start - s0
    if len(figures) < 2 or at not in figures:
        return c
    fields: dict[str, object] = {}
    ctx = list(c.context)
    scen = figure_scenarios(sentence, at, end - s0, figures)
    if len(scen) == 1 and scen[0] != c.scenario:
        fields["scenario"] = scen[0]
        ctx.append("scenario-figure")
    before = [m for m in find_mentions(sentence) if m.end <= at]
    if before:
        m = before[-1]
        single = _SINGLE.search(sentence[max(0, m.start - 12) : m.start])
        fields["system"] = m.family
        fields["accelerators"] = 1 if single else m.count
        fields["compared_system"] = ""
        fields["compared_accelerators"] = None
        ctx.append("system-figure")
    if not fields:
        return c
    return replace(c, **fields, context=tuple(dict.fromkeys(ctx)))  # type: ignore[arg-type]


#: A sentence saying the page's round is the first holding a product ("For the first
#: time, the latest round of MLPerf inference benchmarks includes results for AMD's
#: flagship MI300X GPU"; "Intel showcased its Granite Rapids CPU for the first time").
_FIRST = re.compile(
    r"for the first time|\b(?:its|their) (?:very )?first (?:MLPerf )?"
    r"(?:results?|submissions?|benchmarks?)|\bdebut(?:ed|s)?\b|首次|第一次",
    re.I,
)
_ROUND_WORDS = re.compile(r"\b(?:latest|this|new|the) round\b|MLPerf|这一轮|本轮|最新一轮", re.I)
#: The context tag of a round pinned as a product's first appearance.
FIRST_TAG = "round-first:"


def first_round_tag(c: ClaimFacts, text: str) -> ClaimFacts:
    """An inference claim with no round on a page that says its round is the first
    holding one accelerator family (:data:`_FIRST` and a round word in one sentence,
    that names exactly one family): ``c`` tagged ``round-first:<family>``, to be
    resolved against the rounds benchdb holds (:func:`pin_first_round`). Others
    unchanged."""
    if c.suite != "inference" or c.round:
        return c
    families = _first_families(text)
    if len(families) != 1:
        return c
    return replace(c, context=(*c.context, FIRST_TAG + families[0]))


@functools.lru_cache(maxsize=8)
def _first_families(text: str) -> tuple[str, ...]:
    """The families the page's "for the first time" sentences name (its first 20,000
    characters; each such sentence naming exactly one), once per page."""
    families: set[str] = set()
    start = 0
    for m in [*_SENTENCE_END.finditer(text[:20000]), None]:
        end = m.end() if m else min(len(text), 20000)
        sentence, start = text[start:end], end
        if _FIRST.search(sentence) and _ROUND_WORDS.search(sentence):
            named = {x.family for x in find_mentions(sentence)}
            if len(named) == 1:
                families |= named
    return tuple(sorted(families))


def pin_first_round(
    c: ClaimFacts, results: Sequence[ResultFacts], rounds: Sequence[str]
) -> tuple[ClaimFacts, str]:
    """(``c`` with its round, "") when it is tagged by :func:`first_round_tag` and the
    round is known: the first of ``rounds`` (MLPerf's inference rounds, in order) that
    holds a result of the family, every round before it being held by benchdb (a round
    benchdb lacks may hold the product's real first appearance); else (``c``, why the
    round stays unknown) for a tagged claim, and (``c``, "") for any other."""
    tag = next((t for t in c.context if t.startswith(FIRST_TAG)), "")
    if c.round or not tag:
        return c, ""
    family = tag[len(FIRST_TAG) :]
    held, having = _rounds_holding(results, family)
    with_it = [rnd for rnd in rounds if rnd in having]
    if not with_it:
        return c, f"the page's round is the first with {family}, and no round benchdb holds has one"
    first = with_it[0]
    gaps = [rnd for rnd in rounds[: rounds.index(first)] if rnd not in held]
    if gaps:
        return c, (
            f"the page's round is the first with {family}: {first} among the rounds benchdb"
            f" holds, but benchdb does not hold {', '.join(gaps)}, which may hold an earlier one"
        )
    return replace(c, round=first, context=(*c.context, "round-first")), ""


#: The last results list asked about (held, so its id is not reused) and, per family,
#: (rounds held, rounds holding the family): a page's claims ask of the same list.
_HOLDING: list[tuple[Sequence[ResultFacts], dict[str, tuple[set[str], set[str]]]]] = []


def _rounds_holding(results: Sequence[ResultFacts], family: str) -> tuple[set[str], set[str]]:
    if not _HOLDING or _HOLDING[0][0] is not results:
        _HOLDING[:] = [(results, {})]
    by_family = _HOLDING[0][1]
    if family not in by_family:
        held = {r.round for r in results}
        by_family[family] = (held, {r.round for r in results if family_matches(family, r)})
    return by_family[family]


#: A gain in energy efficiency: "2.3x more energy efficiency", "2x the performance per
#: watt", "perf/W".
_EFFICIENCY = re.compile(
    r"energy[- ]efficien(?:cy|t)|power[- ]efficien(?:cy|t)|perf(?:ormance)?\s*(?:/|per)\s*watt"
    r"|perf/W\b|能效|每瓦",
    re.I,
)


_THAN = re.compile(
    r"(?<![A-Za-z])(?:than|versus|vs\.?|compared (?:to|with)|over)(?![A-Za-z])", re.I
)


def per_watt_gain_frame(
    c: ClaimFacts, text: str, start: int, end: int, s0: int, s1: int
) -> ClaimFacts:
    """A multiplier or percentage on an MLPerf Inference page whose own words right
    after it say energy efficiency ("Orin delivers up to 5x more than Xavier and 2.3x
    more energy efficiency"): a gain per watt (``metric="per-watt"``), not a hardware
    figure, with its own sides: the product named last before it in its sentence
    (:func:`products_in`: Qualcomm's Cloud AI 100 too) and the one named first after a
    "than" / "versus" that follows it; a side not named, or both the same product, is
    left empty (the check then abstains). Others unchanged."""
    if c.suite != "inference" or c.kind not in ("multiplier", "percentage"):
        return c
    if not 0 <= s0 <= start < end <= s1 <= len(text):
        return c
    after = re.split(r"[,;.，。；]|\band\b", text[end : end + 60])[0]
    if not _EFFICIENCY.search(after):
        return c
    sentence, at, fend = text[s0:s1], start - s0, end - s0
    named = products_in(sentence)
    subject = next((p for pos, p, _ in reversed(named) if pos < at), "")
    than = _THAN.search(sentence, fend)
    compared = next((p for pos, p, _ in named if than and pos >= than.end()), "")
    if subject == compared:
        subject = compared = ""
    return replace(
        c,
        metric="per-watt",
        system=subject,
        accelerators=None,
        compared_system=compared,
        compared_accelerators=None,
        context=(*c.context, "per-watt"),
    )
