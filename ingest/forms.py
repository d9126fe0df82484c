"""Forms of ingest's write pages (a login is needed for each)."""

from __future__ import annotations

from typing import Any

from django import forms


class UploadForm(forms.Form):
    """A page to ingest: a file, or an http(s) URL that benchdb fetches (with a timeout)."""

    file = forms.FileField(required=False)
    fetch_url = forms.URLField(required=False, assume_scheme="https", label="or fetch from URL")
    url = forms.CharField(required=False, max_length=1000, label="source URL (for a file)")
    published = forms.DateField(
        required=False, help_text="YYYY-MM-DD; empty: the first date in the page"
    )

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        if bool(d.get("file")) == bool(d.get("fetch_url")):
            raise forms.ValidationError("give either a file or a URL to fetch")
        return d
