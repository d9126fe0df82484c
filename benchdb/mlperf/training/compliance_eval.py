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

What the whitelist cannot see is bounded at run time or refused at load time:

* ``'...'.format`` only on a string constant whose replacement fields are plain
  (``{}``, ``{0}``, ``{name}``, a short spec): no ``{0.attr}`` / ``{0[key]}`` field (which
  would reach ``__globals__``) and no width or precision over 4 digits;
* ``+``, ``*``, ``%`` (and ``+=`` ...) go through :func:`checked_binop`, which refuses a
  string or sequence result over :data:`MAX_SEQUENCE` items before building it;
* :class:`Budget` counts the snippets one log runs (and the time they take): a
  log that makes the rules run without end stops with :class:`BudgetSpent`.

The rule files benchdb runs are the vendored copies in ``compliance_yaml/`` (all
of them pass the whitelist; ``tests/benchdb/test_compliance_rules.py`` checks it).
"""

from __future__ import annotations

import ast
import math
import re
import string
import time
from collections.abc import Callable
from types import CodeType
from typing import Any


class UnsafeSnippet(ValueError):
    """A rule snippet uses Python the whitelist does not allow (names the node)."""


class BudgetSpent(Exception):
    """One log made the rules run more snippets (or longer) than :class:`Budget` allows."""


#: Longest string, list or tuple a snippet may build with ``+``, ``*`` or ``%``
#: (benchdb's bound: the longest a real rule builds is a file name).
MAX_SEQUENCE = 100_000


class Budget:
    """How many snippets one log may run (``limit``) and for how long (``seconds``,
    wall clock, checked every 256 snippets). :meth:`spend` raises
    :class:`BudgetSpent` once either is exceeded. The defaults are benchdb's, 100
    times what real logs need: the most any log of the training rounds v1.0-v5.1
    runs is 9,920 snippets in 0.16 s (Oracle's v4.1 gpt3 logs, 3.9 MB)."""

    def __init__(self, limit: int = 1_000_000, seconds: float = 30.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self.spent = 0
        self.started = time.monotonic()

    def spend(self) -> None:
        """Count one snippet; raises BudgetSpent when over the count or the time."""
        self.spent += 1
        if self.spent > self.limit:
            raise BudgetSpent(f"more than {self.limit:,} rule evaluations")
        if self.spent % 256 == 0 and time.monotonic() - self.started > self.seconds:
            raise BudgetSpent(f"more than {self.seconds:g} s of rule evaluation")


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, str | bytes | list | tuple) else None


#: A printf-style conversion with a width or precision of 5 digits or more, or ``*``.
_WIDE_PERCENT = re.compile(r"%[-#0 +]*(?:\d{5,}|\*|\d*\.(?:\d{5,}|\*))")


def checked_binop(op: str, left: Any, right: Any) -> Any:
    """``left <op> right`` for ``op`` in ``+ * %``, refusing (ValueError) a string or
    sequence result longer than :data:`MAX_SEQUENCE` before it is built, and a
    ``%`` format with a width or precision of 5 digits or more."""
    if isinstance(left, int) and isinstance(right, int):
        if left.bit_length() + right.bit_length() > 4096:
            raise ValueError("an integer over 4096 bits (benchdb's bound)")
        return left * right if op == "*" else left + right if op == "+" else left % right
    if op == "*":
        n, seq = (right, _size(left)) if _size(left) is not None else (left, _size(right))
        if seq is not None and isinstance(n, int) and seq * n > MAX_SEQUENCE:
            raise ValueError(f"a sequence of {seq} times {n} items is over benchdb's bound")
        return left * right
    if op == "+":
        a, b = _size(left), _size(right)
        if a is not None and b is not None and a + b > MAX_SEQUENCE:
            raise ValueError(f"a sequence of {a} + {b} items is over benchdb's bound")
        return left + right
    if isinstance(left, str) and _WIDE_PERCENT.search(left):
        raise ValueError("a % format with a width or precision over 4 digits")
    return left % right


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

#: The name checked binary operations are called by in compiled snippets (a name no
#: snippet may write: names starting with ``_`` are refused by the whitelist).
_BINOP = "_checked_binop"
_BINOPS: dict[type[ast.operator], str] = {ast.Add: "+", ast.Mult: "*", ast.Mod: "%"}

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
        # the name ``str`` (the type) has no attribute: ``str.format(fmt, x)`` would
        # take a format string that is not a constant
        kind = base.id if isinstance(base, ast.Name) and base.id != "str" else kind
        if node.attr.startswith("_") or node.attr not in _ATTRS.get(kind, frozenset()):
            raise UnsafeSnippet(f"{where}: attribute {node.attr!r} is not allowed")
        if node.attr == "format" and isinstance(base, ast.Constant):
            _check_format(str(base.value), where)
        if isinstance(node.ctx, ast.Store):
            raise UnsafeSnippet(f"{where}: assigning an attribute is not allowed")
    elif isinstance(node, ast.Call) and node.keywords:
        raise UnsafeSnippet(f"{where}: keyword arguments are not allowed")
    elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        raise UnsafeSnippet(f"{where}: bytes constants are not allowed")


def _check_format(text: str, where: str) -> None:
    """A ``str.format`` template: plain fields only (``{}``, ``{0}``, ``{name}``), no
    attribute or item access in a field, no nested field or long width in a spec."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise UnsafeSnippet(f"{where}: format string {text[:60]!r}: {exc}") from None
    for _, name, spec, _ in fields:
        if name is not None and ("." in name or "[" in name):
            raise UnsafeSnippet(f"{where}: format field {name[:60]!r} is not allowed")
        if spec and ("{" in spec or re.search(r"\d{5,}", spec)):
            raise UnsafeSnippet(f"{where}: format spec {spec[:60]!r} is not allowed")


class _CheckedOps(ast.NodeTransformer):
    """``a + b``, ``a * b``, ``a % b`` -> ``_checked_binop('+', a, b)``; ``x += y`` ->
    ``x = _checked_binop('+', x, y)`` (after the whitelist check)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        op = _BINOPS.get(type(node.op))
        if op is None:
            return node
        call = ast.Call(ast.Name(_BINOP, ast.Load()), [ast.Constant(op), node.left, node.right], [])
        return ast.copy_location(call, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        op = _BINOPS.get(type(node.op))
        if op is None:
            return node
        load = ast.fix_missing_locations(_as_load(node.target))
        value = ast.BinOp(load, node.op, node.value)
        call = self.visit_BinOp(value)
        assert isinstance(call, ast.expr)  # noqa: S101 - visit_BinOp returns a Call here
        return ast.copy_location(ast.Assign([node.target], call), node)


def _as_load(target: ast.expr) -> ast.expr:
    """A copy of an assignment target read instead of written."""
    copy = ast.parse(ast.unparse(target), mode="eval").body
    return ast.copy_location(copy, target)


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
    tree = ast.fix_missing_locations(_CheckedOps().visit(tree))
    code: CodeType = compile(tree, f"<{where or 'rule'}>", mode)  # type: ignore[call-overload]
    return code


def namespace(state: dict[str, Any], enqueue: Callable[[str], None]) -> dict[str, Any]:
    """The globals a snippet runs with: the rule file's state dict ``s``, ``math``,
    ``is_integer``, ``enqueue_config``, :data:`SAFE_BUILTINS` and
    :func:`checked_binop`; an empty ``__builtins__`` so that nothing else resolves."""
    return {
        "__builtins__": {},
        **SAFE_BUILTINS,
        _BINOP: checked_binop,
        "s": state,
        "math": math,
        "is_integer": is_integer,
        "enqueue_config": enqueue,
    }
