"""The real torchmetrics and TF-Ranking, for ``make check-heavy-peers`` only.

These checks run in their own virtual environment (``.venv-heavy``), never in
``make test``: torch and TensorFlow are several GB. Expected values come from
the libraries; ``ndcg_core`` is only ever the code under test.

TF-Ranking 0.5.3's package ``__init__`` imports ``tf.estimator`` (through
``extension/pipeline.py``), which TensorFlow 2.21 no longer has, so
``import tensorflow_ranking`` fails. Its metric modules themselves only need ``tensorflow`` and the
package's ``utils``: :func:`load_tf_ranking` registers the two package
folders as bare namespace modules (their ``__init__`` files are not run) and
imports ``metrics_impl`` and ``keras.metrics`` from the installed files.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
import types
from pathlib import Path

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TensorFlow's start-up chatter

#: The distributions whose versions a run reports (and docs/library.md records).
PEERS = ("torch", "torchmetrics", "tensorflow", "tensorflow-ranking", "keras", "numpy")


def load_tf_ranking() -> tuple[types.ModuleType, types.ModuleType | None, str]:
    """``(metrics_impl, keras_metrics or None, how)`` from the installed TF-Ranking."""
    try:
        import tensorflow_ranking as tfr  # works only with a TensorFlow that still has tf.estimator

        return tfr.python.metrics_impl, tfr.keras.metrics, "import tensorflow_ranking"
    except (ImportError, AttributeError) as exc:
        reason = f"{type(exc).__name__}: {exc}"
        for name in [m for m in sys.modules if m.split(".")[0] == "tensorflow_ranking"]:
            del sys.modules[name]
    spec = importlib.util.find_spec("tensorflow_ranking")
    if spec is None or spec.origin is None:
        pytest.fail("tensorflow-ranking is not installed in this environment (run make check-heavy-peers)")
    root = Path(spec.origin).parent
    for name, folder in (
        ("tensorflow_ranking", root),
        ("tensorflow_ranking.python", root / "python"),
        ("tensorflow_ranking.python.keras", root / "python" / "keras"),
    ):
        stub = types.ModuleType(name)
        stub.__path__ = [str(folder)]
        sys.modules[name] = stub
    impl = importlib.import_module("tensorflow_ranking.python.metrics_impl")
    try:
        keras_metrics = importlib.import_module("tensorflow_ranking.python.keras.metrics")
    except Exception:  # the Keras wrapper is a convenience; metrics_impl is the computation
        keras_metrics = None
    return impl, keras_metrics, f"metrics_impl loaded from {root} (package import fails: {reason})"


@pytest.fixture(scope="session")
def tf_ranking():
    """TF-Ranking's metric modules, as a namespace: ``impl``, ``keras`` (or None), ``tf``."""
    import tensorflow as tf

    impl, keras_metrics, how = load_tf_ranking()
    return types.SimpleNamespace(impl=impl, keras=keras_metrics, tf=tf, how=how)


def pytest_report_header(config):
    lines = []
    for dist in PEERS:
        try:
            lines.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(f"{dist} NOT INSTALLED")
    import ndcg_core

    return ["heavy peers: " + ", ".join(lines), f"ndcg_core under test: {Path(ndcg_core.__file__).parent}"]
