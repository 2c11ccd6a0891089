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


def wait_until_healthy(url: str, proc: subprocess.Popen, timeout: float, poll: float, why: str) -> None:
    """Return once the server at ``url`` answers its health check; RuntimeError(why) if it dies first
    or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(why)
        time.sleep(poll)


@contextlib.contextmanager
def streamlit_server(timeout: float = 60.0, script: str | pathlib.Path | None = None):
    """Serve the app as ``make run`` does (``scripts/serve.py``), or ``streamlit run script`` for any
    other script, on loopback; yield its base URL; stop it by PID."""
    port = free_port()
    ours = script is None or pathlib.Path(script).resolve() == ROOT / "app.py"
    launcher = [str(ROOT / "scripts" / "serve.py")] if ours else ["-m", "streamlit", "run", str(script)]
    cmd = [sys.executable, *launcher, *server_options(port)]
    # One log per pytest-xdist worker: workers' servers never write into one file.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    log = open(ROOT / "tests" / f".streamlit-server{'-' + worker if worker else ''}.log", "w")  # noqa: SIM115
    # What the app saves (learners' progress, rooms) goes to a folder of this server's own, unless the
    # caller chose one: never into the work tree's data/.
    data = tempfile.mkdtemp(prefix="ndcg-data-")
    env = {**os.environ, "NDCG_DATA_DIR": os.environ.get("NDCG_DATA_DIR") or data}
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, proc, timeout, 0.2, f"streamlit did not start; see {log.name}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(data, ignore_errors=True)


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
