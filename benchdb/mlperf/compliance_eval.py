"""A restricted evaluator for the Python snippets of mlperf_logging's compliance rules.

Pure: no Django. The ``CHECK``, ``PRE``, ``POST``, ``ATLEAST_ONE_CHECK`` and ``BEGIN``
/``END`` fields of ``mlperf_logging/compliance_checker/training_<ruleset>/*.yaml``
are Python source; ``mlp_compliance.ComplianceChecker`` runs them with plain
``eval``/``exec``. benchdb does not: each snippet is parsed with :mod:`ast`, every
node is checked against a whitelist (:func:`compile_snippet`), and only then is it
compiled and run with a namespace that holds nothing but the names the rules use
(``s``, ``v``, ``ll``, ``math``, ``is_integer``, ``enqueue_config`` and a few
builtins, no ``__builtins__``). Attribute access is limited to the attributes the
rules read (``ll.timestamp``, ``s.update``, ``'...'.format``, ``math.ceil`` ...), no
name or attribute starting with ``_`` is accepted, and there are no imports,
comprehensions, lambdas or loops. A snippet outside the whitelist raises
:class:`UnsafeSnippet` when the rule file is loaded, never at check time.

The rule files benchdb runs are the vendored copies in ``compliance_yaml/`` (all
of them pass the whitelist; ``tests/benchdb/test_compliance_rules.py`` checks it).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from types import CodeType
from typing import Any


class UnsafeSnippet(ValueError):
    """A rule snippet uses Python the whitelist does not allow (names the node)."""


def is_integer(value: float) -> bool:
    """``abs(round(value) - value) < 0.00001``: ``mlp_compliance.is_integer``
    (mlperf_logging 0.7.0 to 5.1.0, unchanged)."""
    return abs(round(value) - value) < 0.00001


#: Builtins a snippet may call (all of them pure functions of their arguments).
SAFE_BUILTINS: dict[str, Any] = {
    "min": min,
    "max": max,
    "len": len,
    "sorted": sorted,
    "isinstance": isinstance,
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "abs": abs,
    "round": round,
    "any": any,
    "all": all,
    "list": list,
    "dict": dict,
    "set": set,
    "tuple": tuple,
    "True": True,
    "False": False,
    "None": None,
}

#: Attributes a snippet may read, per object name ("str" for a string constant).
_ATTRS: dict[str, frozenset[str]] = {
    "ll": frozenset({"timestamp", "key", "value", "lineno", "full_string"}),
    "s": frozenset({"update", "get", "keys", "values", "items"}),
    "math": frozenset(
        {"ceil", "floor", "log", "log2", "log10", "sqrt", "isclose", "inf", "isnan", "isinf"}
        | {"exp", "fabs", "pi", "e", "nan"}
    ),
    "str": frozenset({"format", "lower", "upper", "strip", "startswith", "endswith"}),
}

_NAMES = frozenset({"s", "v", "ll", "math", "is_integer", "enqueue_config"} | set(SAFE_BUILTINS))

_NODES: tuple[type[ast.AST], ...] = (
    ast.Expression,
    ast.Module,
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Pow,
    ast.BitOr,
    ast.BitAnd,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.UAdd,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.In,
    ast.NotIn,
    ast.Is,
    ast.IsNot,
    ast.IfExp,
    ast.Call,
    ast.Subscript,
    ast.Attribute,
    ast.Name,
    ast.Load,
    ast.Store,
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
)


#: ``**`` is allowed only with a numeric constant exponent this small (6.0.0's
#: ``closed_deepseekv3_671b.yaml`` scales the learning rate by ``(gbs / 16384) ** 0.5``);
#: ``9 ** 9 ** 9`` or ``v['value'] ** v['value']`` would let a log's value eat the CPU.
MAX_EXPONENT = 4.0


def _pow_ok(node: ast.AST) -> bool:
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)):
        return True
    e = node.right
    return (
        isinstance(e, ast.Constant)
        and isinstance(e.value, int | float)
        and not isinstance(e.value, bool)
        and abs(e.value) <= MAX_EXPONENT
    )


def _check_node(node: ast.AST, where: str) -> None:
    if not isinstance(node, _NODES):
        raise UnsafeSnippet(f"{where}: {type(node).__name__} is not allowed")
    if not _pow_ok(node):
        raise UnsafeSnippet(f"{where}: ** needs a constant exponent of at most {MAX_EXPONENT}")
    if isinstance(node, ast.Name):
        if node.id not in _NAMES:
            raise UnsafeSnippet(f"{where}: name {node.id!r} is not allowed")
        if isinstance(node.ctx, ast.Store):
            raise UnsafeSnippet(f"{where}: assigning to the name {node.id!r} is not allowed")
    elif isinstance(node, ast.Attribute):
        base = node.value
        kind = "str" if isinstance(base, ast.Constant) and isinstance(base.value, str) else ""
        kind = base.id if isinstance(base, ast.Name) else kind
        if node.attr.startswith("_") or node.attr not in _ATTRS.get(kind, frozenset()):
            raise UnsafeSnippet(f"{where}: attribute {node.attr!r} is not allowed")
        if isinstance(node.ctx, ast.Store):
            raise UnsafeSnippet(f"{where}: assigning an attribute is not allowed")
    elif isinstance(node, ast.Call) and node.keywords:
        raise UnsafeSnippet(f"{where}: keyword arguments are not allowed")
    elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        raise UnsafeSnippet(f"{where}: bytes constants are not allowed")


def compile_snippet(text: str, mode: str, where: str = "") -> CodeType:
    """Parse ``text`` (``mode`` "eval": one expression; "exec": statements), check
    every node against the whitelist and compile it.

    Raises :class:`UnsafeSnippet` (a ValueError) naming ``where`` and the node, or
    SyntaxError. Source: the snippets ``mlp_compliance.ComplianceChecker`` runs with
    ``eval(test.strip(), ...)`` / ``exec(code.strip(), ...)``.
    """
    tree: ast.AST = ast.parse(text.strip(), mode=mode)
    for node in ast.walk(tree):
        _check_node(node, where)
    code: CodeType = compile(tree, f"<{where or 'rule'}>", mode)  # type: ignore[call-overload]
    return code


def namespace(state: dict[str, Any], enqueue: Callable[[str], None]) -> dict[str, Any]:
    """The globals a snippet runs with: the rule file's state dict ``s``, ``math``,
    ``is_integer``, ``enqueue_config`` and :data:`SAFE_BUILTINS`; an empty
    ``__builtins__`` so that nothing else resolves."""
    return {
        "__builtins__": {},
        **SAFE_BUILTINS,
        "s": state,
        "math": math,
        "is_integer": is_integer,
        "enqueue_config": enqueue,
    }
