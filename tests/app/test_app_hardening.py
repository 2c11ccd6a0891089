"""Issue 14 (hardening) through AppTest: the app never crashes, never loses work, shows user text as text."""

from __future__ import annotations

import pathlib
import re

import pytest
from apptest_support import ok
from streamlit.testing.v1 import AppTest

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def app(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run()


def test_item6_huge_k_in_the_link_keeps_the_page_usable():
    at = app({"rel": "3,2,1", "k": "9007199254740992"})
    ok(at)
    assert any("'k'" in w.value for w in at.warning)
    assert at.metric[0].value == "1.000" or at.metric[0].value == "1"  # 3,2,1 is ideal


# ---------------------------------------------------------------- item 5: user text is text

# Markdown link and image, HTML, LaTeX, an emoji shortcode, a colour directive, bold, code.
EVIL = "[x](https://evil.example/p) ![i](https://evil.example/a.png) <b>B</b> $x^2$ :smile: :red[hot] **b**"
UNESCAPED = {
    "link or image": re.compile(r"(?<!\\)\]\("),
    "html": re.compile(r"(?<!\\)<b"),
    "latex": re.compile(r"(?<!\\)\$x"),
    "emoji shortcode": re.compile(r":smile:"),
    "colour directive": re.compile(r":red\["),
    "bold": re.compile(r"(?<!\\)\*\*b"),
}
MESSAGE_TYPES = ("warning", "error", "info", "success", "caption", "markdown", "toast")
LABELLED_TYPES = ("metric", "text_input", "selectbox", "number_input", "radio", "button", "toggle")


def texts(at: AppTest) -> list[tuple[str, str]]:
    """Every message body and every metric/widget label the page shows."""
    out = []
    for kind in MESSAGE_TYPES:
        out += [(kind, str(e.value)) for e in at.get(kind)]
    for kind in LABELLED_TYPES:
        out += [(f"{kind} label", str(e.label)) for e in at.get(kind)]
    return out


def assert_no_markup(at: AppTest, min_hits: int = 1) -> None:
    ok(at)
    hits = [(kind, text) for kind, text in texts(at) if "evil" in text]
    assert len(hits) >= min_hits, f"the user text was not shown at all: {texts(at)}"
    for kind, text in hits:
        for what, pattern in UNESCAPED.items():
            assert not pattern.search(text), f"{what} would render in a {kind}: {text!r}"


@pytest.mark.parametrize("param", ["rel", "gain", "base", "zero", "ties", "k", "discount", "scores", "pool"])
def test_item5_share_link_warnings_show_the_value_as_text(param):
    at = app({"rel": "3,2,1", param: EVIL})
    assert any(param in w.value for w in at.warning), [w.value for w in at.warning]
    # Some warnings name only the parameter and what it accepts; any that quotes the value quotes text.
    quoting = param not in {"zero", "ties", "discount"}
    assert_no_markup(at, min_hits=1 if quoting else 0)


def test_item5_share_link_gain_table_warning_is_text():
    assert_no_markup(app({"rel": "3,2,1", "gain": "custom", "gains": EVIL}))


def test_item5_sidebar_gain_table_error_is_text():
    at = app({"rel": "3,2,1"})
    at.session_state["gain"] = "custom"
    at.session_state["gain_table"] = EVIL
    assert_no_markup(at.run())


def test_item5_quick_entry_error_is_text():
    at = app({"rel": "3,2,1"})
    at.text_area(key="quick_entry").set_value(f"3, {EVIL}").run()
    assert_no_markup(at)


def test_item5_explore_ranking_names_are_text():
    at = app({"rel": "3,2,1"}).switch_page("views/explore.py").run()
    ok(at)
    at.text_input(key="cmp_rank_0_name").set_value(EVIL[:20]).run()
    assert_no_markup(at, min_hits=2)  # metric label, widget label, winner message
    name = "$x$ :smile: evil"
    at.text_input(key="cmp_rank_0_name").set_value(name).run()
    assert_no_markup(at, min_hits=2)


def test_item5_explore_ranking_error_is_text():
    at = app({"rel": "3,2,1"}).switch_page("views/explore.py").run()
    at.text_input(key="cmp_rank_0").set_value(EVIL).run()
    assert_no_markup(at)


# ---------------------------------------------------------------- data sets: uploads and memory

QRELS_A = b"q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 1\n"
RUN_A = b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.8 t\nq2 Q0 d3 1 0.5 t\n"  # ideal: mean NDCG 1
RUN_B = b"q1 Q0 d2 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq2 Q0 d9 1 0.5 t\n"  # worse


def expected_mean(qrels: bytes, run: bytes) -> str:
    import io

    import ndcg_core

    table = ndcg_core.evaluate(
        ndcg_core.read_qrels(io.BytesIO(qrels)), ndcg_core.read_run(io.BytesIO(run)), 10
    )
    return ndcg_core.teaching.formula.number(ndcg_core.aggregate(table).mean_ndcg)


def datasets_page() -> AppTest:
    at = app({"rel": "1,0", "k": "10"}).switch_page("views/datasets.py").run()
    ok(at)
    return at


def upload(at: AppTest, kind: str, name: str, content: bytes) -> AppTest:
    version = at.session_state.get("ds_upload_version", 0)
    at.file_uploader(key=f"ds_{kind}_file_{version}").set_value((name, content, "text/plain"))
    return at.run()


def mean_shown(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Mean NDCG"))


def test_defect2_reuploading_a_file_of_the_same_name_shows_the_new_results():
    at = datasets_page()
    upload(at, "qrels", "qrels.txt", QRELS_A)
    upload(at, "run", "run.txt", RUN_A)
    ok(at)
    assert mean_shown(at) == expected_mean(QRELS_A, RUN_A) == "1.000" or mean_shown(at) == "1"
    at = upload(at, "run", "run.txt", RUN_B)  # same name, other content
    ok(at)
    assert mean_shown(at) == expected_mean(QRELS_A, RUN_B)
    assert expected_mean(QRELS_A, RUN_B) != expected_mean(QRELS_A, RUN_A)


def test_item7_a_scoring_error_keeps_the_previous_data_set():
    at = datasets_page()
    sample_mean = mean_shown(at)
    upload(at, "qrels", "twice.txt", b"q1 0 d1 2\nq1 0 d1 1\n")  # d1 judged twice: found when scoring
    upload(at, "run", "run.txt", RUN_A)
    ok(at)
    assert mean_shown(at) == sample_mean  # the sample is still the data set on screen
    assert any("Bundled sample" in c.value for c in at.caption)
    errors = [e.value for e in at.error]
    assert any("d1" in e and "judged twice" in e for e in errors), errors
    assert any("Still showing" in i.value and "nothing new is loaded" in i.value for i in at.info)


def test_item9_no_table_or_file_is_kept_in_session_state():
    import pandas as pd
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    at = datasets_page()
    upload(at, "qrels", "qrels.txt", QRELS_A)
    upload(at, "run", "run.txt", RUN_A)
    at.run()  # the page releases the uploads once the pair is loaded
    ok(at)
    assert mean_shown(at) == expected_mean(QRELS_A, RUN_A)

    def big(value) -> bool:
        if isinstance(value, (pd.DataFrame, pd.Series, UploadedFile)):
            return True
        if isinstance(value, (list, tuple)):
            return any(big(v) for v in value)
        if isinstance(value, dict):
            return any(big(v) for v in value.values())
        return isinstance(value, bytes) and len(value) > 10_000

    state = at.session_state._state.filtered_state  # user keys and keyed widgets' values
    # (The playground's editors hold their own small tables; the data-set keys must hold none.)
    held = [key for key, value in state.items() if key.startswith("ds_") and big(value)]
    assert not held, f"large data in session state: {held}"


def test_item9_a_loaded_pair_leaves_streamlits_upload_manager(monkeypatch):
    """Streamlit keeps a session's uploaded bytes until the session shuts down, and a closed tab's
    session is dropped after its reconnect time without being shut down: the page must remove the
    files itself once they are loaded, or every upload stays in the server's memory for good."""
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    removed = []
    real = MemoryUploadedFileManager.remove_file

    def remove_file(self, session_id, file_id):
        record = self.file_storage.get(session_id, {}).get(file_id)
        removed.append(record.name if record is not None else None)
        real(self, session_id, file_id)

    monkeypatch.setattr(MemoryUploadedFileManager, "remove_file", remove_file)
    at = datasets_page()
    upload(at, "qrels", "qrels.txt", QRELS_A)
    assert removed == []  # a lone file waits for its pair with its bytes
    upload(at, "run", "run.txt", RUN_A)
    ok(at)
    assert sorted(removed) == ["qrels.txt", "run.txt"]
    at.run()
    ok(at)
    assert mean_shown(at) == expected_mean(QRELS_A, RUN_A)  # the data set stays, from the stores


def test_item9_the_bundled_sample_is_parsed_once_per_process(monkeypatch):
    import streamlit as st

    import ndcg_core

    calls = []
    real = ndcg_core.read_run
    monkeypatch.setattr(ndcg_core, "read_run", lambda source: calls.append(source) or real(source))
    st.cache_resource.clear()
    st.cache_data.clear()
    for _ in range(3):
        datasets_page()
    assert len(calls) == 1, calls


# ---------------------------------------------------------------- item 8: every URL the app writes


def written_url_length(at: AppTest) -> int:
    from urllib.parse import urlencode

    return len("https://ndcg.example.org/?" + urlencode(at.query_params, doseq=True))


def test_item8_the_app_never_writes_a_url_over_8000_characters():
    import random

    rng = random.Random(0)
    at = app({"rel": "3,2,1"})
    text = ", ".join(f"doc-{rng.getrandbits(64):016x}:{rng.randint(0, 3)}" for _ in range(2_000))
    at.text_area(key="quick_entry").set_value(text).run()
    ok(at)
    assert len(at.session_state["pg_items"]) == 2_000
    assert written_url_length(at) < 8_000
    # ... and the app says so, offering the state as a file to download and load back.
    assert any("too large for a link" in i.value for i in at.info), [i.value for i in at.info]
    assert at.get("download_button"), "no download button for the state"


def test_item8_a_long_but_compressible_state_gets_a_compact_link():
    at = app({"rel": ",".join(str(i % 4) for i in range(5_000))})  # the most a link may hold
    ok(at)
    assert written_url_length(at) < 8_000
    assert set(at.query_params) == {"state"}


def test_item8_a_downloaded_state_file_loads_back():
    from ndcg_core.teaching.playground import from_query_params, state_to_file

    saved, _ = from_query_params({"rel": "0,1,2", "labels": "x,y,z", "discount": "jarvelin", "k": "2"})
    at = app({"rel": "3,2,1"})
    at.file_uploader(key="pg_state_file").set_value(("s.json", state_to_file(saved), "application/json"))
    at.run()
    ok(at)
    assert [(i.label, i.grade) for i in at.session_state["pg_items"]] == [("x", 0.0), ("y", 1.0), ("z", 2.0)]
    assert at.session_state["pg_spec"].variant == saved.variant
    assert at.query_params["rel"] == "0,1,2"


def test_minor_a_custom_base_close_to_1_is_kept_exactly():
    import math

    import ndcg_core

    at = app({"rel": "3,2,1", "base": "1.00001"})
    ok(at)
    assert at.session_state["pg_spec"].variant.log_base == 1.00001
    expected = ndcg_core.ndcg([3, 2, 1], log_base=1.00001)
    assert math.isclose(expected, 1.0)  # the list is ideal whatever the base; also check DCG
    dcg = 3 / math.log(2, 1.00001) + 2 / math.log(3, 1.00001) + 1 / math.log(4, 1.00001)
    shown = next(m.value for m in at.metric if m.label.startswith("DCG"))
    assert shown == f"{dcg:.3f}"


def test_item9_the_table_store_is_bounded_and_keeps_the_most_recently_used():
    import pandas as pd

    from views.datastore import TableStore, content_key

    table = pd.DataFrame({"x": range(1000)})  # 8,000 bytes of values + a small index
    size = int(table.memory_usage(index=True).sum())
    store = TableStore(budget_bytes=2 * size)
    store.put("a", table)
    store.put("b", table.copy())
    assert store.get("a") is table  # a is now the most recently used
    store.put("c", table.copy())
    assert store.get("b") is None and store.get("a") is table and store.get("c") is not None
    assert store.used() <= 2 * size
    assert content_key("run", b"same") == content_key("run", b"same") != content_key("run", b"other")


def test_item9_tables_nobody_uses_are_dropped_and_parsed_again_when_needed(monkeypatch):
    """Closed tabs' tables must not stay parsed: the store's bound evicts only when a new table
    comes in, so after a class leaves they stayed in memory for good (issue 14: held memory)."""
    from views import datastore

    now = [1000.0]
    store = datastore.TableStore(budget_bytes=10**9, size=len, clock=lambda: now[0])
    store.put("a", "table a")
    store.put("b", "table b")
    now[0] += 100
    assert store.get("a") == "table a"  # a read counts as a use
    now[0] += 100
    assert store.drop_idle(150) == 1
    assert store.get("b") is None and store.get("a") == "table a" and store.used() == len("table a")

    datastore.reset_stores()
    monkeypatch.setenv("NDCG_DATA_IDLE_S", "60")
    try:
        key = datastore.load("run", RUN_A, "a.txt")
        assert datastore.table_store().drop_idle(0) == 1  # as if a minute had passed
        assert datastore.table_store().get(key) is None
        again = datastore.get_table(key)  # from the compressed file
        assert again["doc"].tolist() == ["d1", "d2", "d3"] and again["score"].tolist() == [0.9, 0.8, 0.5]
    finally:
        datastore.reset_stores()


def test_item9_the_table_store_sweeps_idle_tables_by_itself(monkeypatch):
    import time

    from views import datastore

    datastore.reset_stores()
    monkeypatch.setenv("NDCG_DATA_IDLE_S", "0.2")
    try:
        key = datastore.load("run", RUN_A, "a.txt")
        store = datastore.table_store()
        deadline = time.monotonic() + 10
        while len(store) and time.monotonic() < deadline:  # len() is not a use
            time.sleep(0.1)
        assert len(store) == 0, "no sweeper dropped the idle table"
        assert datastore.get_table(key) is not None  # parsed again from its compressed file
    finally:
        datastore.reset_stores()


def test_item9_a_dropped_table_is_parsed_again_from_its_compressed_file(monkeypatch):
    from views import datastore

    datastore.reset_stores()
    monkeypatch.setenv("NDCG_DATA_CACHE_MB", "0.000001")  # room for one table only
    try:
        first = datastore.load("run", RUN_A, "a.txt")
        second = datastore.load("run", RUN_B, "b.txt")
        assert datastore.table_store().get(first) is None  # dropped from the parsed tables
        again = datastore.get_table(first)
        assert again["doc"].tolist() == ["d1", "d2", "d3"] and again["score"].tolist() == [0.9, 0.8, 0.5]
        assert datastore.get_table(second) is not None
    finally:
        datastore.reset_stores()


def test_item9_the_data_store_sets_glibcs_malloc_for_a_server_that_gives_memory_back(monkeypatch):
    """Two arenas and a fixed 128 kB mmap threshold: with glibc's defaults the server kept hundreds
    of MB the parser had freed (docs/performance.md, Memory). Checked by importing the module with a
    libc that records its mallopt calls (M_ARENA_MAX = -8, M_MMAP_THRESHOLD = -3 in glibc's malloc.h)."""
    import ctypes
    import importlib

    from views import datastore

    calls = []

    class Libc:
        def mallopt(self, param, value):
            calls.append((param, value))
            return 1

        def malloc_trim(self, pad):
            return 0

    monkeypatch.setattr(ctypes, "CDLL", lambda name: Libc())
    try:
        importlib.reload(datastore)
    finally:
        monkeypatch.undo()
        importlib.reload(datastore)
    assert sorted(calls) == [(-8, 2), (-3, 128 * 1024)]


def test_issue37_a_gzip_bomb_upload_stops_at_the_content_limit_with_a_message_naming_it(monkeypatch):
    """A small gzip that expands past NDCG_MAX_CONTENT_MB: the page names the file, the limit and
    the setting, is not read a second time as the other kind, and the previous data set stays."""
    import gzip

    from views import datastore

    monkeypatch.setenv("NDCG_MAX_CONTENT_MB", "2")
    reads = []
    real = datastore._parse
    monkeypatch.setattr(datastore, "_parse", lambda *a: reads.append(a[0]) or real(*a))
    at = datasets_page()
    sample_mean = mean_shown(at)
    bomb = gzip.compress(b"q1 Q0 d1 1 1.0 t\n" * 65_536) * 8  # 8.9 MB of lines in 14 kB
    upload(at, "run", "bomb.gz", bomb)
    ok(at)
    errors = [e.value.replace("`", "").replace("\\", "") for e in at.error]
    said = next(e for e in errors if "bomb.gz" in e)
    assert "expands to more than 2 MB" in said and "NDCG_MAX_CONTENT_MB" in said, said
    assert reads == ["run"]  # not tried as qrels too
    assert mean_shown(at) == sample_mean


def test_issue37_bad_settings_are_said_naming_the_variable_and_what_it_accepts(monkeypatch, tmp_path):
    """NDCG_PROGRESS_DAYS=abc gave a traceback at start and on every Practice answer;
    NDCG_DATA_CACHE_MB=abc was taken silently. Every variable the app reads is checked at once."""
    from ndcg_core.errors import error_text
    from views import environment

    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    assert environment.problems() == []
    for name in environment.CHECKS:
        if name in ("NDCG_DATA_DIR", "NDCG_DATABASE_URL"):
            continue  # a file or a URL: tests/app/test_serve.py
        monkeypatch.setenv(name, "abc")
        found = [error_text(err) for err in environment.problems()]
        assert len(found) == 1 and found[0].startswith(name), (name, found)
        monkeypatch.delenv(name)
    # every NDCG_ variable the app's code reads is checked, and documented
    root = ROOT
    read = set()
    for folder in ("ndcg_core", "views", "scripts"):
        for path in (root / folder).rglob("*.py"):
            read |= set(re.findall(r"\b(NDCG_[A-Z_]+)\b", path.read_text()))
    read |= {"NDCG_THREADS"}  # named through THREADS_VARIABLE
    tests_only = {"NDCG_CHROMIUM", "NDCG_PG_BIN", "NDCG_NGINX"}  # the screenshot script's and the tests'
    assert read - tests_only - set(environment.CHECKS) == set()
    documented = (root / "docs" / "deployment.md").read_text()
    assert [name for name in environment.CHECKS if f"`{name}`" not in documented] == []


def test_issue37_an_uncaught_failure_anywhere_shows_no_traceback_path_or_address(monkeypatch):
    """The last guard (.streamlit/config.toml, showErrorDetails): a fault no part of the app caught
    shows one generic sentence, not the exception's type, message or traceback. (A page of its own
    that fails: any page of the app would, under the same configuration.)"""
    monkeypatch.chdir(ROOT)  # the app's configuration, as `make run` serves it
    script = "raise RuntimeError('File \"/srv/app/secret.py\", line 1: db.internal:5432 refused')"
    at = AppTest.from_string(script, default_timeout=60).run()
    assert at.exception, "the fault was expected to reach Streamlit"
    for shown_error in at.exception:
        assert shown_error.stack_trace == []
        for leak in ("secret.py", "db.internal", "5432", "RuntimeError", "Traceback"):
            assert leak not in shown_error.message


def test_issue37_tables_offer_no_unescaped_export_and_the_data_sets_page_its_own_escaped_csv():
    """Streamlit's table toolbar downloaded cells as they are (=HYPERLINK(...) live in a spreadsheet):
    it is off app-wide, and the per-query table has the app's own CSV, escaped as every CSV the app
    writes (ndcg_core.teaching.export.table_csv)."""
    import streamlit.config

    from ndcg_core.teaching.export import table_csv

    at = upload(
        upload(datasets_page(), "qrels", "q.txt", b"=HYPERLINK(1) 0 d1 1\n"),
        "run",
        "r.txt",
        b"=HYPERLINK(1) Q0 d1 1 0.5 t\n",
    )
    ok(at)
    assert streamlit.config.get_option("client.disableDataExport") is True
    assert "ds_csv" in {b.key for b in at.get("download_button")}
    import pandas as pd

    text = table_csv(pd.DataFrame({"query": ["=HYPERLINK(1)"], "ndcg": [1 / 3]}), exact=True)
    assert text.splitlines()[1] == "'=HYPERLINK(1),0.3333333333333333"
