"""The slots of a claim's frame that its words state outside product names: who
"we" are (the page's vendor; a maker named before its product, "NVIDIA A100", or a
company owning the other side, "than NVIDIA's submission", is not the subject's
submitter), a product named only after "compared to" (the baseline, not the
subject), the division, "on the same hardware", a round named in a page's title or
URL (also one benchdb does not hold), a round given as a date relative to the page's
("last June", "a year ago", "6月份", "今年6月", "去年"), the suite (MLPerf HPC's
benchmarks; inference's units and scenarios) and the benchmark of a clause. Pure: no
Django; :mod:`benchdb.claims.resolve` fills a claim's frame with them.

Libraries: dateparser reads the date a relative phrase means against the page's date
(``RELATIVE_BASE``; months and "N years/months ago", "去年", "6个月前"); the modifiers
dateparser does not read ("last June", "今年6月", "去年6月") shift its year here. A
page with no date resolves no relative phrase: a round is never guessed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta

import dateparser

from benchdb.claims.facts import ClaimFacts
from benchdb.claims.subjects import clause_of, family_of, find_mentions, makes, rounds_named

#: "we"/"our" as a subject: the page's own company (MosaicML's "Our open result...").
_FIRST_PERSON = re.compile(
    r"(?<![A-Za-z])(?:our|we|us|we['’](?:ve|re))(?![A-Za-z])|我们|我們|本公司|我司", re.I
)
_OPEN = re.compile(
    r"(?<![A-Za-z])open(?:[- ]division|\s+(?:results?|submissions?|entr(?:y|ies)|categor\w*))"
    r"|\(open\)|开放(?:组|分区|类别|式)|開放(?:組|分區|類別|式)",
    re.I,
)
_CLOSED = re.compile(
    r"(?<![A-Za-z])closed(?:[- ]division|\s+(?:results?|submissions?|entr(?:y|ies)|categor\w*))"
    r"|\(closed\)|封闭(?:组|分区|类别|式)|封閉(?:組|分區|類別|式)",
    re.I,
)
_BOTH = re.compile(
    r"(?:open|开放|開放|closed|封闭|封閉)\s*(?:and|&|和|与|與|及|、)\s*(?:closed|封闭|封閉|open|开放|開放)",
    re.I,
)
_SAME_HARDWARE = re.compile(
    r"(?:on|using|with|at) the same (?:hardware|system|systems|GPUs?|accelerators?"
    r"|configuration|number of (?:GPUs|accelerators|chips)|cluster size|scale)"
    r"|(?:相同|同样|同樣)(?:的)?(?:硬件|硬體|配置|规模|規模)",
    re.I,
)


_PER_ACCELERATOR = re.compile(
    r"(?<![A-Za-z])per[- ](?:accelerator|chip|GPU|IPU|TPU|HPU|card)s?(?![A-Za-z])"
    r"|on a per[- ](?:accelerator|chip|GPU|card) basis"
    r"|每(?:张|張|块|塊|颗|顆|个|個)?(?:卡|GPU|加速器|芯片)|单卡|單卡|单(?:个|個)?GPU|單(?:个|個)?GPU",
    re.I,
)


def per_accelerator(text: str) -> bool:
    """Whether ``text`` (a claim's clause) normalises per accelerator ("per GPU", "on
    a per-chip basis", 每卡, 单卡): a derived figure, not the system's."""
    return bool(_PER_ACCELERATOR.search(text))


def first_person(text: str) -> bool:
    """Whether ``text`` (a side of a sentence) speaks as "we" / "our" / 我们."""
    return bool(_FIRST_PERSON.search(text))


def division_words(text: str) -> str:
    """``open`` or ``closed`` when ``text`` names that division in words ("Our open
    result", "in the Closed Division", "开放组"); "" when it names none or both."""
    if _BOTH.search(text):
        return ""  # "在開放和封閉類別", "in the open and closed divisions"
    found = {d for d, rx in (("open", _OPEN), ("closed", _CLOSED)) if rx.search(text)}
    return found.pop() if len(found) == 1 else ""


def same_hardware(text: str) -> bool:
    """Whether ``text`` says its side ran "on the same hardware" (system, cluster
    size, number of GPUs) as the other side."""
    return bool(_SAME_HARDWARE.search(text))


# --- who the subject is, and the compared side ------------------------------------

#: A company named as the owner of the compared side ("NVIDIA's submission").
_OWNER = re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z0-9-]+)[’']s(?![A-Za-z])")


def _maker_only(name: str, sentence: str) -> bool:
    """Whether ``name`` stands in ``sentence`` only right before a product family it
    makes ("NVIDIA A100", "Intel Gaudi2"): the maker of the hardware, not who
    submitted the result."""
    spots = [m.start() for m in re.finditer(re.escape(name), sentence, re.I)]
    mentions = find_mentions(sentence)
    return bool(spots) and all(
        any(
            (
                0 <= m.start - (spot + len(name)) <= 12
                and not sentence[spot + len(name) : m.start].strip(" ®™'’s")
                or m.start <= spot < m.end  # "3rd Gen Intel Xeon Scalable": in its name
            )
            and makes(name, m.family)
            for m in mentions
        )
        for spot in spots
    )


def subject_submitter(
    c: ClaimFacts, side: str, sentence: str, vendor: str, unnamed: bool
) -> dict[str, object]:
    """The subject's submitter: the page's vendor when the subject side speaks as
    "we"/"our" (MosaicML's "Our open result of 23.8 minutes is 17% faster than
    NVIDIA's...": not NVIDIA) or names no system (``unnamed``); a submitter the parser
    read only from the other side of the sentence is not the subject's."""
    named = c.submitter
    if named and named.lower() not in side.lower() and named.lower() in sentence.lower():
        named = ""  # "...than NVIDIA's submission": the compared side's
    if named and _maker_only(named, sentence):
        named = ""  # "on 8x NVIDIA A100 GPUs": the accelerator's maker, not a submitter
    mine = bool(named) and named.lower() in side.lower()
    if vendor and first_person(side) and not mine:
        return {"submitter": vendor} if vendor != c.submitter else {}
    if (
        named
        and vendor
        and re.search(rf"(?<![A-Za-z]){re.escape(vendor)}", side, re.I)
        and not _maker_only(vendor, side)  # "... with 128 Nvidia A100 GPUs": the maker
    ):
        named = vendor  # "CoreWeave, NVIDIA, and IBM delivered..." on CoreWeave's page
    if not named and vendor and unnamed:
        return {"submitter": vendor}
    return {"submitter": named} if named != c.submitter else {}


#: Comparison words that name a baseline (not "while", "whereas", 而: two facts side by side).
_STRONG_COMPARE = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|versus|compared|than|relative to|against)(?![A-Za-z])"
    r"|相比|相较|相較|对比|對比",
    re.I,
)


def compared_only(c: ClaimFacts, sentence: str, subject_side: str, compared_side: str) -> bool:
    """Whether the parser's subject system stands only on the compared side of the
    sentence, and the subject side names no product family (then a gain the parser
    measured from an earlier round is one over that product)."""
    return (
        bool(c.system and family_of(c.system) and compared_side)
        and bool(_STRONG_COMPARE.search(sentence))
        and c.baseline in ("", "previous-round", "first-submission")
        and c.system in compared_side
        and c.system not in subject_side
        and not find_mentions(subject_side)
    )


def frame_words(
    c: ClaimFacts,
    fields: dict[str, object],
    ctx: list[str],
    subject_side: str,
    compared_side: str,
) -> tuple[dict[str, object], list[str]]:
    """The division the subject side names in words ("Our open result ... than
    NVIDIA's ... in the closed division": open), and a compared side "on the same
    hardware" (the subject's system and count)."""
    div = division_words(subject_side)
    if div and div != c.division:
        fields["division"] = div
        ctx.append("division-words")
    elif c.division and division_words(compared_side) == c.division:
        fields["division"] = ""  # the other side's division
    other = _OWNER.search(compared_side)
    submitter = str(fields.get("submitter", c.submitter))
    if other and other.group(1).lower() != submitter.lower():
        return fields, ctx  # "NVIDIA's submission ... on the same hardware": another's
    if same_hardware(compared_side):
        system = fields.get("system", c.system)
        count = fields.get("accelerators", c.accelerators)
        if system and not fields.get("compared_system", c.compared_system):
            fields["compared_system"] = system
            fields["compared_accelerators"] = count
            ctx.append("compared-same-hardware")
        elif count and fields.get("compared_accelerators", c.compared_accelerators) is None:
            fields["compared_accelerators"] = count  # "than Hopper at the same cluster size"
            ctx.append("compared-same-hardware")
    return fields, ctx


# --- rounds named loosely, or relative to the page's date ----------------------------

#: "MLPerf 6 0", "mlperf-training-v3-1", "MLPerf Inference v5.1": in a title or a URL
#: the version's dot may be a space, hyphen or underscore.
_LOOSE_ROUND = re.compile(
    r"mlperf[\W_]*(?:(?P<s>training|inference|hpc|storage|tiny|mobile|训练|訓練|推理|存储|存儲)[\W_]*)?"
    r"(?:v|version[\W_]*)?(?P<a>\d{1,2})[ ._-](?P<b>\d)(?!\d|\.\d)(?:[\W_]*"
    r"(?P<t>training|inference|hpc|训练|訓練|推理|存储|存儲))?",
    re.I,
)
_SUITE_WORD = {
    "训练": "training",
    "訓練": "training",
    "推理": "inference",
    "存储": "storage",
    "存儲": "storage",
}


def versions_named(text: str, suite: str) -> list[str]:
    """Versions (``v3.1``) ``text`` (a title or URL) names as rounds of ``suite``, in
    order, whether or not benchdb holds them ("MLPerf 6 0 训练" -> ``v6.0``); a version
    named for another suite is left out."""
    out = []
    for m in _LOOSE_ROUND.finditer(text):
        said = (m.group("s") or m.group("t") or "").lower()
        said = _SUITE_WORD.get(said, said)
        if not said or said == suite:
            out.append(f"v{int(m.group('a'))}.{m.group('b')}")
    return list(dict.fromkeys(out))


_MONTH_NAMES = r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"  # noqa: E501
#: A Chinese month; a space may stand between its numeral and 月 ("去年 12 月": spaced
#: typography, as jiqizhixin and reposts write it).
_CN_MONTH = r"(?:1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])\s?月份?"
#: A date relative to the page's: a month without a year, "N years/months ago", "last
#: year"; Chinese 6月份, 今年6月, 去年, 一年前, 6个月前. ``mod``: last/this/去年/今年.
_RELATIVE = re.compile(
    rf"(?:(?P<mod>last|this|去年|今年)\s*)?(?P<month>(?<![A-Za-z])(?:{_MONTH_NAMES})(?![A-Za-z])"
    rf"(?!\s*\d)|(?<!\d年)(?<!\d年\s)(?<!\d\s年\s)(?<!\d)(?<![.\d]){_CN_MONTH}(?!\s?\d))"
    r"|(?P<ago>(?<![A-Za-z])(?:a|an|one|two|three|six|\d+)\s+(?:years?|months?)\s+(?:ago|earlier)"
    r"|(?<![A-Za-z])last year(?![A-Za-z])|year-ago"
    r"|(?:一|两|兩|半|\d+)\s*(?:年|个月|個月)前|去年(?!\d|[一二三四五六七八九十]))",
    re.I,
)
#: :data:`_RELATIVE` for :mod:`benchdb.claims.page_round` (a page dated by its round).
RELATIVE = _RELATIVE
#: How far from a relative date a round may be published and still be the one meant
#: (a round is published a few weeks around the month a page names).
_NEAR = timedelta(days=45)


def relative_dates(text: str, published: date | None) -> list[tuple[int, date, bool]]:
    """(position, date, by month) of each relative date phrase in ``text`` resolved
    against ``published`` (dateparser, module docstring); ``by month``: the phrase
    names a month. Empty when ``published`` is None."""
    if published is None:
        return []
    out = []
    for m in _RELATIVE.finditer(text):
        phrase = m.group("month") or m.group("ago")
        month = m.group("month") or ""
        if month[:1].islower() or (month == "May" and not m.group("mod")):
            continue  # "may", "march": verbs; a month is capitalised
        when = _parse(_plain(phrase), published)
        if when is None:
            continue
        mod = (m.group("mod") or "").lower()
        if m.group("month"):
            if mod == "去年":
                when = when.replace(year=published.year - 1)
            elif mod == "今年":
                when = when.replace(year=published.year)
            elif mod == "last" and (when.year, when.month) == (published.year, published.month):
                when = when.replace(year=when.year - 1)
        out.append((m.start(), when, bool(m.group("month"))))
    return out


@functools.lru_cache(maxsize=1024)
def _parse(phrase: str, published: date) -> date | None:
    """dateparser's reading of ``phrase`` against ``published`` (cached: a page's
    claims ask for the same phrases again, and one parse takes milliseconds)."""
    base = datetime(published.year, published.month, published.day)
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "PREFER_DAY_OF_MONTH": "first"}
    got = dateparser.parse(phrase, languages=["en", "zh"], settings=settings)
    return got.date() if got is not None else None


def parse_phrase(phrase: str, published: date) -> date | None:
    """The date a relative ``phrase`` (a :data:`RELATIVE` match: "6月份", "June")
    means against ``published`` (dateparser, as :func:`relative_dates` reads it)."""
    return _parse(_plain(phrase), published)


def _plain(phrase: str) -> str:
    """A relative phrase as dateparser reads it: "6 月" -> 6月, 月份 -> 月, 一/两年前 ->
    1/2年前, 半年前 -> 6个月前."""
    phrase = re.sub(r"(?<=[\d一二三四五六七八九十])\s+(?=月)", "", phrase)  # "6 月" -> "6月"
    for a, b in (("月份", "月"), ("半年", "6个月"), ("一", "1"), ("两", "2"), ("兩", "2")):
        phrase = phrase.replace(a, b) if a != "一" or "月" not in phrase else phrase
    return phrase


def round_at(when: date, by_month: bool, rounds: Mapping[str, date]) -> str:
    """The round of ``rounds`` (round -> publication date) a relative date means: the
    one published in that month (``by_month``), else the one published nearest
    ``when`` within 45 days; "" if none or several."""
    if by_month:
        same = [r for r, d in rounds.items() if (d.year, d.month) == (when.year, when.month)]
        return same[0] if len(same) == 1 else ""
    near = sorted((abs(d - when), r) for r, d in rounds.items() if abs(d - when) <= _NEAR)
    return near[0][1] if near else ""


def round_elsewhere(
    sentence: str, title: str, url: str, suite: str, rounds: Mapping[str, date]
) -> tuple[str, str]:
    """(round, tag) of ``suite`` from the ``title``'s or ``url``'s loose spelling
    ("MLPerf 6 0", ``mlperf-training-v3-1``; tags ``round-title``, ``round-url``), or a
    version the ``sentence``, title or URL names that is newer than every round of
    ``rounds`` (``round-unknown``: that round, so that no other is judged); ("", "")
    when none."""
    for tag, text in (("round-title", title), ("round-url", url)):
        known = [v for v in versions_named(text, suite) if v in rounds]
        if known:
            return known[0], tag
    for text in (sentence, title, url):
        unknown = [v for v in versions_named(text, suite) if v not in rounds]
        if unknown and _newer(unknown[0], rounds):
            return unknown[0], "round-unknown"
    return "", ""


def _newer(version: str, rounds: Mapping[str, date]) -> bool:
    """Whether ``version`` is after every round of ``rounds`` (a round not yet
    ingested, not a misread number)."""
    try:
        key = tuple(int(x) for x in version.lstrip("v").split("."))
        held = [tuple(int(x) for x in r.lstrip("v").split(".")) for r in rounds]
    except ValueError:
        return False
    return bool(held) and key > max(held)


def relative_round(sentence: str, published: date | None, rounds: Mapping[str, date]) -> str:
    """The round of ``rounds`` (round -> publication date) a date relative to the
    page's (``published``) means ("last June", "a year ago", "今年6月", "去年":
    :func:`relative_dates`, the round published that month or near that day); "" when
    the page has no date, the sentence no such phrase, or its phrases mean different
    rounds."""
    found = {
        round_at(when, by_month, rounds)
        for _, when, by_month in relative_dates(sentence, published)
    }
    found.discard("")
    return found.pop() if len(found) == 1 else ""


# --- suites --------------------------------------------------------------------------

#: MLPerf HPC's benchmarks (``benchdb.mlperf.hpc_rules``) as pages write them.
HPC_BENCHMARKS: tuple[tuple[str, str], ...] = (
    (r"Cosmo[- ]?Flow", "cosmoflow"),
    (r"Deep[- ]?CAM", "deepcam"),
    (r"Open[- ]?Catalyst|(?<![A-Za-z])OC20(?![A-Za-z0-9])", "oc20"),
    (r"OpenFold", "openfold"),
)
_HPC = re.compile(r"MLPerf[™®]?\s*HPC|MLPerf[\W_]+HPC", re.I)


def hpc_benchmarks(text: str) -> list[str]:
    """MLPerf HPC benchmark keys ``text`` names, in order."""
    found = [(m.start(), key) for pat, key in HPC_BENCHMARKS for m in re.finditer(pat, text, re.I)]
    return list(dict.fromkeys(k for _, k in sorted(found)))


def names_hpc(text: str) -> bool:
    """Whether ``text`` names MLPerf HPC ("MLPerf HPC 1.0", "mlperf-hpc")."""
    return bool(_HPC.search(text))


#: Words that make a figure an inference figure: its units and scenarios.
_INFERENCE_UNITS = re.compile(
    r"tokens?\s*(?:/|per)\s*s(?:ec(?:ond)?)?(?![A-Za-z])|samples?\s*(?:/|per)\s*s(?:ec(?:ond)?)?(?![A-Za-z])"
    r"|quer(?:y|ies)\s*(?:/|per)\s*(?:s(?:ec(?:ond)?)?|watt|joule)|(?<![A-Za-z])QPS(?![A-Za-z])",
    re.I,
)
_SCENARIO = re.compile(
    r"(?<![A-Za-z])(Offline|Server|Interactive|Single[- ]?Stream|Multi[- ]?Stream)(?![A-Za-z])"
)


#: A scenario named as one (capitalised, and called a scenario, mode or figure).
_SCENARIO_SAID = re.compile(
    r"(?<![A-Za-z])(?:Offline|Server|Single[- ]?Stream|Multi[- ]?Stream)(?![A-Za-z])"
    r"\s+(?:scenarios?|mode|throughput|queries|performance|results?|tests?)"
)


def inference_units(text: str) -> bool:
    """Whether ``text`` measures in inference's units or scenarios (tokens/s,
    samples per second, queries per watt, "Offline scenario", "Server throughput")."""
    return bool(_INFERENCE_UNITS.search(text) or _SCENARIO_SAID.search(text))


def scenarios_named(text: str) -> list[str]:
    """MLPerf Inference scenarios ``text`` names (capitalised, as the results spell
    them: ``Offline``, ``SingleStream``), in order."""
    out = [re.sub(r"[- ]", "", m.group(1)) for m in _SCENARIO.finditer(text)]
    return list(dict.fromkeys(out))


#: Words that put a count of accelerators over every result a sentence speaks of ("all
#: eight records were set on 3,584 GPUs", "刷新各项记录的...3584块H100"): the count then
#: claims something of each of those results, not that one result ran on it.
EVERY_RESULT = re.compile(
    r"\b(?:all|every|each)\b[^.;]{0,60}?\b(?:records?|results?|benchmarks?|tests?|workloads?)\b"
    r"|各项|所有|全部|每项|每一项|各項|每項",
    re.IGNORECASE,
)


def scope_of_count(kind: str, sentence: str) -> tuple[str, ...]:
    """``("every-result",)`` for a count of accelerators (a ``scale`` claim) whose
    sentence speaks of every result (:data:`EVERY_RESULT`), else ``()``; the verdict
    then needs each of those results (``benchdb.claims.readings.scale_verdict``)."""
    return ("every-result",) if kind == "scale" and EVERY_RESULT.search(sentence) else ()


#: Words that make a time a record: the subject's fastest result is the one meant
#: ("再破纪录, 11分钟训完GPT-3", "set a new record, training GPT-3 in 3.9 minutes"); a
#: subject that "leads" or "led" the results gives its leading figure, its fastest
#: ("MosaicML leads the MLPerf NLP results, delivering a score of 7.9 minutes"; not
#: "a team led by"); 领跑 likewise.
RECORD = re.compile(
    r"\brecords?\b|\bfastest\b|\bleads\b|\bled\b(?!\s+by\b)|纪录|紀錄|记录|最快|领跑|領跑",
    re.IGNORECASE,
)


def scope_of_time(kind: str, sentence: str) -> tuple[str, ...]:
    """``("record",)`` for a time whose sentence calls it a record (:data:`RECORD`),
    else ``()``: the verdict then reads the subject's fastest result of the round
    (``benchdb.claims.verdicts``), the one a record can only be."""
    return ("record",) if kind == "time" and RECORD.search(sentence) else ()


# --- another product of an earlier round; the scenario of a clause -----------------


def earlier_product(
    c: ClaimFacts, subject_side: str, compared_side: str, rounds: Mapping[str, date]
) -> dict[str, object]:
    """The fields of a gain over another product named with an earlier round ("up to
    1.5X ... compared to 2nd Generation Xeon Scalable (Cascade Lake) ... in MLPerf
    Inference v0.7"; "vs EPYC Milan in v2.1"), which the parser read as a gain over
    the subject's own previous round: ``compared_system`` (the one family the compared
    side names, and the subject side does not) and ``baseline`` (the one round of the
    claim's suite the compared side names; ``round-not-named`` when it names none and
    the subject side names no product: the other product's results are then of no
    known round, and the verdict abstains). {} for a training claim, or when the
    compared side names no family, several, or the subject's own, or names no round
    while the subject side names a product ("H200 ... 28% over H100": a same-round
    comparison, :func:`benchdb.claims.resolve._other_product`)."""
    if c.suite != "inference" or c.kind not in ("multiplier", "percentage") or c.compared_system:
        return {}
    if c.baseline not in ("previous-round", ""):
        return {}
    other = {m.family: m for m in find_mentions(compared_side)}
    mine = {m.family for m in find_mentions(subject_side)}
    if len(other) != 1 or set(other) & mine:
        return {}
    named = [r for r in rounds_named(compared_side, "inference", rounds) if r != c.round]
    if len(named) > 1 or (not named and (mine or not c.baseline)):
        return {}
    (mention,) = other.values()
    return {"compared_system": mention.text, "baseline": named[0] if named else NO_ROUND}


#: The baseline of a gain over another product whose round the text does not name.
NO_ROUND = "round-not-named"


def scenario_fields(
    c: ClaimFacts, sentence: str, fields: dict[str, object], ctx: list[str]
) -> None:
    """An inference claim's scenario when its sentence names several: the one its
    figure's clause names ("up to 1.5X increase in Offline and 1.65X increase in Server
    performance": 1.65X is Server's); none when its clause names none or several."""
    if len(scenarios_named(sentence)) < 2:
        return
    own = scenarios_named(clause_of(sentence, c.value))
    scenario = own[0] if len(own) == 1 else ""
    if scenario != c.scenario:
        fields["scenario"] = scenario
        ctx.append("scenario-clause" if scenario else "scenario-open")


#: Context tag of a claim whose sentence gives its results a year that holds several
#: rounds ("In previous 2023 benchmarks"): each of them is a reading
#: (:func:`benchdb.claims.undated.verify_each_round` over :func:`year_of`'s rounds).
YEAR_TAG = "round-year:"
#: A year the sentence gives its figure's results: "2023 benchmarks", "the 2022 MLPerf
#: round", "2023年的MLPerf测试" (not "a 2023 study", nor a date "June 2023": months
#: are :func:`benchdb.claims.subjects.rounds_named`'s).
_YEAR = re.compile(
    r"(?<![\w.])(?P<y>20[1-3]\d)(?:['’]s)?\s+(?:MLPerf[™®]?\s+)?(?:(?:Training|Inference|HPC)\s+)?"
    r"(?:benchmarks?|rounds?|results|submissions?)(?![A-Za-z])"
    r"|(?<!\d)(?P<zh>20[1-3]\d)\s*年的?\s*MLPerf",
    re.I,
)
_MONTH_BEFORE = re.compile(rf"(?:{_MONTH_NAMES})\.?\s*,?\s*$", re.I)


def year_rounds(text: str, rounds: Mapping[str, date]) -> tuple[int, list[str]]:
    """(year, the rounds of ``rounds`` published that year) for the one year ``text``
    gives its results (:data:`_YEAR`); (0, []) when it gives none, several, or a year
    no round of ``rounds`` was published in."""
    years = {
        int(m.group("y") or m.group("zh"))
        for m in _YEAR.finditer(text)
        if not _MONTH_BEFORE.search(text[: m.start()])
    }
    if len(years) != 1:
        return 0, []
    year = years.pop()
    return year, sorted((r for r, d in rounds.items() if d.year == year), key=lambda r: rounds[r])


def year_of(context: Sequence[str]) -> int | None:
    """The year a claim's :data:`YEAR_TAG` gives, None when it has none."""
    tag = next((t for t in context if t.startswith(YEAR_TAG)), "")
    return int(tag.removeprefix(YEAR_TAG)) if tag else None
