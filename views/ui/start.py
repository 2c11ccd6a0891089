"""The way in: a start panel for a first visit, "where next" at the end of every page, and a
phone's navigation that gets out of the way.

The Playground stays the page at ``/`` (every share link ``/?rel=...`` opens it, as before). A
visitor whose session starts there with no list in the link, and whose browser has not seen the
panel (the cookie :data:`~views.ui.learner.START_COOKIE`), finds a start panel on top of it: what
NDCG is for in two sentences, and three paths. Taking one, dismissing the panel, or opening any
other page ends it, for this browser.
"""

from __future__ import annotations

import streamlit as st

from ndcg_core.i18n import _

from ..pages import PAGES
from . import keys, learner, styles
from .learner import START_COOKIE, want_cookie

#: On a narrow screen Streamlit moves the navigation into the sidebar, and the sidebar stayed open
#: over the page a student had just picked. The run that draws a new page draws this script, which
#: closes the sidebar once on a phone-sized window. It is the page change, counted on the server, that
#: closes it, not a tap the browser saw: Streamlit fetches the code that runs these scripts when a page
#: first draws one, and on a slow network a student taps before it arrives (a listener for the tap was
#: not there yet and the sidebar stayed open). ``window.__ndcgNavClosed`` keeps a script drawn again
#: (the sidebar redrawn) from closing a sidebar the student opened again on the same page.
_PHONE_NAV_JS = """<div class="ndcg-quiet"></div><script>
(() => {
  const change = %(change)d;  // the session's page changes so far
  if (change <= (window.__ndcgNavClosed || 0)) return;
  window.__ndcgNavClosed = change;
  if (window.innerWidth > 768) return;  // wider than Streamlit's phone layout
  const started = Date.now();
  const close = () => {
    const button = document.querySelector('%(button)s');
    const open = document.querySelector('%(open)s');
    if (button && open) button.click();
    else if (Date.now() - started < 3000) setTimeout(close, 100);  // not drawn yet
  };
  close();
})();
</script>"""


def phone_nav_script(url_path: str) -> str:
    """The script that closes a phone's sidebar after a page change (drawn in the sidebar by app.py)."""
    ss = st.session_state
    if ss.get(keys.NAV_PAGE, url_path) != url_path:
        ss[keys.NAV_CHANGES] = ss.get(keys.NAV_CHANGES, 0) + 1
    ss[keys.NAV_PAGE] = url_path
    return _PHONE_NAV_JS % {
        "change": ss.get(keys.NAV_CHANGES, 0),
        "button": styles.SIDEBAR_CLOSE_BUTTON,
        "open": styles.SIDEBAR_OPEN,
    }


def end_start() -> None:
    """The start panel has done its work: not again in this session, nor in this browser."""
    st.session_state[keys.START_DONE] = True
    want_cookie(START_COOKIE, "1")


def note_page(url_path: str) -> None:
    """Every run (app.py): remember how the session began; any page but the Playground ends the start."""
    ss = st.session_state
    if keys.START_FIRST not in ss:
        bare = not (set(st.query_params.to_dict()) - {"lang"})
        ss[keys.START_FIRST] = url_path == "" and bare
    if url_path != "" and not ss.get(keys.START_DONE):
        end_start()


def start_panel() -> None:
    """The start panel, on a first visit only (see the module's docstring)."""
    ss = st.session_state
    if not ss.get(keys.START_FIRST) or ss.get(keys.START_DONE) or learner.browser_cookies().get(START_COOKIE):
        return
    with st.container(border=True, key="start_panel"):
        st.markdown("## " + _("New to NDCG? Start here"))
        st.markdown(
            _(
                "NDCG scores a ranked list, such as search results or recommendations, by how well it "
                "puts the most relevant items first: 1 is the best possible order. Search engines and "
                "recommenders are measured and compared with it."
            )
        )
        with st.container(horizontal=True, key="start_paths"):
            learn = st.button(
                _("Learn it, step by step"), key="start_learn", type="primary", icon=":material/school:"
            )
            if learn:
                end_start()
                st.switch_page(PAGES["learn"].script)
            if st.button(_("Test yourself"), key="start_practice", icon=":material/quiz:"):
                end_start()
                st.switch_page(PAGES["practice"].script)
            st.button(
                _("Play with a list"),
                key="start_playground",
                icon=":material/tune:",
                on_click=end_start,
                help=_("Close this panel and play with the list below"),
            )


def where_next(page: str) -> None:
    """The end of a page: the suggested next pages, then every page (on a phone the navigation
    hides in the sidebar; these links are on the page itself)."""
    suggested = PAGES[page].next
    with st.container(border=True, key=f"next_{page}"):
        st.markdown("**" + _("Where next") + "**")
        for name in suggested:
            p = PAGES[name]
            st.page_link(
                p.script, label=_("{page}: {offer}").format(page=_(p.title), offer=_(p.offer)), icon=p.icon
            )
        with st.container(horizontal=True, gap="small", key=f"all_pages_{page}"):
            for name, p in PAGES.items():
                if name != page and name not in suggested:
                    st.page_link(p.script, label=_(p.title), icon=p.icon)
