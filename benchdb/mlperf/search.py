"""The search box's matching (``selectors.result_list(text=..., system_contains=...)``):
names compared as people write them, case, spaces, dashes, underscores, dots and slashes
ignored."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast, Lower, Replace

from benchdb.models import Result


def system_filter(qs: QuerySet[Result], text: str) -> QuerySet[Result]:
    """Results whose system name or folder holds ``text`` (as :func:`squeeze` makes both)."""
    wanted = squeezed(text)
    qs = qs.annotate(_name=squeeze(F("system__name")), _folder=squeeze(F("system__folder")))
    return qs.filter(Q(_name__contains=wanted) | Q(_folder__contains=wanted))


def text_filter(qs: QuerySet[Result], text: str) -> QuerySet[Result]:
    """Results matching ``text`` as people write names: case, spaces, dashes, underscores,
    dots and slashes are ignored ("DGX A100" finds ``dgxa100_n1``, "IPU-POD16"
    ``ipu-pod16-TF1``); a result matches when the whole text, or each of its words, is
    in its submitter (name, aliases, folder), system (name, folder), accelerator,
    framework, benchmark (key, name) or round (:data:`_SEARCHED`)."""
    names = {f"_s{i}": squeeze(expr) for i, expr in enumerate(_SEARCHED)}
    qs = qs.annotate(**names)

    def anywhere(word: str) -> Q:
        return Q(*[Q(**{f"{name}__contains": word}) for name in names], _connector=Q.OR)

    words = [w for w in map(squeezed, text.split()) if w]
    return qs.filter(anywhere(squeezed(text)) | Q(*[anywhere(w) for w in words]))


#: What the search box looks at (``result_list(text=...)``), each field squeezed on its
#: own (one expression over all of them overflows SQLite's parser, the quick start's).
_SEARCHED = [
    *(
        F(path)
        for path in (
            "system__submitter__name",
            "system__submitter_folder",
            "system__name",
            "system__folder",
            "system__accelerator_model",
            "system__framework",
            "benchmark__key",
            "benchmark__name",
            "round__version",
        )
    ),
    Cast("system__submitter__aliases", TextField()),
]
_IGNORED = (" ", "-", "_", ".", "/")


def squeeze(expr: Any) -> Any:
    """``expr`` lower-cased without the characters of ``_IGNORED`` (in SQL)."""
    out: Any = Lower(expr, output_field=TextField())
    for ch in _IGNORED:
        out = Replace(out, Value(ch), Value(""), output_field=TextField())
    return out


def squeezed(text: str) -> str:
    """``text`` as :func:`squeeze` makes it (in Python)."""
    out = text.lower()
    for ch in _IGNORED:
        out = out.replace(ch, "")
    return out
