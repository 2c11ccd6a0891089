"""Where the tests' data files live: ``tests/data/``, inside the repository, so that a clone in any
folder passes ``make test`` (docs/contributing.md, "Test data").

Every test reaches a data file through a constant of this module, never through a path of its own.
"""

from __future__ import annotations

import pathlib

#: The folder of every data file the tests read (besides ``assets/``, the app's own sample).
TEST_DATA = pathlib.Path(__file__).resolve().parent / "data"

#: trec_eval's own test files (qrels, runs and what trec_eval printed for them), vendored unchanged
#: from usnistgov/trec_eval's ``test/`` folder: provenance, checksums and licence in its README.md.
TREC_EVAL = TEST_DATA / "trec_eval"
