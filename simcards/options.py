"""Rule options, declared once: each field of a game's rules dataclass carries its rule ID, allowed
values and help as metadata (``option(...)``). From that one declaration come the ``simcards
variants GAME`` listing, the parsing of ``--rule key=value`` text and the check of every value when
a rules object is constructed (the rules' ``__post_init__``).

``allowed`` is the text the listing shows, read as a small grammar: items separated by ", ", each
either ``low..high`` (whole numbers; a bound may name another option, as ``min_bid..100``) or one
allowed value. Booleans need none (``true, false``). A tuple option applies it to each element.
``none`` lists the words that mean ``None`` (the first one is shown). ``checked=False`` marks an
``allowed`` text that only describes a condition the rules check themselves (it involves other
options), so it is shown but not parsed.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcards.errors import SimcardsError
from simcards.names import find, unknown

TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}
_RANGE = re.compile(r"^(-?\d+|[a-z_]+)\.\.(-?\d+|[a-z_]+)$")


def option(default: Any, *, rule: str, help: str, allowed: str | None = None, none: tuple[str, ...] = (),
           checked: bool = True) -> Any:
    """A rules dataclass field declared with its rule ID, allowed values and help (see the module)."""
    meta = {"rule": rule, "allowed": allowed, "help": help, "none": none, "checked": checked}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class Spec:
    """One option as declared, with its type and its allowed values parsed once."""

    name: str
    kind: type  # bool, int, float, str or tuple (of whole numbers)
    width: int  # elements of a tuple option
    rule: str
    help: str
    shown: str  # allowed values as listed and named in errors
    none: tuple[str, ...]
    ranges: tuple[tuple[int | str, int | str], ...]
    values: tuple[Any, ...]
    checked: bool


@functools.cache
def specs(rules_class: Any) -> dict[str, Spec]:
    """Every option of ``rules_class`` (its fields declared with ``option``), in declaration order."""
    hints = typing.get_type_hints(rules_class)
    return {f.name: _spec(f, hints[f.name]) for f in dataclasses.fields(rules_class) if "rule" in f.metadata}


def _spec(f: dataclasses.Field, hint: Any) -> Spec:
    kind, width = _kind(hint)
    meta = f.metadata
    allowed = meta["allowed"] or ("true, false" if kind is bool else None)
    if allowed is None:
        raise TypeError(f"option {f.name}: give its allowed values")
    ranges, values = [], []
    if meta["checked"] and kind is not bool:
        for item in allowed.split(", "):
            match = _RANGE.match(item)
            if match:
                low, high = (int(b) if b.lstrip("-").isdigit() else b for b in match.groups())
                ranges.append((low, high))
            else:
                values.append(item if kind is str else kind(item))
    shown = ", ".join([f"{width} values, each {allowed}" if kind is tuple else allowed, *meta["none"][:1]])
    return Spec(f.name, kind, width, meta["rule"], meta["help"], shown, tuple(meta["none"]), tuple(ranges),
                tuple(values), meta["checked"])


def _kind(hint: Any) -> tuple[type, int]:
    """The option's value type from its annotation (``int | None`` is int that may be None)."""
    if isinstance(hint, types.UnionType):
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    if typing.get_origin(hint) is tuple:
        return tuple, len(typing.get_args(hint))
    return hint, 0


def _prefix(rules_class: Any) -> str:
    return rules_class.TITLE.lower().replace(" ", "-") + " rules: "


# ----- text → value ---------------------------------------------------------------------------------
def option_name(rules_class: Any, key: str) -> str:
    """The option ``key`` names, case-insensitively (``Call_Limit`` is ``call_limit``); an unknown
    key is refused with the nearest option's name."""
    known = specs(rules_class)
    name = find(key, known)
    if name is None:
        raise unknown(f"{rules_class.TITLE} rule option", key, known)
    return name


def parse_option(rules_class: Any, key: str, text: str) -> Any:
    """``--rule key=value`` text as a typed value of option ``key`` (allowed values are checked when
    the rules are constructed)."""
    key = option_name(rules_class, key)
    spec = specs(rules_class)[key]
    if text.strip().lower() in spec.none:
        return None
    value = _parse(spec, text)
    if value is None:
        what = {bool: "true or false", int: "a whole number", float: "a number",
                tuple: f"{spec.width} whole numbers separated by commas"}[spec.kind]
        raise SimcardsError(f"rule {key}={text!r}: expected {what}; allowed: {spec.shown} ({spec.rule})")
    return value


def _parse(spec: Spec, text: str) -> Any:
    """``text`` as a value of the option's type, or None when it is not one."""
    low = text.strip().lower()
    try:
        if spec.kind is bool:
            return True if low in TRUE else False if low in FALSE else None
        if spec.kind is tuple:
            values = tuple(int(p) for p in text.replace("/", ",").split(","))
            return values if len(values) == spec.width else None
        return spec.kind(text.strip())  # int, float or str
    except ValueError:
        return None


def format_value(spec: Spec, value: Any) -> str:
    """``value`` as ``--rule`` text that ``parse_option`` reads back (the listing shows this)."""
    if value is None:
        return spec.none[0]
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


def typed_overrides(rules_class: type, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Overrides from the CLI (text) or the API (typed values) as typed values of known options."""
    typed: dict[str, Any] = {}
    for given, value in (overrides or {}).items():
        key = option_name(rules_class, given)
        if key in typed:
            raise SimcardsError(f"rule option {key} is given twice ({given!r} is {key!r}: names ignore case)")
        if isinstance(value, str):
            value = parse_option(rules_class, key, value)
        typed[key] = tuple(value) if isinstance(value, list) else value
    return typed


class RuleSet:
    """What every game's rules dataclass inherits: a changed copy and the options as a plain dict."""

    def replace(self, **changes) -> typing.Self:
        return dataclasses.replace(typing.cast(Any, self), **changes)

    def as_dict(self) -> dict:
        """The rule options as a plain dict (for summaries and manifests)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(typing.cast(Any, self)) if f.name != "name"}


def with_overrides(rules: Any, overrides: dict[str, Any] | None, **fixed: Any) -> Any:
    """A preset's ``rules`` with single-option overrides (text or typed values) and the options
    ``fixed`` applied, validated on construction; named after the preset and what changed
    (``standard+knock_limit=5``)."""
    changes = {**typed_overrides(type(rules), overrides), **fixed}
    if changes:
        rules = rules.replace(**changes, name=f"{rules.name}+" + ",".join(f"{k}={v}" for k, v in changes.items()))
    return rules


# ----- the check on construction ------------------------------------------------------------------
def check_options(rules: Any) -> None:
    """Every option of ``rules`` has its type and one of its allowed values; else one-line
    ``SimcardsError`` naming the allowed values and the rule."""
    for spec in specs(rules.__class__).values():
        value = getattr(rules, spec.name)
        problem = _problem(spec, value, rules)
        if problem:
            raise SimcardsError(f"{_prefix(type(rules))}{spec.name}={value!r}{problem} ({spec.rule})")


def _problem(spec: Spec, value: Any, rules: Any) -> str | None:
    if value is None:
        return None if spec.none else f" must be given; allowed: {spec.shown}"
    if spec.kind is not tuple:
        return _one(spec, spec.kind, value, rules)
    if not isinstance(value, tuple) or len(value) != spec.width:
        return f"; allowed: {spec.shown}"
    for v in value:
        problem = _one(spec, int, v, rules)
        if problem:
            return problem
    return None


_TYPES = {bool: (bool, np.bool_), int: (int, np.integer), str: (str,), float: (float, int, np.floating, np.integer)}
_NAMES = {bool: "true or false", int: "a whole number", str: "text", float: "a number"}


def _one(spec: Spec, kind: type, value: Any, rules: Any) -> str | None:
    """The problem with one value of type ``kind`` (checked in the order cheapest first)."""
    if type(value) is not kind and (not isinstance(value, _TYPES[kind]) or (
            kind is int and isinstance(value, (bool, np.bool_)))):
        return f" must be {_NAMES[kind]}" + ("" if kind is bool else f"; allowed: {spec.shown}")
    if kind is bool or not spec.checked or value in spec.values:
        return None
    for low, high in spec.ranges:
        lo: Any = getattr(rules, low) if isinstance(low, str) else low
        hi: Any = getattr(rules, high) if isinstance(high, str) else high
        if lo <= value <= hi:
            return None
    named = [f"{b}={getattr(rules, b)}" for r in spec.ranges for b in r if isinstance(b, str)]
    return f"; allowed: {spec.shown}" + (f" with {', '.join(named)}" if named else "")
