"""Write the sample data set the app offers: assets/sample_qrels.tsv and assets/sample_run.tsv.

Seeded, so running it again gives the same files. TREC formats, tab separated:
qrels ``query 0 doc grade``, run ``query Q0 doc rank score tag``. 250 queries
retrieve 10-50 documents each; the judged pool also holds documents the run
missed; about 1 query in 12 has nothing relevant (IDCG = 0); scores are
rounded to 2 decimals, so some tie.

    python scripts/make_sample.py
"""

from __future__ import annotations

import pathlib

import numpy as np

ASSETS = pathlib.Path(__file__).resolve().parents[1] / "assets"


def make(seed: int = 3, n_queries: int = 250) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    qrels_lines, run_lines = [], []
    for q in range(1, n_queries + 1):
        query = f"q{q:03d}"
        n_ret = int(rng.integers(10, 51))
        pool = rng.choice(np.arange(1, 5000), size=n_ret + 15, replace=False)
        retrieved = pool[:n_ret]
        nothing_relevant = rng.random() < 1 / 12
        # Better systems put relevant documents first, noisily: the score follows the grade.
        grades = {
            int(d): (0 if nothing_relevant else int(rng.choice(4, p=[0.55, 0.25, 0.14, 0.06]))) for d in pool
        }
        judged = [int(d) for d in pool if rng.random() < 0.7]
        for d in judged:
            qrels_lines.append(f"{query}\t0\tD{d:04d}\t{grades[d]}")
        raw = np.array([grades[int(d)] * 0.8 + rng.normal(0, 1.0) for d in retrieved])
        scores = np.round((raw - raw.min()) / (np.ptp(raw) or 1.0), 2)
        order = np.argsort(-scores, kind="stable")
        for rank, i in enumerate(order, start=1):
            run_lines.append(f"{query}\tQ0\tD{int(retrieved[i]):04d}\t{rank}\t{scores[i]:.2f}\tsample")
    return qrels_lines, run_lines


def main() -> None:
    qrels_lines, run_lines = make()
    ASSETS.mkdir(exist_ok=True)
    (ASSETS / "sample_qrels.tsv").write_text("\n".join(qrels_lines) + "\n")
    (ASSETS / "sample_run.tsv").write_text("\n".join(run_lines) + "\n")
    print(f"wrote {len(qrels_lines)} qrels lines and {len(run_lines)} run lines to {ASSETS}")


if __name__ == "__main__":
    main()
