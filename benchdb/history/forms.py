"""Query-string forms of the history pages (``/changes/``, its feed, ``/ids/``)."""

from __future__ import annotations

from django import forms

from benchdb.history.diff import KINDS
from benchdb.models import ResultVersion
from benchdb.tables.pages import ExportForm, PagedForm

SUITES = [("", "every suite"), ("training", "Training"), ("hpc", "HPC"), ("inference", "Inference")]


class ChangesForm(PagedForm):
    """``suite``, ``round`` (``v5.1``), ``submitter`` (part of the folder name),
    ``kind`` (one of ``benchdb.history.diff.KINDS``), ``origin``."""

    suite = forms.ChoiceField(choices=SUITES, required=False)
    round = forms.RegexField(regex=r"^v\d+\.\d+$", max_length=16, required=False)
    submitter = forms.CharField(max_length=100, required=False)
    kind = forms.ChoiceField(choices=[("", "every kind"), *((k, k) for k in KINDS)], required=False)
    origin = forms.ChoiceField(
        choices=[("", "ingest and back-fill"), *ResultVersion.Origin.choices], required=False
    )


class FeedForm(ChangesForm):
    """The feed's filters: those of ``/changes/`` (``format`` and ``page`` unused)."""


class IdsForm(ExportForm):
    """``suite``, ``round``, ``q`` (part of the ID)."""

    suite = forms.ChoiceField(choices=SUITES, required=False)
    round = forms.RegexField(regex=r"^v\d+\.\d+$", max_length=16, required=False)
    q = forms.CharField(max_length=32, required=False)
