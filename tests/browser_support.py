"""Start the app on a free loopback port and launch Debian's Chromium for Playwright."""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    path = os.environ.get("NDCG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not pathlib.Path(path).exists():
        raise RuntimeError(
            f"Chromium not found at {path}: install Debian's 'chromium' (make test does) or set NDCG_CHROMIUM"
        )
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_options(port: int) -> list[str]:
    """Streamlit's options for a test or bench server: loopback, headless, no usage stats, no file watcher."""
    return [
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]


def wait_until_healthy(
    url: str, proc: subprocess.Popen, timeout: float, poll: float, why: str, path: str = "/_stcore/health"
) -> None:
    """Return once the server at ``url`` answers its health check (``path``: Streamlit's, or another
    server's); RuntimeError(why) if it dies first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}{path}", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(why)
        time.sleep(poll)


#: The process id of each running test server, by its URL.
SERVER_PIDS: dict[str, int] = {}


@contextlib.contextmanager
def streamlit_server(
    timeout: float = 60.0,
    script: str | pathlib.Path | None = None,
    data_dir: str | pathlib.Path | None = None,
    env: dict[str, str] | None = None,
):
    """Serve the app as ``make run`` does (``scripts/serve.py``), or ``streamlit run script`` for any
    other script, on loopback; yield its base URL; stop it by PID.

    What the app saves (learners' progress, Class rooms) goes to ``data_dir`` when given (the caller's
    to remove; a test reads the rooms there through ``ndcg_core.classroom.Store``), else to a folder
    of this server's own, never into the work tree's data/. ``env``: more environment variables for
    the server. :data:`SERVER_PIDS` maps the URL to the server's process id while it runs (a test
    reads its memory)."""
    port = free_port()
    ours = script is None or pathlib.Path(script).resolve() == ROOT / "app.py"
    launcher = [str(ROOT / "scripts" / "serve.py")] if ours else ["-m", "streamlit", "run", str(script)]
    cmd = [sys.executable, *launcher, *server_options(port)]
    # One log per pytest-xdist worker: workers' servers never write into one file.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    log = open(ROOT / "tests" / f".streamlit-server{'-' + worker if worker else ''}.log", "w")  # noqa: SIM115
    own = None if data_dir is not None else tempfile.mkdtemp(prefix="ndcg-data-")
    folder = str(data_dir or os.environ.get("NDCG_DATA_DIR") or own)
    env = {**os.environ, "NDCG_DATA_DIR": folder, **(env or {})}
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    SERVER_PIDS[url] = proc.pid
    try:
        wait_until_healthy(url, proc, timeout, 0.2, f"streamlit did not start; see {log.name}")
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if own is not None:
            shutil.rmtree(own, ignore_errors=True)


def drag(page, source, target, *, onto: str = "top") -> None:
    """Drag ``source`` onto ``target`` (locators) the way a person does, over several pointer events.

    dnd-kit needs movement between pointer down and up; a single jump does nothing. ``onto="top"``
    drops just inside the target's top edge (the item lands above it), ``"centre"`` on its middle.
    """
    src, dst = source.bounding_box(), target.bounding_box()
    y = dst["y"] + 2 if onto == "top" else dst["y"] + dst["height"] / 2
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, y, steps=12)
    page.mouse.up()


#: Presenter mode's layout: which elements scroll, and where the table, the buttons and the title are.
LAYOUT_JS = """() => {
  const scrolling = [];
  for (const el of document.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    const scrollable = ['auto', 'scroll'].includes(style.overflowY) || el === document.scrollingElement;
    if (scrollable && el.scrollHeight > el.clientHeight + 1) {
      scrolling.push(el.dataset.testid || el.className || el.tagName);
    }
  }
  const box = sel => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {scrolling, table: box('table.learn-table'), nav: box('.st-key-learn_nav'),
          title: box('.learn-title'), width: innerWidth, height: innerHeight};
}"""


def assert_fits(page) -> None:
    """Presenter mode fits the screen: nothing scrolls, the table, buttons and title are inside it."""
    layout = page.evaluate(LAYOUT_JS)
    assert layout["scrolling"] == [], layout
    for name in ("table", "nav", "title"):
        left, top, right, bottom = layout[name]
        assert left >= 0 and top >= 0 and right <= layout["width"] and bottom <= layout["height"], (
            name,
            layout,
        )


# ------------------------------------------------------------------ keyboard journeys (issue 28)

#: Whether the focused element (inside a frame too) matches a CSS selector.
FOCUSED_JS = """selector => {
  let el = document.activeElement;
  if (el && el.tagName === 'IFRAME') el = el.contentDocument.activeElement;
  return !!el && el.matches(selector);
}"""

#: The focused element in a few words (tag, name or text, the keyed container it is in): what a
#: failing Tab walk went through, to tell a focus trap from a page that changed.
WHERE_JS = """() => {
  const el = document.activeElement;
  const keyed = el.closest('[class*="st-key-"]');
  const name = (el.getAttribute('aria-label') || el.innerText || '').slice(0, 40).replace(/\\s+/g, ' ');
  const key = keyed ? [...keyed.classList].filter(c => c.startsWith('st-key-')).join(',') : '';
  return `${el.tagName} ${name} | ${key}`;
}"""


#: The page's script has run (Streamlit marks its app element) and no chart is a placeholder still.
_SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[class*="st-key-pending_chart_"]');
}"""


def settled(page, timeout: float = 15_000) -> None:
    """The script has run and the session's first chart has replaced its placeholder (a rerun).

    Through the page's own functions, not Playwright's ``expect``: this module is shared with the
    benchmarks and the unit layers, which run without Playwright (tests/engine/test_purity.py)."""
    page.wait_for_function(_SETTLED_JS, timeout=timeout)
    page.wait_for_function(_SETTLED_JS, timeout=timeout)  # and still so after the chart's rerun


def tab_to(page, selector: str, limit: int = 90, back: bool = False) -> int:
    """Press Tab (Shift+Tab with ``back``) until the focus is on ``selector``; how many presses."""
    walked = []
    for presses in range(1, limit + 1):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate(FOCUSED_JS, selector):
            return presses
        walked.append(page.evaluate(WHERE_JS))
    went = "\n".join(walked)
    raise AssertionError(f"{limit} Tab presses never reached {selector}; the focus went:\n{went}")


def focused(page, selector: str, timeout: float = 15_000) -> None:
    """The focus is on ``selector`` (retried: it moves once the page has redrawn)."""
    page.wait_for_function(f"() => ({FOCUSED_JS})({selector!r})", timeout=timeout)


# ------------------------------------------------------------------ Class rooms made through the store


def open_question(store, definition: dict) -> tuple[str, str, int]:
    """A new room whose question ``definition`` (``ndcg_core.classroom``'s practice_definition or
    playground_definition) is open for answers: (code, lecturer key, question number)."""
    code, key = store.create_room()
    number = store.ask(code, key, definition).number
    store.set_status(code, key, number, "open")
    return code, key, number


# ------------------------------------------------------------------ uploads and select boxes

#: Counts the script runs that end from now on (the app element's run state leaving "running"), and
#: keeps the time of the last change of that state.
_COUNT_RUNS_JS = """() => {
  if (window.__ndcgRunsEnded === undefined) {
    window.__ndcgRunsEnded = 0;
    window.__ndcgRunChanged = performance.now();
    new MutationObserver((records) => {
      for (const r of records) {
        window.__ndcgRunChanged = performance.now();
        if (r.oldValue === 'running') window.__ndcgRunsEnded += 1;
      }
    }).observe(document.body, {attributes: true, attributeOldValue: true, subtree: true,
                               attributeFilter: ['data-test-script-state']});
  }
  return window.__ndcgRunsEnded;
}"""

#: No script run now, and none started or ended for the last 0.7 s.
_QUIET_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return !!app && app.getAttribute('data-test-script-state') !== 'running'
    && performance.now() - window.__ndcgRunChanged > 700;
}"""


#: An upload Streamlit lost: no run going, and its uploader holds no file at all.
_LOST_JS = """(sel) => (!document.querySelector(sel + ' [data-testid=stFileChip]')
    || !!document.querySelector(sel + ' [data-testid=stFileChipIconSpinner]'))
  && document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') !== 'running'"""


def quiet(page, timeout: float = 60_000) -> None:
    """Settled (:func:`settled`), and no run started or ended for 0.7 s: a run that draws a component
    can bring another run shortly after it, which would catch an upload's request in flight."""
    page.evaluate(_COUNT_RUNS_JS)
    settled(page, timeout=timeout)
    page.wait_for_function(_QUIET_JS, timeout=timeout)


def upload(page, uploader: str, *paths, choose=None) -> None:
    """Put ``paths`` into the file uploader in the container ``uploader`` (CSS), and return once the
    app has run with them.

    Files go in one uploader at a time: Streamlit 1.67 drops the answer to an uploader's request
    for upload addresses when a script run starts before that answer has left the server (its
    ForwardMsgQueue keeps only life-cycle messages then), and the file silently never arrives. A
    person picking the next file takes longer than that; a test must wait for it. Another run can
    still start at that moment (a keyboard user's Tab presses can bring one): a file that never shows
    in its uploader within 20 s, or shows there still uploading (its few bytes take milliseconds),
    is picked again, as the page's documentation tells a person to do.
    ``choose`` (``callable(paths)``) puts the files in another way, e.g. through the keyboard.
    """
    done = """([sel, runs]) => window.__ndcgRunsEnded > runs
                 && !document.querySelector(sel + ' [data-testid=stFileChipIconSpinner]')"""
    for attempt in range(1, 4):
        quiet(page)
        runs = page.evaluate(_COUNT_RUNS_JS)
        if choose is None:
            page.locator(f"{uploader} input[type=file]").set_input_files([str(p) for p in paths])
        else:
            choose(paths)
        # The upload's own run (the uploader may be a fresh, empty one by then: a loaded pair resets them)
        try:
            page.wait_for_function(done, arg=[uploader, runs], timeout=20_000)
            break
        except Exception as err:  # Playwright's TimeoutError (this module does not import Playwright)
            if type(err).__name__ != "TimeoutError":
                raise
            lost = page.evaluate(_LOST_JS, uploader)
            if not lost or attempt == 3:  # still uploading, or lost three times: wait, then fail
                page.wait_for_function(done, arg=[uploader, runs], timeout=60_000)
                break
            # Streamlit lost the upload (the uploader stayed empty): pick the files again, as a person would.
    quiet(page)


def choose_option(page, selectbox: str, option: str) -> None:
    """Open the select box in the container ``selectbox`` (CSS), pick ``option`` (its whole text,
    another than the one shown), and return once the app has run with it: an option list opened
    while a run redraws the page can close under the click."""
    quiet(page)
    runs = page.evaluate(_COUNT_RUNS_JS)
    page.locator(selectbox).get_by_role("combobox").click()
    page.get_by_role("option", name=option, exact=True).click()
    page.wait_for_function(f"() => window.__ndcgRunsEnded > {runs}", timeout=60_000)
    quiet(page)
