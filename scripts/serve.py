"""Serve the app: ``streamlit run server.py``, with what every session needs made ready meanwhile.

    python scripts/serve.py [streamlit options, e.g. --server.port 8501]

``make run`` (and so the Dockerfile) starts the app this way. It is ``streamlit run server.py`` (the
pages of ``app.py``, and the route waiting phones ask: ``views.room.poll``) with
the same options and config, plus one background thread: as soon as the server accepts browsers,
it imports the modules the first page runs on (pandas, plotly, numpy, the app's own) and builds
the playground's default charts and formulas (``ndcg_core.teaching.rendering.warm``), while the browser is
still fetching the page's static files. The first visitor's script run then finds them done
instead of paying for them. The warm-up waits for the server to be up, so the server is not
slowed in answering; a failed warm-up only means the first page pays as before (the script
imports the same modules). ``streamlit run app.py`` still works without it (phones then poll through
their page, every 15 s).

Before the server starts it prints the local address and the machine's network address, the one
phones on the same network open (or ``NDCG_PUBLIC_URL`` when set): see :func:`addresses_text`. Once
it is up, the warm-up thread also prints what is wrong with the database settings, if anything
(:func:`settings_text`): Class mode and saved progress say so on their pages too, but whoever starts
the app should not learn it from a student. Nothing before the server starts imports the class
store or the teaching layer (``tests/app/test_serve.py``): they took half of its start-up.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "server.py"
# The app's folder on sys.path, as Streamlit puts it for the script run: the same module names, so
# the modules prepare() imports are the very modules the script run then finds loaded.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from views.ui.internals import run_server, server_is_up  # noqa: E402

#: What the first page's script run imports, less the modules that must be imported inside a script
#: run: streamlit_sortables registers its component with the running app only when imported there
#: (imported here, its drag list would never load), so views.ui (whose drag module imports it) is left too.
FIRST_PAGE_MODULES = (
    "pandas",
    "plotly.graph_objects",
    "streamlit.components.v1",
    "ndcg_core",
    "ndcg_core.teaching.chart_text",
    "ndcg_core.teaching.compare",
    "ndcg_core.teaching.drilldown",
    "ndcg_core.teaching.export",
    "ndcg_core.teaching.history",
    "ndcg_core.teaching.lesson",
    "ndcg_core.teaching.pages",
    "ndcg_core.teaching.playground",
    "ndcg_core.teaching.rendering",
    "ndcg_core.teaching.uploads",
    "ndcg_core.settings",
    # Imported on first use since issue 40 (ndcg_core's lazy names); the page helpers import them.
    "ndcg_core.compare_runs",
    "ndcg_core.classroom.onetime",
    "ndcg_core.dataset.judged",
    "ndcg_core.dataset.overlap",
    "ndcg_core.dataset.robustness",
    "ndcg_core.dataset.sources",
)


def prepare() -> None:
    """Import what the first page needs and build the playground's default charts and formulas."""
    for name in FIRST_PAGE_MODULES:
        importlib.import_module(name)
    importlib.import_module("ndcg_core.teaching.rendering").warm()


def warm_up(poll: float = 0.02, timeout: float = 120.0) -> None:
    """Once the server accepts browsers (so it is not slowed in starting): :func:`prepare`, then
    what is wrong with the settings, if anything (:func:`settings_text`, on standard error). That
    check loads the class store (SQLAlchemy and the teaching layer, 0.2-0.4 s here), which the
    server itself no longer waits for; it is said a moment after the addresses, still long before a
    student could meet the problem."""
    deadline = time.monotonic() + timeout
    while not server_is_up():
        if time.monotonic() > deadline:
            return
        time.sleep(poll)
    prepare()
    if warning := settings_text():
        print(warning, file=sys.stderr, flush=True)


def _option(args: list[str], name: str) -> str | None:
    """The value of the Streamlit option ``--name VALUE`` or ``--name=VALUE`` in ``args`` (the last wins)."""
    value = None
    for i, arg in enumerate(args):
        if arg == f"--{name}" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(f"--{name}="):
            value = arg.split("=", 1)[1]
    return value


def addresses_text(args: list[str], interfaces: dict[str, list[str]], public_url: str | None) -> str:
    """What the launcher prints: the local address, and the one phones on the same network open.

    ``interfaces`` is ``{interface: [address]}`` (``ndcg_core.classroom.address.interface_addresses``).
    """
    from ndcg_core.classroom.address import join_base, network_addresses

    port = _option(args, "server.port") or "8501"
    local = f"http://localhost:{port}"
    bound = _option(args, "server.address")
    base = join_base(local, public_url, network_addresses(interfaces), bound)
    lines = [f"Local:   {local}   (this computer only; Ctrl+C stops the app)"]
    if base.source == "public":
        lines.append(f"Public:  {base.url}   (NDCG_PUBLIC_URL: the students' join links)")
    elif base.source == "bound":
        lines.append(f"Network: none, the app listens on {bound} only (--server.address)")
    elif base.reachable:
        lines.append(
            f"Network: {base.url}   (phones and laptops on the same network; Class mode's join links)"
        )
        lines += [f"         {other}" for other in base.others]
    else:
        lines.append(
            "Network: none found. Phones cannot reach this computer: connect it to the students' "
            "network, or set NDCG_PUBLIC_URL to the address they reach."
        )
    return "\n".join(lines)


def settings_text() -> str:
    """Empty when every ``NDCG_`` variable the app reads has a value it accepts
    (:data:`views.environment.CHECKS`); else one warning per problem, in the words the pages use
    (never a database URL's host, port or password). Nothing is sent to a database server: its URL
    is only parsed."""
    from ndcg_core.classroom.store import StoreUnusable
    from ndcg_core.errors import error_text
    from views.environment import problems

    return "\n".join(
        f"Warning: {error_text(err)}. "
        + (
            "Class mode and saved progress will not work until this is fixed; the rest of the app does."
            if isinstance(err, StoreUnusable)
            else "The part of the app that uses it says so until this is fixed."
        )
        for err in problems()
    )


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    from ndcg_core.classroom.address import interface_addresses

    print(addresses_text(args, interface_addresses(), os.environ.get("NDCG_PUBLIC_URL")), flush=True)
    threading.Thread(target=warm_up, name="ndcg-warm-up", daemon=True).start()
    run_server(["run", str(APP), *args])


if __name__ == "__main__":
    main()
