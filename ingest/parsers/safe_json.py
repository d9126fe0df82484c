"""JSON (and Python-literal) values from untrusted files, bounded. Pure: no Django.

* :func:`loads` refuses text nested deeper than :data:`MAX_DEPTH` before decoding
  it, so a value 100,000 levels deep is an error with a reason, not a
  RecursionError in the decoder, in ``pickle`` (parser processes) or in the code
  that walks it.
* :func:`storable` makes a decoded value fit for PostgreSQL (``jsonb`` and ``text``
  reject NUL; ``jsonb`` rejects NaN and Infinity; integers beyond 64 bits overflow
  every float conversion downstream) and says what it changed.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: Deepest nesting accepted (benchdb sanity bound): MLLOG lines nest 3 levels
#: (line, metadata, a dict-valued accuracy), systems files 1 or 2.
MAX_DEPTH = 32
#: Characters of one string value kept (hyperparameters, submission fields).
MAX_TEXT = 4096

# A quoted string (skipped whole, escapes included) or one bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|\'[^\'\\]*(?:\\.[^\'\\]*)*\'|[\[\]{}()]', re.S)


class TooDeep(ValueError):
    """Text nested deeper than the limit (a ValueError, as a decoding error is)."""


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True if the brackets (``[``, ``{``, and ``(`` for Python literals) outside
    quoted strings of ``text`` nest deeper than ``limit``. Linear in ``len(text)``;
    text with fewer than ``limit`` opening brackets is not scanned."""
    if text.count("[") + text.count("{") + text.count("(") <= limit:
        return False
    depth = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{(":
            depth += 1
            if depth > limit:
                return True
        elif c in "]})":
            depth -= 1
    return False


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)`` after the depth check.

    Raises :class:`TooDeep` or ``json.JSONDecodeError`` (both ValueError); an
    integer of more than 4,300 digits raises ValueError (Python's own limit).
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if too_deep(text):
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels")
    return json.loads(text, **kwargs)


def storable(value: Any) -> tuple[Any, str]:
    """(``value`` fit for PostgreSQL, what was changed or "").

    NUL characters become U+FFFD; NaN, Infinity and integers outside the signed
    64-bit range become None; tuples and sets become lists; other objects their
    ``str``; containers deeper than :data:`MAX_DEPTH` become None.
    """
    notes: list[str] = []
    clean = _clean(value, notes, 0)
    return clean, "; ".join(dict.fromkeys(notes))


def _clean(v: Any, notes: list[str], depth: int) -> Any:
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, str):
        if "\x00" in v:
            notes.append("NUL character replaced by U+FFFD")
            return v.replace("\x00", "\ufffd")
        return v
    if isinstance(v, int):
        if v.bit_length() < 64:
            return v
        notes.append(f"integer of {v.bit_length()} bits out of range, kept as null")
        return None
    if isinstance(v, float):
        if math.isfinite(v):
            return v
        notes.append(f"{v} is not a finite number, kept as null")
        return None
    if depth >= MAX_DEPTH:
        notes.append(f"value nested deeper than {MAX_DEPTH} levels, kept as null")
        return None
    if isinstance(v, dict):
        return {_clean(str(k), notes, depth): _clean(i, notes, depth + 1) for k, i in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_clean(i, notes, depth + 1) for i in v]
    return _clean(str(v), notes, depth)


def cut(text: str, limit: int = MAX_TEXT) -> tuple[str, str]:
    """(``text`` or its first ``limit`` characters, a note when it was cut or "")."""
    if len(text) <= limit:
        return text, ""
    return text[:limit], f"value of {len(text):,} characters cut to {limit:,}"
