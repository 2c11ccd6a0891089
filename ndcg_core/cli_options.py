"""``ndcg-eval``'s options: trec_eval's own (``-c``, ``-M``, ``-J``, ``-n``, and those that change no
NDCG, with a note), the library's, ``--compare`` and ``--robustness``. Split from
:mod:`ndcg_core.cli`; the presets' names are read (their module imported) only for ``--help``.
"""

from __future__ import annotations

import argparse

from . import __version__
from .dataset.sources import DEFAULT_LIMITS, parse_size, size_text
from .errors import Message, NDCGError

#: Output formats: trec_eval's three columns, or a table.
FORMATS = ("trec", "csv", "json", "markdown", "latex")

#: The measures printed when no ``-m`` is given: the NDCG lines of trec_eval's ``-m all_trec``.
DEFAULT_MEASURES = ("ndcg", "ndcg_cut")

#: The preset name that means the library's plain default (no library's rules).
NO_PRESET = "none"


#: trec_eval's options that change none of the measures ndcg-eval computes: each is accepted, and
#: a note on standard error says so (the option as given, then what it is in trec_eval).
_NO_EFFECT = {
    "level": ("-l", Message("flag_level")),
    "debug": ("-D", Message("flag_debug")),
    "collection": ("-N", Message("flag_collection")),
    "old_format": ("-o", Message("flag_old_format")),
}

#: The file formats trec_eval's -R and -T name that ndcg-eval reads.
_FORMATS = {"rel_format": ("-R", "qrels"), "results_format": ("-T", "trec_results")}


def _preset_names() -> list[str]:
    from .presets import PRESETS

    return [NO_PRESET, *PRESETS]


def _parser(help_wanted: bool = True) -> argparse.ArgumentParser:
    """The command's options; the presets' names are read (their module imported) for ``--help``
    only, and checked after parsing when one other than the default is named."""
    presets = ", ".join(_preset_names()) if help_wanted else "..."
    parser = argparse.ArgumentParser(
        prog="ndcg-eval",
        description="NDCG of one or more TREC runs against relevance judgements (qrels), printed as "
        "trec_eval prints it. Files may be gzip, bzip2, xz or Zstandard compressed; '-' reads "
        "standard input.",
        epilog="Measures: trec_eval's ndcg, ndcg_cut.5,10 (its default cutoffs without a list), "
        "ndcg.1=3,2=9 (gains per relevance level), ndcg_rel, unj.5,10 (unjudged share of the top k), "
        "runid, num_q; ir_measures' nDCG, nDCG@10, Judged@10 (judged share of the top k). "
        f"Default: {' '.join(DEFAULT_MEASURES)}. Exit status 2: bad input or usage.",
    )
    parser.add_argument("qrels", metavar="QRELS", help="relevance judgements: TREC qrels or CSV/TSV")
    parser.add_argument("runs", metavar="RUN", nargs="+", help="ranked results: TREC run or CSV/TSV")
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="MEASURE",
        help="a measure to print (repeatable); default: ndcg and ndcg_cut (trec_eval's cutoffs)",
    )
    parser.add_argument(
        "--preset",
        default="trec_eval",
        metavar="NAME",
        help=f"whose NDCG: a library preset or '{NO_PRESET}' for ndcg_core's plain default ({presets}); "
        "default trec_eval",
    )
    parser.add_argument(
        "-q",
        "--query_eval_wanted",
        dest="q",
        action="store_true",
        help="print every query's values, then the mean",
    )
    parser.add_argument(
        "-c",
        "--complete_rel_info_wanted",
        dest="c",
        action="store_true",
        help="average over every query of the qrels: a query the run misses scores 0 (trec_eval -c)",
    )
    parser.add_argument(
        "-M",
        "--Max_retrieved_per_topic",
        dest="M",
        type=int,
        metavar="N",
        help="score only each query's first N documents, in trec_eval's order (trec_eval -M)",
    )
    parser.add_argument(
        "-J",
        "--Judged_docs_only",
        dest="J",
        action="store_true",
        help="drop every retrieved document without a judgement (or with a negative one) before "
        "ranking, as trec_eval -J does: the judged ones move up. trec_eval's own help says: do not "
        "use unless you know what you are doing",
    )
    parser.add_argument(
        "-n",
        "--nosummary",
        dest="n",
        action="store_true",
        help="print no summary ('all') lines (trec_eval -n)",
    )
    parser.add_argument(
        "--duplicates",
        choices=("error", "max"),
        default="error",
        help="a document judged or retrieved twice for a query: an error naming both lines (default), "
        "or keep the higher grade or score",
    )
    parser.add_argument("--format", choices=FORMATS, default="trec", help="output format (default trec)")
    parser.add_argument(
        "--max-size",
        type=_size,
        default=DEFAULT_LIMITS.max_bytes,
        metavar="SIZE",
        help="refuse a file whose content (decompressed) is larger than this, such as 50G "
        f"(default {size_text(DEFAULT_LIMITS.max_bytes)}: a small .gz can expand to gigabytes)",
    )
    parser.add_argument(
        "--max-line",
        type=_size,
        default=DEFAULT_LIMITS.max_line,
        metavar="SIZE",
        help=f"refuse a file with a line longer than this (default {size_text(DEFAULT_LIMITS.max_line)})",
    )
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="threads for reading and scoring (default: $NDCG_THREADS, else up to 2)",
    )
    parser.add_argument("-v", "--version", action="version", version=f"ndcg-eval {__version__}")
    other = parser.add_argument_group(
        "trec_eval's other options",
        "accepted so that trec_eval command lines run unchanged; none changes the measures above, "
        "and a note on standard error says so",
    )
    other.add_argument("-l", "--level_for_rel", dest="level", metavar="N", help="trec_eval's relevance level")
    other.add_argument("-D", "--Debug_level", dest="debug", metavar="N", help="trec_eval's debug level")
    other.add_argument(
        "-N", "--Number_docs_in_coll", dest="collection", metavar="N", help="documents in the collection"
    )
    other.add_argument(
        "-o", "--Output_old_results_format", dest="old_format", action="store_const", const="", default=None,
        help="trec_eval's old output format (trec_eval 9 ignores it too)",
    )  # fmt: skip
    other.add_argument(
        "-R", "--Rel_info_format", dest="rel_format", metavar="FORMAT", help="only 'qrels' is read"
    )
    other.add_argument(
        "-T", "--Results_format", dest="results_format", metavar="FORMAT", help="only 'trec_results' is read"
    )
    other.add_argument(
        "-Z", "--Zscore", dest="zscore", metavar="FILE", help="trec_eval's z-scores: not supported (an error)"
    )
    group = parser.add_argument_group(
        "comparing runs", "--compare: two runs or more, paired query by query (needs scipy)"
    )
    group.add_argument(
        "--compare",
        action="store_true",
        help="compare the runs at each measure: means marked as ranx marks them, deltas, win/tie/loss, "
        "paired t-test and randomization test, corrected for the number of pairs",
    )
    group.add_argument(
        "--test", choices=("t", "randomization"), default="t", help="which test marks (default t)"
    )
    group.add_argument(
        "--correction", choices=("holm", "bonferroni", "bh", "none"), default="holm", help="default holm"
    )
    group.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    group.add_argument("--permutations", type=int, default=10_000, help="randomization test (default 10000)")
    group.add_argument("--seed", type=int, default=0, help="randomization test's seed (default 0)")
    robust = parser.add_argument_group(
        "does the conclusion depend on the formula?",
        "--robustness: two runs or more, ranked under every formula variant and library preset",
    )
    robust.add_argument(
        "--robustness",
        action="store_true",
        help="the runs' order by mean NDCG under every gain, discount and log base at each cutoff "
        "asked (-m ndcg_cut.10; default 10) and under every library preset; Kendall's tau between "
        "the orders; each pair of runs whose winner flips, with the queries that flip it most",
    )
    robust.add_argument(
        "--causes", type=int, default=5, metavar="N", help="queries shown per flipped pair (default 5)"
    )
    return parser


def _size(text: str) -> int:
    """``--max-size`` and ``--max-line``: a size such as 4G (argparse's message when it is not one)."""
    try:
        return parse_size(text)
    except NDCGError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
