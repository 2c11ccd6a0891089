"""What the command-line tests share: running ``ndcg-eval``'s ``main`` in this process."""

from __future__ import annotations

import contextlib
import io

from ndcg_core.cli import main


def run_main(*args: str) -> tuple[int, str, str]:
    """``ndcg-eval ARGS``: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            status = main(list(args), stdout=out)
        except SystemExit as exit_:
            status = exit_.code
    return status, out.getvalue(), err.getvalue()
