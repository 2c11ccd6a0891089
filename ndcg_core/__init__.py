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

from .compare_runs import RunComparison, compare
from .dataset import Aggregate, aggregate, evaluate, read_qrels, read_run
from .errors import NDCGError
from .explanation import Explanation, explain
from .libraries import library_table, snippet_for
from .metrics import STEP_COLUMNS, dcg, divisors, gains, ndcg, ndcg_curve, to_grades
from .presets import PRESETS, Preset, resolve
from .spec import Spec
from .variants import SCHEMA, Option, Variant, schema_markdown

__all__ = [
    "SCHEMA",
    "STEP_COLUMNS",
    "Explanation",
    "Option",
    "Variant",
    "dcg",
    "divisors",
    "explain",
    "gains",
    "ndcg",
    "ndcg_curve",
    "schema_markdown",
    "to_grades",
]
__all__ += ["Aggregate", "NDCGError", "aggregate", "evaluate", "read_qrels", "read_run"]
__all__ += ["RunComparison", "compare"]
__all__ += ["PRESETS", "Preset", "Spec", "library_table", "resolve", "snippet_for"]

__version__ = "0.1.0"
