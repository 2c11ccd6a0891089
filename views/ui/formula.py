"""Formula controls in the sidebar, generated from the variant schema, in two scopes.

Formula choices live in two scopes (:data:`PLAYGROUND` and :data:`DATASETS`), each settled once per
run into one resolved ``Spec`` kept in non-widget state: the last valid one when a control holds a
bad entry, and the source the controls are redrawn from after Streamlit cleaned up their widget
state on another page. The Playground, Learn and Explore share the playground formula; the Data sets
page has its own (default: trec_eval's NDCG@10), so a data set's numbers do not change with the
worked example on the playground.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ndcg_core import PRESETS, SCHEMA, Spec, Variant, resolve
from ndcg_core.dataset import TIE_RULES
from ndcg_core.errors import NDCGError, error_text
from ndcg_core.i18n import N_, _
from ndcg_core.rules import GAIN_RULES
from ndcg_core.teaching.formula import spec_words
from ndcg_core.teaching.playground import (
    all_scored,
)
from ndcg_core.variants import LOG_BASES as SCHEMA_BASES
from ndcg_core.variants import format_base, format_number, parse_gain_table

from . import keys
from .markup import md_escape, md_words
from .session import drawn_last_run

NAMED_BASES = {format_base(b): b for b in SCHEMA_BASES}  # the schema's named bases, as shown


OPTIONS = {o.name: o for o in SCHEMA}


@dataclass(frozen=True)
class FormulaScope:
    """One set of formula controls: its widget keys, where its Spec is kept, what it offers."""

    prefix: str  # prefix of the widget keys ("" for the playground's, kept short for share links)
    store: str  # the session key of the settled Spec (non-widget state: survives page changes)
    title: str
    note: str  # which pages share it
    ties: tuple[str, ...]  # tie rules offered
    presets: tuple[str, ...]  # library presets offered in "Score as"
    k_up_to_list: bool  # k is capped at the playground list's length

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"


PLAYGROUND = FormulaScope(
    prefix=keys.PG_FORMULA,
    store=keys.PG_SPEC,
    title=N_("Formula"),
    note=N_("Shared by the Playground and Explore."),
    ties=tuple(OPTIONS["ties"].choices),
    presets=tuple(PRESETS),
    k_up_to_list=True,
)


DATASETS = FormulaScope(
    prefix=keys.DS_FORMULA,
    store=keys.DS_SPEC,
    title=N_("Data-set formula"),
    note=N_("This page only (default: trec_eval's NDCG@10)."),
    ties=tuple(TIE_RULES),
    presets=tuple(name for name, p in PRESETS.items() if p.variant.ties in TIE_RULES),
    k_up_to_list=False,
)


#: The data-set page's formula before anyone touches it: trec_eval's NDCG@10, its input rules included
#: (negative grades count as 0, only queries on both sides are scored), since the page names it so.
DATASET_DEFAULT = resolve("trec_eval", k=10)


#: The "Score as" choice that means no library: the formula the controls describe. (Not None:
#: a select box shows None as an empty "Choose an option".)
FORMULA_BELOW = ""


_CONTROLS = (
    "k_all",
    "k",
    "gain",
    "gain_table",
    "discount",
    "base",
    "base_custom",
    "zero_idcg",
    "ties",
    "preset",
)


def load_spec(scope: FormulaScope, spec: Spec, n: int | None = None, *, with_preset: bool = True) -> None:
    """Keep ``spec`` as the scope's formula and set every control of the scope to it.

    ``with_preset=False`` leaves the "Score as" box alone (it is already drawn).
    """
    ss = st.session_state
    ss[scope.store] = spec
    v = spec.variant
    n = len(ss.get(keys.PG_ITEMS, ())) if n is None else n
    if with_preset:
        ss[scope.key("preset")] = spec.preset or FORMULA_BELOW
    ss[scope.key("k_all")] = v.k is None
    ss[scope.key("k")] = v.k if v.k is not None else max(n, 1)
    if v.gain_table is not None:
        ss[scope.key("gain")] = "custom"
        ss[scope.key("gain_table")] = OPTIONS["gain"].to_url(v.gain).replace(",", ", ")
    else:
        ss[scope.key("gain")] = v.gain
    named = next((name for name, b in NAMED_BASES.items() if b == v.log_base), None)
    ss[scope.key("base")] = named or "custom"
    ss[scope.key("base_custom")] = v.log_base
    ss[scope.key("discount")] = v.discount
    ss[scope.key("zero_idcg")] = v.zero_idcg
    ss[scope.key("ties")] = v.ties


def _restore_controls(scope: FormulaScope) -> None:
    """Redraw the controls from the kept Spec when another page ran (their widget state is gone)."""
    ss = st.session_state
    if not drawn_last_run(scope.store) or any(scope.key(name) not in ss for name in _CONTROLS):
        table = ss.get(scope.key("gain_table"))
        load_spec(scope, ss[scope.store])
        if table is not None and ss[scope.key("gain")] != "custom":
            ss[scope.key("gain_table")] = table  # what was typed last stays, even when unused
    ss.setdefault(scope.key("gain_table"), "0:0, 1:1, 2:3, 3:7")


def spec_from_controls(scope: FormulaScope) -> tuple[Spec, list[str]]:
    """The spec the scope's controls describe; a bad entry keeps the last good spec's value."""
    ss = st.session_state
    errors: list[str] = []
    last: Spec = ss[scope.store]
    k = None if ss[scope.key("k_all")] else int(ss[scope.key("k")])
    preset = ss[scope.key("preset")] or None
    if preset is not None:
        spec = resolve(preset, k=k)
        ss[scope.store] = spec
        return spec, errors
    gain = ss[scope.key("gain")]
    if gain == "custom":
        grades = {i.grade for i in ss[keys.PG_ITEMS] + ss[keys.PG_POOL]} if scope is PLAYGROUND else set()
        try:
            gain = parse_gain_table(ss[scope.key("gain_table")])
            missing = sorted(grades - set(gain))
            if missing:
                g = format_number(missing[0])
                raise NDCGError("grade_without_gain", g=g, entry=f"{g}:1")
        except ValueError as err:
            gain = last.variant.gain_table or last.variant.gain
            uncovered = isinstance(gain, dict) and not grades <= set(gain)
            if uncovered:
                gain = OPTIONS["gain"].default  # the previous table does not cover the grades either
            problem = md_escape(error_text(err))
            errors.append(
                _("Gain table: {problem}. Using {gain}.").format(
                    problem=problem, gain=_(GAIN_RULES[gain].words)
                )
                if uncovered or isinstance(gain, str)
                else _("Gain table: {problem}. Using the previous gain.").format(problem=problem)
            )
    base = NAMED_BASES.get(ss[scope.key("base")], ss[scope.key("base_custom")])

    def variant_with(log_base: float) -> Variant:
        return Variant(
            k=k,
            gain=gain,
            discount=ss[scope.key("discount")],
            log_base=log_base,
            zero_idcg=ss[scope.key("zero_idcg")],
            ties=ss[scope.key("ties")],
        )

    try:
        variant = variant_with(base)
    except ValueError as err:
        kept = format_base(last.variant.log_base)
        errors.append(
            _("Log base: {problem}. Still using base {base}.").format(
                problem=md_escape(error_text(err)), base=kept
            )
        )
        variant = variant_with(last.variant.log_base)
    spec = Spec(variant)
    ss[scope.store] = spec
    return spec, errors


def formula_name(spec: Spec) -> None:
    """The active formula at the top of a page: in words, then its canonical name."""
    st.caption(
        _("Formula: {words} (`{name}`)").format(words=md_words(spec_words(spec)), name=spec.name),
        help=_("The formula in words and in ndcg_core's notation (see the sidebar)."),
    )


def _choice(scope: FormulaScope, name: str, widget, choices, disabled: bool, **kwargs) -> None:
    option = OPTIONS[name]
    widget(
        _(option.label),
        list(choices),
        key=scope.key(name),
        help=_(option.help),
        format_func=lambda c: _(option.label_of(c)),
        disabled=disabled,
        **kwargs,
    )


def formula_controls(scope: FormulaScope = PLAYGROUND) -> Spec:
    """The scope's formula controls, generated from the variant schema; returns the settled Spec."""
    ss = st.session_state
    _restore_controls(scope)
    st.subheader(_(scope.title))
    st.caption(_(scope.note))
    st.selectbox(
        _("Score as"),
        [FORMULA_BELOW, *scope.presets],
        key=scope.key("preset"),
        format_func=lambda p: (
            _("the formula below") if p == FORMULA_BELOW else f"{p}: {_(PRESETS[p].library)}"
        ),
        help=_(
            "A library's NDCG: its formula and its rules on grades, ideal and ties. "
            "The controls below then show its choices."
        ),
    )
    preset = ss[scope.key("preset")] or None
    fixed = preset is not None
    if fixed:  # show the library's own choices
        k = None if ss[scope.key("k_all")] else int(ss[scope.key("k")])
        load_spec(scope, resolve(preset, k=k), with_preset=False)
    k_opt = OPTIONS["k"]
    whole = _("Whole list (k = n)") if scope.k_up_to_list else _("No cutoff (every document)")
    st.toggle(whole, key=scope.key("k_all"), help=_(k_opt.help))
    n_max = len(ss[keys.PG_ITEMS]) + len(ss[keys.PG_POOL]) if scope.k_up_to_list else None
    st.number_input(
        _(k_opt.label),
        min_value=1,
        max_value=None if n_max is None else max(n_max, int(ss[scope.key("k")]), 1),
        step=1,
        key=scope.key("k"),
        disabled=ss[scope.key("k_all")],
        help=_(k_opt.help),
    )
    gain = OPTIONS["gain"]
    st.radio(
        _(gain.label),
        [*gain.choices, "custom"],
        key=scope.key("gain"),
        horizontal=True,
        help=_(gain.help),
        disabled=fixed,
        format_func=lambda c: _("custom table") if c == "custom" else _(gain.label_of(c)),
    )
    if ss[scope.key("gain")] == "custom":
        st.text_input(
            _("Gain table (grade:gain, ...)"),
            key=scope.key("gain_table"),
            help=_("e.g. 0:0, 1:1, 2:3, 3:7"),
            disabled=fixed,
        )
    else:
        st.caption(_(gain.choices[ss[scope.key("gain")]]))
    _choice(scope, "discount", st.radio, OPTIONS["discount"].choices, fixed, horizontal=True)
    st.caption(_(OPTIONS["discount"].choices[ss[scope.key("discount")]]))
    base = OPTIONS["log_base"]
    st.radio(
        _(base.label),
        [*NAMED_BASES, "custom"],
        key=scope.key("base"),
        horizontal=True,
        help=_(base.help),
        disabled=fixed,
        format_func=lambda b: _("custom") if b == "custom" else b,
    )
    if ss[scope.key("base")] == "custom":
        # No minimum above 1 (it would silently turn 1.00001 into it): a base of 1 or less is
        # refused with a message by spec_from_controls. %.12g shows the base as given.
        st.number_input(_("Custom base (> 1)"), min_value=1.0, key=scope.key("base_custom"), format="%.12g")
    _choice(scope, "zero_idcg", st.selectbox, OPTIONS["zero_idcg"].choices, fixed)
    st.caption(_(OPTIONS["zero_idcg"].choices[ss[scope.key("zero_idcg")]]))
    _choice(scope, "ties", st.selectbox, scope.ties, fixed)
    if scope is DATASETS or all_scored(ss.get(keys.PG_ITEMS, ())):
        st.caption(_(OPTIONS["ties"].choices[ss[scope.key("ties")]]))
    else:
        st.caption(_("Only matters when the items carry scores (Edit items, Score column)."))
    spec, errors = spec_from_controls(scope)
    if fixed:
        st.caption(_("The library fixes these choices; pick 'the formula below' to change them."))
    for message in errors:
        st.error(message)
    return spec
