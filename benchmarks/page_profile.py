"""Where a whole-page rerun of the Playground spends its CPU, by helper and by module (issue 39).

Runs the app under Streamlit's own script runner (AppTest, sharing the server's compiled-script
cache as ``app_speed.py`` does), clicks the one-click "Reverse" order ``--repeats`` times, and
prints the median process CPU of a rerun beside the bare page's (``peer_minimal_app.py``) and the
floor's (``page_floor.py``: the same elements, nothing computed), each run the same way; then, per
helper, the thread CPU it took per run (``time.thread_time`` around each call: nested helpers are
counted in their callers too). No profiler runs for these figures, so they are the code's own.
``--by-module`` then profiles the same reruns with cProfile and prints each package's own time
(Streamlit, pandas, the app's modules, ...) as a share of the run: the profiler's overhead makes
every figure about twice as large, so read the shares, not the milliseconds.

    python benchmarks/page_profile.py [--repeats 40] [--by-module]
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import functools
import importlib
import pstats
import statistics
import sys
import time

from app_speed import APP, FLOOR, PEER, as_the_server_runs, server_rerun_ms, warm_app

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


#: Where a profiled function's own time is counted: the first of these its file's path contains.
PACKAGES = ("/views/", "/ndcg_core/", "/streamlit/", "/pandas/", "/pyarrow/", "/plotly/", "/numpy/")


def by_module(at, repeats: int) -> None:
    """Each package's own time in ``repeats`` profiled reruns after the reorder button, as shares.

    The script runs on a thread of its own, where cProfile is switched on and off around the run
    (Streamlit's ``ScriptRunner._run_script``, wrapped for this measurement only)."""
    from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

    profile, run_script = cProfile.Profile(), ScriptRunner._run_script

    def profiled(*args, **kwargs):
        profile.enable()
        try:
            return run_script(*args, **kwargs)
        finally:
            profile.disable()

    ScriptRunner._run_script = profiled
    try:
        for _ in range(repeats):
            at.button(key="order_reverse").click().run()
    finally:
        ScriptRunner._run_script = run_script
    own: collections.Counter[str] = collections.Counter()
    for (path, _line, _name), (_calls, _primitive, self_time, _total, _callers) in pstats.Stats(
        profile
    ).stats.items():
        own[next((p.strip("/") for p in PACKAGES if p in path), "Python and the rest")] += self_time
    total = sum(own.values())
    print("own time by package (cProfile: shares; its overhead doubles the milliseconds)")
    for name, seconds in own.most_common():
        print(f"{100 * seconds / total:6.1f} %  {seconds / repeats * 1000:6.2f} ms  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--by-module", action="store_true", help="also a cProfile of the reruns, by package")
    args = parser.parse_args()
    (peer, _), (floor, _) = server_rerun_ms(PEER, 6, args.repeats), server_rerun_ms(FLOOR, 6, args.repeats)
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
        ours = statistics.median(runs)
        print(f"whole-page rerun, 6 items: {ours:.1f} ms of CPU (median), {ours / peer:.1f} x the bare page")
        print(f"  the bare page: {peer:.1f} ms; the same elements, nothing computed: {floor:.1f} ms")
        print(f"  ({floor / peer:.1f} x the bare page); the app's own code: {ours - floor:.1f} ms more")
        for name, seconds in spent.most_common():
            print(f"{seconds / args.repeats * 1000:7.2f} ms  {name}")
        if args.by_module:
            by_module(at, args.repeats)


if __name__ == "__main__":
    main()
