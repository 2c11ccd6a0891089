"""Where a whole-page rerun of the Playground spends its CPU, by helper (issue 39).

Runs the app under Streamlit's own script runner (AppTest, sharing the server's compiled-script
cache as ``app_speed.py`` does), clicks the one-click "Reverse" order ``--repeats`` times, and
prints the median process CPU of a rerun and, per helper, the thread CPU it took per run
(``time.thread_time`` around each call: nested helpers are counted in their callers too). No
profiler runs, so the figures are the code's own, not a profiler's (yappi's were 5-8 times larger).

    python benchmarks/page_profile.py [--repeats 40]
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import statistics
import sys
import time

from app_speed import APP, as_the_server_runs, warm_app

#: (module, function): what app.py and the Playground draw on a run.
HELPERS = [
    ("views.ui.a11y", "page_setup"),
    ("views.ui.language", "language_switch"),
    ("views.ui.formula", "formula_controls"),
    ("views.ui.learner", "browser_cookies"),
    ("views.ui.learner", "cookie_writer"),
    ("views.ui.start", "where_next"),
    ("views.screens.playground", "render"),
    ("views.screens.playground", "_body"),
    ("views.screens.playground", "_metrics"),
    ("views.screens.playground", "_tables"),
    ("views.screens.playground", "_order_controls"),
    ("views.screens.playground", "_edit_controls"),
    ("views.screens.playground", "_pool_controls"),
    ("views.screens.playground", "_gallery"),
    ("views.ui.tables", "step_table"),
    ("views.ui.items", "items_table"),
    ("views.ui.drag", "drag_list"),
    ("views.ui.charts", "chart"),
    ("views.ui.charts", "chart_text"),
    ("views.ui.history", "history_buttons"),
    ("views.ui.share", "sync_url"),
    ("views.ui.share", "state_file_controls"),
    ("ndcg_core.teaching.export", "table_html"),
    ("ndcg_core.i18n", "_"),
]

spent: collections.Counter[str] = collections.Counter()


def timed(module_name: str, name: str) -> None:
    """Wrap ``module.name`` (and every views/ndcg_core module's own reference to it)."""
    module = importlib.import_module(module_name)
    f = getattr(module, name)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        start = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[f"{module_name}.{name}"] += time.thread_time() - start

    for other in list(sys.modules.values()):
        if (
            getattr(other, "__name__", "").startswith(("views", "ndcg_core"))
            and getattr(other, name, None) is f
        ):
            setattr(other, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    with as_the_server_runs():
        at = warm_app(APP, 6)
        for module_name, name in HELPERS:
            timed(module_name, name)
        for _ in range(3):
            at.button(key="order_reverse").click().run()
        spent.clear()
        runs = []
        for _ in range(args.repeats):
            button = at.button(key="order_reverse")
            start = time.process_time()
            button.click().run()
            runs.append((time.process_time() - start) * 1000)
    print(f"whole-page rerun, 6 items: median {statistics.median(runs):.1f} ms of process CPU")
    for name, seconds in spent.most_common():
        print(f"{seconds / args.repeats * 1000:7.2f} ms  {name}")


if __name__ == "__main__":
    main()
