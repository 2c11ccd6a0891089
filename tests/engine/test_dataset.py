"""evaluate() and aggregate(): per query, they agree with ndcg_core.ndcg."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_core
import ndcg_core.teaching
from ndcg_core import aggregate, evaluate

# --------------------------------------------------------------------------- a reference, one query at a time


def reference_order(rows: pd.DataFrame, ties: str) -> pd.DataFrame:
    """The run's rows of one query in ranked order, the slow obvious way."""
    if ties == "docid_desc":
        by_doc = sorted(range(len(rows)), key=lambda i: str(rows["doc"].iloc[i]), reverse=True)
        s = rows["score"].to_numpy().astype(np.float32).astype(float)
        order = sorted(by_doc, key=lambda i: -s[i])
    else:  # stable
        s = rows["score"].to_numpy()
        order = sorted(range(len(rows)), key=lambda i: -s[i])
    return rows.iloc[order]


def reference(qrels, run, k=None, ties="docid_desc", ideal="pool", **variant):
    """Per-query NDCG through ndcg_core.ndcg, looping over queries."""
    out = {}
    judged = {(q, d): r for q, d, r in qrels[["query", "doc", "relevance"]].itertuples(index=False)}
    queries = list(dict.fromkeys(list(run["query"]) + list(qrels["query"])))
    for q in queries:
        rows = reference_order(run[run["query"] == q], ties)
        grades = [judged.get((q, d), 0.0) for d in rows["doc"]]
        pool = list(qrels.loc[qrels["query"] == q, "relevance"]) if ideal == "pool" else grades
        cut = k if k is not None else max(len(grades), len(pool), 1)
        out[q] = (
            ndcg_core.ndcg(grades, cut, ideal=pool, **variant),
            ndcg_core.dcg(grades, cut, **{k_: v for k_, v in variant.items() if k_ != "zero_idcg"}),
        )
    return out


@st.composite
def datasets(draw):
    """Ragged random qrels and runs: ties, unjudged documents, one-sided queries."""
    n_queries = draw(st.integers(1, 6))
    docs = [f"d{i}" for i in range(draw(st.integers(1, 12)))]
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        name = f"q{q}"
        side = draw(st.sampled_from(["both", "both", "both", "run", "qrels"]))
        if side != "run":
            for d in draw(st.lists(st.sampled_from(docs), unique=True, max_size=len(docs))):
                qrels_rows.append((name, d, float(draw(st.integers(0, 3)))))
        if side != "qrels":
            for d in draw(st.lists(st.sampled_from(docs), unique=True, min_size=1, max_size=len(docs))):
                run_rows.append((name, d, float(draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 0.1, 0.3])))))
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    run = run.sample(frac=1.0, random_state=draw(st.integers(0, 1000))).reset_index(drop=True)
    return qrels, run


VARIANTS = [
    {},
    {"gain": "exponential"},
    {"discount": "jarvelin"},
    {"log_base": math.e, "gain": {0: 0.0, 1: 1.0, 2: 3.0, 3: 7.0}},
    {"zero_idcg": "one"},
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=datasets(),
    k=st.one_of(st.none(), st.integers(1, 8)),
    variant=st.sampled_from(VARIANTS),
    ties=st.sampled_from(["docid_desc", "stable"]),
    ideal=st.sampled_from(["pool", "retrieved"]),
)
def test_agrees_with_ndcg_per_query(data, k, variant, ties, ideal):
    qrels, run = data
    got = evaluate(qrels, run, k, ties=ties, ideal=ideal, **variant).set_index("query")
    want = reference(qrels, run, k, ties=ties, ideal=ideal, **variant)
    assert set(got.index) == set(want)
    for q, (ndcg_value, dcg_value) in want.items():
        assert got.loc[q, "ndcg"] == pytest.approx(ndcg_value, rel=1e-12, abs=1e-12), q
        assert got.loc[q, "dcg"] == pytest.approx(dcg_value, rel=1e-12, abs=1e-12), q


def test_average_ties_match_sklearn_default():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(2, 30))
        scores = rng.integers(0, 4, n).astype(float)
        grades = rng.integers(0, 4, n).astype(float)
        if grades.sum() == 0:
            grades[0] = 1
        docs = [f"d{i}" for i in range(n)]
        run = pd.DataFrame({"query": "q", "doc": docs, "score": scores})
        qrels = pd.DataFrame({"query": "q", "doc": docs, "relevance": grades})
        for k in (None, 3):
            got = evaluate(qrels, run, k, ties="average")["ndcg"].iloc[0]
            want = sklearn_metrics.ndcg_score([grades], [scores], k=k)
            assert got == pytest.approx(want, rel=1e-12)


def test_ties_rules_differ_and_docid_desc_breaks_by_id_descending():
    qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [1.0, 1.0]})
    # docid_desc puts b (grade 0) first; stable keeps a first; average splits the gain.
    assert evaluate(qrels, run, ties="docid_desc")["ndcg"].iloc[0] == pytest.approx(1 / math.log2(3))
    assert evaluate(qrels, run, ties="stable")["ndcg"].iloc[0] == 1.0
    assert evaluate(qrels, run, ties="average")["ndcg"].iloc[0] == pytest.approx((1 + 1 / math.log2(3)) / 2)


def test_float32_rounding_makes_a_tie_for_docid_desc_only():
    qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [1.0 + 1e-12, 1.0]})
    assert evaluate(qrels, run, ties="stable")["ndcg"].iloc[0] == 1.0
    assert evaluate(qrels, run, ties="docid_desc")["ndcg"].iloc[0] < 1.0
    assert evaluate(qrels, run, ties="stable", score_dtype="float32")["ndcg"].iloc[0] == 1.0


def test_one_sided_queries_follow_the_rule():
    qrels = pd.DataFrame({"query": ["both", "qrels_only"], "doc": ["a", "b"], "relevance": [1, 2]})
    run = pd.DataFrame({"query": ["both", "run_only"], "doc": ["a", "c"], "score": [1.0, 1.0]})
    union = evaluate(qrels, run).set_index("query")
    assert list(union.index) == ["both", "run_only", "qrels_only"]
    assert union.loc["qrels_only", "ndcg"] == 0.0 and union.loc["qrels_only", "idcg"] > 0
    assert union.loc["run_only", "idcg_zero"] and union.loc["run_only", "ndcg"] == 0.0
    assert not union.loc["qrels_only", "in_run"] and not union.loc["run_only", "in_qrels"]
    assert list(evaluate(qrels, run, queries="both")["query"]) == ["both"]
    assert list(evaluate(qrels, run, queries="run")["query"]) == ["both", "run_only"]
    assert list(evaluate(qrels, run, queries="qrels")["query"]) == ["both", "qrels_only"]
    skip = evaluate(qrels, run, zero_idcg="skip").set_index("query")
    assert math.isnan(skip.loc["run_only", "ndcg"])
    assert evaluate(qrels, run, zero_idcg="one").set_index("query").loc["run_only", "ndcg"] == 1.0
    with pytest.raises(ValueError, match=r"IDCG is 0 for 1 query \('run_only'\)"):
        evaluate(qrels, run, zero_idcg="error")
    # "both" leaves the IDCG = 0 query out, so "error" has nothing to complain about.
    assert evaluate(qrels, run, zero_idcg="error", queries="both")["ndcg"].tolist() == [1.0]


def test_counts_and_unjudged_documents():
    qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "x"], "relevance": [2, 0, 1]})
    run = pd.DataFrame({"query": ["q"] * 3, "doc": ["u", "a", "b"], "score": [3.0, 2.0, 1.0]})
    row = evaluate(qrels, run).iloc[0]
    assert (row["n_retrieved"], row["n_judged"], row["n_relevant"]) == (3, 3, 2)
    assert row["dcg"] == pytest.approx(2 / math.log2(3))
    assert row["idcg"] == pytest.approx(2 + 1 / math.log2(3))


def test_integer_and_mixed_ids():
    qrels = pd.DataFrame({"query": [1, 1, 2], "doc": [10, 9, 10], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query": ["1", "1", "2"], "doc": [9, 10, 10], "score": [1.0, 1.0, 1.0]})
    got = evaluate(qrels, run).set_index("query")
    # Ids compare as text: "9" > "10", so doc 9 ranks first in the tie.
    assert got.loc["1", "ndcg"] == pytest.approx(1 / math.log2(3))
    assert got.loc["2", "ndcg"] == 1.0


def test_long_document_ids_take_the_general_path():
    docs = [f"clueweb12-{i:010d}" for i in range(5)]
    qrels = pd.DataFrame({"query": "q", "doc": docs, "relevance": [0, 0, 0, 0, 3]})
    run = pd.DataFrame({"query": "q", "doc": docs, "score": [1.0] * 5})
    assert evaluate(qrels, run)["ndcg"].iloc[0] == 1.0  # the highest id wins the tie
    assert evaluate(qrels, run, ties="stable")["ndcg"].iloc[0] == pytest.approx(1 / math.log2(6))


def test_large_queries_use_wider_buckets():
    rng = np.random.default_rng(0)
    sizes = [1, 7, 9, 300, 1000]
    rows = [(f"q{i}", f"d{j}", float(rng.integers(0, 50))) for i, n in enumerate(sizes) for j in range(n)]
    run = pd.DataFrame(rows, columns=["query", "doc", "score"])
    qrels = run.rename(columns={"score": "relevance"}).assign(relevance=rng.integers(0, 3, len(run)))
    got = evaluate(qrels, run, 20).set_index("query")
    want = reference(qrels, run, 20)
    for q, (value, _) in want.items():
        assert got.loc[q, "ndcg"] == pytest.approx(value, rel=1e-12)


def test_hash_collisions_fall_back_to_an_exact_join(monkeypatch):
    rng = np.random.default_rng(1)
    run = pd.DataFrame(
        {
            "query": rng.choice(["a", "b", "c"], 200),
            "doc": [f"d{i}" for i in range(200)],
            "score": rng.random(200),
        }
    )
    qrels = run.sample(120, random_state=2).rename(columns={"score": "relevance"})
    qrels["relevance"] = rng.integers(0, 4, len(qrels))
    want = evaluate(qrels, run, 10)
    # Every document hashes alike: the fast join must notice and stay exact.
    monkeypatch.setattr(ndcg_core.dataset.keys, "_HASH_MULTIPLIER", np.uint64(0))
    got = evaluate(qrels, run, 10)
    pd.testing.assert_frame_equal(got, want)
    assert got["dcg"].gt(0).all()


@pytest.mark.parametrize("grouped", [True, False])
def test_blocks_and_chunks_change_nothing(monkeypatch, grouped):
    rng = np.random.default_rng(5)
    sizes = rng.integers(1, 40, 60)
    run = pd.DataFrame(
        [(f"q{i:02d}", f"d{j}", float(rng.integers(0, 9))) for i, n in enumerate(sizes) for j in range(n)],
        columns=["query", "doc", "score"],
    )
    qrels = run.sample(frac=0.7, random_state=1).sort_values("query", kind="stable")
    qrels = qrels.rename(columns={"score": "relevance"}).assign(relevance=lambda d: d["relevance"] % 4)
    if not grouped:
        run = run.sample(frac=1.0, random_state=2)
    want = evaluate(qrels, run, 5)
    monkeypatch.setattr(ndcg_core.dataset.kernels, "_BLOCK_ROWS", 50)
    got = evaluate(qrels, run, 5)
    pd.testing.assert_frame_equal(got, want)
    reference_values = reference(qrels, run, 5)
    assert got.set_index("query")["ndcg"].to_dict() == pytest.approx(
        {q: v for q, (v, _) in reference_values.items()}
    )
    with pytest.raises(ValueError, match="retrieved twice"):  # row names survive the blocks
        evaluate(qrels, pd.concat([run, run.iloc[-1:]]), 5)


def test_duplicates_in_qrels_name_the_pair_and_rows():
    qrels = pd.DataFrame({"query": ["q", "q", "q"], "doc": ["a", "b", "a"], "relevance": [1, 0, 2]})
    run = pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(
        ValueError, match=r"qrels: document 'a' is judged twice for query 'q' \(row 0 and row 2\)"
    ):
        evaluate(qrels, run)


def test_duplicates_in_qrels_keep_the_higher_grade_with_max():
    qrels = pd.DataFrame(
        {"query": ["q", "q", "q", "q"], "doc": ["a", "b", "a", "c"], "relevance": [1, 0, 2, 1]}
    )
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["b", "a"], "score": [2.0, 1.0]})
    got = evaluate(qrels, run, duplicates="max").iloc[0]
    # a keeps grade 2 (not 1, not both): DCG = 2 / log2(3); IDCG = 2 + 1 / log2(3) (a, then c)
    assert got["n_judged"] == 3 and got["n_relevant"] == 2
    assert got["dcg"] == pytest.approx(2 / math.log2(3))
    assert got["idcg"] == pytest.approx(2 + 1 / math.log2(3))
    with pytest.raises(ValueError, match=r"judged twice.*duplicates='max' to keep the higher grade"):
        evaluate(qrels, run)


def test_duplicates_in_run_error_or_keep_max():
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q"] * 4, "doc": ["b", "a", "b", "b"], "score": [3.0, 2.0, 1.0, 0.5]})
    with pytest.raises(
        ValueError, match=r"run: document 'b' is retrieved twice for query 'q'.*duplicates='max'"
    ):
        evaluate(qrels, run)
    got = evaluate(qrels, run, duplicates="max").iloc[0]
    assert got["n_retrieved"] == 2
    assert got["ndcg"] == pytest.approx(1 / math.log2(3))  # b keeps 3.0 and stays first


def _long_id_data(seed: int, n_queries: int = 40):
    """Ids of 9 to 30 bytes sharing their first 8 or 16 (words past the first decide), many tied scores."""
    rng = np.random.default_rng(seed)
    stems = ["clueweb1", "clueweb12-0000tw", "é-docs-x"]  # 8, 16 and 8 bytes (é takes two)
    rows = []
    for q in range(n_queries):
        docs = {f"{rng.choice(stems)}{rng.integers(0, 10 ** rng.integers(1, 12))}" for _ in range(40)}
        rows += [(f"query-{q}", d, float(rng.integers(0, 4))) for d in sorted(docs)]
    run = pd.DataFrame(rows, columns=["query", "doc", "score"]).sample(frac=1.0, random_state=seed)
    qrels = run.sample(frac=0.6, random_state=seed + 1).rename(columns={"score": "relevance"})
    qrels["relevance"] = rng.integers(0, 4, len(qrels))
    extra = pd.DataFrame({"query": "query-0", "doc": ["clueweb12-0000tw-unretrieved-9"], "relevance": [3]})
    return pd.concat([qrels, extra], ignore_index=True), run.reset_index(drop=True)


@pytest.mark.parametrize("k", [3, 10, None])
@pytest.mark.parametrize("ties", ["docid_desc", "stable"])
def test_ids_up_to_32_bytes_join_and_break_ties_as_text(k, ties):
    """Long ids are packed into several words: ties still fall in text order, judgements still match."""
    qrels, run = _long_id_data(3)
    assert run["doc"].str.len().max() > 16 and qrels["doc"].str.len().max() > run["doc"].str.len().max()
    got = evaluate(qrels, run, k, ties=ties).set_index("query")
    want = reference(qrels, run, k, ties=ties)
    assert got["ndcg"].to_dict() == pytest.approx({q: v for q, (v, _) in want.items()}, rel=1e-12)
    assert got["dcg"].to_dict() == pytest.approx({q: d for q, (_, d) in want.items()}, rel=1e-12)


@pytest.mark.parametrize("width", [8, 14, 32])
def test_ids_of_one_length_are_packed_alike(width):
    """Docnos of one length take a copy into words instead of a gather: same joins, same tie order."""
    qrels, run = _long_id_data(6, n_queries=12)
    number = {d: i for i, d in enumerate(pd.unique(pd.concat([run["doc"], qrels["doc"]])))}
    for frame in (qrels, run):
        frame["doc"] = [f"{'X' * (width - 6)}{(i * 7919) % 10**6:06d}" for i in frame["doc"].map(number)]
    assert run["doc"].str.len().eq(width).all()
    got = evaluate(qrels, run, 5).set_index("query")["ndcg"]
    want = reference(qrels, run, 5)
    assert got.to_dict() == pytest.approx({q: v for q, (v, _) in want.items()}, rel=1e-12)


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(st.text(st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=12), min_size=1),
    one_length=st.booleans(),
    extra_words=st.integers(0, 2),
    skip=st.integers(0, 3),
    large=st.booleans(),
)
def test_packed_ids_are_their_bytes_as_little_endian_words(ids, one_length, extra_words, skip, large):
    """Each id's UTF-8 bytes, zero-padded, read as little-endian 8-byte words: the definition of the packing.

    Covers ids of one length (read with a stride) and of many (gathered), arrays that are slices of a
    larger buffer, and ids so close to the buffer's end that they are read from a padded copy.
    """
    import pyarrow as pa

    from ndcg_core.dataset.keys import _pack

    if one_length:
        width = max(len(i.encode()) for i in ids)
        ids = [i + "x" * (width - len(i.encode())) for i in ids]  # every id `width` bytes long
    arr = pa.array(["pad"] * skip + ids + ["tail"] * skip, pa.large_string() if large else pa.string())
    arr = arr.slice(skip, len(ids))
    words = max(-(-max(len(i.encode()) for i in ids) // 8), 1) + extra_words
    padded = [i.encode().ljust(8 * words, b"\0") for i in ids]
    want = np.array(
        [[int.from_bytes(b[8 * w : 8 * w + 8], "little") for w in range(words)] for b in padded],
        dtype=np.uint64,
    )
    got = _pack(arr, words)
    assert np.array_equal(got.reshape(len(ids), words), want)


def test_integer_grades_beyond_int64_are_levelled_without_a_cast_warning():
    """Grades of 2**63 and above are whole numbers in a small range, but no int64 holds them."""
    import warnings

    qrels = pd.DataFrame({"query": "q", "doc": ["a", "b"], "relevance": [2.0**63 + 4096, 2.0**63]})
    run = pd.DataFrame({"query": "q", "doc": ["a", "b"], "score": [2.0, 1.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = evaluate(qrels, run, 2, gain="linear")
    # linear gain, ideal order retrieved: DCG = IDCG = g1 + g2 / log2(3)
    assert got["ndcg"].iloc[0] == pytest.approx(1.0, rel=1e-12)
    assert got["dcg"].iloc[0] == pytest.approx(2.0**63 + 4096 + 2.0**63 / math.log2(3), rel=1e-12)


def test_long_id_duplicates_are_named_or_keep_the_best_score():
    qrels, run = _long_id_data(4, n_queries=5)
    twice = run.iloc[[7]].assign(score=run["score"].iloc[7] + 10)
    doubled = pd.concat([run, twice], ignore_index=True)
    doc, query = run["doc"].iloc[7], run["query"].iloc[7]
    with pytest.raises(ValueError, match=rf"run: document '{doc}' is retrieved twice for query '{query}'"):
        evaluate(qrels, doubled)
    best = pd.concat([run.drop(index=7), twice], ignore_index=True)
    want = reference(qrels, best, 5)
    got = evaluate(qrels, doubled, 5, duplicates="max").set_index("query")["ndcg"]
    assert got.to_dict() == pytest.approx({q: v for q, (v, _) in want.items()}, rel=1e-12)
    doc, query = qrels["doc"].iloc[2], qrels["query"].iloc[2]
    with pytest.raises(ValueError, match=rf"qrels: document '{doc}' is judged twice for query '{query}'"):
        evaluate(pd.concat([qrels, qrels.iloc[[2]]]), run)


def test_a_false_match_in_the_hash_join_is_caught(monkeypatch):
    """Every document of a query hashing alike: the table finds false matches, the keys reject them."""
    _, run = _long_id_data(5, n_queries=8)
    run = run.drop_duplicates("query")  # one retrieved and one judged document a query
    judged = run["doc"].where(run["query"].isin(["query-1", "query-4"]), "clueweb12-0000tw-other")
    qrels = pd.DataFrame({"query": run["query"], "doc": judged, "relevance": 2})

    def weak(keys, codes):
        return codes.astype(np.uint64)

    monkeypatch.setattr(ndcg_core.dataset.keys, "_pair_hash", weak)
    got = evaluate(qrels, run, 5).set_index("query")["dcg"]
    assert sorted(got[got > 0].index) == ["query-1", "query-4"]  # the only true matches


def test_only_rows_that_can_reach_the_top_k_are_ranked(monkeypatch):
    """Queries longer than k, few distinct scores: the rows tied with the k-th best all stay in."""
    rng = np.random.default_rng(8)
    sizes = rng.integers(8, 60, 120)
    run = pd.DataFrame(
        [(f"q{i}", f"d{j}", float(rng.integers(0, 6))) for i, n in enumerate(sizes) for j in range(n)],
        columns=["query", "doc", "score"],
    )
    qrels = run.sample(frac=0.5, random_state=1).rename(columns={"score": "relevance"})
    qrels["relevance"] = rng.integers(0, 4, len(qrels))
    kept = []
    real = ndcg_core.dataset.kernels._top_candidates
    monkeypatch.setattr(
        ndcg_core.dataset.kernels, "_top_candidates", lambda *a: kept.append(real(*a)) or kept[-1]
    )
    for ties in ("docid_desc", "stable"):
        got = evaluate(qrels, run, 4, ties=ties).set_index("query")
        want = reference(qrels, run, 4, ties=ties)
        assert got["ndcg"].to_dict() == pytest.approx({q: v for q, (v, _) in want.items()}, rel=1e-12)
    assert kept and all(k is not None and k.size < len(run) for k in kept)
    averaged = evaluate(qrels, run, 4, ties="average")
    monkeypatch.setattr(ndcg_core.dataset.kernels, "_top_candidates", lambda *a: None)
    pd.testing.assert_frame_equal(averaged, evaluate(qrels, run, 4, ties="average"))


def test_bad_values_and_columns_are_clear_errors():
    qrels = pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, "high"]})
    with pytest.raises(ValueError, match=r"run: score on row 1 is 'high', expected a finite number"):
        evaluate(qrels, run)
    with pytest.raises(ValueError, match=r"qrels: relevance on row 0 is missing \(NaN\)"):
        evaluate(qrels.assign(relevance=[np.nan]), run.iloc[:1])
    with pytest.raises(
        ValueError, match=r"run needs columns query, doc, score; missing score .*found 'query', 'doc', 'x'"
    ):
        evaluate(qrels, run.rename(columns={"score": "x"}))
    with pytest.raises(ValueError, match="qrels must be a pandas DataFrame"):
        evaluate([("q", "a", 1)], run)
    with pytest.raises(ValueError, match=r"grade 1 .*not in the gain table"):
        evaluate(qrels, run.iloc[:1], gain={0: 0.0, 2: 3.0})
    with pytest.raises(ValueError, match="unjudged retrieved documents count as grade 0"):
        evaluate(qrels, pd.DataFrame({"query": ["q"], "doc": ["z"], "score": [1.0]}), gain={1: 1.0})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("ties", "random"),
        ("ideal", "all"),
        ("queries", "some"),
        ("duplicates", "min"),
        ("score_dtype", "f16"),
    ],
)
def test_unknown_options_are_refused(option, value):
    qrels = pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]})
    named = {"ideal": "ideal_source", "ties": "ties"}.get(option, option)
    with pytest.raises(ValueError, match=f"{named} must be one of|{named}=.*cannot be reproduced"):
        evaluate(qrels, run, **{option: value})


def test_aliased_columns_are_accepted():
    qrels = pd.DataFrame({"QID": ["q"], "DocNo": ["a"], "Label": [1]})
    run = pd.DataFrame({"topic": ["q"], "doc_id": ["a"], "Sim": [0.3]})
    assert evaluate(qrels, run)["ndcg"].tolist() == [1.0]


def test_empty_sides():
    qrels = pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]})
    empty_run = pd.DataFrame(
        {"query": pd.Series([], dtype=str), "doc": pd.Series([], dtype=str), "score": []}
    )
    got = evaluate(qrels, empty_run)
    assert got["ndcg"].tolist() == [0.0] and got["idcg"].tolist() == [1.0]
    assert evaluate(qrels, empty_run, queries="run").empty


# --------------------------------------------------------------------------- aggregates


def test_seed_003_averages_both_ways():
    example = ndcg_core.teaching.DATASET_EXAMPLES[0]
    rows_q, rows_r = [], []
    for i, grades in enumerate(example.queries):
        for j, g in enumerate(grades):
            rows_q.append((f"q{i}", f"d{j}", g))
            rows_r.append((f"q{i}", f"d{j}", float(len(grades) - j)))
    qrels = pd.DataFrame(rows_q, columns=["query", "doc", "relevance"])
    run = pd.DataFrame(rows_r, columns=["query", "doc", "score"])
    per_query = evaluate(qrels, run, spec=ndcg_core.Spec(example.variant))
    agg = aggregate(per_query)
    assert agg.mean_ndcg == pytest.approx(example.mean_ndcg(), rel=1e-12)
    assert agg.ratio_of_sums == pytest.approx(example.ratio_of_sums(), rel=1e-12)
    assert agg.mean_ndcg != pytest.approx(agg.ratio_of_sums)


def test_aggregate_policies_and_effect():
    table = pd.DataFrame({"dcg": [1.0, 0.0, 0.0], "idcg": [2.0, 0.0, 4.0]})
    zero = aggregate(table)
    assert (zero.mean_ndcg, zero.n_idcg_zero, zero.n_in_mean) == (pytest.approx(1 / 6), 1, 3)
    assert zero.ratio_of_sums == pytest.approx(1 / 6)
    one = aggregate(table, zero_idcg="one")
    assert one.mean_ndcg == pytest.approx(0.5) and "scored them 1" in one.policy_effect
    skip = aggregate(table, zero_idcg="skip")
    assert (skip.mean_ndcg, skip.n_in_mean) == (pytest.approx(0.25), 2)
    assert "left them out" in skip.policy_effect
    assert skip.ratio_of_sums == zero.ratio_of_sums == one.ratio_of_sums
    with pytest.raises(ValueError, match="1 of 3 queries have IDCG = 0"):
        aggregate(table, zero_idcg="error")
    assert "changed nothing" in aggregate(table.iloc[:1]).policy_effect
    assert aggregate(table).as_dict()["n_queries"] == 3


def test_aggregate_uses_the_policy_evaluate_used():
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "relevance": [1]})
    run = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "score": [1.0, 1.0]})
    assert aggregate(evaluate(qrels, run, zero_idcg="one")).mean_ndcg == 1.0
    assert aggregate(evaluate(qrels, run)).mean_ndcg == 0.5
    assert math.isnan(aggregate(pd.DataFrame({"dcg": [0.0], "idcg": [0.0]})).ratio_of_sums)


def test_aggregate_refuses_other_tables():
    with pytest.raises(ValueError, match="columns dcg and idcg"):
        aggregate(pd.DataFrame({"ndcg": [1.0]}))


@pytest.mark.parametrize("ids", ["arrow", "large_string", "int"])
def test_grouped_fast_paths_match_shuffled_object_input(ids, monkeypatch):
    """Run-length query codes, packed document ids and blocks give what the general paths give."""
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(7)
    sizes = rng.integers(1, 60, 80)
    q = np.repeat(np.arange(sizes.size), sizes)
    doc = rng.integers(0, 500, q.size)
    run = pd.DataFrame({"query": q, "doc": doc, "score": rng.integers(0, 20, q.size) / 4})
    run = run.drop_duplicates(["query", "doc"]).reset_index(drop=True)
    qrels = run.sample(frac=0.6, random_state=3).sort_values("query", kind="stable")
    qrels = qrels.rename(columns={"score": "relevance"}).assign(relevance=lambda d: (d["relevance"] * 4) % 4)
    extra = pd.DataFrame({"query": [999] * 30, "doc": np.arange(30), "relevance": 1.0})  # qrels-only query
    qrels = pd.concat([qrels, extra], ignore_index=True)
    if ids != "int":
        dtype = pd.ArrowDtype(pa.large_string()) if ids == "large_string" else "str"
        for frame in (run, qrels):
            frame["query"] = ("q" + frame["query"].astype(str)).astype(dtype)
            frame["doc"] = ("d" + frame["doc"].astype(str)).astype(dtype)
    shuffled_run = run.astype({"query": object, "doc": object}).sample(frac=1.0, random_state=4)
    shuffled_qrels = qrels.astype({"query": object, "doc": object}).sample(frac=1.0, random_state=5)
    for k in (None, 3):
        fast = evaluate(qrels, run, k).set_index("query").sort_index()
        slow = evaluate(shuffled_qrels, shuffled_run, k).set_index("query").sort_index()
        pd.testing.assert_frame_equal(fast, slow, check_dtype=False, check_index_type=False)
        with monkeypatch.context() as m:
            m.setattr(ndcg_core.dataset.kernels, "_BLOCK_ROWS", 300)
            blocked = evaluate(qrels, run, k).set_index("query").sort_index()
        pd.testing.assert_frame_equal(fast, blocked)
    want = reference(qrels, run, 3)
    got = evaluate(qrels, run, 3).set_index("query")["ndcg"]
    assert got.to_dict() == pytest.approx({q: v for q, (v, _) in want.items()}, rel=1e-12, abs=1e-12)


def test_document_ids_with_nul_bytes_are_not_confused():
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "a\0"], "relevance": [0, 3]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a\0", "a"], "score": [2.0, 1.0]})
    assert evaluate(qrels, run)["ndcg"].iloc[0] == 1.0


@pytest.mark.parametrize(("rank_bits", "hash_bits"), [(50, 16), (45, 64), (30, 64)])
def test_narrow_sort_keys_take_the_wider_paths(monkeypatch, rank_bits, hash_bits):
    """Rank by (query, score, position) or by lexsort, join with the query hashed in: same numbers."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(1, 50, 70)
    run = pd.DataFrame(
        [(f"q{i}", f"d{j}", float(rng.integers(0, 9))) for i, n in enumerate(sizes) for j in range(n)],
        columns=["query", "doc", "score"],
    ).sample(frac=1.0, random_state=1)
    qrels = run.sample(frac=0.7, random_state=2).rename(columns={"score": "relevance"})
    qrels["relevance"] = qrels["relevance"] % 4
    want = {ties: evaluate(qrels, run, 5, ties=ties) for ties in ("docid_desc", "stable", "average")}
    monkeypatch.setattr(ndcg_core.dataset.kernels, "_RANK_KEY_BITS", rank_bits)
    monkeypatch.setattr(ndcg_core.dataset.keys, "_MIN_HASH_BITS", hash_bits)
    monkeypatch.setattr(ndcg_core.dataset.keys, "_HASH_JOIN", False)  # reach the sort's narrow keys
    for ties, table in want.items():
        pd.testing.assert_frame_equal(evaluate(qrels, run, 5, ties=ties), table)


@pytest.mark.parametrize("counting", [True, False])
@pytest.mark.parametrize("nq", [7, 70_000])
def test_group_order_is_numpys_stable_argsort(monkeypatch, counting, nq):
    """Rows grouped by query keep their order within a query, by either sort (>65,536 queries too)."""
    monkeypatch.setattr(ndcg_core.dataset.kernels, "_COUNTING_SORT", counting)
    group_order = ndcg_core.dataset.kernels._group_order
    rng = np.random.default_rng(3)
    shuffled = rng.integers(0, nq, 200_000)
    np.testing.assert_array_equal(group_order(shuffled, nq), np.argsort(shuffled, kind="stable"))
    grouped = np.sort(shuffled)
    assert group_order(grouped, nq) is None
    tail = np.concatenate([grouped, rng.integers(0, nq, 1000)])  # judgements appended at the end
    np.testing.assert_array_equal(group_order(tail, nq), np.argsort(tail, kind="stable"))


def test_query_codes_kept_as_runs_answer_as_every_rows_codes():
    """A grouped table's codes, kept as runs (keys._Codes), give what the spelled-out codes give:
    any block's codes, counts per query (of all rows, or of some), the grouped order's runs."""
    from ndcg_core.dataset.keys import _Codes

    rng = np.random.default_rng(5)
    heads = rng.integers(0, 40, 60)  # codes of runs: a code may come back later
    heads = heads[np.flatnonzero(np.r_[True, heads[1:] != heads[:-1]])]  # neighbours differ
    lengths = rng.integers(1, 9, heads.size)
    rows = np.array([c for c, n in zip(heads.tolist(), lengths.tolist(), strict=True) for _ in range(n)])
    runs, plain = _Codes(heads, lengths), _Codes(rows)
    for codes in (runs, plain):
        assert codes.size == rows.size
        before = {name: id(value) for name, value in vars(codes).items()}
        for start, stop in [(0, rows.size), (0, 1), (3, 17), (rows.size - 5, rows.size), (7, 7)]:
            np.testing.assert_array_equal(codes.rows(start, stop), rows[start:stop])
        # Blocks on several threads ask for rows at once: asking must not set anything (a start
        # table filled on first use was read half-filled by another block at 10M rows).
        assert {name: id(value) for name, value in vars(codes).items()} == before
        np.testing.assert_array_equal(codes.counts(40), np.bincount(rows, minlength=40))
        some = rng.random(rows.size) < 0.4
        np.testing.assert_array_equal(codes.counts(40, where=some), np.bincount(rows[some], minlength=40))
        assert codes.ascending() == bool(np.all(np.diff(rows) >= 0))
        np.testing.assert_array_equal(codes.grouped(40).values, np.sort(rows))
        np.testing.assert_array_equal(codes.renumbered(np.arange(40)[::-1]).values, 39 - rows)
        np.testing.assert_array_equal(codes.run_heads(), heads)
    assert _Codes(np.sort(rows)).ascending() and _Codes(heads[np.argsort(heads)], lengths).ascending()


@pytest.mark.parametrize("shuffled_run", [False, True])
def test_judgements_appended_to_grouped_qrels_are_scored_block_by_block(monkeypatch, shuffled_run):
    """Shape (c) of the benchmark: grouped qrels with judgements appended in random order. Each
    block then packs the ids it reads through the qrels' order (a shuffled run packs every id
    first); ids of one and two words, and ties broken by document id, across several blocks."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(5, 30, 100)  # over 1,024 judgements: the qrels' codes are kept as runs
    q = np.repeat(np.arange(sizes.size), sizes)
    doc = np.array([f"{'WSJ-' if i % 3 else ''}{i:07d}" for i in range(q.size)])  # 7 and 11 bytes
    run = pd.DataFrame({"query": [f"q{x}" for x in q], "doc": doc, "score": rng.integers(0, 6, q.size) / 2})
    judged = run.sample(frac=0.8, random_state=1).sort_values("query", kind="stable")
    qrels = judged.rename(columns={"score": "relevance"}).assign(relevance=lambda d: (d["relevance"] * 2) % 4)
    tail = qrels.sample(frac=0.05, random_state=2)
    qrels = pd.concat([qrels.drop(tail.index), tail], ignore_index=True).astype(
        {"query": "str", "doc": "str"}
    )
    run = run.astype({"query": "str", "doc": "str"})
    if shuffled_run:
        run = run.sample(frac=1.0, random_state=3).reset_index(drop=True)
    packed = []
    real = ndcg_core.dataset.kernels._doc_keys
    monkeypatch.setattr(
        ndcg_core.dataset.kernels, "_doc_keys", lambda *a: packed.append(len(a[0])) or real(*a)
    )
    monkeypatch.setattr(ndcg_core.dataset.kernels, "_BLOCK_ROWS", 512)
    got = evaluate(qrels, run, 5).set_index("query")["ndcg"]
    assert packed == [len(run)] if shuffled_run else len(packed) > 1 and max(packed) < len(run)
    want = reference(qrels, run, 5)
    assert got.to_dict() == pytest.approx({x: v for x, (v, _) in want.items()}, rel=1e-12, abs=1e-12)
