"""NDCG, step by step: the Streamlit entry point. It only wires pages together.

Run with ``make run`` (or ``streamlit run app.py``).
"""

from pathlib import Path

import streamlit as st

from ndcg_core.i18n import _, language
from views.pages import PAGES, navigation_page, page_at
from views.ui import styles
from views.ui.a11y import page_setup
from views.ui.drag import DRAG_LIST_CSS
from views.ui.formula import formula_controls
from views.ui.language import init_language, language_switch, language_warnings
from views.ui.learner import cookie_writer, init_learner
from views.ui.session import collect_garbage, count_run, warm_process
from views.ui.share import init_session, open_on
from views.ui.start import note_page, phone_nav_script

ROOT = Path(__file__).parent

init_language()  # before any text: the page title is translated too
APP_TITLE = _("NDCG, step by step")
st.set_page_config(page_title=APP_TITLE, page_icon=":material/leaderboard:", layout="wide")
st.html(f"<style>{styles.APP}{styles.for_language(language())}{DRAG_LIST_CSS}</style>")
page_setup()  # <html lang>, the drag lists' names, the live region (views/ui/a11y.py)

count_run()
init_session()
init_learner()  # the learner's saved progress, from the link or this browser's cookie

# Every page once (views/pages.py): Learn first; the Playground stays the default page at "/".
page = st.navigation([navigation_page(p) for p in PAGES.values()], position="top")
# Each page its own browser-tab title (what a screen reader says first, and what a tab list shows).
st.set_page_config(page_title=f"{page.title} · {APP_TITLE}")
note_page(page.url_path)  # a first visit to "/" without a link gets the start panel
shown = page_at(page.url_path)
open_on(shown.name, shown.opening)  # Learn opens on the common formula (views/pages.py)
scope = shown.formula  # which formula the page's sidebar shows, if any
with st.sidebar:
    language_switch()  # every page, with or without formula controls
    if scope is not None:
        formula_controls(scope)
    st.html(phone_nav_script(page.url_path), unsafe_allow_javascript=True)  # closes once a page is chosen
language_warnings(page.url_path)  # a link's bad lang, named above the page
page.run()
with st.sidebar:
    cookie_writer()  # a learner token issued (or a start panel ended) during the page's run
warm_process()  # once per process, after the first page is drawn
collect_garbage()  # at most every 10 s (Streamlit's after every run is off: .streamlit/config.toml)
