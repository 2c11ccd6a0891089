"""The teaching layer: worked examples, the lesson, practice, the playground's state, figures and exports.

It sits on the engine (:mod:`ndcg_core`) and the engine never imports it. The names most used from
outside are here; each module documents its own.

>>> from ndcg_core.teaching import diagnose, get_example
>>> round(get_example("wikipedia-d1-d6").explain().ndcg, 3)
0.932
>>> diagnose("1.50", [0, 1, 0, 1], quantity="dcg")
['log2_i']
"""

from .examples import DATASET_EXAMPLES, EXAMPLES, DatasetExample, Figure, WorkedExample, get_example
from .explore import variant_matrix
from .practice import MISTAKES, diagnose

__all__ = [
    "DATASET_EXAMPLES",
    "EXAMPLES",
    "MISTAKES",
    "DatasetExample",
    "Figure",
    "WorkedExample",
    "diagnose",
    "get_example",
    "variant_matrix",
]
