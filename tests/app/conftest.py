"""AppTest sessions keep what they save (a learner's progress, Class rooms) in a database of their own
test: nothing is written under the work tree's data/ folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def own_database(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
