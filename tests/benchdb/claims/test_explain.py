"""benchdb.claims.explain: every code the verifier can emit has a sentence and a clause,
and every clause is the guidelines' own (number, title and words read back from
../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings

from benchdb import vocabulary
from benchdb.claims import explain, flags

GUIDELINES = Path(settings.VENDOR_DATA) / explain.GUIDELINES_FILE


def _emitted_flags() -> set[str]:
    """Flag codes verify_claim can set, read from the source of flags.py (where its
    flags are set; not from explain): string arguments of ``flags.append(...)`` and the
    second item of each ``(condition, "flag")`` pair looped over into ``flags``."""
    tree = ast.parse(Path(flags.__file__).read_text())
    codes: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "flags"
        ):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    codes.add(arg.value)
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:
            last = node.elts[1]
            if (
                isinstance(last, ast.Constant)
                and isinstance(last.value, str)
                and re.fullmatch(r"[a-z]+(-[a-z]+)+", last.value)
                and isinstance(node.elts[0], ast.Compare)
            ):
                codes.add(last.value)
    return codes


def _sections() -> dict[str, str]:
    """number -> title, numbered as Asciidoctor's ``:sectnums:`` does: ``==`` and
    Markdown-style ``##`` are level 1, ``===`` level 2; the level-0 title is not
    numbered."""
    out: dict[str, str] = {}
    top = sub = 0
    for line in GUIDELINES.read_text().splitlines():
        m = re.match(r"(={2,3}|#{2,3}) (\S.*?)\s*$", line)
        if not m:
            continue
        if len(m.group(1)) == 2:
            top, sub = top + 1, 0
            out[str(top)] = m.group(2)
        else:
            sub += 1
            out[f"{top}.{sub}"] = m.group(2)
    return out


def test_the_numbering_is_the_one_the_document_cites() -> None:
    """The guidelines cite "Section 3" for footnotes and "Section 11.2" for the legend."""
    sections = _sections()
    assert sections["3.2"] == "Required Footnote"
    assert sections["11.2"] == "Attribution"
    assert "Section 11.2" in GUIDELINES.read_text()


def test_every_flag_the_verifier_can_set_has_a_sentence_and_clause() -> None:
    emitted = _emitted_flags()
    # the fifteen codes flags.py sets (its module docstring lists them), found by the AST walk
    assert {"no-result-id", "round-from-date", "different-rounds", "arithmetic-error"} <= emitted
    assert len(emitted) >= 15
    missing = emitted - set(explain.FLAGS)
    assert not missing, f"flags without an explanation: {sorted(missing)}"
    for code in emitted:
        e = explain.FLAGS[code]
        assert e.code == code and e.sentence.endswith(".") and e.clause is not None


def test_every_verdict_has_a_sentence_and_clause() -> None:
    assert set(explain.VERDICTS) == set(vocabulary.VERDICTS)
    assert all(e.clause is not None for e in explain.VERDICTS.values())


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "").replace("_", ""))


@pytest.mark.parametrize(
    "clause",
    sorted(
        {e.clause for e in [*explain.FLAGS.values(), *explain.VERDICTS.values()] if e.clause},
        key=lambda c: c.number,
    ),
    ids=lambda c: c.number,
)
def test_each_clause_is_the_documents_number_title_and_words(clause: explain.Clause) -> None:
    assert _sections()[clause.number] == clause.title
    assert _flat(clause.quote) in _flat(GUIDELINES.read_text())
    assert clause.url.startswith(explain.GUIDELINES_URL + "#")


def test_an_unknown_code_is_named_not_an_error() -> None:
    assert explain.flag_explanation("new-flag").sentence == "benchdb flag new-flag."
    assert explain.flag_explanation("no-result-id").clause == explain.REQUIRED_FOOTNOTE


@pytest.mark.parametrize(
    ("value", "unit", "qualifier", "text"),
    [
        (13.0, "organization", "", "13 organizations"),
        (50.0, "organization", "more than", "more than 50 organizations"),
        (18.0, "x", "", "18x"),
        (2.5, "x", "up to", "up to 2.5x"),
        (24.0, "%", "", "24%"),
        (23.65789528043158, "%", "", "23.66%"),
        (28.3, "min", "", "28.3 min"),
        (865000.0, "token/s", "", "865,000 tokens/s"),
        (1.0, "IPU", "", "1 IPU"),
        (7.0, "nm", "", "7 nm"),
        (None, "min", "", ""),
        (float("nan"), "min", "", ""),
    ],
)
def test_quantities_read_as_people_write_them(
    value: float | None, unit: str, qualifier: str, text: str
) -> None:
    assert explain.quantity(value, unit, qualifier) == text


def test_a_percentage_shows_both_readings_and_a_parity_claim_its_frameworks() -> None:
    # the 24% software gain of the Graphcore v1.1 page: 37.115 -> 28.335 min (stored
    # scores) is a 23.66% time reduction, a 30.99% speedup
    pct = {"kind": "percentage", "value": 24.0, "unit": "%", "recomputed_value": 23.6579}
    details = {"readings": {"time_reduction": 23.6579, "speedup": 30.9893}}
    assert explain.claimed_text(pct) == "24%"
    # a range reads as one: AMD's "a 3% to 7% difference" (reportify) showed "at least 3%"
    span = {"kind": "percentage", "value": 3.0, "unit": "%", "qualifier": "at least"}
    assert explain.claimed_text(span | {"extracted": {"value_high": 7.0}}) == "3% to 7%"
    assert explain.claimed_text(span) == "at least 3%"  # a bound, no range
    assert explain.recomputed_text(pct, details) == "23.66% (time reduction; 30.99% as a speedup)"
    parity = {
        "kind": "parity",
        "value": 0.0,
        "unit": "%",
        "system": "",
        "compared_system": "",
        "recomputed_value": 0.982,
        "extracted": {"framework": "PaddlePaddle", "compared_framework": "PopART"},
    }
    assert explain.claim_heading(parity) == "PaddlePaddle vs PopART"
    assert explain.claimed_text(parity) == "same time to train"
    assert explain.recomputed_text(parity) == "largest difference 0.98%"
    h2h = {"kind": "head_to_head", "value": 28.3, "compared_value": 29.1, "unit": "min"}
    assert explain.claimed_text(h2h) == "28.3 min vs 29.1 min"
    assert explain.claim_heading({"system": "", "extracted": {}}) == "no system named"


def test_page_arithmetic_as_a_formula() -> None:
    """IBM: 70 min and 91.5 s in seconds, 4200 / 91.5 = 45.90; Huawei: (6.25 - 2.69) /
    6.25 = 56.96%, 6.25 / 2.69 - 1 = 132.34%; throughputs new over old."""
    from benchdb.claims.explain import baseline_text, page_arithmetic_text

    def pa(old: tuple[float, str], new: tuple[float, str], reading: str, implied: float) -> dict:  # type: ignore[type-arg]
        return {
            "old": {"value": old[0], "unit": old[1]},
            "new": {"value": new[0], "unit": new[1]},
            "reading": reading,
            "implied": implied,
        }

    assert page_arithmetic_text(pa((70, "min"), (91.5, "s"), "speedup", 4200 / 91.5)) == (
        "4,200 s / 91.5 s = 45.9x"
    )
    assert page_arithmetic_text(pa((6.25, "s"), (2.69, "s"), "time_reduction", 56.96)) == (
        "(6.25 s - 2.69 s) / 6.25 s = 57%"
    )
    assert page_arithmetic_text(pa((6.25, "s"), (2.69, "s"), "percent_speedup", 132.34)) == (
        "6.25 s / 2.69 s - 1 = 132.3%"
    )
    assert page_arithmetic_text(pa((1000, "img/s"), (2000, "img/s"), "speedup", 2.0)) == (
        "2,000 img/s / 1,000 img/s = 2x"
    )
    assert page_arithmetic_text({}) == ""
    assert baseline_text({"kind": "none", "name": ""}) == "not stated"
    assert baseline_text({"kind": "stated", "name": "TensorFlow"}) == "TensorFlow"
    assert baseline_text({}) == ""
