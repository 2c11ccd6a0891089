"""The step table's columns as the lesson and the Playground show them: their names (marked for
translation), one line of help each (:data:`COLUMN_HELP`, every tooltip's source) and
:func:`step_frame`, a step table cut to some columns. Split from :mod:`ndcg_core.teaching.lesson`,
which re-exports them.
"""

from __future__ import annotations

from ..explanation import Explanation
from ..i18n import N_

#: One line per column a step table can show (the Playground's tables use it too).
COLUMN_HELP: dict[str, str] = {
    "Position": N_(
        "Place in the ranked list, 1 = top. In long Playground tables ✓ marks rows counted in DCG@k."
    ),
    "Item": N_("The item's name, as typed."),
    "Grade": N_("How relevant a person judged the item: 0 = not relevant, higher = more useful."),
    "Gain": N_(
        "What the item is worth wherever it stands: the grade, 2^grade − 1, or your gain table's value."
    ),
    "Divisor": N_("What this position divides the gain by. It never shrinks further down the list."),
    "Discounted gain": N_("Gain ÷ divisor: what this position adds to DCG."),
    "Cumulative DCG": N_("Running total of the discounted gains from the top down to this row (stops at k)."),
    "Cumulative IDCG": N_("The same running total for the ideal ordering; its last counted value is IDCG."),
    "Beyond k": N_("yes: the row is below the cutoff k and adds nothing to DCG@k."),
    "Score": N_("The model's score; the ranking puts higher scores first."),
    "Tie group": N_(
        "Items with equal scores share a group number; the tie rule orders them or shares their gains."
    ),
    "CG": N_("Cumulative gain: the plain sum of the gains in the top k, ignoring their order."),
    "DCG": N_("Discounted cumulative gain: the sum of the discounted gains in the top k."),
    "IDCG": N_(
        "Ideal DCG: the DCG of the judged items sorted best first, cut at k (library rules may differ)."
    ),
    "NDCG": N_("DCG ÷ IDCG: the share of the best possible DCG this order achieves."),
}


#: The step-table column names, marked for translation (the tables keep the English names as keys;
#: the pages show ``_(name)``).
COLUMN_NAMES = (
    N_("Position"),
    N_("Item"),
    N_("Grade"),
    N_("Gain"),
    N_("Divisor"),
    N_("Discounted gain"),
    N_("Cumulative DCG"),
    N_("Cumulative IDCG"),
    N_("Beyond k"),
    N_("Score"),
    N_("Tie group"),
)

BASE_COLUMNS = ("Position", "Item", "Grade")
IDEAL_COLUMNS = ("Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative IDCG")


def step_frame(ex: Explanation, columns: tuple[str, ...], *, ideal: bool = False):
    """The step table restricted to ``columns``, in that order (``Cumulative IDCG`` for the ideal)."""
    steps = ex.ideal_steps if ideal else ex.steps
    frame = steps.rename(columns={"Cumulative DCG": "Cumulative IDCG"}) if ideal else steps
    return frame[list(columns)].reset_index(drop=True)
