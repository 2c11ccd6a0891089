r"""The gain and discount choices as records: each carries its computation, its words and its formula.

A formula choice is one record here, read by every layer: the engine computes with it
(:func:`ndcg_core.metrics.gains`, :func:`ndcg_core.metrics.divisors`, and so the data-set kernels),
the schema offers it (:data:`ndcg_core.variants.SCHEMA`: controls, share links, docs), and the
teaching layer says and writes it (the formula in words and in LaTeX, the lesson, Practice's
rules and the mistake of using it where another was asked, Class questions, slides and figures).
No module decides by comparing a choice's name (``if discount == "log"``): it looks the record
up, and an unknown name is a ``KeyError``.

Texts are English marked for translation (show them with ``_``). A rule's formula is a template:
``{rel}`` stands for the grade (a symbol, a word or a number), ``{log}`` for the logarithm (``log2``,
``ln``, ``\log_{2}``) and ``{i}`` for the position, so one template writes the general formula and
the same formula with a student's numbers.

>>> DISCOUNT_RULES["jarvelin"].text.format(log="log2", i="i")
'max(1, log2 i)'
>>> GAIN_RULES["exponential"].latex.format(rel=r"\mathrm{rel}_i")
'2^{\\mathrm{rel}_i} - 1'
>>> DISCOUNT_RULES["log"].divisors(np.arange(1, 5), math.log(2)).round(3)
array([1.   , 1.585, 2.   , 2.322])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from .i18n import N_

__all__ = ["DISCOUNT_RULES", "GAIN_RULES", "DiscountRule", "GainRule", "log_symbol", "rule_mistakes"]


@dataclass(frozen=True)
class GainRule:
    """How a grade becomes a gain.

    Parameters
    ----------
    name : str
        The choice's value (``gain="exponential"``), in share links and canonical names.
    label : str
        A control's short label.
    help : str
        One line on what it does, with its source.
    words : str
        The choice in a sentence: "exponential gain".
    text : str
        The gain as plain text, ``{rel}`` standing for the grade: "2^{rel} − 1" (marked for
        translation where it holds words: show it with ``_``).
    latex : str
        The same in LaTeX: ``2^{{rel}} - 1``.
    about : str
        What a learner should know of it, one or two sentences (the lesson's gain step).
    compute : callable
        Grades (a float array) to gains (a float array of the same shape).
    mistake : str or None
        The id of the mistake "used this gain where another was asked", when that is a slip
        students make (Practice, Class and the lesson then name an answer it gives); None if not.
    mistake_words : str
        That mistake in words.
    drawn : bool
        Whether Practice draws it for a random exercise's formula (binary gain is offered only as
        the formula a "which ranking wins" exercise compares with).
    """

    name: str
    label: str
    help: str
    words: str
    text: str
    latex: str
    about: str
    compute: Callable[[np.ndarray], np.ndarray]
    mistake: str | None
    mistake_words: str = ""
    drawn: bool = True

    def gains(self, grades: np.ndarray) -> np.ndarray:
        return self.compute(grades)


@dataclass(frozen=True)
class DiscountRule:
    r"""What the gain at position ``i`` is divided by.

    Parameters
    ----------
    name, label, help, about, mistake, mistake_words
        As for :class:`GainRule`.
    form : str
        Its name in a sentence: "the common form".
    text : str
        The divisor as plain text, ``{log}`` the logarithm and ``{i}`` the position:
        ``"{log}({i} + 1)"``.
    latex : str
        The same in LaTeX (``{log}`` then a LaTeX logarithm such as ``\log_{2}``).
    compute : callable
        ``(positions, ln_b)``: the divisors of positions 1..n (a float array), ``ln_b`` the natural
        log of the base.
    """

    name: str
    label: str
    help: str
    text: str
    latex: str
    form: str
    about: str
    compute: Callable[[np.ndarray, float], np.ndarray]
    mistake: str | None
    mistake_words: str = ""

    def divisors(self, positions: np.ndarray, ln_base: float) -> np.ndarray:
        return self.compute(np.asarray(positions, dtype=float), ln_base)


def _exponential(g: np.ndarray) -> np.ndarray:
    # 2**|g| - 1 mirrored for negative grades (a Bad, -1, costs what a Fair, +1, earns); expm1 for
    # fractions without cancellation, exact powers of two for whole grades.
    with np.errstate(over="ignore"):
        out = np.sign(g) * np.expm1(np.abs(g) * math.log(2.0))
        exact = np.abs(g) == np.round(np.abs(g))
        out[exact] = np.sign(g[exact]) * (np.exp2(np.abs(g[exact])) - 1.0)
    return out


_GAINS = (
    GainRule(
        name="linear",
        label=N_("linear"),
        help=N_("gain = grade: a grade-2 item is worth twice a grade-1 item"),
        words=N_("linear gain"),
        text="{rel}",
        latex="{rel}",
        about=N_("The gain is the grade itself: an item graded twice as high is worth twice as much."),
        compute=lambda g: g.copy(),
        mistake="linear_gain",
        mistake_words=N_("used the grade itself as the gain"),
    ),
    GainRule(
        name="exponential",
        label=N_("exponential"),
        help=N_("gain = 2^grade - 1: each grade step about doubles the worth (Burges et al. 2005)"),
        words=N_("exponential gain"),
        text="2^{rel} − 1",
        latex="2^{{{rel}}} - 1",
        about=N_(
            "Each step up the grade scale doubles the worth (plus one), so one excellent item outweighs "
            "two good ones."
        ),
        compute=_exponential,
        mistake="exponential_gain",
        mistake_words=N_("used 2^grade − 1 as the gain"),
    ),
    GainRule(
        name="binary",
        label=N_("binary"),
        help=N_("gain 1 for a grade above 0, else 0: relevant or not, however relevant"),
        words=N_("binary gain"),
        text=N_("1 if {rel} > 0, else 0"),
        latex="[{rel} > 0]",
        about=N_(
            "An item is relevant or not, whatever its level: a perfect item is worth no more than a "
            "barely useful one."
        ),
        compute=lambda g: (g > 0).astype(float),
        mistake=None,  # not a slip students make: no answer is diagnosed as it
        drawn=False,
    ),
)

_DISCOUNTS = (
    DiscountRule(
        name="log",
        label="log(i+1)",
        help=N_(
            "divide the gain at position i by log_b(i + 1): the divisor grows from the top "
            "(1 there when b = 2)"
        ),
        text="{log}({i} + 1)",
        latex="{log}({i}+1)",
        form=N_("the common form"),
        about=N_(
            "scikit-learn, trec_eval and Wikipedia's main formula use it; it grows fast near the top, "
            "then slowly."
        ),
        compute=lambda i, ln_b: np.log1p(i) / ln_b,
        mistake="log2_i_plus_1",
        mistake_words=N_("divided by log2(i + 1), the common form"),
    ),
    DiscountRule(
        name="jarvelin",
        label="Järvelin–Kekäläinen",
        help=N_(
            "divide by max(1, log_b(i)): positions up to b are not discounted (Järvelin & Kekäläinen 2002)"
        ),
        text="max(1, {log} {i})",
        latex="\\max(1, {log} {i})",
        form=N_("the original form"),
        about=N_(
            "Järvelin and Kekäläinen's (2002): positions up to the log's base are not discounted at all."
        ),
        compute=lambda i, ln_b: np.maximum(1.0, np.log(i) / ln_b),
        mistake="log2_i",
        mistake_words=N_("divided by max(1, log2(i)), leaving position 2 undiscounted too"),
    ),
)

_GAINS_BY_NAME = {rule.name: rule for rule in _GAINS}
_DISCOUNTS_BY_NAME = {rule.name: rule for rule in _DISCOUNTS}
#: The gain rules by name (read-only: a new rule is a new entry of ``_GAINS``; a test adds one to
#: ``_GAINS_BY_NAME`` and every layer offers it).
GAIN_RULES = MappingProxyType(_GAINS_BY_NAME)
#: The discount rules by name.
DISCOUNT_RULES = MappingProxyType(_DISCOUNTS_BY_NAME)


def rule_mistakes() -> dict[str, tuple[str, str]]:
    """Each rule's mistake id: ``{mistake: ("gain" | "discount", rule name)}`` (rules that have one)."""
    return {
        rule.mistake: (field, name)
        for field, rules in (("discount", DISCOUNT_RULES), ("gain", GAIN_RULES))
        for name, rule in rules.items()
        if rule.mistake is not None
    }


def log_symbol(base: float, latex: bool = False) -> str:
    r"""The logarithm of ``base`` as a formula writes it: ``log2``, ``ln``, ``log10``, ``log_1.5``
    (``\log_{2}``, ``\ln`` in LaTeX).

    >>> log_symbol(2.0), log_symbol(math.e), log_symbol(1.5), log_symbol(2.0, latex=True)
    ('log2', 'ln', 'log_1.5', '\\log_{2}')
    """
    b = "e" if base == math.e else (str(int(base)) if float(base).is_integer() else repr(float(base)))
    if latex:
        return "\\ln" if b == "e" else f"\\log_{{{b}}}"
    return "ln" if b == "e" else f"log{b}" if b in {"2", "10"} else f"log_{b}"
