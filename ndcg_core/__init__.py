"""ndcg_core: NDCG, step by step, in every variant people actually use.

The engine behind the NDCG teaching app: numpy and pandas, nothing else. Start
with :func:`ndcg`, :func:`dcg` and :func:`explain`; formula choices are described
by :data:`SCHEMA` and carried as :class:`Variant` values; :func:`resolve` turns
a library preset and/or formula choices into the one :class:`Spec` every
function takes; :func:`read_qrels`, :func:`read_run` and :func:`evaluate` score
whole data sets; :func:`compare` compares several runs on one with paired tests
(it needs scipy). Invalid input raises :class:`NDCGError`, a ``ValueError`` with a
``code`` (see :mod:`ndcg_core.errors`).

The teaching layer (:mod:`ndcg_core.teaching`: worked examples, the lesson,
practice) and Class mode (:mod:`ndcg_core.classroom`) sit on the engine and
come with the app's extra (``pip install ".[app]"``); the engine never imports
them.

>>> import ndcg_core
>>> round(ndcg_core.ndcg([3, 2, 3, 0, 1, 2], discount="jarvelin"), 4)
0.9315
"""

from typing import TYPE_CHECKING

from .lazy import lazy_names

#: Where each public name lives. ``import ndcg_core`` loads none of these modules: each is imported
#: the first time one of its names is used (PEP 562), so a program that only reads a formula's
#: name, or ``ndcg-eval`` on a small file, does not pay for pandas, the data-set kernels or the
#: run comparison it does not use.
_LAZY = {
    "RunComparison": ".compare_runs",
    "compare": ".compare_runs",
    "Aggregate": ".dataset.scoring",
    "aggregate": ".dataset.scoring",
    "evaluate": ".dataset.scoring",
    "read_qrels": ".dataset.tables",
    "read_run": ".dataset.tables",
    "NDCGError": ".errors",
    "Explanation": ".explanation",
    "explain": ".explanation",
    "library_table": ".libraries",
    "snippet_for": ".libraries",
    "STEP_COLUMNS": ".metrics",
    "dcg": ".metrics",
    "divisors": ".metrics",
    "gains": ".metrics",
    "ndcg": ".metrics",
    "ndcg_curve": ".metrics",
    "to_grades": ".metrics",
    "PRESETS": ".presets",
    "Preset": ".presets",
    "resolve": ".presets",
    "Spec": ".spec",
    "SCHEMA": ".variants",
    "Option": ".variants",
    "Variant": ".variants",
    "schema_markdown": ".variants",
}

__all__ = [
    "PRESETS",
    "SCHEMA",
    "STEP_COLUMNS",
    "Aggregate",
    "Explanation",
    "NDCGError",
    "Option",
    "Preset",
    "RunComparison",
    "Spec",
    "Variant",
    "aggregate",
    "compare",
    "dcg",
    "divisors",
    "evaluate",
    "explain",
    "gains",
    "library_table",
    "ndcg",
    "ndcg_curve",
    "read_qrels",
    "read_run",
    "resolve",
    "schema_markdown",
    "snippet_for",
    "to_grades",
]

__version__ = "0.1.0"


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


if TYPE_CHECKING:  # for type checkers and editors: the names, as if imported here
    from .compare_runs import RunComparison, compare
    from .dataset import Aggregate, aggregate, evaluate, read_qrels, read_run
    from .errors import NDCGError
    from .explanation import Explanation, explain
    from .libraries import library_table, snippet_for
    from .metrics import STEP_COLUMNS, dcg, divisors, gains, ndcg, ndcg_curve, to_grades
    from .presets import PRESETS, Preset, resolve
    from .spec import Spec
    from .variants import SCHEMA, Option, Variant, schema_markdown
