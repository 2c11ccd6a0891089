"""The variant schema: every formula choice NDCG makes, as data.

A *variant* is a value (a :class:`Variant`), not a new function and not a
set of boolean flags. The choices, defaults, one-line descriptions, short
labels and share-link keys live in one table, :data:`SCHEMA`, from which the
app's controls, the share-link parameters and the documentation are all
generated. Adding a choice (a tie rule, say) is one entry in its table here
plus its computation in the engine (:mod:`ndcg_core.metrics`, and the data-set
kernels if data sets should offer it); a test walks the schema and checks that
every choice is reachable from a share link, the sidebar and docs/library.md.

Examples
--------
>>> from ndcg_core.variants import Variant
>>> v = Variant(discount="jarvelin", k=6)
>>> v.name
"nDCG(discount='jarvelin')@6"
>>> Variant.parse(v.name) == v
True
"""

from __future__ import annotations

import math
import numbers
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import NDCGError
from .i18n import N_
from .lists import read_list
from .rules import DISCOUNT_RULES, GAIN_RULES

__all__ = [
    "DISCOUNTS",
    "GAINS",
    "LOG_BASES",
    "SCHEMA",
    "TIES",
    "ZERO_IDCG_POLICIES",
    "Option",
    "Variant",
    "format_number",
    "schema_markdown",
]


@dataclass(frozen=True)
class Option:
    """One formula choice: its name, allowed values, default and description.

    Parameters
    ----------
    name : str
        The keyword argument of :func:`ndcg_core.ndcg` and the field of
        :class:`Variant`.
    label : str
        A short human label for a UI control.
    default : object
        The value used when nothing is said.
    help : str
        One sentence saying what the choice changes.
    choices : dict
        Named values mapped to a one-line description each. Empty for a free
        number (``k``); ``log_base`` lists common bases but accepts any number
        greater than 1; ``gain`` also accepts a custom grade:gain table.
    url_key : str
        The share-link query parameter carrying this choice.
    labels : dict
        A short label per choice for a control (the value itself when absent).
    kind : {"choice", "cutoff", "gain", "base"}
        How a share link writes and reads the value: a named choice, a whole
        number, a named gain or a grade:gain table, a number or ``e``.
    """

    name: str
    label: str
    default: Any
    help: str
    choices: Mapping[Any, str] = field(default_factory=dict)
    url_key: str = ""
    labels: Mapping[Any, str] = field(default_factory=dict)
    kind: str = "choice"

    def label_of(self, value: Any) -> str:
        """The short label of a choice, for a control."""
        return self.labels.get(value, format_base(value) if self.kind == "base" else str(value))

    def to_url(self, value: Any) -> str:
        """The share-link text of a value (exact: reading it back gives the same value)."""
        if self.kind == "cutoff":
            return str(value)
        if self.kind == "base":
            return format_base(value)
        if self.kind == "gain" and not isinstance(value, str):
            return ",".join(f"{format_number(g)}:{format_number(v)}" for g, v in dict(value).items())
        return str(value)

    def from_url(self, text: str) -> Any:
        """Read a value from its share-link text; ``ValueError`` says what is expected."""
        text = text.strip()
        if self.kind == "cutoff":
            try:
                value = int(text)
            except ValueError:
                raise NDCGError("not_whole_number", text=repr(text)) from None
            if value > MAX_URL_K:
                raise NDCGError("cutoff_too_large", value=value, max=f"{MAX_URL_K:,}")
            return check_k(value)
        if self.kind == "base":
            try:
                return parse_base(text)
            except ValueError:
                raise NDCGError("not_a_log_base", text=repr(text)) from None
        if self.kind == "gain" and text not in self.choices and ":" in text:
            return tuple(sorted(parse_gain_table(text).items()))
        if text not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            if self.kind == "gain":
                raise NDCGError("not_a_gain", text=repr(text), allowed=allowed)
            raise NDCGError("not_a_choice", text=repr(text), allowed=allowed)
        return text


class _RuleField(Mapping):
    """A live view of one field of a rule registry, ``{name: rule.field}``: the schema reads the
    records (:mod:`ndcg_core.rules`) themselves, so a rule added there is offered everywhere."""

    def __init__(self, rules: Mapping[str, Any], field: str) -> None:
        self._rules, self._field = rules, field

    def __getitem__(self, name: Any) -> str:
        return getattr(self._rules[name], self._field)

    def __iter__(self):
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def __repr__(self) -> str:
        return repr(dict(self))


#: Each gain's and discount's one-line description (the records themselves: :mod:`ndcg_core.rules`).
GAINS: Mapping[str, str] = _RuleField(GAIN_RULES, "help")
DISCOUNTS: Mapping[str, str] = _RuleField(DISCOUNT_RULES, "help")
LOG_BASES: dict[float, str] = {
    2.0: N_("base 2: the usual choice"),
    math.e: N_("base e (natural log), as in Burges et al. 2005"),
    10.0: N_("base 10: with the Järvelin–Kekäläinen discount, positions 1-10 are undiscounted"),
}
ZERO_IDCG_POLICIES: dict[str, str] = {
    "zero": N_("score 0: a query with nothing relevant to find gets no credit (scikit-learn, trec_eval)"),
    "one": N_("score 1: nothing could have been ranked better (LightGBM, XGBoost 'ndcg')"),
    "skip": N_("no score (NaN): leave the query out of averages (torchmetrics 'skip')"),
    "error": N_("raise an error: treat such a query as a mistake in the data"),
}
TIES: dict[str, str] = {
    "stable": N_(
        "equal scores keep their input order, a stable sort (LightGBM, XGBoost; ranx on short lists)"
    ),
    "average": N_(
        "every item of a tie group gets the group's mean gain (McSherry & Najork 2008; "
        "scikit-learn's default, torchmetrics)"
    ),
    "docid_desc": N_(
        "scores rounded to float32, then equal scores ordered by item id, descending "
        "(trec_eval, pytrec_eval, ir_measures)"
    ),
    "reverse_argsort": N_(
        "numpy's argsort, reversed (scikit-learn ignore_ties=True): in short lists equal "
        "scores come out in reverse input order; in long ones the order is whatever numpy's sort gives"
    ),
}

SCHEMA: tuple[Option, ...] = (
    Option(
        "k",
        N_("Cutoff k"),
        None,
        N_("Only the top k positions count; none means the whole list."),
        url_key="k",
        kind="cutoff",
    ),
    Option(
        "gain",
        N_("Gain"),
        "linear",
        N_("How a relevance grade becomes a gain."),
        GAINS,
        url_key="gain",
        labels=_RuleField(GAIN_RULES, "label"),
        kind="gain",
    ),
    Option(
        "discount",
        N_("Discount"),
        "log",
        N_("What the gain at each position is divided by."),
        DISCOUNTS,
        url_key="discount",
        labels=_RuleField(DISCOUNT_RULES, "label"),
    ),
    Option(
        "log_base",
        N_("Log base"),
        2.0,
        N_("Base b of the logarithm in the discount (any number above 1)."),
        LOG_BASES,
        url_key="base",
        kind="base",
    ),
    Option(
        "zero_idcg",
        N_("When IDCG = 0"),
        "zero",
        N_("What NDCG is when the ideal DCG is not above 0 (nothing relevant to find, or negative gains)."),
        ZERO_IDCG_POLICIES,
        url_key="zero",
        labels={
            "zero": N_("score 0"),
            "one": N_("score 1"),
            "skip": N_("no score (NaN)"),
            "error": N_("show an error"),
        },
    ),
    Option(
        "ties",
        N_("Tied scores"),
        "stable",
        N_("How items with equal scores are ranked (only matters when the ranking comes from scores)."),
        TIES,
        url_key="ties",
        labels={
            "stable": N_("keep the input order"),
            "average": N_("average the tie group"),
            "docid_desc": N_("by item id, descending"),
            "reverse_argsort": N_("numpy argsort, reversed"),
        },
    ),
)

_OPTIONS = {o.name: o for o in SCHEMA}


def choice_label(name: str, value: Any) -> str:
    """The short label of option ``name``'s choice ``value``, as a control shows it (English, marked
    for translation: show it with ``_``). Text that names a choice says it this way, not by its
    value: "the rule 'score 0'", not "the rule 'zero'".

    >>> choice_label("zero_idcg", "zero"), choice_label("discount", "jarvelin")
    ('score 0', 'Järvelin–Kekäläinen')
    """
    return _OPTIONS[name].label_of(value)


#: The largest cutoff a share link may ask for (far beyond any list; the browser's number box
#: cannot hold integers above 2**53).
MAX_URL_K = 1_000_000


def format_number(x: float) -> str:
    """A number written exactly and briefly: ``3``, ``0.5``, ``1.00001`` (the shortest repr).

    Reading the text back with ``float`` gives the very same number. Every number the app
    writes into a share link or an editor goes through it, so nothing is rounded on the way
    (rounding can create ties and change NDCG).

    >>> format_number(3.0), format_number(0.1234561), format_number(1e20)
    ('3', '0.1234561', '1e+20')
    """
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def format_base(base: float) -> str:
    """Print a log base the way people write it: ``2``, ``e``, ``10``, ``1.5`` (exactly)."""
    if base == math.e:
        return "e"
    return format_number(base)


def parse_base(text: str | float) -> float:
    """Read a log base from ``"2"``, ``"e"``, ``"10"`` or any number > 1."""
    if isinstance(text, str):
        t = text.strip().lower()
        value = math.e if t in {"e", "ln"} else float(t)
    else:
        value = float(text)
    check_log_base(value)
    return value


def check_log_base(value: float) -> None:
    """Raise ``ValueError`` unless ``value`` is a finite number greater than 1."""
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 1):
        raise NDCGError("bad_log_base", value=repr(value))


def check_k(k: Any) -> int | None:
    """Return ``k`` as an int (or None), raising ``ValueError`` for k < 1."""
    if k is None:
        return None
    is_bool = isinstance(k, bool) or type(k).__name__ == "bool_"
    try:
        k = operator.index(k)  # any integer type (numpy's too)
    except TypeError:
        whole = isinstance(k, numbers.Real) and math.isfinite(k) and float(k).is_integer()
        if not whole or is_bool:
            raise NDCGError("k_not_whole", value=repr(k)) from None
        k = int(k)
    if is_bool:
        raise NDCGError("k_not_whole", value=repr(bool(k)))
    if k < 1:
        raise NDCGError("k_below_one", value=repr(k))
    return int(k)


def check_choice(name: str, value: Any) -> None:
    """Raise ``ValueError`` unless ``value`` is one of the schema's choices for ``name``."""
    option = _OPTIONS[name]
    if value not in option.choices:
        allowed = ", ".join(repr(c) for c in option.choices)
        raise NDCGError("not_one_of", name=name, allowed=allowed, value=repr(value))


@dataclass(frozen=True)
class Variant:
    """One complete choice of NDCG formula, as a hashable value.

    ``gain`` may be ``"linear"``, ``"exponential"`` or a custom table given
    as a tuple of ``(grade, gain)`` pairs (a mapping is converted). The
    canonical :attr:`name` prints only what differs from the defaults, in the
    style of ir_measures (``nDCG(gain='exponential')@10``).
    """

    k: int | None = None
    gain: str | tuple[tuple[float, float], ...] = "linear"
    discount: str = "log"
    log_base: float = 2.0
    zero_idcg: str = "zero"
    ties: str = "stable"

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", check_k(self.k))
        if isinstance(self.gain, Mapping):
            object.__setattr__(self, "gain", tuple(sorted(self.gain.items())))
        if isinstance(self.gain, tuple):
            _check_one_gain_per_grade(self.gain)
        if isinstance(self.gain, str):
            check_choice("gain", self.gain)
        check_choice("discount", self.discount)
        check_choice("zero_idcg", self.zero_idcg)
        check_choice("ties", self.ties)
        check_log_base(self.log_base)
        object.__setattr__(self, "log_base", float(self.log_base))

    @property
    def gain_table(self) -> dict[float, float] | None:
        """The custom gain table as a dict, or None for a named gain."""
        return None if isinstance(self.gain, str) else dict(self.gain)

    @property
    def gain_spec(self) -> str | dict[float, float]:
        """The gain as :func:`ndcg_core.metrics.gains` takes it: its name, or the table as a dict."""
        table = self.gain_table
        return self.gain if table is None else table

    def with_(self, **changes: Any) -> Variant:
        """A copy with some choices changed."""
        return replace(self, **changes)

    @property
    def name(self) -> str:
        """Canonical printable name, e.g. ``nDCG(discount='jarvelin')@6``."""
        parts = []
        for option in SCHEMA:
            if option.name == "k":
                continue
            value = getattr(self, option.name)
            if value == option.default:
                continue
            if option.name == "log_base":
                parts.append(f"base={format_base(value)}")
            elif option.name == "gain" and not isinstance(value, str):
                parts.append(f"gain='{option.to_url(value)}'")
            else:
                parts.append(f"{option.name}={value!r}")
        args = f"({', '.join(parts)})" if parts else ""
        cut = f"@{self.k}" if self.k is not None else ""
        return f"nDCG{args}{cut}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> Variant:
        """Read a canonical name back (the inverse of :attr:`name`)."""
        m = re.fullmatch(r"\s*nDCG(?:\((.*)\))?(?:@(\d+))?\s*", name)
        if not m:
            raise NDCGError("not_a_variant_name", name=repr(name))
        kwargs: dict[str, Any] = {}
        if m.group(2):
            kwargs["k"] = int(m.group(2))
        # A custom gain table holds commas, so options are matched, not split.
        for key, value in re.findall(r"(\w+)=('[^']*'|[^,\s]+)", m.group(1) or ""):
            value = value.strip("'")
            if key == "base":
                kwargs["log_base"] = parse_base(value)
            elif key == "gain" and ":" in value:
                kwargs["gain"] = parse_gain_table(value)
            elif key in _OPTIONS:
                kwargs[key] = value
            else:
                raise NDCGError("unknown_variant_option", key=repr(key), name=repr(name))
        return cls(**kwargs)


def _num(x: float) -> str:
    return format_number(x)


def _check_one_gain_per_grade(pairs: tuple[tuple[float, float], ...]) -> None:
    """A gain table given as (grade, gain) pairs names each grade once (else which gain counts?)."""
    seen: dict[float, float] = {}
    for g, v in pairs:
        if g in seen:
            first, second = (f"{_num(g)}:{_num(gain)}" for gain in (seen[g], v))
            raise NDCGError("gain_grade_twice", g=_num(g), first=repr(first), second=repr(second))
        seen[g] = v


def parse_gain_table(text: str) -> dict[float, float]:
    """Read a custom gain table from ``"0:0,1:1,2:3,3:7"`` (grade:gain pairs).

    Raises ``ValueError`` naming the pair that could not be read, or the grade given two gains
    (neither is picked silently).

    >>> parse_gain_table("0:0, 1:1, 2:3")
    {0.0: 0.0, 1.0: 1.0, 2.0: 3.0}
    >>> try:
    ...     parse_gain_table("0:0, 1:1, 1.0:5")
    ... except ValueError as err:
    ...     print(err)
    the gain table names grade 1 twice ('1:1' and '1.0:5'): give each grade one gain
    """
    table: dict[float, float] = {}
    given: dict[float, str] = {}  # each grade's pair as written
    for i, entry in enumerate(read_list(text, ",;", spaces=True, skip_empty=True)):
        pair = entry.text
        halves = [half.value for half in read_list(pair, ":")]  # a pair: a list of two numbers
        g, v = halves if len(halves) == 2 else (None, None)
        if g is None or v is None:
            raise NDCGError("gain_entry_form", n=i + 1, text=repr(pair))
        if not (math.isfinite(g) and math.isfinite(v)):
            raise NDCGError("gain_entry_finite", n=i + 1, text=repr(pair))
        if g in table:
            raise NDCGError("gain_grade_twice", g=_num(g), first=repr(given[g]), second=repr(pair))
        table[g] = v
        given[g] = pair
    if not table:
        raise NDCGError("gain_table_empty")
    return table


def schema_markdown() -> str:
    """The schema as a Markdown table, for docs/library.md and the app's help."""
    rows = ["| option | share-link key | default | choices |", "|---|---|---|---|"]
    for o in SCHEMA:
        default = (
            "whole list"
            if o.default is None
            else (format_base(o.default) if o.name == "log_base" else f"`{o.default}`")
        )
        if o.choices:
            shown = "<br>".join(
                f"`{format_base(c) if o.name == 'log_base' else c}`: {d}" for c, d in o.choices.items()
            )
        else:
            shown = "a whole number from 1"
        rows.append(f"| {o.label} (`{o.name}`) | `{o.url_key}` | {default} | {o.help}<br>{shown} |")
    return "\n".join(rows)
