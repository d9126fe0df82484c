"""The claim workbench measured against ../shared/vendor-dev's truths (issue 27): can every
checkable claim be settled by pins to the right verdict?

Usage (from the repository root, with DATABASE_URL naming a database that holds the
rounds the truths cite; nothing is written to it)::

    python bench/claims_pins_truth.py [--corpus ../shared/vendor-dev] [--page 05-jetson ...]
                                      [--claims] [--speed N] [--speed-only]

For each page of the corpus, the text (header lines stripped) is sent to the check API
(``POST /api/claims/check`` through Django's test client, in process, with its date)
once without pins; each truth is matched to one of the claims the API returns as
``bench/claims_truth.py`` matches stored claims (a printed number, the most words
shared). For each checkable truth (``consistent``, ``inconsistent``, ``ambiguous``;
basis ``mlperf``) the API is called again with pins naming **the truth's results**: the
stored results ``official`` names (a result is named when its system folder appears in
``official``, or its score or value is printed there to 1-4 decimals; of the rounds
``official`` names, and of the claim's benchmark when its frame names one), of which the
ones the claim quotes, as a person would pick them (:func:`pick`: the figure or pair of
figures nearest the claimed ones, a pair of one benchmark and scenario; ``official``
often names every result of the page), and the one scenario ``official`` names when it
names one. Results are of the suite ``official`` names ("MLPerf HPC"), else the frame's;
a folder may be named by its first words ("abci_512xV100"); a figure per watt is the
result's throughput over its power; a scaling efficiency's pair is the results on the
frame's two accelerator counts; a scale in nodes matches node counts. A count or a
quality target takes no result pins (``benchdb.claims.pins.NO_RESULT_KINDS``): its pins
are the one suite and the one round ``official`` names (:func:`count_pins`), what it
counts (``counted``: the candidate whose evidence ``official`` names most,
:func:`counted_pin`), for a count of organizations the owners ``official`` counts an
organization with ("Broadcom(+VMware)": ``owners``, :func:`owners_pin`) and, for a count
of records, ``reading: round-best`` (records read
as the round's best results: the one reading the results decide); when those leave it
``unverifiable``, the results it counts are named too (:func:`count_result_pins`: the
subject's and the field's, counted by ``benchdb.claims.pin_counts``). The
pinned verdict is **right** when it equals the truth, **wrong** otherwise; a truth is
**missing** when no claim was extracted for it, when no stored
result is named by its ``official`` text (the round is not in the database, ``official``
names no system folder or figure of it, or no pair of one benchmark), or when the API
refuses the text. Truths of basis ``page-arithmetic`` rest on the page's own figures,
not on results: counted apart.

The check is given 10 s instead of the API's 1.5 s (``CHECK_SECONDS``): the
question here is whether pins settle a claim, not the budget.

``--speed N`` also times N check API calls on a one-sentence text (the README's
example) with pins and, interleaved, without, after a warm-up call of each: p50, p95,
max in seconds, and the machine's load average.

The pins a person would give are derived here from ``official`` (free text written by
whoever established the truth), so a wrong outcome may be the derivation's, not the
workbench's: ``--claims`` prints each truth's pins and outcome.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

CHECKED = ("consistent", "inconsistent", "ambiguous")
SCENARIOS = ("Offline", "Server", "SingleStream", "MultiStream", "Interactive")
ROOT = Path(__file__).resolve().parents[1]


def _claims_truth() -> Any:
    """``bench/claims_truth.py``'s matching (truth -> claim)."""
    spec = importlib.util.spec_from_file_location(
        "claims_truth", ROOT / "bench" / "claims_truth.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["claims_truth"] = module
    spec.loader.exec_module(module)
    return module


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def api(client: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST the check API; (status, JSON)."""
    resp = client.post("/api/claims/check", data=json.dumps(body), content_type="application/json")
    return resp.status_code, resp.json()


def named_results(official: str, frame: dict[str, Any]) -> list[Any]:
    """The stored results ``official`` names (module docstring), as result facts."""
    from benchdb.vocabulary import canonical_benchmark
    from ingest.claims.pins import result_keys

    off, flat = _norm(official), official.replace(",", "")
    rounds = {f"v{m}" for m in re.findall(r"v?(\d+\.\d+)", official)}
    bench = frame.get("benchmark_key") or ""
    said = named_suites(official)
    suites = set(said) if said else {frame.get("suite") or "training"}
    # a folder named by its first words ("abci_512xV100" for abci_512xV100_tensorflow_closed)
    heads = {_norm(w) for w in re.findall(r"[A-Za-z][\w.-]*\d[\w.-]*", official) if len(w) >= 8}
    out = []
    for key, f in result_keys().by_key.items():
        if f.suite not in suites or (rounds and f.round not in rounds):
            continue
        folder = _norm(f.system_folder)
        value = f.score_minutes if f.score_minutes is not None else f.value
        printed = value is not None and any(f"{value:.{d}f}" in flat for d in (1, 2, 3, 4))
        of_bench = not bench or {bench, canonical_benchmark(bench, f.round)} & {
            f.benchmark,
            f.model,
        }
        headed = any(folder.startswith(h) for h in heads)
        if of_bench and ((len(folder) >= 4 and folder in off) or headed or printed):
            out.append((key, f))
    return out


def _figure(f: Any, frame: dict[str, Any]) -> float | None:
    """A result's figure in the claim's unit (times converted; per accelerator when the
    frame is)."""
    from benchdb.claims.facts import to_unit
    from benchdb.claims.inference_frames import PER_WATT_UNITS
    from benchdb.claims.per_watt import per_watt

    if frame.get("unit") in PER_WATT_UNITS or frame.get("metric") == "per-watt":
        return per_watt(f)  # "queries per watt": the throughput over the average power
    if f.score_minutes is not None:
        return to_unit(f.score_minutes, frame.get("unit") or "min")
    if f.value is None:
        return None
    value = f.value * (0.001 if frame.get("unit") == "s" else 1.0)
    return value / f.accelerators if frame.get("per_accelerator") and f.accelerators else value


def _off(a: float | None, b: float | None) -> float:
    return abs(a - b) / abs(b) if a is not None and b else float("inf")


def _ratio(new: Any, old: Any, frame: dict[str, Any]) -> float | None:
    """How many times better ``new`` is than ``old`` (times: old / new)."""
    a, b = _figure(new, frame), _figure(old, frame)
    if not a or not b:
        return None
    return a / b if new.higher_is_better else b / a


def pick(named: list[Any], row: dict[str, Any]) -> dict[str, list[str]]:
    """Which of the named results the claim quotes, as a person picks them: the one whose
    figure is nearest the claimed one (a time, a throughput, a scale: its accelerator
    count first), the pair nearest the claimed figures (head to head) or the claimed
    ratio under either reading of a percentage (gains, parity); role ``compared`` for
    the other side in the claim's round, ``baseline`` in an earlier one."""
    frame, kind = row.get("frame") or {}, row["kind"]
    value, other = row.get("value"), row.get("compared_value")
    if not named or value is None:
        return {}
    if kind == "scale":  # a count of accelerators, or of nodes
        size = (lambda f: f.nodes) if frame.get("unit") == "node" else (lambda f: f.accelerators)
        fits = [(k, f) for k, f in named if size(f) == int(value)]
        return {"subject": [fits[0][0]]} if fits else {}
    if kind == "scaling":
        return _scaling_pick(named, frame)
    if kind in ("time", "throughput"):
        key, _ = min(named, key=lambda kf: _off(_figure(kf[1], frame), value))
        return {"subject": [key]}
    if kind == "head_to_head" and other is not None:
        a = min(named, key=lambda kf: _off(_figure(kf[1], frame), value))
        rest = [kf for kf in named if kf[0] != a[0]] or named
        b = min(rest, key=lambda kf: _off(_figure(kf[1], frame), other))
        return {"subject": [a[0]], "compared": [b[0]]}
    wanted = [value] if kind == "multiplier" else [1 + value / 100, 1 / max(1e-9, 1 - value / 100)]
    if kind == "parity":
        wanted = [1.0]
    pairs = [(x, y) for x in named for y in named if x[0] != y[0]]
    # MLCommons' convention: a ratio compares one benchmark and scenario (no such pair
    # named: nothing picked); the subject is of the claim's round
    pairs = [p for p in pairs if _same_task(p[0][1], p[1][1])]
    pairs = [p for p in pairs if p[0][1].round == frame.get("round")] or pairs
    if not pairs:
        return {}
    x, y = min(pairs, key=lambda p: min(_off(_ratio(p[0][1], p[1][1], frame), w) for w in wanted))
    role = "baseline" if y[1].round != x[1].round else "compared"
    return {"subject": [x[0]], role: [y[0]]}


def range_pick(named: list[Any], frame: dict[str, Any]) -> dict[str, list[str]]:
    """A range's pairs, as a person pins them: the named results of the claim's round
    (subject) and, for each of their benchmark and scenario, the named result of the
    other side (``baseline`` from another round, else ``compared``), each side the one
    system with the most named results (a range "across the tests" is one system's);
    a test with more than one result on a side is left out (which one is meant,
    ``official`` does not say)."""

    def main(side: list[Any]) -> list[Any]:
        counts = Counter(f.system_folder for _, f in side)
        top = counts.most_common(1)[0][0] if counts else ""
        return [kf for kf in side if kf[1].system_folder == top]

    mine = main([kf for kf in named if kf[1].round == frame.get("round")])
    other = main([kf for kf in named if kf[1].round != frame.get("round")])
    role = "baseline"
    if not other:  # one round: no pairs named
        return {}
    out: dict[str, list[str]] = {"subject": [], role: []}
    for a in mine:
        a_same = [kf for kf in mine if _same_task(kf[1], a[1])]
        b_same = [kf for kf in other if _same_task(kf[1], a[1])]
        if len(a_same) == 1 and len(b_same) == 1:
            out["subject"].append(a[0])
            out[role].append(b_same[0][0])
    return out if len(out["subject"]) > 1 else {}


def _scaling_pick(named: list[Any], frame: dict[str, Any]) -> dict[str, list[str]]:
    """A scaling efficiency's pair, as the text gives it: the named results on the
    frame's two accelerator counts (the larger the subject), of one benchmark."""
    big, small = frame.get("accelerators"), frame.get("compared_accelerators")
    pairs = [
        (x, y)
        for x in named
        for y in named
        if x[1].accelerators == big and y[1].accelerators == small and _same_task(x[1], y[1])
    ]
    return {"subject": [pairs[0][0][0]], "compared": [pairs[0][1][0]]} if pairs else {}


def _same_task(a: Any, b: Any) -> bool:
    return (a.model or a.benchmark, a.scenario) == (b.model or b.benchmark, b.scenario)


def truth_pins(t: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """The pins of a truth's results for the API's claim ``row`` (module docstring)."""
    frame = row.get("frame") or {}
    if row["kind"] in NO_RESULT_KINDS:
        out = count_pins(t.get("official", ""), frame)
        if row["kind"] == "count" and RECORD in (frame.get("context") or ()):
            out["reading"] = "round-best"  # records: the one reading results decide
        counted = counted_pin(t.get("official", ""), row)
        owners = owners_pin(t.get("official", "")) if frame.get("unit") == "organization" else ""
        return (
            out | ({"counted": counted} if counted else {}) | ({"owners": owners} if owners else {})
        )
    named = named_results(t.get("official", ""), frame)
    said = [s for s in SCENARIOS if re.search(rf"\b{s}\b", t.get("official", ""))]
    if len(said) == 1 and any(f.scenario for _, f in named):
        named = [(k, f) for k, f in named if f.scenario == said[0]]
    ranged = frame.get("value_high") is not None and row["kind"] in ("percentage", "multiplier")
    # a range's pairs (several tests): systems named by folder (a printed figure may be
    # any result's); no such pairs (one comparison, "within 3-4%"): as any gain
    off = _norm(t.get("official", ""))
    folder = [
        kf
        for kf in named
        if len(_norm(kf[1].system_folder)) >= 4 and _norm(kf[1].system_folder) in off
    ]
    spread = range_pick(folder, frame) if ranged else {}
    out: dict[str, Any] = dict(spread or pick(named, row))
    if out and len(said) == 1 and frame.get("suite") == "inference":
        out["scenario"] = said[0]
    return out


SUITE_WORDS = {"training": "Training", "inference": "Inference", "hpc": "HPC"}
#: ``benchdb.claims.pins.NO_RESULT_KINDS``: settled by their frame, not by results.
NO_RESULT_KINDS = ("count", "target")


def count_result_pins(t: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """The results a count counts, as a person names them when its frame pins leave it
    open (``benchdb.claims.pin_counts``): the results ``official`` names by system
    folder and benchmark (of the scenario it names, when one), the subject's those of the submitter
    the truth's text names first, the field (``compared``) the others; a figure per
    watt (``official`` says "perf/W" or "per watt") pinned as ``normalisation``. {}
    when the text names no submitter of them or one side is empty."""
    official, text = t.get("official", ""), t.get("text", "")
    off = _norm(official)
    frame = dict(row.get("frame") or {}, benchmark_key="")
    named = [
        (k, f)
        for k, f in named_results(official, frame)
        if len(_norm(f.system_folder)) >= 4
        and _norm(f.system_folder) in off
        and _norm(f.benchmark) in off  # the measures official names ("BERT-99")
    ]
    said = [s for s in SCENARIOS if re.search(rf"\b{s}\b", official)]
    if len(said) == 1:
        named = [(k, f) for k, f in named if f.scenario in ("", said[0])]
    places = {
        f.submitter: m.start()
        for _, f in named
        if (m := re.search(re.escape(f.submitter.split("_")[0]), text, re.I))
    }
    if not places:
        return {}
    first = min(places, key=lambda s: places[s])
    mine = [k for k, f in named if f.submitter == first]
    field = [k for k, f in named if f.submitter != first]
    if not mine or not field:
        return {}
    out: dict[str, Any] = {"subject": mine[:24], "compared": field[:24]}
    if re.search(r"(?i)perf/W|per watt", official):
        out["normalisation"] = "per-watt"
    return out


#: A count of records (``benchdb.claims.round_wins``' tag).
RECORD = "round-win:record"


def counted_pin(official: str, row: dict[str, Any]) -> str:
    """What a count counts, as a person reading ``official`` picks it among the
    candidates the API lists for the claim (slot ``counted``): the one whose evidence
    (the items it counted: rounds, benchmarks, submitters) ``official`` names most, each
    item as a whole word; "" when none is named or two tie."""
    cands = [
        c
        for c in ((row.get("workbench") or {}).get("candidates") or [])
        if c.get("slot") == "counted"
    ]

    def named(c: dict[str, Any]) -> int:
        items = [i.strip() for i in str(c.get("evidence", "")).split(",") if i.strip()]
        return sum(bool(re.search(rf"(?<![\w.]){re.escape(i)}(?![\w.])", official)) for i in items)

    scored = sorted(((named(c), c["value"]) for c in cands), reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return ""
    return str(scored[0][1])


#: "Broadcom(+VMware)": an organization counted with its owner, as ``official`` writes it.
_OWNED = re.compile(r"([A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*)\s*\(\+\s*([A-Z][\w&. -]*?)\s*\)")


def owners_pin(official: str) -> str:
    """The owners a count of organizations counts by, as ``official`` names them
    ("Broadcom(+VMware)" -> "VMware=Broadcom", the pin ``owners``); "" when none."""
    return ", ".join(f"{m.group(2)}={m.group(1)}" for m in _OWNED.finditer(official))


def named_suites(official: str) -> list[str]:
    """The suites ``official`` names as "MLPerf <suite>"."""
    return [k for k, w in SUITE_WORDS.items() if re.search(rf"MLPerf {w}\b", official)]


def count_pins(official: str, frame: dict[str, Any]) -> dict[str, str]:
    """The pins of a claim no result gives (a count, a quality target:
    ``benchdb.claims.pins.NO_RESULT_KINDS``): the one suite ``official`` names as
    "MLPerf <suite>" and the one round it names (``v3.0``), each when there is exactly
    one; {} when it names neither."""
    suites = named_suites(official)
    rounds = list(dict.fromkeys(f"v{m}" for m in re.findall(r"\bv(\d+\.\d+)\b", official)))
    out = {}
    if len(suites) == 1:
        out["suite"] = suites[0]
    if len(rounds) == 1:
        out["round"] = rounds[0]
    return out


def _views(ct: Any, rows: list[dict[str, Any]]) -> list[Any]:
    return [
        ct.ClaimView(
            r["id"],
            r["kind"],
            r["value"],
            r["compared_value"],
            r["sentence"],
            r["verdict"],
            r.get("page_verdict") or "",
        )
        for r in rows
    ]


def score_page(
    ct: Any, client: Any, path: Path, truth: dict[str, Any]
) -> tuple[Counter[str], list[Any]]:
    """Counts and printed rows of one page."""
    url, when, data = ct.split_header(path)
    body: dict[str, Any] = {"text": data.decode("utf-8", errors="replace")}
    if when:
        body["published"] = when.isoformat()
    n: Counter[str] = Counter()
    status, out = api(client, body)
    rows: list[Any] = []
    truths = [t for t in truth["claims"] if t["truth"] in CHECKED]
    n["checkable"] = len(truths)
    if status != 200:
        n["missing: API refused the text"] += len(truths)
        return n, [(t, None, f"API {status}: {out.get('error', '')[:80]}") for t in truths]
    matched = ct.match(truths, _views(ct, out["claims"]))
    for t, c in zip(truths, matched, strict=True):
        outcome, detail = _settle(client, body, t, c, out["claims"])
        n[outcome] += 1
        rows.append((t, c, f"{outcome}: {detail}"))
    return n, rows


def _settle(
    client: Any, body: dict[str, Any], t: dict[str, Any], c: Any, claims: list[dict[str, Any]]
) -> tuple[str, str]:
    if t.get("basis") == "page-arithmetic":
        return "page-arithmetic (no results to pin)", ""
    if c is None:
        return "missing: not extracted", ""
    row = claims[c.pk]
    pins = truth_pins(t, row)
    if not pins:
        why = (
            "a count whose official names no one round"
            if row["kind"] == "count"
            else ("no stored result named")
        )
        return f"missing: {why}", f"{row['kind']} automatic {row['verdict']}"
    status, out = api(client, body | {"pins": pins, "claim": c.pk})
    if status != 200:
        return "missing: API refused the pins", f"{status} {out.get('error', '')[:100]}"
    pinned = (out["claims"][c.pk].get("workbench") or {}).get("pinned") or {}
    verdict = pinned.get("verdict", "")
    counted = count_result_pins(t, row) if row["kind"] == "count" else {}
    if verdict == "unverifiable" and counted:  # the frame does not settle it: name results
        pins = pins | counted
        status, out = api(client, body | {"pins": pins, "claim": c.pk})
        if status != 200:
            return "missing: API refused the pins", f"{status} {out.get('error', '')[:100]}"
        pinned = (out["claims"][c.pk].get("workbench") or {}).get("pinned") or {}
        verdict = pinned.get("verdict", "")
    what = f"{row['kind']} {row['verdict']} -> {verdict} with {json.dumps(pins)[:300]}"
    return ("right" if verdict == t["truth"] else "wrong"), what


def _times(client: Any, body: dict[str, Any], n: int) -> dict[str, float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        status, _ = api(client, body)
        times.append(time.perf_counter() - t0)
        assert status == 200, status
    times.sort()
    return {
        "n": n,
        "p50": statistics.median(times),
        "p95": times[max(0, int(round(0.95 * n)) - 1)],
        "max": times[-1],
    }


def speed(client: Any, n: int) -> dict[str, dict[str, float]]:
    """Seconds of ``n`` check API calls on a one-sentence text (the README's example)
    with pins (its compared side pinned) and, interleaved, without, after a warm-up
    call of each: p50, p95, max of each."""
    from ingest.claims.pins import result_keys

    text = (
        "In the MLPerf Training v1.1 closed division, the Graphcore IPU-POD16 with 16 IPUs"
        " trained ResNet-50 in 28.3 minutes, while the NVIDIA DGX A100 took 29.1 minutes."
    )
    keys = result_keys().by_key
    compared = next((k for k in keys if "/v1.1/NVIDIA/dgxa100" in k and k.endswith("/resnet")), "")
    pinned = {"text": text, "claim": 1, "pins": {"compared": compared}}
    plain = {"text": text}
    api(client, pinned)
    api(client, plain)
    out: dict[str, list[dict[str, float]]] = {"with pins": [], "without": []}
    for _ in range(n):  # interleaved: the machine's load falls on both alike
        out["with pins"].append(_times(client, pinned, 1))
        out["without"].append(_times(client, plain, 1))
    return {k: _summary([r["p50"] for r in v]) for k, v in out.items()}


def _summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    n = len(times)
    return {
        "n": n,
        "p50": statistics.median(times),
        "p95": times[max(0, int(round(0.95 * n)) - 1)],
        "max": times[-1],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path("../shared/vendor-dev"))
    ap.add_argument("--page", nargs="*", help="only pages whose file name starts so")
    ap.add_argument("--claims", action="store_true", help="print every truth's outcome")
    ap.add_argument("--speed", type=int, default=0, help="also time N API calls with pins")
    ap.add_argument("--speed-only", action="store_true", help="only the timing")
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    os.environ["CLAIMS_CHECK_RATE"] = "100000/m"  # the bench is one client
    import django

    django.setup()
    from ingest.claims import check as claims_check

    # whether pins settle a claim is measured here, not the reading's time budget (long
    # Chinese pages exceed 1.5 s on a loaded 2-CPU machine): 10 s
    budget, claims_check.CHECK_SECONDS = claims_check.CHECK_SECONDS, 10.0
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    if not args.speed_only:
        ct = _claims_truth()
        total, pages = run(ct, client, corpus, args.page)
        _print(total, pages, args.claims)
    claims_check.CHECK_SECONDS = budget  # the API as served
    if args.speed:
        for what, figures in speed(client, args.speed).items():
            shown = json.dumps({k: round(v, 3) for k, v in figures.items()})
            print(f"check API {what}: {shown}")
        print("load average:", " ".join(f"{x:.1f}" for x in os.getloadavg()))


def run(
    ct: Any, client: Any, corpus: Path, only: list[str] | None
) -> tuple[Counter[str], list[Any]]:
    """Every page (or those whose name starts with one of ``only``): (totals,
    [(page, counts, rows)])."""
    total: Counter[str] = Counter()
    pages = []
    for path, truth in ct.read_corpus(corpus):
        name = f"{path.parent.name}/{path.name}"
        if only and not any(name.startswith(o) or path.name.startswith(o) for o in only):
            continue
        n, rows = score_page(ct, client, path, truth)
        total.update(n)
        pages.append((name, n, rows))
    return total, pages


COLUMNS = ("checkable", "right", "wrong", "missing", "page-arithmetic (no results to pin)")


def _print(total: Counter[str], pages: list[Any], claims: bool) -> None:
    def missing(n: Counter[str]) -> int:
        return sum(v for k, v in n.items() if k.startswith("missing"))

    print(f"{'page':56} {'chkbl':>6} {'right':>6} {'wrong':>6} {'miss':>6} {'page-ar':>7}")
    for name, n, rows in pages:
        print(
            f"{name[:56]:56} {n['checkable']:>6} {n['right']:>6} {n['wrong']:>6}"
            f" {missing(n):>6} {n[COLUMNS[4]]:>7}"
        )
        if claims:
            for t, _, what in rows:
                print(f"    {t['truth']:12} {t['value']!s:18} {what}")
    print(
        f"{'all pages':56} {total['checkable']:>6} {total['right']:>6} {total['wrong']:>6}"
        f" {missing(total):>6} {total[COLUMNS[4]]:>7}"
    )
    for k, v in sorted(total.items()):
        if k.startswith("missing"):
            print(f"  {k}: {v}")


if __name__ == "__main__":
    main()
