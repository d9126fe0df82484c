"""Query-string forms: each page's GET parameters, validated before a selector sees
them. Every field is optional unless a page cannot work without it; bad values
give a 400 page naming the parameter."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from benchdb.mlperf.training.round_table import SORTS
from benchdb.models import System
from benchdb.tables.pages import ExportForm
from benchdb.tables.paging import PageField

MAX_COMPARE = 50


def _text() -> forms.CharField:
    """An optional free-text parameter (a name as submitters write it)."""
    return forms.CharField(required=False, max_length=300)


class MultiValueField(forms.Field):
    """A parameter that may repeat (``?x=a&x=b``); cleans to a list of stripped,
    non-empty strings."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        values = value if isinstance(value, (list, tuple)) else [value]
        return [str(v).strip() for v in values if str(v).strip()]


def result_ids(values: list[str]) -> list[int]:
    """Result ids from ``?ids=3,7`` and/or ``?ids=3&ids=7``, in order, each once.
    Raises ValidationError for anything but digits, or more than ``MAX_COMPARE``."""
    out: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit() or len(part) > 18:
                raise ValidationError(f"not a result id: {part[:40]!r}")
            if int(part) not in out:
                out.append(int(part))
    if len(out) > MAX_COMPARE:
        raise ValidationError(f"at most {MAX_COMPARE} results at once")
    return out


class TrayForm(ExportForm):
    """A table page that carries the compare tray: ``ids``, the results picked so far
    (kept in the URL from page to page; each row of the table can join them)."""

    ids = MultiValueField(required=False)

    def clean_ids(self) -> list[int]:
        return result_ids(self.cleaned_data["ids"])


class SearchForm(TrayForm):
    """The search page's parameters; ``q`` is the free-text box every page carries."""

    q = _text()
    submitter = _text()
    system = _text()
    accelerator = _text()
    framework = _text()
    round = forms.CharField(required=False, max_length=16)
    benchmark = forms.CharField(required=False, max_length=64)
    division = forms.ChoiceField(
        choices=[("", "any"), ("closed", "closed"), ("open", "open")], required=False
    )
    page = forms.IntegerField(required=False, min_value=1)

    def filters(self) -> dict[str, Any]:
        """Keyword arguments for ``selectors.result_search``."""
        d = self.cleaned_data
        return {
            "submitter_contains": d["submitter"] or None,
            "system_contains": d["system"] or None,
            "accelerator_contains": d["accelerator"] or None,
            "framework_contains": d["framework"] or None,
            "round_version": d["round"] or None,
            "benchmark": d["benchmark"] or None,
            "division": d["division"] or None,
            "text": d["q"] or None,
        }


class RoundTableForm(ExportForm):
    """Filters and order of the round table (``round_table.round_table_get``)."""

    division = forms.ChoiceField(
        choices=[("", "any"), ("closed", "closed"), ("open", "open")], required=False
    )
    availability = forms.ChoiceField(
        choices=[("", "any"), *[(c.value, c.label) for c in System.Availability if c.value]],
        required=False,
    )
    submitter = _text()
    accelerator = _text()
    sort = forms.ChoiceField(choices=[("", "submitter"), *[(s, s) for s in SORTS]], required=False)
    page = PageField()  # every round's systems: thousands of rows (benchdb.tables.paging)


class RunLogForm(ExportForm):
    """The log viewer's window: ``start`` is its first line (1-based)."""

    start = forms.IntegerField(required=False, min_value=1, max_value=10**9)


class LeaderboardForm(TrayForm):
    division = forms.ChoiceField(
        choices=[("", "any"), ("closed", "closed"), ("open", "open")], required=False
    )
    availability = forms.ChoiceField(
        choices=[("", "any"), *[(c.value, c.label) for c in System.Availability if c.value]],
        required=False,
    )
    submitter = _text()
    accelerator = _text()


class CompareForm(TrayForm):
    """``ids``: result ids, comma-separated and/or repeated (``?ids=3,7`` or
    ``?ids=3&ids=7``); ``base``: the baseline's id (default: the first picked)."""

    base = forms.IntegerField(required=False, min_value=1)


class DivisionsForm(ExportForm):
    round = forms.CharField(required=False, max_length=16)
    benchmark = forms.CharField(required=False, max_length=64)
    submitter = _text()


_DIVISION_DEFAULT_CLOSED = [("closed", "closed"), ("open", "open"), ("any", "any")]


class _ClosedByDefault(ExportForm):
    """``division``: closed unless the URL says ``open`` or ``any`` (-> no filter)."""

    division = forms.ChoiceField(choices=_DIVISION_DEFAULT_CLOSED, required=False)

    def clean_division(self) -> str:
        value = self.cleaned_data["division"] or "closed"
        return "" if value == "any" else value


class SoftwareForm(_ClosedByDefault):
    """``accelerator`` may repeat: a vendor's accelerator generations (Graphcore
    GC200, then Bow IPU) on one timeline."""

    benchmark = forms.CharField(required=False, max_length=64)
    accelerator = MultiValueField(required=False)
    submitter = _text()

    @property
    def ready(self) -> bool:
        return bool(self.cleaned_data.get("benchmark") and self.cleaned_data.get("accelerator"))


class ScalingForm(_ClosedByDefault):
    submitter = _text()
    accelerator = _text()
    benchmark = forms.CharField(required=False, max_length=64)
    round = forms.CharField(required=False, max_length=16)

    @property
    def ready(self) -> bool:
        d = self.cleaned_data
        return bool(d.get("submitter") and d.get("accelerator") and d.get("benchmark"))


# --- MLPerf Inference -------------------------------------------------------------------

_DIVISIONS = [("", "any"), ("closed", "closed"), ("open", "open"), ("network", "network")]
_CATEGORIES = [("", "any"), ("datacenter", "datacenter"), ("edge", "edge")]


class InferenceRoundForm(ExportForm):
    """Filters of an inference round table and leaderboard."""

    division = forms.ChoiceField(choices=_DIVISIONS, required=False)
    category = forms.ChoiceField(choices=_CATEGORIES, required=False)
    submitter = _text()


class InferenceRoundTableForm(InferenceRoundForm):
    """A round table opens as MLCommons' does, on the closed datacenter results;
    ``any`` lifts either filter."""

    division = forms.ChoiceField(choices=[*_DIVISIONS[1:], ("any", "any")], required=False)
    category = forms.ChoiceField(choices=[*_CATEGORIES[1:], ("any", "any")], required=False)

    def clean_division(self) -> str:
        value = self.cleaned_data["division"] or "closed"
        return "" if value == "any" else str(value)

    def clean_category(self) -> str:
        value = self.cleaned_data["category"] or "datacenter"
        return "" if value == "any" else str(value)


class InferenceBoardForm(InferenceRoundForm):
    """A leaderboard's filters; ``power``: only results measured for power, with their
    power or energy (the power tab); ``ids``: the compare tray."""

    power = forms.BooleanField(required=False)
    ids = MultiValueField(required=False)
    page = PageField()  # a board holds up to 2,189 results (benchdb.tables.paging)

    def clean_ids(self) -> list[int]:
        return result_ids(self.cleaned_data["ids"])


class InferenceFileForm(ExportForm):
    """One stored file of an inference result: ``path`` (relative to the round's root,
    as the result page lists it), ``start`` its first line shown."""

    path = forms.CharField(max_length=500)
    start = forms.IntegerField(required=False, min_value=1, max_value=10**9)


class InferenceHistoryForm(ExportForm):
    """One model and scenario over the rounds (default: ResNet-50 Offline, measured in
    every round); ``accelerator``: a substring of the accelerator model."""

    model = forms.CharField(required=False, max_length=64)
    scenario = forms.CharField(required=False, max_length=32)
    accelerator = _text()
    division = forms.ChoiceField(choices=_DIVISIONS, required=False)
