"""Forms of the claim pages that a logged-in user submits (the views that take
them are ingest's: ``ingest/views.py``)."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from benchdb.claims.selectors import claim_candidates, scored_result_list
from benchdb.models import Claim, Result


class CorrectionForm(forms.Form):
    """Results a claim rests on, chosen by a person (ids of results)."""

    subject = forms.ModelChoiceField(
        queryset=Result.objects.none(), help_text="the claimed system's result"
    )
    compared = forms.ModelChoiceField(
        queryset=Result.objects.none(), required=False, help_text="the other side of a comparison"
    )
    baseline = forms.ModelChoiceField(
        queryset=Result.objects.none(),
        required=False,
        help_text="the earlier result a gain is measured from",
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=2000
    )

    def __init__(self, *args: Any, claim: Claim, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        everything = scored_result_list()
        for name, qs in (
            ("subject", claim_candidates(claim)),
            ("compared", everything),
            ("baseline", everything),
        ):
            f = cast(forms.ModelChoiceField, self.fields[name])  # type: ignore[type-arg]
            f.queryset = qs
            f.label_from_instance = _result_label  # type: ignore[method-assign,assignment]

    def links(self) -> list[tuple[int, str]]:
        d = self.cleaned_data
        return [(d[role].pk, role) for role in ("subject", "compared", "baseline") if d.get(role)]


def _result_label(r: Result) -> str:
    score = f"{r.score_minutes:.2f} min" if r.score_minutes is not None else "no score"
    system = r.system
    return (
        f"{r.round.version} {system.submitter.name} {system.folder} {r.benchmark.key}"
        f" {r.division} ({score})"
    )
