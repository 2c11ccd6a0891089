"""The Data sets page's drill-down into one query, and the checks on a run's queries (issue 40).

Unjudged is not zero: each query's Judged@k (a column of the per-query table) and, for the query
picked, its ranking with every document's grade, or *unjudged* for a document nobody judged (NDCG
counts it as grade 0, like a judged non-relevant one: it used to show as "Grade 0"). And a run that
shares no query with its qrels is refused, one that shares few is warned about, naming both files
and a few ids of each.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ndcg_core import Spec
from ndcg_core.dataset.judged import judged_at, query_ranking
from ndcg_core.dataset.overlap import check_queries
from ndcg_core.errors import NDCGError
from ndcg_core.i18n import _

from .markup import code_span


@st.cache_data(max_entries=32, show_spinner=False)
def judged_table(token: str, _qrels: pd.DataFrame, _run: pd.DataFrame, k: int, spec: Spec) -> pd.DataFrame:
    """Each query's Judged@k (issue 40: unjudged is not zero), cached like the per-query table."""
    return judged_at(_qrels, _run, k, spec=spec).set_index("query")


@st.cache_data(max_entries=64, show_spinner=False)
def overlap(token: str, _qrels: pd.DataFrame, _run: pd.DataFrame, qrels_name: str, run_name: str):
    """What is wrong with the queries the run and the qrels share (none, or few), if anything."""
    return check_queries(
        [str(q) for q in pd.unique(_run["query"])],
        [str(q) for q in pd.unique(_qrels["query"])],
        run_name=run_name,
        qrels_name=qrels_name,
    )


def judged_k(spec: Spec) -> int:
    """The cutoff Judged@k is shown at: the formula's, else 10."""
    return spec.k or 10


#: The drill-down lists this many of a query's ranks when the formula has no cutoff.
RANKS_SHOWN = 20


def query_ranking_section(
    qrels: pd.DataFrame, run: pd.DataFrame, query: str, spec: Spec, judged_k: int, level: int = 2
) -> None:
    """The picked query's ranking: each document's grade, or "unjudged" (issue 40: an unjudged
    document is not a judged grade 0, though NDCG counts it as one), what it adds to DCG, and the
    query's Judged@k. ``level``: its heading's level."""
    try:
        ranking = query_ranking(qrels, run, query, spec=spec)
    except NDCGError:
        return
    shown = ranking.head(spec.k or RANKS_SHOWN)
    top = ranking.head(judged_k)
    unjudged = int((~top["judged"]).sum())
    st.markdown("#" * level + " " + _("Query {query}: its ranking").format(query=code_span(query)))
    st.markdown(
        _(
            "**Judged@{k}: {judged} of {top}.** {unjudged} of its first {top} documents were never "
            "judged: NDCG counts each as grade 0, like a document judged not relevant, though it may be "
            "relevant. They show as *unjudged* below."
        ).format(k=judged_k, judged=len(top) - unjudged, top=len(top), unjudged=unjudged)
        if unjudged
        else _("**Judged@{k}: {top} of {top}.** Every one of its first {top} documents was judged.").format(
            k=judged_k, top=len(top)
        )
    )
    table = pd.DataFrame(
        {
            "rank": shown["rank"],
            "doc": shown["doc"].astype(str),
            "grade": [
                f"{g:g}" if judged else _("unjudged")
                for g, judged in zip(shown["grade"], shown["judged"], strict=True)
            ],
            "gain": shown["gain"],
            "discounted": shown["discounted"],
            "score": shown["score"],
        }
    )
    st.dataframe(
        table,
        hide_index=True,
        key="ds_ranking",
        column_config={
            "rank": st.column_config.NumberColumn(_("Rank")),
            "doc": st.column_config.TextColumn(_("Document")),
            "grade": st.column_config.TextColumn(
                _("Grade"), help=_("The judged grade, or unjudged: nobody judged this document.")
            ),
            "gain": st.column_config.NumberColumn(_("Gain"), format="%.3f"),
            "discounted": st.column_config.NumberColumn(_("Discounted gain"), format="%.3f"),
            "score": st.column_config.NumberColumn(_("Score"), format="%.4g"),
        },
    )
    if len(ranking) > len(shown):
        st.caption(
            _("The first {shown} of its {n} retrieved documents.").format(shown=len(shown), n=len(ranking))
        )
